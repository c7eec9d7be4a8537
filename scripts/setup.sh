#!/usr/bin/env bash
# One-stop setup for EbisuKokkos on a Debian machine:
#   1. installs the Debian packages the build needs (only those missing),
#   2. gets a Kokkos source: by default the Trilinos 13.2.0 source through a
#      *private* apt configuration (the machine's own apt setup is never
#      touched), i.e. Kokkos 3.4.01 (and, with --with-kernels, KokkosKernels
#      3.4.01 for the benchmarks' SpMV baseline); with
#      --kokkos-source, the Kokkos (>= 3.4) in the given directory or tarball,
#   3. applies the patches that Kokkos version needs (scripts/patch_kokkos.sh,
#      scripts/patches/kokkos-<version>.sh: CUDA 13, Hopper) and builds it into
#      a git-ignored prefix, with the deprecated code of every Kokkos major
#      release the version has an option for turned off,
#   4. configures and builds EbisuKokkos against that prefix (the CPU build with
#      MPI: Debian's Open MPI, for the distributed parallel_stencil and its tests).
#
# Re-running is cheap: each Kokkos build is cached under a key made of its
# version, source, variant, architecture, C++ standard and patch hash.
#
# Usage: scripts/setup.sh [--cuda | --tsan] [--arch HOPPER90|AMPERE80|...] [--with-kernels] [--portable]
#                         [--kokkos-source DIR|TARBALL] [--cxx-std 17|20]
#                         [--deps-only] [--build-dir DIR] [--target T]...
#                         [-- CMAKE_ARGS...]
#   --tsan           a ThreadSanitizer build (clang, OpenMP + Serial, into
#                    build-tsan/): Kokkos and the project with -fsanitize=thread,
#                    and the test `thread_safety_openmp` (unit_tests/CMakeLists.txt)
#   --kokkos-source  build this Kokkos instead of Trilinos' 3.4.01 (a release
#                    tarball such as kokkos-4.6.01.tar.gz, its extracted top
#                    directory, or a Trilinos tree)
#   --with-kernels   also build KokkosKernels (Trilinos' 3.4.01 only): the
#                    benchmarks then time a KokkosKernels SpMV of the stencil
#                    as one more (slow) plain baseline
#   --cxx-std        C++ standard for Kokkos and the project (default: 20 for
#                    Kokkos >= 4.6.99, i.e. develop and 5.x, else 17)
#   --portable       the CPU build without -march=native (by default it is built
#                    for this machine's vector units: the host paths' hand-vectorised
#                    rows need AVX, and the compiler's loops gain from AVX-512)
#   --target         build only this EbisuKokkos target (repeatable; default: all)
#   -- CMAKE_ARGS    extra arguments for EbisuKokkos' cmake configure, e.g.
#                    -DEbisuKokkos_ENABLE_BENCHMARKS=OFF
# Environment: EBISU_DEPS_DIR  where sources and Kokkos installs live
#                              (default: <repo>/.deps; CI points it outside the clone)
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir=${EBISU_DEPS_DIR:-$repo_dir/.deps}
variant=openmp
arch=HOPPER90
with_kernels=0
deps_only=0
build_dir=""
kokkos_source=""
cxx_std=""
portable=0
project_args=()
targets=()
jobs=$(nproc)

while [ $# -gt 0 ]; do
  case "$1" in
    --cuda) variant=cuda ;;
    --tsan) variant=tsan ;;
    --arch) arch=$2; shift ;;
    --with-kernels) with_kernels=1 ;;
    --no-kernels) with_kernels=0 ;;  # the default since KokkosKernels became opt-in
    --kokkos-source) kokkos_source=$2; shift ;;
    --cxx-std) cxx_std=$2; shift ;;
    --portable) portable=1 ;;
    --deps-only) deps_only=1 ;;
    --build-dir) build_dir=$2; shift ;;
    --target) targets+=("$2"); shift ;;
    --) shift; project_args=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "setup.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[setup] %s\n' "$*"; }
