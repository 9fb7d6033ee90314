#!/bin/sh
# profile.sh - make profile's parts that run without a GPU: ncu's CSV read
# and the side-by-side table printed from the hand-made samples in
# tests/data/ (ncu-*.csv; the expected tables profile-lab4.txt and
# profile-lab5.txt), the plain refusal of the GPU build without a GPU
# (profile_lab.py exits 3) or without ncu (exits 4), the emulator's counted
# tables (make profile EMU=1, labs 1 and 3), and the whole run through a
# fake nvidia-smi and a fake ncu that hand back the samples: ncu's command
# line (kernel filter, one launch, -r 0), the table, a wrong result's note,
# a variant that launched no kernel (exits 7), and ncu's permission error
# (exits 5).  The real ncu runs in
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

# No GPU for the GPU build (EMU=0): a clear refusal with its own status.
if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "profile: no-GPU refusal SKIPPED: this machine has a GPU"
else
    python3 $tool --preflight --lab lab3 --backend gpu >"$tmp/out" 2>&1
    rc=$?
    [ $rc = 3 ] || no "no GPU: profile_lab.py exited $rc, not 3"
    grep -q "no NVIDIA GPU here" "$tmp/out" || no "no GPU: message missing"
fi

# The emulator's counts (EMU=1 works with or without a GPU): labs 1 and 3
# through make, the reference's lessons in the table, the skeleton's
# hierarchical variant saying plainly that it launched no kernel (exit 7,
# the reference's column printed all the same).
make -s --no-print-directory profile LAB=lab1 EMU=1 >"$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] || { tail -20 "$tmp/out"; no "make profile LAB=lab1 EMU=1 (skeleton): make exited $rc, not 2"; }
grep -q "make profile: your hierarchical launched no kernel of lab1" "$tmp/out" ||
    no "emulator: the skeleton's missing launch is not said plainly"
grep -q "Error 7" "$tmp/out" || no "emulator: a missing launch does not exit 7"
grep -Eq "^  divergent branches / block +- +96\.0 " "$tmp/out" ||
    { cat "$tmp/out"; no "emulator: lab 1's reference column (96 divergent per block) missing"; }
grep -q "CPU emulator's exact counts" "$tmp/out" || no "emulator: table title"
grep -q "Not on the emulator: kernel time" "$tmp/out" || no "emulator: what needs a GPU is not said"
make -s --no-print-directory profile LAB=lab3 EMU=1 >"$tmp/out" 2>&1 ||
    { tail -20 "$tmp/out"; no "make profile LAB=lab3 EMU=1 failed"; }
grep -Eq "^  barriers / block +0\.0 +20\.0 " "$tmp/out" || no "emulator: lab 3's barriers"
grep -Eq "^  wavefronts / shared load +- +1\.00 " "$tmp/out" || no "emulator: lab 3's wavefronts"
[ -x build/count/ref/lab3 ] || no "emulator: no counted build in build/count/"

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
[ "${FAKE_MODE:-}" = nokernel ] && [ "$(basename "$1")" = yours ] &&
    { echo "==WARNING== No kernels were profiled."; exit 0; }
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

# Your variant launched no kernel (the skeleton): said plainly, exit 7, and
# the reference's column still printed.
NCU="$tmp/bin/ncu" FAKE_MODE=nokernel run; rc=$?
[ $rc = 7 ] || { cat "$tmp/out"; no "no kernel launched: exited $rc, not 7"; }
grep -q "your three-phase launched no kernel of lab4" "$tmp/out" || no "no kernel: message"
grep -q "The reference's column is printed all the same" "$tmp/out" || no "no kernel: reference"
grep -Eq "^  bank conflicts \(ld \+ st\) +- +6291456 " "$tmp/out" ||
    { cat "$tmp/out"; no "no kernel: the reference's column is missing"; }

NCU="$tmp/bin/ncu" FAKE_MODE=perm run; rc=$?
[ $rc = 5 ] || no "ERR_NVGPUCTRPERM: exited $rc, not 5"
grep -q "NVreg_RestrictProfilingToAdminUsers" "$tmp/out" || no "ERR_NVGPUCTRPERM: message"

[ $fail = 0 ] &&
    echo "ok   profile: ncu CSV to table (hand-made samples), no GPU, no ncu, a fake ncu end to end"
exit $fail
