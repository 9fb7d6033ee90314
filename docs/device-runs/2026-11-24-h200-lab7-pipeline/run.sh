#!/bin/bash
# experiment: BUILDS="tag src flags...;..." ; times order1/order8/tuple8 at 2^28 int32
set -u
OUT=${OUT:-/tmp/exp}; mkdir -p "$OUT"
dpkg -i --force-all .debs/*.deb > /dev/null 2>&1; ldconfig; export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi -L
make -s -j16 build/gpu/ref/lab7 >/dev/null || exit 1
objs=$(make -B -n build/gpu/ref/lab7 2>/dev/null | tail -1 | grep -o 'build/[^ ]*\.o' | tr '\n' ' ')
build() { local tag=$1 src=$2; shift 2
  nvcc -O3 -std=c++17 -arch=sm_90 -I common -I solutions/lab7-scan-at-work -Xptxas -v "$@" \
     -o "$OUT/lab7-$tag" "$src" $objs >"$OUT/build-$tag.log" 2>&1 || { echo "build $tag failed"; tail -20 "$OUT/build-$tag.log"; }
  echo "$tag: $(grep -A4 "entry function '_Z13decode_kernelIjLi8ELi1E" "$OUT/build-$tag.log" | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"
}
IFS=';' read -ra bs <<<"$BUILDS"
for s in "${bs[@]}"; do build $s & done; wait
for s in "${bs[@]}"; do set -- $s; b=$OUT/lab7-$1; [ -x $b ] || continue
  for v in "decode" "decode --order 8" "decode --tuple 8" ${EXTRA:-}; do
    v=${v//_/ }
    r=$($b --variant $v -n 2^28 -r 30 -w 5 --no-raw 2>&1 | tr '\n' ' ' | sed -e 's/  */ /g' -e 's/on NVIDIA [^C]*//' | cut -c1-400)
    $b --variant $v -n 2^28 -r 30 -w 5 --graded --out $OUT/g --no-raw >/dev/null 2>&1
    g=$(grep -o '"median_ms": *[0-9.]*' $OUT/g.json | head -1)
    printf '%-10s %-22s %s | graded %s\n' "$1" "$v" "$r" "$g"
  done
done
