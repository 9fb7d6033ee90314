#!/bin/bash
# device-profile.sh - `make profile LAB=labN` for labs 1-6 on a GPU machine:
# the students' skeletons (labs/) next to the reference solutions, every
# variant, at the default n (2^24).  Each lab runs on its own, so one that
# fails does not stop the others; a summary line per lab at the end.  First
# checks that ncu knows every metric of profile_metrics.py on this GPU.
# Output: transcripts and ncu's CSV reports under $OUT (LABS="lab4 lab6"
# picks labs; N=2^20 another size).  Exit 1 when a lab failed.
set -u
OUT=${OUT:-/tmp/device-profile}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
ncu=$(python3 -c 'import sys; sys.path.insert(0, "common/tools"); import profile_lab as p; print(p.find_ncu() or "")')
echo "ncu: ${ncu:-not found}"; [ -n "$ncu" ] && "$ncu" --version | tail -1

# The metric names, against what ncu lists for this GPU (ncu --query-metrics
# prints base names: the part before the first "." of a name).
if [ -n "$ncu" ]; then
    "$ncu" --query-metrics >"$OUT/query-metrics.txt" 2>&1
    python3 - "$OUT/query-metrics.txt" <<'PY' | tee "$OUT/metric-names.txt"
import sys
sys.path.insert(0, "common/tools")
import profile_metrics as pm
known = {line.split()[0] for line in open(sys.argv[1]) if line.strip()}
names = sorted({m for lab in list(pm.LABS) + ["lab7"] for m in pm.metrics_for(lab)})
missing = [m for m in names if m.split(".")[0] not in known]
print("metric names: %d used, %d unknown to ncu here%s" % (len(names), len(missing),
      "".join("\n  unknown: " + m for m in missing)))
PY
fi

make -s -j16 solutions >/dev/null 2>&1 || echo "make solutions failed"
declare -A verdict
for lab in ${LABS:-lab1 lab2 lab3 lab4 lab5 lab6}; do
    echo "=== make profile LAB=$lab"
    start=$(date +%s)
    make --no-print-directory profile LAB=$lab ${N:+N=$N} PROFILE_SAVE="$OUT/csv" \
        >"$OUT/$lab.txt" 2>&1
    rc=$?
    grep -v '^nvcc\|^/usr/local/cuda' "$OUT/$lab.txt"
    verdict[$lab]="exit $rc, $(( $(date +%s) - start )) s"
done
echo "=== summary"
for lab in ${LABS:-lab1 lab2 lab3 lab4 lab5 lab6}; do
    case ${verdict[$lab]} in "exit 0,"*) s=ok ;; *) s=FAILED ;; esac
    printf '%-6s %-7s %s\n' "$lab" "$s" "${verdict[$lab]}"
done | tee "$OUT/summary.txt"
! grep -q FAILED "$OUT/summary.txt"
