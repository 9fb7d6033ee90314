#!/bin/bash
# device-witness-phases.sh - on a GPU machine: where ncu's start goes, to
# know how much of a witness run could leave the GPU's exclusive hold.
# ncu runs a reference binary on a speed case (--witness, as the grader's
# witness does) RUNS times (default 3); every line ncu prints is stamped
# with the seconds since ncu was started (tests/gpu/stamp.py), so the
# transcript shows: ncu's own start until "==PROF== Connected" (the
# target's CUDA initialised under the profiler), the first kernel
# profiled, "==PROF== Disconnected" (the target's exit) and ncu's end.
# Only what lies between the connection and the disconnection needs the
# GPU held alone.  LAB (lab6), ARGS (its first speed case), IDLE=1 also
# runs it while N_BUSY (8) busy loops load the cores, as in a batch.
set -u
cd "$(dirname "$0")/../.."
LAB=${LAB:-lab6}
ARGS=${ARGS:--v lookback-warp -n 2^26 -t int32}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s -j16 build/gpu/ref/$LAB >/dev/null || { echo "build failed"; exit 1; }
phases() {
    for r in $(seq "${RUNS:-3}"); do
        echo "--- $1, run $r"
        python3 tests/gpu/stamp.py "$NCU" --metrics gpu__time_duration.sum --csv --print-units base \
            --cache-control none --clock-control none build/gpu/ref/$LAB $ARGS -s 7 --witness \
            --graded -r 8 -w 2 | awk '/==PROF== Profiling/ { if (k++) { last = $0; next } }
                                     /==PROF==|ncu: end/ { if (last) print last; last = ""; print }' 
    done
}
phases "a quiet host"
if [ "${IDLE:-1}" = 1 ]; then
    for i in $(seq "${N_BUSY:-8}"); do (while :; do :; done) & done
    phases "${N_BUSY:-8} busy cores"
    kill $(jobs -p) 2>/dev/null
fi
