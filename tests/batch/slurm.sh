#!/bin/sh
# tests/batch/slurm.sh - a class graded through a real Slurm equals the same
# class graded by a local batch.
#
# Starts a single-node cluster from Debian's packages (slurm-wlm, munge)
# by hand, without systemd: munged with a generated key, slurmctld and
# slurmd with a generated slurm.conf (this machine's CPUs and memory, no
# gres), all in a temporary folder, all stopped and removed at the end,
# even on failure.  First, wherever it runs, --slurm-dry-run: two sbatch
# commands, the students' names in the roster file only.  Then, on the CPU
# emulator:
#   1. the class of run.sh (tests/batch/class.sh), a hanging submission and
#      a hostile name, graded by a local batch (2 workers);
#   2. the same class through ./grade --batch --slurm (3 students per task):
#      the merge job's gradebook has the same students, scores and statuses
#      as the local one, the same NAME.json files, and the hostile name ran
#      nothing;
#   3. one submission changed, the same command again: only the students
#      whose resume key changed (and those without a result) are submitted,
#      and the gradebook still agrees.
# Prints SKIPPED with the reason where it cannot run: no slurm-wlm or munge,
# not root (the daemons and the sandbox's users), or the daemons do not
# start.  Install here: apt-get install -y slurm-wlm munge.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/batch"
cd "$top" || exit 1
skip() { echo "slurm: SKIPPED: $*"; exit 0; }
make -s --no-print-directory grader batch || { echo "slurm: FAIL: make grader batch"; exit 1; }

# ---- 0. the dry run, wherever the test runs: the scripts hold no name ------------
dry=$(mktemp -d) || exit 1
mkdir -p "$dry/subs/\$(touch pwned)" "$dry/subs/bob"
./grade --batch "$dry/subs" lab1 --json-dir "$dry/out" --emu --slurm-dry-run --per-task 1 \
    -- --qos=class >"$dry/out.txt" 2>"$dry/err.txt"
rc=$?
if [ $rc -ne 0 ] || [ "$(grep -c '^sbatch --parsable' "$dry/out.txt")" != 2 ] ||
   ! grep -q -- '--array=0-1 --qos=class .*/task.sh ' "$dry/out.txt" ||
   ! grep -q -- '--dependency=afterany:JOBID --qos=class .*/merge.sh ' "$dry/out.txt" ||
   grep -q 'touch' "$dry/out.txt" "$dry"/out/slurm.*/*.sh ||
   ! grep -qa 'touch pwned' "$dry"/out/slurm.*/roster || [ -e "$dry/out/grades.csv" ]; then
    echo "FAIL --slurm-dry-run (exit $rc):"; cat "$dry/out.txt" "$dry/err.txt"
    rm -rf "$dry"; exit 1
fi
rm -rf "$dry"
echo "ok   --slurm-dry-run: two sbatch commands, the names in the roster only, nothing submitted"

for c in munged slurmctld slurmd sbatch squeue sinfo scancel; do
    command -v $c >/dev/null 2>&1 || skip "no $c (apt-get install -y slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || skip "not root (the test runs munged, slurmctld and slurmd itself)"
make -s --no-print-directory backend-check >/dev/null 2>&1 || skip "no GPU and no CPU emulator here"

