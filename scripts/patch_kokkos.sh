#!/usr/bin/env bash
# Applies the project's compatibility patches to a Kokkos source tree. The
# patches are keyed to the Kokkos version: scripts/patches/kokkos-<version>.sh
# (version as X.Y.ZZ, e.g. 3.4.01, 4.6.01) holds those that version needs;
# a version without such a file is built as it is.
#
# Usage: scripts/patch_kokkos.sh <kokkos source dir>               apply them
#        scripts/patch_kokkos.sh --version <kokkos source dir>     print X.Y.ZZ
#        scripts/patch_kokkos.sh --patch-file <kokkos source dir>  print the patch
#                                   file for that version (nothing if none)
# <kokkos source dir> is the directory with Kokkos' top CMakeLists.txt and
# core/ (a release tarball's top directory, or Trilinos' packages/kokkos).
set -euo pipefail
patches_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/patches

mode=apply
case "${1:-}" in
  --version) mode=version; shift ;;
  --patch-file) mode=patch-file; shift ;;
esac
k=${1:?usage: patch_kokkos.sh [--version|--patch-file] <kokkos source dir>}

fail() { echo "patch_kokkos.sh: $*" >&2; exit 1; }

# Kokkos' version, from its top CMakeLists.txt (3.4: "set(Kokkos_VERSION_PATCH 01)",
# 4.x: "set(Kokkos_VERSION_PATCH 1)"), normalized to X.Y.ZZ.
[ -f "$k/CMakeLists.txt" ] && [ -d "$k/core/src" ] || fail "$k is not a Kokkos source tree (no CMakeLists.txt and core/src)"
field() { sed -n "s/^[[:space:]]*[sS][eE][tT](Kokkos_VERSION_$1[[:space:]]\{1,\}\([0-9]\{1,\}\)).*/\1/p" "$k/CMakeLists.txt" | head -1; }
major=$(field MAJOR); minor=$(field MINOR); patch=$(field PATCH)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] || fail "cannot read Kokkos_VERSION_{MAJOR,MINOR,PATCH} from $k/CMakeLists.txt"
version=$(printf '%d.%d.%02d' "$((10#$major))" "$((10#$minor))" "$((10#$patch))")
patch_file=$patches_dir/kokkos-$version.sh

case $mode in
  version) echo "$version"; exit 0 ;;
  patch-file) [ -f "$patch_file" ] && echo "$patch_file"; exit 0 ;;
esac

if [ -f "$patch_file" ]; then
  bash "$patch_file" "$k"
  echo "patch_kokkos.sh: Kokkos $version at $k patched ($(basename "$patch_file"))"
else
  echo "patch_kokkos.sh: no patches for Kokkos $version; building it as it is"
fi