die() { printf 'setup.sh: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
patch_script=$repo_dir/scripts/patch_kokkos.sh

# ---------------------------------------------------------------- packages --
needed=(cmake g++ make ninja-build libgtest-dev libpng-dev python3-matplotlib
        ca-certificates dpkg-dev xz-utils)
# ThreadSanitizer builds: clang and LLVM's OpenMP runtime with its Archer tool
# (libarcher tells ThreadSanitizer about OpenMP's synchronisation).
[ "$variant" = tsan ] && needed+=(clang libomp-dev)
# The CPU build includes the distributed parallel_stencil and its tests (Open MPI).
[ "$variant" = openmp ] && needed+=(libopenmpi-dev openmpi-bin)
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ------------------------------------------------------------ Kokkos source --
# Sets kokkos_in (the Kokkos tree to copy), kernels_in (KokkosKernels or ""),
# source_tag (part of the cache key naming the source).
if [ -z "$kokkos_source" ]; then
  # Trilinos 13.2.0 from Debian: Kokkos and KokkosKernels 3.4.01.
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
  kokkos_in=$src_root/packages/kokkos
  kernels_in=$src_root/packages/kokkos-kernels
  source_tag=""
else
  # A user-given Kokkos: a tarball is extracted once (keyed by its hash), a
  # directory is used in place (keyed by a hash of its files).
  [ -e "$kokkos_source" ] || die "--kokkos-source $kokkos_source does not exist"
  find_kokkos_root() {  # the directory holding Kokkos' top CMakeLists.txt and core/src
    local d
    for d in "$1" "$1"/* "$1"/packages/kokkos "$1"/*/packages/kokkos; do
      if [ -f "$d/CMakeLists.txt" ] && [ -d "$d/core/src" ]; then (cd "$d" && pwd); return 0; fi
    done
    return 1
  }
  if [ -f "$kokkos_source" ]; then
    source_tag=$(sha256sum "$kokkos_source" | cut -c1-10)
    extracted=$deps_dir/src/kokkos-source-$source_tag
    if [ ! -f "$extracted/.extracted" ]; then
      log "extracting $kokkos_source"
      rm -rf "$extracted" && mkdir -p "$extracted"
      tar -xf "$kokkos_source" -C "$extracted"
      touch "$extracted/.extracted"
    fi
    kokkos_in=$(find_kokkos_root "$extracted") || die "no Kokkos source tree in $kokkos_source"
  else
    kokkos_in=$(find_kokkos_root "$kokkos_source") || die "no Kokkos source tree in $kokkos_source"
    source_tag=$(cd "$kokkos_in" && find . -type f -not -path './.git/*' -not -path './build*' -print0 |
                 LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-10)
  fi
  kernels_in=""
  if [ "$with_kernels" = 1 ]; then
    log "--kokkos-source: KokkosKernels is not built (the benchmarks' SpMV baseline is left out)"
    with_kernels=0
  fi
fi

kokkos_version=$(bash "$patch_script" --version "$kokkos_in")
if [ "$(printf '%s\n' 3.4.00 "$kokkos_version" | sort -V | head -1)" != 3.4.00 ]; then
  die "Kokkos $kokkos_version at $kokkos_in is older than 3.4, which EbisuKokkos needs"
fi
newer_than() { [ "$(printf '%s\n' "$1" "$kokkos_version" | sort -V | tail -1)" = "$kokkos_version" ] && [ "$1" != "$kokkos_version" ]; }
at_least() { [ "$1" = "$kokkos_version" ] || newer_than "$1"; }
if [ -z "$cxx_std" ]; then
  # Kokkos 5 needs C++20; the develop branch towards it (4.6.99) is built the same way.
  if at_least 4.6.99; then cxx_std=20; else cxx_std=17; fi
fi

# ------------------------------------------------------ Kokkos (patched) --
patch_file=$(bash "$patch_script" --patch-file "$kokkos_in")
if [ -n "$patch_file" ]; then patch_hash=$(sha256sum "$patch_file" | cut -c1-12); else patch_hash=unpatched; fi
key=kokkos-$kokkos_version
[ -n "$source_tag" ] && key=$key-src$source_tag
key=$key-$variant
[ "$variant" = cuda ] && key=$key-$arch
[ "$cxx_std" != 17 ] && key=$key-cxx$cxx_std
[ "$with_kernels" = 1 ] && key=$key-kk
key=$key-$patch_hash
kokkos_src=$deps_dir/src/$key
kokkos_prefix=$deps_dir/install/$key

# Kokkos_ENABLE_DEPRECATED_CODE_<N>=OFF for every major release this Kokkos
# has such an option for (4.x and develop: _4; 3.4 has none), so that what the
# next release removes cannot compile here.
deprecated_off=()
for n in $(grep -ihoE 'kokkos_enable_option\(\s*DEPRECATED_CODE_[0-9]+' "$kokkos_in/cmake/kokkos_enable_options.cmake" 2>/dev/null |
           grep -oE '[0-9]+$' | sort -u); do
  deprecated_off+=("-DKokkos_ENABLE_DEPRECATED_CODE_$n=OFF")
done

if [ ! -f "$kokkos_prefix/.complete" ]; then
  log "preparing patched Kokkos source for $key"
  rm -rf "$kokkos_src" && mkdir -p "$kokkos_src"
  cp -r "$kokkos_in" "$kokkos_src/kokkos"
  [ -n "$kernels_in" ] && cp -r "$kernels_in" "$kokkos_src/kokkos-kernels"
  bash "$patch_script" "$kokkos_src/kokkos"

  common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD="$cxx_std" -DBUILD_SHARED_LIBS=OFF
          -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$kokkos_prefix")
  if [ "$variant" = cuda ]; then
    export PATH=/usr/local/cuda/bin:$PATH
    cxx=$kokkos_src/kokkos/bin/nvcc_wrapper
    kokkos_opts=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_SERIAL=ON "-DKokkos_ARCH_$arch=ON")
    # Device lambdas are an option before Kokkos 4 (always on, and the option deprecated, since).
    at_least 4.0.00 || kokkos_opts+=(-DKokkos_ENABLE_CUDA_LAMBDA=ON)
    kk_exec=(-DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_INST_MEMSPACE_CUDAUVMSPACE=OFF
             -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF)
  elif [ "$variant" = tsan ]; then
    cxx=clang++
    kokkos_opts=(-DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON "-DCMAKE_CXX_FLAGS=-fsanitize=thread -g")
    kk_exec=(-DKokkosKernels_INST_EXECSPACE_SERIAL=OFF)
  else
    cxx=g++
    kokkos_opts=(-DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON)
    kk_exec=(-DKokkosKernels_INST_EXECSPACE_SERIAL=OFF)
  fi
  log "building Kokkos $kokkos_version ($variant, C++$cxx_std${deprecated_off:+, ${deprecated_off[*]#-D}}) into $kokkos_prefix"
  cmake -S "$kokkos_src/kokkos" -B "$kokkos_src/build-kokkos" "${common[@]}" \
        -DCMAKE_CXX_COMPILER="$cxx" "${kokkos_opts[@]}" ${deprecated_off[@]+"${deprecated_off[@]}"} \
        > "$kokkos_src/kokkos-configure.log" || die "Kokkos configure failed; see $kokkos_src/kokkos-configure.log"
  cmake --build "$kokkos_src/build-kokkos" -j "$jobs" > "$kokkos_src/kokkos-build.log" ||
    die "Kokkos build failed; see $kokkos_src/kokkos-build.log"
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

