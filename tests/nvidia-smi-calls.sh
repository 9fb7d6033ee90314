#!/bin/sh
# nvidia-smi-calls.sh - a grading asks nvidia-smi once (the Makefile's
# print-config: one call for whether there is a GPU, one for its compute
# capability) and passes the answers to every later make.  nvidia-smi
# takes a good fraction of a second, and the kit's build lock is held
# around the prebuild and reference makes: asked there, it made a
# batch's gradings queue behind each other.  A fake nvidia-smi first on
# PATH counts the calls of one emulated grading.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check EMU=1 >/dev/null 2>&1; then
    echo "nvidia-smi-calls: SKIPPED: no CPU emulator here"
    exit 0
fi
make -s --no-print-directory grader || { echo "nvidia-smi-calls: FAIL: make grader"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cat >"$tmp/nvidia-smi" <<EOS
#!/bin/sh
echo "\$*" >>"$tmp/calls"
exit 9
EOS
chmod 755 "$tmp/nvidia-smi"
: >"$tmp/calls"
chmod 666 "$tmp/calls"
PATH="$tmp:$PATH" ./build/grader lab1 --submission solutions/lab1-reduce-naive --emu \
    >"$tmp/grade.log" 2>&1 || { echo "nvidia-smi-calls: FAIL: the grading failed"; cat "$tmp/grade.log"; exit 1; }
calls=$(wc -l <"$tmp/calls")
if [ "$calls" -eq 2 ] && grep -q "^TOTAL 80.0 / 80.0" "$tmp/grade.log"; then
    echo "ok   nvidia-smi asked twice in one grading (print-config), never again"
else
    echo "FAIL nvidia-smi asked $calls times in one grading (expected 2):"; cat "$tmp/calls"
    exit 1
fi
