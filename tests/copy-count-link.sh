#!/bin/sh
# copy-count-link.sh - a graded GPU binary counts the lab's copies
# (common/copy_count.h): the submission's objects call only the counting
# versions, the harness still calls cudart's own; and the graded link works
# where the grader builds, in a view of the kit without the harness's nor
# copy_count.cu's sources (grader/isolation.c's isolation_kit_view; a rule
# that names a hidden source stops that build).  Needs nvcc, not a GPU.
# It builds lab 1, the smallest (lab 7's two GPU builds took ~18 of the
# step's ~20 CPU seconds): lab 1 calls cudaMemcpy, so its objects show the
# renaming at work; the calls the other solutions make (cudaMemsetAsync) are
# checked by name against common/graded/copy_count.syms instead of by nm on
# their objects, which gives up only a build of them through objcopy.  It
# builds what `make bin` links, not all of `make prebuild` as the grader
# does: prebuild adds only cub_baseline.o (CUB, ~19 CPU seconds for sm_90),
# which no graded binary links (bin links cub_baseline-none.o).
#   sh tests/copy-count-link.sh [LAB-FOLDER]   (default solutions/lab1-*)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v nvcc >/dev/null || { echo "copy-count-link: SKIPPED: no nvcc"; exit 0; }
src=${1:-$(ls -d solutions/lab1-* | head -n1)}
# every cudaMemcpy* / cudaMemset* a solution calls has its counting version
for f in solutions/*/*.cu; do
    for c in $(grep -o 'cudaMem\(cpy\|set\)[A-Za-z0-9]*(' "$f" | tr -d '(' | sort -u); do
        grep -q "^$c kit_counted_$c\$" common/graded/copy_count.syms ||
            { echo "copy-count-link: FAIL: $f calls $c, which copy_count.syms does not rename"; exit 1; }
    done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s EMU=0 bin SRC_DIR="$src" BIN="$tmp/lab" >/dev/null
raw=$(nm "$tmp"/lab.objs/*.o | grep -E ' U cudaMem(cpy|set)' || true)
[ -z "$raw" ] || { echo "copy-count-link: FAIL: uncounted calls left: $raw"; exit 1; }
nm "$tmp"/lab.objs/*.o | grep -q ' U kit_counted_' ||
    { echo "copy-count-link: FAIL: no counted call in $src (it copies or fills)"; exit 1; }
nm "$tmp/lab" | grep -q ' T copy_count_end$' ||
    { echo "copy-count-link: FAIL: copy_count.cu not linked"; exit 1; }
# The kit as the grader's build view shows it: the Makefile, common's
# headers, the symbol list and the tools' check, the prebuilt objects.
view=$tmp/kit
mkdir -p "$view/common/kinds" "$view/common/graded" "$view/common/tools" "$view/build/gpu"
cp Makefile "$view/"
cp common/*.h common/*.cuh "$view/common/"
cp common/kinds/*.h "$view/common/kinds/"
cp common/graded/*.syms "$view/common/graded/"
cp common/tools/no_algorithms.sh "$view/common/tools/"
cp -r build/host "$view/build/"
cp -r build/gpu/common "$view/build/gpu/"
cp -r "$src" "$tmp/submission"
make -s -C "$view" EMU=0 bin SRC_DIR="$tmp/submission" BIN="$tmp/viewed" >"$tmp/view.log" 2>&1 ||
    { echo "copy-count-link: FAIL: the graded link fails in the grader's view of the kit:"
      cat "$tmp/view.log"; exit 1; }
echo "copy-count-link: ok ($src, and in the grader's view)"
