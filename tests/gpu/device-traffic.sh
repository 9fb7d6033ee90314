#!/bin/bash
# device-traffic.sh - on a GPU machine: the global traffic the emulator
# counts (make profile EMU=1: "global bytes / element", and the line "your
# scan moved X n elements") beside ncu's DRAM bytes per element for the
# same references (make profile on the GPU, with the design's minimum under
# each table), for labs 2, 5 and 6; and make draw on a machine with a GPU
# (it must still build for the emulator and draw).  Idempotent: everything
# goes under $OUT (default /tmp/device-traffic); summary.txt has one line
# per lab and variant: GPU DRAM bytes/element, emulator bytes/element.
# Exit 1 when a step failed.
set -u
OUT=${OUT:-/tmp/device-traffic}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.." || exit 1
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
fail=0
for lab in lab2 lab5 lab6; do
    make --no-print-directory profile LAB=$lab N=2^24 >"$OUT/$lab-gpu.txt" 2>&1 ||
        echo "note: make profile LAB=$lab (GPU) exited $? (a skeleton's column fails; see $lab-gpu.txt)"
    make --no-print-directory profile LAB=$lab EMU=1 >"$OUT/$lab-emu.txt" 2>&1 ||
        echo "note: make profile LAB=$lab EMU=1 exited $?"
done
# one line per variant: the reference's column of each table's traffic row
python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import re, sys, os
out = sys.argv[1]
def rows(path, label):
    got, variant = {}, None
    if not os.path.exists(path):
        return got
    for line in open(path):
        m = re.match(r"== (lab\d) (\S+),", line)
        if m:
            variant = m.group(2)
        if variant and line.strip().startswith(label):
            cols = re.split(r"\s{2,}", line.strip())  # label, yours, reference, meaning
            got[variant] = cols[2] if len(cols) > 3 else "-"
    return got
for lab in ("lab2", "lab5", "lab6"):
    gpu = rows(os.path.join(out, lab + "-gpu.txt"), "DRAM bytes / element")
    emu = rows(os.path.join(out, lab + "-emu.txt"), "global bytes / element")
    for v in sorted(set(gpu) | set(emu)):
        print("%-5s %-18s GPU DRAM bytes/element %-6s emulator global bytes/element %s"
              % (lab, v, gpu.get(v, "-"), emu.get(v, "-")))
PY
make --no-print-directory draw LAB=lab3 >"$OUT/draw-lab3.txt" 2>&1 && cp build/draw/lab3.png "$OUT/" \
    || { echo "FAIL: make draw LAB=lab3 on a GPU machine (see draw-lab3.txt)"; fail=1; }
grep -q "global bytes / element" "$OUT/lab5-emu.txt" || { echo "FAIL: no emulator traffic row"; fail=1; }
grep -q "this design moves at least" "$OUT/lab5-gpu.txt" || { echo "FAIL: no design line on the GPU"; fail=1; }
exit $fail
