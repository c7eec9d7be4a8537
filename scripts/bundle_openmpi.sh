#!/usr/bin/env bash
# Packs this machine's Open MPI runtime (Debian's openmpi-bin / libopenmpi3, as
# scripts/setup.sh installs them) with every shared library it needs that is not
# part of glibc into one relocatable tarball, for a machine that has no package
# registry (the GPU machines: perf_tests/run_mpi_scaling.sh unpacks it).
#
#   scripts/bundle_openmpi.sh OUT.tar.gz [PREFIX]
#
# With PREFIX: an Open MPI installed there instead (e.g. one built from Debian's
# source with CUDA support, whose shared-memory transport copies between GPUs of
# one machine directly; see docs/distributed.md).
#
# Layout inside: bin/ (mpirun, orted), lib/ (libmpi and its dependencies),
# lib/openmpi3/ (Open MPI's components), share/openmpi/ (its help texts), and
# env.sh, which sets OPAL_PREFIX and the OPAL_* directories so that the
# unpacked tree is used wherever it lies.
set -euo pipefail
out=${1:?usage: scripts/bundle_openmpi.sh OUT.tar.gz [PREFIX]}
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
prefix=${2:-}
info=ompi_info
[ -n "$prefix" ] && info=$prefix/bin/ompi_info
command -v "$info" > /dev/null || { echo "bundle_openmpi.sh: Open MPI not found (scripts/setup.sh installs it)" >&2; exit 1; }
path_of() { "$info" --path "$1" --parsable | sed -n "s/^path:$1://p"; }
libdir=$(path_of libdir)
pkglib=$(path_of pkglibdir)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib/openmpi3" "$stage/share" "$stage/etc"
bindir=$(path_of bindir)
cp -L "$bindir/orterun" "$stage/bin/mpirun"
cp -L "$bindir/orted" "$stage/bin/orted"
cp -L "$bindir/ompi_info" "$stage/bin/ompi_info"
if compgen -G "$pkglib/*.so" > /dev/null; then cp -a "$pkglib/"*.so "$stage/lib/openmpi3/"; fi
cp -a "$(path_of pkgdatadir)" "$stage/share/"
# An Open MPI built with its internal PMIx (from source) keeps PMIx's components and help texts apart.
if [ -d "$libdir/pmix" ]; then
  mkdir -p "$stage/lib/pmix"
  cp -a "$libdir/pmix/"*.so "$stage/lib/pmix/"
  [ -d "$(dirname "$(path_of pkgdatadir)")/pmix" ] && cp -a "$(dirname "$(path_of pkgdatadir)")/pmix" "$stage/share/"
fi
sysconf=$(path_of sysconfdir)
[ -d "$sysconf" ] && mkdir -p "$stage/etc/openmpi" && cp -a "$sysconf/." "$stage/etc/openmpi/"
# The dependency closure of everything above, glibc's own libraries excepted.
glibc='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libresolv|libutil)\.so'
todo=("$stage/bin/mpirun" "$stage/bin/orted" "$libdir"/libmpi.so "$libdir"/libmpi_cxx.so)
compgen -G "$stage/lib/openmpi3/*.so" > /dev/null && todo+=("$stage/lib/openmpi3/"*.so)
compgen -G "$stage/lib/pmix/*.so" > /dev/null && todo+=("$stage/lib/pmix/"*.so)
declare -A seen
while [ ${#todo[@]} -gt 0 ]; do
  f=${todo[0]}
  todo=("${todo[@]:1}")
  while read -r name path; do
    [ -n "$path" ] && [ -f "$path" ] || continue
    [[ $name =~ $glibc ]] && continue
    [ -n "${seen[$name]:-}" ] && continue
    seen[$name]=1
    cp -L "$path" "$stage/lib/$name"
    todo+=("$path")
  done < <(ldd "$f" 2>/dev/null | awk '/=>/ { print $1, $3 }')
done
# the libraries programs link by name (their sonames), beside their dependencies
for l in libmpi libmpi_cxx; do
  soname=$(objdump -p "$libdir/$l.so" | awk '/SONAME/ { print $2 }')
  cp -L "$libdir/$l.so" "$stage/lib/$soname"
done
cat > "$stage/env.sh" <<'EOF'
# source this: the unpacked Open MPI is used from wherever it lies
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$here OPAL_EXEC_PREFIX=$here OPAL_BINDIR=$here/bin OPAL_LIBDIR=$here/lib
export OPAL_PKGLIBDIR=$here/lib/openmpi3 OPAL_DATADIR=$here/share OPAL_PKGDATADIR=$here/share/openmpi
export OPAL_SYSCONFDIR=$here/etc/openmpi
export PMIX_INSTALL_PREFIX=$here PMIX_MCA_mca_base_component_path=$here/lib/pmix
export PATH=$here/bin:$PATH LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
EOF
tar -C "$stage" -czf "$out" .
echo "bundle_openmpi.sh: $(du -h "$out" | cut -f1) in $out ($(ls "$stage/lib" | wc -l) libraries)"
