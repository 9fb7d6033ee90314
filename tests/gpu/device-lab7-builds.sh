#!/bin/bash
# device-lab7-builds.sh - on a GPU machine: variants of lab 7's reference
# side by side, each built from its own source with its own flags, timed at
# 2^28 int32 (order 1, order 8, 8-tuples, and EXTRA's cases) next to copy and
# CUB in the same process, plus the median of a --graded run, which times a
# build whose result is wrong on purpose (a look-back replaced by zero, to
# see what the look-back costs).  It took over from the copies kept with the
# transcripts of 2026-11-24 (h200-lab7-pipeline, h200-lab7-stream).
#   BUILDS="tag source flags...;tag source flags..."
#   NCU="tag ...": ncu's issue, pipe, stall and DRAM metrics of those builds'
#                  order-8 and order-1 kernels (2^26)
#   EXTRA="decode_-t_int64_--order_8 ...": more cases, _ for spaces
#   NOTIME="tag ...": builds made but not timed here (probed copies, run by
#                  the caller from /tmp/device-lab7-builds-bin)
set -u
OUT=${OUT:-/tmp/device-lab7-builds}; mkdir -p "$OUT"; BIN=/tmp/device-lab7-builds-bin; mkdir -p $BIN
cd "$(dirname "$0")/../.."
nvidia-smi -L 2>/dev/null || { echo "device-lab7-builds: SKIPPED: no NVIDIA GPU here"; exit 0; }
: "${BUILDS:?device-lab7-builds: set BUILDS=\"tag source flags...;...\"}"
make -s -j16 build/gpu/ref/lab7 >/dev/null || exit 1
objs=$(make -B -n build/gpu/ref/lab7 2>/dev/null | tail -1 | grep -o 'build/[^ ]*\.o' | tr '\n' ' ')
build() { local tag=$1 src=$2; shift 2
  nvcc -O3 -std=c++17 -arch=sm_90 -I common -I solutions/lab7-scan-at-work -Xptxas -v "$@" \
     -o "$BIN/lab7-$tag" "$src" $objs >"$OUT/build-$tag.log" 2>&1 || { echo "build $tag failed"; tail -20 "$OUT/build-$tag.log"; }
  for k in IjLi8ELi1E IjLi1ELi1E IjLi1ELi8E; do
  echo "$tag $k: $(grep -A4 "entry function '_Z13decode_kernel$k" "$OUT/build-$tag.log" | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"; done
}
IFS=';' read -ra bs <<<"$BUILDS"
for s in "${bs[@]}"; do build $s & done; wait
M=gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio
for t in ${NCU:-}; do for v in "--order 8" "--order 1"; do echo "== ncu $t $v (2^26)"
  ncu --metrics $M -k regex:decode_kernel --launch-count 1 $BIN/lab7-$t --variant decode $v -n 2^26 -r 0 2>&1 | grep -E "^\s+(gpu|sm|smsp|l1tex|dram)__" | sed 's/  */ /g'
done; done
for s in "${bs[@]}"; do set -- $s; b=$BIN/lab7-$1; [ -x $b ] || continue
  case " ${NOTIME:-} " in *" $1 "*) continue ;; esac
  for v in "decode" "decode --order 8" "decode --tuple 8" ${EXTRA:-}; do
    v=${v//_/ }
    r=$($b --variant $v -n 2^28 -r 30 -w 5 --no-raw 2>&1 | tr '\n' ' ' | sed -e 's/  */ /g' -e 's/on NVIDIA [^C]*//' | cut -c1-400)
    $b --variant $v -n 2^28 -r 30 -w 5 --graded --out $BIN/g --no-raw >/dev/null 2>&1
    g=$(grep -o '"median_ms": *[0-9.]*' $BIN/g.json | head -1)
    printf '%-10s %-22s %s | graded %s\n' "$1" "$v" "$r" "$g"
  done
done
cd $OUT && tar czf builds.tgz build-*.log && rm -f build-*.log
