#!/usr/bin/env bash
# One-stop setup for EbisuKokkos on a Debian machine:
#   1. installs the Debian packages the build needs (only those missing),
#   2. fetches the Trilinos 13.2.0 source through a *private* apt configuration
#      (the machine's own apt setup is never touched) and extracts Kokkos 3.4.01
#      and KokkosKernels 3.4.01 from it,
#   3. applies the project's compatibility patches (CUDA 13, Hopper; see
#      scripts/patch_kokkos.sh) and builds them into a git-ignored prefix,
#   4. configures and builds EbisuKokkos against that prefix.
#
# Re-running is cheap: each Kokkos build is cached under a key made of its
# version, variant, architecture and patch hash.
#
# Usage: scripts/setup.sh [--cuda] [--arch HOPPER90|AMPERE80|...] [--no-kernels]
#                         [--deps-only] [--build-dir DIR]
# Environment: EBISU_DEPS_DIR  where sources and Kokkos installs live
#                              (default: <repo>/.deps; CI points it outside the clone)
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir=${EBISU_DEPS_DIR:-$repo_dir/.deps}
variant=openmp
arch=HOPPER90
with_kernels=1
deps_only=0
build_dir=""
jobs=$(nproc)

while [ $# -gt 0 ]; do
  case "$1" in
    --cuda) variant=cuda ;;
    --arch) arch=$2; shift ;;
    --no-kernels) with_kernels=0 ;;
    --deps-only) deps_only=1 ;;
    --build-dir) build_dir=$2; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# ---------------------------------------------------------------- packages --
needed=(cmake g++ make ninja-build libgtest-dev libpng-dev python3-matplotlib
        ca-certificates dpkg-dev xz-utils)
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ------------------------------------------------------- Trilinos source --
kokkos_version=3.4.01
trilinos_version=13.2.0
src_root=$deps_dir/src/trilinos-$trilinos_version
if [ ! -f "$src_root/.extracted" ]; then
  apt_dir=$deps_dir/apt
  mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$deps_dir/src"
  # Copy the mirror and keyring from the machine's own configuration into a
  # private deb-src entry; apt reads it only through the -o options below.
  sys_sources=/etc/apt/sources.list.d/debian.sources
  uri=$(awk '/^URIs:/ {print $2; exit}' "$sys_sources" 2>/dev/null || true)
  keyring=$(awk '/^Signed-By:/ {print $2; exit}' "$sys_sources" 2>/dev/null || true)
  uri=${uri:-http://deb.debian.org/debian}
  keyring=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}
  cat > "$apt_dir/sources.list.d/ebisu-src.sources" <<EOF
Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: $keyring
EOF
  apt_opts=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$apt_dir/sources.list.d"
            -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache")
  tarball=$deps_dir/src/trilinos_$trilinos_version.orig.tar.gz
  if [ ! -f "$tarball" ]; then
    log "fetching the Trilinos $trilinos_version source (166 MB) with a private apt configuration"
    apt-get "${apt_opts[@]}" update -qq
    (cd "$deps_dir/src" && apt-get "${apt_opts[@]}" source --download-only -qq trilinos)
    ls "$deps_dir"/src/trilinos_${trilinos_version}*.orig.tar.gz >/dev/null
  fi
  log "extracting packages/kokkos and packages/kokkos-kernels"
  rm -rf "$src_root" && mkdir -p "$src_root"
  # (tar is cut off by head: keep pipefail from treating its SIGPIPE as a failure)
  top=$( (tar -tzf "$tarball" || true) | head -1 | cut -d/ -f1)
  tar -xzf "$tarball" -C "$src_root" --strip-components=1 \
      "$top/packages/kokkos" "$top/packages/kokkos-kernels"
  touch "$src_root/.extracted"
fi

# ------------------------------------------------------ Kokkos (patched) --
patch_script=$repo_dir/scripts/patch_kokkos.sh
patch_hash=$(sha256sum "$patch_script" | cut -c1-12)
key=kokkos-$kokkos_version-$variant
[ "$variant" = cuda ] && key=$key-$arch
[ "$with_kernels" = 1 ] && key=$key-kk
key=$key-$patch_hash
kokkos_src=$deps_dir/src/$key
kokkos_prefix=$deps_dir/install/$key

