#!/bin/sh
# copy-count-link.sh - a graded GPU binary counts the lab's copies
# (common/copy_count.h): the submission's objects call only the counting
# versions, the harness still calls cudart's own.  Needs nvcc, not a GPU.
#   sh tests/copy-count-link.sh [LAB-FOLDER]   (default solutions/lab7-*)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v nvcc >/dev/null || { echo "copy-count-link: SKIPPED: no nvcc"; exit 0; }
src=${1:-$(ls -d solutions/lab7-* | head -n1)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s EMU=0 prebuild >/dev/null
make -s EMU=0 bin SRC_DIR="$src" BIN="$tmp/lab" >/dev/null
raw=$(nm "$tmp"/lab.objs/*.o | grep -E ' U cudaMem(cpy|set)' || true)
[ -z "$raw" ] || { echo "copy-count-link: FAIL: uncounted calls left: $raw"; exit 1; }
nm "$tmp"/lab.objs/*.o | grep -q ' U kit_counted_' ||
    { echo "copy-count-link: FAIL: no counted call in $src (it copies or fills)"; exit 1; }
nm "$tmp/lab" | grep -q ' T copy_count_end$' ||
    { echo "copy-count-link: FAIL: copy_count.cu not linked"; exit 1; }
echo "copy-count-link: ok ($src)"
