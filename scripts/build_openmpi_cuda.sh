#!/usr/bin/env bash
# Builds Debian bookworm's Open MPI (4.1.4) from its source package with CUDA
# support into PREFIX, for GPU runs of the distributed parallel_stencil: its
# shared-memory transport (smcuda) then copies between the GPUs of one machine
# through CUDA IPC (NVLink where present) instead of staging through the host.
# Then pack it for a GPU machine with scripts/bundle_openmpi.sh OUT.tar.gz PREFIX.
#
#   scripts/build_openmpi_cuda.sh [PREFIX] [CUDA_HOME]
#
# Defaults: PREFIX .deps/install/openmpi-4.1.4-cuda, CUDA_HOME /usr/local/cuda.
# Needs nvcc's headers only (the CUDA driver is opened at run time); ~35 min on
# 2 cores. The source comes through a private apt configuration (deb-src of
# the machine's own Debian mirror), as scripts/setup.sh fetches Trilinos.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/.deps/install/openmpi-4.1.4-cuda}
cuda=${2:-/usr/local/cuda}
deps=$root/.deps
[ -f "$cuda/include/cuda.h" ] || { echo "build_openmpi_cuda.sh: no $cuda/include/cuda.h" >&2; exit 1; }
if [ -x "$prefix/bin/ompi_info" ] && "$prefix/bin/ompi_info" --parsable --all | grep -q 'mpi_built_with_cuda_support:value:true'; then
  echo "build_openmpi_cuda.sh: $prefix already holds a CUDA-aware Open MPI"; exit 0
fi
apt_dir=$deps/apt src=$deps/src/openmpi
mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$src"
sys_sources=/etc/apt/sources.list.d/debian.sources
uri=$(awk '/^URIs:/ {print $2; exit}' "$sys_sources" 2>/dev/null || true)
keyring=$(awk '/^Signed-By:/ {print $2; exit}' "$sys_sources" 2>/dev/null || true)
cat > "$apt_dir/sources.list.d/ebisu-src.sources" <<EOF
Types: deb-src
URIs: ${uri:-http://deb.debian.org/debian}
Suites: bookworm
Components: main
Signed-By: ${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}
EOF
apt_opts=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$apt_dir/sources.list.d"
          -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache")
if ! compgen -G "$src/openmpi_*.orig.tar.*" > /dev/null; then
  apt-get "${apt_opts[@]}" update -qq
  (cd "$src" && apt-get "${apt_opts[@]}" source --download-only -qq openmpi)
fi
tarball=$(ls "$src"/openmpi_*.orig.tar.* | head -1)
build=$src/build && rm -rf "$build" && mkdir -p "$build"
tar -xf "$tarball" -C "$build" --strip-components=1
cd "$build"
# CUDA support needs dlopen (libcuda is opened at run time); PMIx, hwloc and libevent built in, so
# that the bundle needs nothing of Debian's; no Fortran, no OpenSHMEM, no network transports.
./configure --prefix="$prefix" --with-cuda="$cuda" --disable-mpi-fortran --disable-oshmem --enable-mpi-cxx \
  --with-hwloc=internal --with-libevent=internal --with-pmix=internal --without-verbs --without-ucx \
  --without-ofi --without-psm2 > configure.log 2>&1 || { tail -20 configure.log; exit 1; }
make -j"$(nproc)" > make.log 2>&1 || { tail -30 make.log; exit 1; }
make install > install.log 2>&1
"$prefix/bin/ompi_info" --parsable --all | grep 'mpi_built_with_cuda_support:value'
echo "build_openmpi_cuda.sh: installed in $prefix; pack it with scripts/bundle_openmpi.sh OUT.tar.gz $prefix"
