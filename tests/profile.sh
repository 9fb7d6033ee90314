#!/bin/sh
# profile.sh - make profile's parts that run without a GPU: ncu's CSV read
# and the side-by-side table printed from the hand-made samples in
# tests/data/ (ncu-*.csv; the expected tables profile-lab4.txt and
# profile-lab5.txt), the plain refusal without a GPU (profile_lab.py exits
# 3, make fails) or without ncu (exits 4), and the whole run through a fake
# nvidia-smi and a fake ncu that hand back the samples: ncu's command line
# (kernel filter, one launch, -r 0), the table, a wrong result's note, and
# ncu's permission error (exits 5).  The real ncu runs in
# tests/gpu/device-profile.sh.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
fail=0
no() { echo "FAIL profile: $*"; fail=1; }
tool=common/tools/profile_lab.py
data=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 tests/profile_csv.py || fail=1

# The table from saved reports, against the expected text.
for lab in lab4 lab5; do
    v=three-phase; [ $lab = lab5 ] && v=hierarchical
    python3 $tool --lab $lab --variant $v --from-csv $data/ncu-$lab-yours.csv \
        $data/ncu-$lab-ref.csv >"$tmp/$lab.txt" 2>&1 || no "--from-csv $lab exited $?"
    diff -u $data/profile-$lab.txt "$tmp/$lab.txt" >"$tmp/diff" ||
        { cat "$tmp/diff"; no "$lab table"; }
done

# No GPU: a clear refusal with its own status, never a pass.
if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "profile: no-GPU refusal SKIPPED: this machine has a GPU"
else
    python3 $tool --preflight --lab lab3 >"$tmp/out" 2>&1
    rc=$?
    [ $rc = 3 ] || no "no GPU: profile_lab.py exited $rc, not 3"
    grep -q "no NVIDIA GPU here" "$tmp/out" || no "no GPU: message missing"
    make -s --no-print-directory profile LAB=lab3 >"$tmp/out" 2>&1 &&
        no "make profile passed without a GPU"
    grep -q "no NVIDIA GPU here" "$tmp/out" || no "make profile without a GPU: message missing"
fi

# A fake GPU, and fake binaries that a fake ncu "profiles" by copying the
# sample named after them into ncu's --log-file.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "GPU 0: Fake GPU (UUID: GPU-0)"\n' >"$tmp/bin/nvidia-smi"
cat >"$tmp/bin/ncu" <<'SH'
#!/bin/sh
echo "$@" >"$FAKE/args.$$"
while [ $# -gt 1 ]; do
    case $1 in --log-file) log=$2; shift ;; --csv) ;; --*) shift ;; *) break ;; esac
    shift
done
[ "${FAKE_MODE:-}" = perm ] && { echo "==ERROR== ERR_NVGPUCTRPERM - no permission"; exit 1; }
cp "$FAKE/$(basename "$1").csv" "$log"
[ "${FAKE_MODE:-}" = wrong ] && echo "lab4 three-phase int32 sum n=16777216: self-check FAIL"
exit 0
SH
printf '#!/bin/sh\nexit 0\n' >"$tmp/yours"
cp "$tmp/yours" "$tmp/ref"
chmod +x "$tmp/bin/nvidia-smi" "$tmp/bin/ncu" "$tmp/yours" "$tmp/ref"
cp $data/ncu-lab4-yours.csv "$tmp/yours.csv"
cp $data/ncu-lab4-ref.csv "$tmp/ref.csv"
run() { PATH="$tmp/bin:$PATH" FAKE="$tmp" python3 $tool --lab lab4 --yours "$tmp/yours" \
    --ref "$tmp/ref" --variant three-phase "$@" >"$tmp/out" 2>&1; }

NCU=/nonexistent/ncu run; rc=$?
[ $rc = 4 ] || no "no ncu: exited $rc, not 4"
grep -q "ncu (Nsight Compute) not found at NCU=/nonexistent/ncu" "$tmp/out" || no "no ncu: message"

NCU="$tmp/bin/ncu" run; rc=$?
[ $rc = 0 ] || { cat "$tmp/out"; no "fake ncu: exited $rc"; }
head -n "$(wc -l <$data/profile-lab4.txt)" "$tmp/out" | diff -u $data/profile-lab4.txt - >"$tmp/diff" ||
    { cat "$tmp/diff"; no "fake ncu: table"; }
args=$(cat "$tmp"/args.*)
for want in "--kernel-name regex:^(brent_kung_scan|three_phase_scan)$" "--launch-count 64" \
    "--variant three-phase -n 16777216 --dtype int32 -r 0 -w 0" \
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" "--print-units base"; do
    case $args in *"$want"*) ;; *) no "fake ncu: its command line lacks '$want'" ;; esac
done

NCU="$tmp/bin/ncu" FAKE_MODE=wrong run
grep -q "note: your result is wrong" "$tmp/out" || no "a wrong result is not noted"

NCU="$tmp/bin/ncu" FAKE_MODE=perm run; rc=$?
[ $rc = 5 ] || no "ERR_NVGPUCTRPERM: exited $rc, not 5"
grep -q "NVreg_RestrictProfilingToAdminUsers" "$tmp/out" || no "ERR_NVGPUCTRPERM: message"

[ $fail = 0 ] &&
    echo "ok   profile: ncu CSV to table (hand-made samples), no GPU, no ncu, a fake ncu end to end"
exit $fail
