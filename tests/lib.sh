# lib.sh - what the kit's shell tests share; sourced from the kit's top
# folder (". tests/lib.sh").

# need_emu NAME: go on only where this machine builds labs for the CPU
# emulator; elsewhere say "NAME: SKIPPED" and end the script with 0.  A
# check that cannot run says so and never counts as passed: make test's
# last line points at every SKIPPED above it.
# Lab 7 built and run so that its look-back reaches past its first window
# on the emulator (tests/lab7-lookback.sh, tests/missing-barrier.sh): with
# the reference's tiles and a few workers the nearest P always lies in it.
LAB7_DEEP_DEFINES="-DTILE_THREADS=64" # tiles of 2 warps
LAB7_DEEP_WORKERS=64                  # CUEMU_THREADS: many tiles at once
# Lab 6 likewise (tests/lab6-lookback.sh): tiles of 2 warps of one row,
# 256 int32 elements, so that many tiles are in flight at once.
LAB6_DEEP_DEFINES="-DTILE_THREADS=64 -DROWS=1"
LAB6_DEEP_WORKERS=64

# left_running DIR: the students' programs still running from gradings
# whose scratch folders are DIR/grade.XXXXXX (their binary box/student),
# one line each; other gradings on the machine keep theirs elsewhere.
left_running() {
    ps -e -o pid=,stat=,args= |
        awk -v s="$1/grade." '$2 !~ /^Z/ && index($0, s) && /\/box\/student/'
}

need_emu() {
    if [ "$(make -s --no-print-directory print-backend 2>/dev/null)" != emu ] ||
       ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
        echo "$1: SKIPPED: needs the CPU emulator backend"
        exit 0
    fi
}

# deep_build TEST DIR DEFINES: the lab sources in DIR built into DIR/lab for
# the emulator with LAB_DEFINES=DEFINES (the look-back tests' small tiles),
# the log in DIR/build.log; says "FAIL TEST: ..." and returns 1 when it
# does not build.
deep_build() {
    make -s --no-print-directory bin SRC_DIR="$2" BIN="$2/lab" LAB_DEFINES="$3" \
        >"$2/build.log" 2>&1 || { echo "FAIL $1: $2 does not build"; tail -5 "$2/build.log"; return 1; }
}

# deep_runs DIR WORKERS FIXED ARGS...: DIR/lab run on WORKERS emulator
# workers under the random:1 and reverse schedules, once per ARGS (after
# the FIXED options), each checking itself; prints the first failing run
# (and returns 1) or nothing.
deep_runs() {
    dir=$1 workers=$2 fixed=$3
    shift 3
    for sched in random:1 reverse; do
        for args in "$@"; do
            CUEMU_THREADS=$workers CUEMU_SCHEDULE=$sched CUEMU_TIMEOUT=60 "$dir/lab" $fixed $args \
                -r 0 -q --timeout 120 >"$dir/run.log" 2>&1 ||
                { echo "$args under CUEMU_SCHEDULE=$sched: exit $?"; return 1; }
        done
    done
    return 0
}