tmp=$(mktemp -d) || exit 1
chmod 711 "$tmp" # the sandbox's users traverse it to their scratch
export SLURM_CONF="$tmp/slurm.conf"
# Stop what this test started, by the pids it wrote, and remove the folder.
stop_cluster() {
    scancel --quiet --user="$(id -un)" 2>/dev/null
    i=0
    while [ $i -lt 20 ] && [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 0.5; i=$((i + 1)); done
    for p in slurmd slurmctld munged; do
        [ -s "$tmp/$p.pid" ] && kill "$(cat "$tmp/$p.pid")" 2>/dev/null
    done
    for p in slurmd slurmctld munged; do
        i=0
        while [ -s "$tmp/$p.pid" ] && kill -0 "$(cat "$tmp/$p.pid")" 2>/dev/null && [ $i -lt 20 ]; do
            sleep 0.5; i=$((i + 1))
        done
    done
    rm -rf "$tmp"
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM HUP

# ---- the cluster ------------------------------------------------------------
mkdir -p "$tmp/munge" "$tmp/key" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/t"
chmod 755 "$tmp/munge" && chmod 700 "$tmp/key"
dd if=/dev/urandom of="$tmp/key/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/key/munge.key"
munged --force --key-file="$tmp/key/munge.key" --socket="$tmp/munge/sock" \
    --pid-file="$tmp/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/key/seed" ||
    skip "munged did not start: $(tail -2 "$tmp/log/munged.log" 2>/dev/null)"
node=$(hostname -s)
port=$((20000 + $$ % 20000))
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
ClusterName=kittest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=class Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -i && slurmd || skip "slurmctld or slurmd did not start: $(tail -3 "$tmp"/log/slurm*.log)"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -le 60 ] || skip "the node did not come up: $(sinfo -h 2>&1 | head -2; tail -3 "$tmp"/log/slurm*.log)"
    sleep 0.5
done
echo "== a single-node Slurm: $(sinfo -h -o '%P %D node(s) %c CPU(s) %t' | head -1), $(sinfo --version)"

fail=0
no() { echo "FAIL $*"; fail=1; }

# ---- the class ------------------------------------------------------------
sol=solutions/lab1-reduce-naive
subs="$tmp/subs"
. "$here/class.sh"
batch_class "$subs" "$tmp/pack" "$sol"
mkdir -p "$subs/hang"
sed 's/stride \*= 2)/stride *= 1)/' "$sol/reduce.cu" >"$subs/hang/reduce.cu"
# a name a shell would run: it must reach no script (the roster holds it)
mv "$subs/carol" "$subs/o'brien \$(touch \$HOME\${IFS}pwned); \`touch pwned\`"
# The hang's grading runs (spinning) until --limit, in each of the three
# gradings of the class: at 60 s they were ~180 of the test's ~200 s and as
# many CPU seconds, at 20 s ~60.  A lab 1 grading takes ~3 s on a quiet
# machine, 2-5 s with two at once on two cores beside other work (a load of
# 3), 8.2 s at the worst seen (beside the spinning hang, under that load), so
# 12 s still leaves every other student room.  What it gives up: margin.  A
# grading slowed past 12 s reads as a timeout, and the test then fails (its
# gradebook shows that student's 0); it cannot pass a hang as graded.
opts="lab1 --emu --limit 12"

# ---- 1. locally ---------------------------------------------------------------
t0=$(date +%s)
TMPDIR="$tmp/t" ./grade --batch "$subs" $opts --jobs 2 --json-dir "$tmp/local" \
    >"$tmp/local.log" 2>&1 || no "local batch exited $?"
echo "== local batch, 2 workers: $(($(date +%s) - t0)) s"
cat "$tmp/local.log"
# the five correct students graded in full (none cut off by --limit), so a
# too short limit fails here even where both gradebooks cut off the same one
python3 - "$tmp/local/grades.csv" <<'PY' || no "a correct student was not graded 80 locally (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
good = [r for r in rows if r["student"] in ("alice", "dave", "erin", "smith, jo") or
        r["student"].startswith("o'brien")]
bad = [r["student"] for r in good if (float(r["total"]), r["status"]) != (80.0, "graded")]
if bad or len(good) != 5:
    print("  correct students: %d of 5 found, not graded 80: %s" % (len(good), ", ".join(bad)))
    sys.exit(1)
PY

# ---- 2. through Slurm ----------------------------------------------------------
# Submit, then wait for the merge job to leave the queue; its id from "watch: squeue -j A,M".
submit() {
    (cd "$tmp" && TMPDIR="$tmp/t" "$top/grade" --batch "$subs" $opts --slurm --per-task 3 \
        --json-dir "$tmp/slurm") >"$tmp/$1.log" 2>&1 || no "$1: ./grade --slurm exited $?"
    cat "$tmp/$1.log"
    jobs=$(sed -n 's/.*watch: squeue -j \([0-9,]*\).*/\1/p' "$tmp/$1.log")
    [ -n "$jobs" ] || { no "$1: no jobs submitted"; return; }
    i=0
    while [ -n "$(squeue -h -j "$jobs" 2>/dev/null)" ]; do
        i=$((i + 1))
        [ $i -le 600 ] || { no "$1: jobs $jobs still queued after 600 s"; squeue; return; }
        sleep 1
    done
}
# The two gradebooks side by side: the same students, totals and statuses.
same_book() {
    python3 - "$tmp/local/grades.csv" "$tmp/slurm/grades.csv" <<'PY'
import csv, sys
def book(p):
    return {r["student"]: (r["total"], r["status"]) for r in csv.DictReader(open(p, newline=""))}
a, b = book(sys.argv[1]), book(sys.argv[2])
print("  %-48s %-22s %s" % ("student", "local", "Slurm"))
for s in sorted(set(a) | set(b)):
    cell = lambda r: "%s %s" % r if r else "(absent)"
    print("  %-48s %-22s %s%s" % (s, cell(a.get(s)), cell(b.get(s)),
                                  "" if a.get(s) == b.get(s) else "   <- differs"))
sys.exit(a != b or len(a) != 11)
PY
}
t0=$(date +%s)
submit slurm1
echo "== through Slurm, 3 students per task: $(($(date +%s) - t0)) s"
state=$(ls -d "$tmp"/slurm/slurm.* | head -1)
for f in "$state"/task-*.out "$state"/merge.out; do echo "-- ${f#"$tmp"/}"; cat "$f"; done
same_book || no "the Slurm gradebook differs from the local one (above)"
(cd "$tmp/local" && ls *.json) >"$tmp/local.json.list"
(cd "$tmp/slurm" && ls *.json) >"$tmp/slurm.json.list"
cmp -s "$tmp/local.json.list" "$tmp/slurm.json.list" || no "different NAME.json files"
grep -q '^hang,0,.*,timeout,' "$tmp/slurm/grades.csv" || no "hang: not a timeout"
left=$(find "$tmp" "$top" "$HOME" -maxdepth 3 -name pwned 2>/dev/null)
[ -z "$left" ] || no "a hostile name ran: $left"
[ -z "$(find "$tmp" -name evil)" ] || no "an evil member was extracted"
[ $fail -eq 0 ] && echo "ok   the Slurm gradebook equals the local one (11 students: scores, statuses, JSON files)"

# ---- 3. again, one submission changed ----------------------------------------------------
echo "// resubmitted" >>"$subs/alice/reduce.cu"
submit slurm2
grep -q "4 to grade, 7 already graded" "$tmp/slurm2.log" ||
    no "the second run did not submit exactly alice, hang, mallory and trudy"
grep -q "alice: graded again: submission changed" "$tmp/slurm2.log" || no "alice's change not named"
same_book || no "the second Slurm gradebook differs from the local one (above)"
[ $fail -eq 0 ] && echo "ok   a second run submits only what changed (and what has no result)"

[ $fail -eq 0 ] && echo "slurm: passed" || echo "slurm: FAILED"
exit $fail
