#!/bin/bash
# device-class.sh - on a GPU machine: a class of N (default 32) correct
# copies of a lab's solution and its skeleton, graded by ./grade --batch with
# the witness required, on 1 GPU and then on every GPU of the host (GPUS
# overrides the list, e.g. "1 2 4"), JOBS_PER_GPU workers per GPU (default
# 8).  For each: the wall-clock, the CSV, the batch's account line per GPU,
# and a check that every correct copy has full marks; with GRADE_TRACE=1
# also the witness gate's means (first in line, alone, shared after).
# LAB (default lab6).
# Reports under $OUT.
set -u
OUT=${OUT:-/tmp/device-class}
LAB=${LAB:-lab6}
N=${N:-32}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j16 grader batch prebuild >/dev/null || { echo "kit build failed"; exit 1; }
all=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' grader/suites/$LAB.suite)
cls=$(mktemp -d); chmod 711 "$cls"; mkdir "$cls/class"
for i in $(seq -w 1 "$N"); do cp -r "solutions/$dir" "$cls/class/correct-$i"; done
cp -r "labs/$dir" "$cls/class/skeleton"
chmod -R a+rX "$cls"
./grade "$LAB" --submission "solutions/$dir" >/dev/null 2>&1 # the reference built, its ratio kept
for g in ${GPUS:-1 $all}; do
    [ "$g" -le "$all" ] || { echo "$g GPUs: SKIPPED: the host has $all"; continue; }
    vis=$(seq -s, 0 $((g - 1)))
    s=$(date +%s.%N)
    CUDA_VISIBLE_DEVICES=$vis GRADE_WITNESS=require ./build/batch "$cls/class" "$LAB" \
        --jobs $((g * ${JOBS_PER_GPU:-8})) --redo --json-dir "$OUT/json-$g" \
        --csv "$OUT/grades-$g.csv" >"$OUT/batch-$g.txt" 2>&1
    wall=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    full=$(python3 - "$OUT/grades-$g.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ok = [r for r in rows if r["student"].startswith("correct-")]
print("%d of %d correct copies at full marks; skeleton %s" % (
    sum(float(r["total"]) >= float(r["max"]) - 1e-9 for r in ok), len(ok),
    next((r["total"] for r in rows if r["student"] == "skeleton"), "?")))
PY
)
    echo "$g GPU(s), $((g * ${JOBS_PER_GPU:-8})) workers: wall $wall s, $(awk -v w="$wall" -v n="$N" 'BEGIN { printf "%.2f", w / (n + 1) }') s a student; $full"
    grep -E "^batch:   GPU" "$OUT/batch-$g.txt"
    # with GRADE_TRACE=1: the witness gate's means over the correct copies
    cat "$OUT/json-$g"/correct-*.txt 2>/dev/null | sed -n 's/.*trace: witness gate: the program ran //p' |
        awk '{ r += $1; f += $6; a += $12; n++ }
             END { if (n) printf "witness gate: the program ran %.2f s: first in line %.2f s, alone %.2f s of it (means of %d)\n", r / n, f / n, a / n, n }'
done
rm -rf "$cls"