# Lets other scripts (and the README's commands) find the prefix without
# repeating the key logic: the last setup of each variant, and of each version.
mkdir -p "$deps_dir"
echo "$kokkos_prefix" > "$deps_dir/kokkos-$variant.prefix"
echo "$kokkos_prefix" > "$deps_dir/kokkos-$kokkos_version-$variant.prefix"
log "Kokkos $kokkos_version prefix: $kokkos_prefix"
[ "$deps_only" = 1 ] && exit 0

# ------------------------------------------------------------ EbisuKokkos --
if [ "$variant" = cuda ]; then
  build_dir=${build_dir:-$repo_dir/build-cuda}
  cfg=(-DCMAKE_CXX_COMPILER="$kokkos_src/kokkos/bin/nvcc_wrapper")
  [ -x "$kokkos_prefix/bin/nvcc_wrapper" ] && cfg=(-DCMAKE_CXX_COMPILER="$kokkos_prefix/bin/nvcc_wrapper")
elif [ "$variant" = tsan ]; then
  build_dir=${build_dir:-$repo_dir/build-tsan}
  cfg=(-DCMAKE_CXX_COMPILER=clang++ -DEbisuKokkos_ENABLE_THREAD_SANITIZER=ON)
else
  build_dir=${build_dir:-$repo_dir/build}
  cfg=(-DCMAKE_CXX_COMPILER=g++ -DEbisuKokkos_ENABLE_MPI=ON)
  [ "$portable" = 0 ] && cfg+=(-DCMAKE_CXX_FLAGS=-march=native)
fi
log "configuring and building EbisuKokkos in $build_dir"
cmake -S "$repo_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_prefix" -DCMAKE_PREFIX_PATH="$kokkos_prefix" "${cfg[@]}" \
      -DEbisuKokkos_ENABLE_TESTS=ON -DEbisuKokkos_ENABLE_EXAMPLES=ON -DEbisuKokkos_ENABLE_BENCHMARKS=ON \
      ${project_args[@]+"${project_args[@]}"}
cmake --build "$build_dir" -j "$jobs" ${targets[@]+--target "${targets[@]}"}
log "done: build in $build_dir"
