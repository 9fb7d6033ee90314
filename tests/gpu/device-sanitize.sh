#!/bin/bash
# device-sanitize.sh - `./grade --sanitize` on a GPU machine: every lab's
# reference must come out CLEAN under memcheck, racecheck, synccheck and
# initcheck with nothing taken off; then planted bugs, each a one-line sed
# of a reference, must be caught by the tool named (SANITIZER on that
# tool's line).  Two classes no compute-sanitizer tool reports on an H200
# (measured 2026-11-23: every tool CLEAN): a __syncthreads() inside a
# divergent branch and a shuffle whose mask leaves out lanes that execute
# it.  For those (tool "emu") the emulator's grading must report EMU-ERROR.
# Prints "ok"/"FAIL" per check; the reports go to $OUT.
set -u
OUT=${OUT:-/tmp/device-sanitize}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j8 grader prebuild >/dev/null || exit 1
fail=0
for d in solutions/lab*/; do
    lab=$(basename "$d" | cut -d- -f1)
    ./grade "$lab" --submission "$d" --sanitize --no-speed >"$OUT/$lab-solution.txt" 2>&1
    clean=$(grep -c "^  CLEAN " "$OUT/$lab-solution.txt")
    if grep -q "taken off\|^  SANITIZER\|sanitize: not run" "$OUT/$lab-solution.txt" || [ "$clean" -eq 0 ]; then
        echo "FAIL $lab reference: $clean CLEAN lines"; grep -A1 "SANITIZER\|not run" "$OUT/$lab-solution.txt" | head -6; fail=1
    else
        echo "ok   $lab reference: $clean tool runs CLEAN"
    fi
done
tmp=$(mktemp -d); chmod 755 "$tmp"
while IFS='|' read -r name lab file edit tool; do
    mkdir -p "$tmp/$name"
    sed "$edit" solutions/$lab-*/"$file" >"$tmp/$name/$file"
    if cmp -s "$tmp/$name/$file" solutions/$lab-*/"$file"; then echo "FAIL $name: the edit changed nothing"; fail=1; continue; fi
    chmod -R a+rX "$tmp/$name"
    if [ "$tool" = emu ]; then # no compute-sanitizer tool sees it: the emulator must
        ./grade "$lab" --submission "$tmp/$name" --emu --no-speed >"$OUT/$name.txt" 2>&1
        if grep -q "^  EMU-ERROR " "$OUT/$name.txt"; then
            echo "ok   $name: the emulator found it: $(grep -m1 -A1 "^  EMU-ERROR " "$OUT/$name.txt" | tail -1 | cut -c1-260)"
        else
            echo "FAIL $name: no EMU-ERROR"; grep -E "^  [A-Z-]{4,} " "$OUT/$name.txt" | grep -v "^  PASS" | head -5; fail=1
        fi
        continue
    fi
    ./grade "$lab" --submission "$tmp/$name" --sanitize --no-speed >"$OUT/$name.txt" 2>&1
    if grep -q "^  SANITIZER     $tool" "$OUT/$name.txt"; then
        echo "ok   $name: $tool found it: $(grep -m1 "      $tool on" "$OUT/$name.txt" | cut -c1-220)"
    else
        echo "FAIL $name: no $tool finding"; grep -E "^  (CLEAN|SANITIZER|SKIPPED)|      (memcheck|racecheck|synccheck|initcheck) on" "$OUT/$name.txt" | head -8; fail=1
    fi
done <<'CASES'
oob-read|lab1|reduce.cu|s/partial\[2 \* t\] = 2 \* t < n ? in\[2 \* t\] : Op::identity();/partial[2 * t] = in[2 * t];/|memcheck
oob-write|lab3|scan.cu|/TODO BEGIN 3/,/TODO END 3/s/if (i < n)/if (1)/|memcheck
ks-no-read-barrier|lab3|scan.cu|0,/^        __syncthreads();/s///|racecheck
bk-read-before-write|lab4|scan.cu|0,/^        __syncthreads();/s///|racecheck
scan-reads-out|lab3|scan.cu|s/xy\[t\] = i < n ? in\[i\] : Op::identity();/xy[t] = i < n ? out[i] : Op::identity();/|initcheck
divergent-barrier|lab2|reduce.cu|0,/^        __syncthreads();/s//        if (t < stride) __syncthreads();/|emu
shfl-half-mask|lab2|reduce.cu|s/__shfl_down_sync(FULL_MASK, v, offset)/__shfl_down_sync(0x0000ffffu, v, offset)/|emu
CASES
rm -rf "$tmp"
echo "device-sanitize: $([ $fail = 0 ] && echo passed || echo FAILED)"
exit $fail