if [ ! -f "$kokkos_prefix/.complete" ]; then
  log "preparing patched Kokkos source for $key"
  rm -rf "$kokkos_src" && mkdir -p "$kokkos_src"
  cp -r "$src_root/packages/kokkos" "$src_root/packages/kokkos-kernels" "$kokkos_src/"
  bash "$patch_script" "$kokkos_src/kokkos"

  common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DBUILD_SHARED_LIBS=OFF
          -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$kokkos_prefix")
  if [ "$variant" = cuda ]; then
    export PATH=/usr/local/cuda/bin:$PATH
    cxx=$kokkos_src/kokkos/bin/nvcc_wrapper
    kokkos_opts=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ENABLE_SERIAL=ON
                 "-DKokkos_ARCH_$arch=ON")
    kk_exec=(-DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_INST_MEMSPACE_CUDAUVMSPACE=OFF
             -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF)
  else
    cxx=g++
    kokkos_opts=(-DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON)
    kk_exec=(-DKokkosKernels_INST_EXECSPACE_SERIAL=OFF)
  fi
  log "building Kokkos $kokkos_version ($variant) into $kokkos_prefix"
  cmake -S "$kokkos_src/kokkos" -B "$kokkos_src/build-kokkos" "${common[@]}" \
        -DCMAKE_CXX_COMPILER="$cxx" "${kokkos_opts[@]}" > "$kokkos_src/kokkos-configure.log"
  cmake --build "$kokkos_src/build-kokkos" -j "$jobs" > "$kokkos_src/kokkos-build.log"
  cmake --install "$kokkos_src/build-kokkos" > /dev/null
  touch "$kokkos_prefix/.kokkos-complete"
  if [ "$with_kernels" = 1 ]; then
    # ETI only for what the benchmarks use: double, int ordinals/offsets, LayoutLeft.
    log "building KokkosKernels $kokkos_version ($variant, restricted ETI; several minutes)"
    cmake -S "$kokkos_src/kokkos-kernels" -B "$kokkos_src/build-kernels" "${common[@]}" \
          -DCMAKE_CXX_COMPILER="$cxx" -DKokkos_ROOT="$kokkos_prefix" \
          -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_FLOAT=OFF \
          -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF \
          -DKokkosKernels_INST_ORDINAL_INT=ON -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
          -DKokkosKernels_INST_OFFSET_INT=ON -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
          -DKokkosKernels_INST_LAYOUTLEFT=ON -DKokkosKernels_INST_LAYOUTRIGHT=OFF \
          -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
          "${kk_exec[@]}" > "$kokkos_src/kernels-configure.log"
    cmake --build "$kokkos_src/build-kernels" -j "$jobs" > "$kokkos_src/kernels-build.log"
    cmake --install "$kokkos_src/build-kernels" > /dev/null
  fi
  touch "$kokkos_prefix/.complete"
  rm -rf "$kokkos_src/build-kokkos" "$kokkos_src/build-kernels"
else
  log "using cached $key"
fi

# Lets other scripts (and the README's commands) find the prefix without repeating the key logic.
mkdir -p "$deps_dir"
echo "$kokkos_prefix" > "$deps_dir/kokkos-$variant.prefix"
log "Kokkos prefix: $kokkos_prefix"
[ "$deps_only" = 1 ] && exit 0

# ------------------------------------------------------------ EbisuKokkos --
if [ "$variant" = cuda ]; then
  build_dir=${build_dir:-$repo_dir/build-cuda}
  cfg=(-DCMAKE_CXX_COMPILER="$kokkos_src/kokkos/bin/nvcc_wrapper")
  [ -x "$kokkos_prefix/bin/nvcc_wrapper" ] && cfg=(-DCMAKE_CXX_COMPILER="$kokkos_prefix/bin/nvcc_wrapper")
else
  build_dir=${build_dir:-$repo_dir/build}
  cfg=(-DCMAKE_CXX_COMPILER=g++)
fi
log "configuring and building EbisuKokkos in $build_dir"
cmake -S "$repo_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_prefix" -DCMAKE_PREFIX_PATH="$kokkos_prefix" "${cfg[@]}" \
      -DEbisuKokkos_ENABLE_TESTS=ON -DEbisuKokkos_ENABLE_EXAMPLES=ON -DEbisuKokkos_ENABLE_BENCHMARKS=ON
cmake --build "$build_dir" -j "$jobs"
log "done: build in $build_dir"
