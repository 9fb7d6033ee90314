#!/bin/sh
# headers.sh - only the emulator's headers are read (common/emu/README.md,
# "Headers").  Three checks, each of which can fail:
#   1. dependencies: `emu-nvcc -M` of programs that include every CUDA
#      header teaching code includes lists no file outside the emulator's
#      include folder, the test's folder and the C/C++ library's folders
#      (/usr/include, /usr/lib/gcc): no system CUDA folder, no
#      /usr/local/include (which links into the toolkit on CUDA machines);
#      the programs build and print what they should.
#   2. refusals, made machine-independent with a fake toolkit: a header
#      reached through a folder that links into a toolkit, or through
#      CPATH, stops the build; cuRAND stops with one line naming the
#      emulator.
#   3. hidden folders: if user namespaces work (unshare -rm), the programs
#      are built and run again with an empty folder mounted over
#      /usr/local/include and every /usr/local/cuda*; else SKIPPED.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
nvcc=$top/common/emu/emu-nvcc
inc=$(cd common/emu/include && pwd -P)
src=$top/tests/emu/headers
fail=0
no() { echo "FAIL headers: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. What the compile reads, and that the programs work.
for f in includes.cu host.cpp; do
    "$nvcc" -M "$src/$f" >"$tmp/$f.d" || { no "emu-nvcc -M $f failed"; continue; }
    tr -s ' \\' '\n\n' <"$tmp/$f.d" | sed -n '2,$p' | grep -v '^$' >"$tmp/$f.list"
    [ -s "$tmp/$f.list" ] || no "emu-nvcc -M $f listed no file"
    grep -q "^$inc/cuda_runtime.h\$" "$tmp/$f.list" || no "$f: the emulator's cuda_runtime.h is not among its dependencies"
    while read -r dep; do
        real=$(readlink -f "$dep")
        case "$real" in
            "$inc"/*|"$src"/*|/usr/include/*|/usr/lib/gcc/*) ;;
            *) no "$f reads $dep ($real), outside the emulator's and the C library's headers" ;;
        esac
        case "$real" in */cuda*/include/*|*/targets/*-linux/include/*)
            no "$f reads the system CUDA header $dep ($real)" ;;
        esac
    done <"$tmp/$f.list"
done
"$nvcc" -o "$tmp/includes" "$src/includes.cu" && "$tmp/includes" >"$tmp/out" 2>&1 &&
    grep -q '^headers ok: 496 0 1$' "$tmp/out" || no "includes.cu did not build or print 'headers ok: 496 0 1': $(cat "$tmp/out" 2>/dev/null)"
"$nvcc" -o "$tmp/host" "$src/host.cpp" && "$tmp/host" >"$tmp/out" 2>&1 &&
    grep -q '^host ok: 1 device$' "$tmp/out" || no "host.cpp did not build or print 'host ok: 1 device'"

# 2. Refusals.  A fake toolkit: an include folder with cuda_runtime_api.h,
# reached through a plain folder that links into it (as /usr/local/include
# links into /usr/local/cuda/include), and through CPATH.
mkdir -p "$tmp/fake-cuda/include" "$tmp/local-include"
: >"$tmp/fake-cuda/include/cuda_runtime_api.h"
echo 'int fake_toolkit_header;' >"$tmp/fake-cuda/include/cuda_fake_extra.h"
ln -s "$tmp/fake-cuda/include/cuda_fake_extra.h" "$tmp/local-include/cuda_fake_extra.h"
"$nvcc" -I "$tmp/local-include" -o "$tmp/fake" "$src/uses_fake.cu" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "uses_fake.cu:3 includes <cuda_fake_extra.h>, which the emulator does not provide; g++ found the system CUDA toolkit's copy" "$tmp/err" ||
    no "a toolkit header reached through a linked folder was not refused (status $st): $(cat "$tmp/err")"
CPATH="$tmp/fake-cuda/include" "$nvcc" -o "$tmp/fake" "$src/uses_fake.cu" 2>"$tmp/err"
st=$?
[ $st -ne 0 ] && grep -q "cuda_fake_extra.h: No such file" "$tmp/err" ||
    no "CPATH's toolkit folder was searched (status $st): $(cat "$tmp/err")"
"$nvcc" -o "$tmp/curand" "$src/uses_curand.cu" 2>"$tmp/err"
st=$?
[ $st -ne 0 ] && grep -q "uses_curand.cu:2" "$tmp/err" && grep -q "cuemu: cuRAND (curand_kernel.h) is not supported by the CPU emulator" "$tmp/err" ||
    no "cuRAND was not refused with a line naming the emulator (status $st): $(cat "$tmp/err")"

# 3. The same builds with the system's CUDA folders hidden.
if unshare -rm true 2>/dev/null; then
    mkdir -p "$tmp/empty"
    unshare -rm sh -c '
        for d in /usr/local/include /usr/local/cuda*; do
            [ -d "$d" ] && { mount --bind "$1/empty" "$d" || exit 3; }
        done
        "$2" -o "$1/hidden" "$3/includes.cu" && "$1/hidden" | grep -q "^headers ok: 496 0 1$" || exit 4
        "$2" -o "$1/hidden-host" "$3/host.cpp" && "$1/hidden-host" | grep -q "^host ok" || exit 5
    ' hidden "$tmp" "$nvcc" "$src" >"$tmp/err" 2>&1 || no "with the system CUDA folders hidden: $(cat "$tmp/err")"
else
    echo "SKIPPED headers: hidden-folder builds (unshare -rm is not permitted here); checks 1-2 ran"
fi

[ $fail -eq 0 ] && echo "PASS headers: only the emulator's headers are read"
exit $fail
