#!/bin/sh
# device-attacks.sh - the adversarial suite (tests/attacks.sh) on a GPU
# machine, the grader as root, the attacks that need a GPU included: run by
# hand on a GPU machine; the transcript goes to $OUT/attacks.txt.
set -u
OUT=${OUT:-/tmp/device-attacks}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.." || exit 1
{
    date -u +"%Y-%m-%d %H:%M UTC"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    echo "grader as uid $(id -u)"
    make -s grader batch || exit 3
    sh tests/attacks.sh --gpu
} 2>&1 | tee "$OUT/attacks.txt"
