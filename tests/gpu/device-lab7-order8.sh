#!/bin/bash
# device-lab7-order8.sh - on a GPU machine: lab 7's reference rebuilt with
# other tuning shapes (blocks per SM, runs, tiles), each timed at 2^28 int32
# (order 1, order 8 and 8-tuples, copy and CUB in the same process), with
# ncu's view of one of them.  A thin front for device-lab7-builds.sh, which
# does the work for any list of sources and flags; kept because earlier
# transcripts name this command.
#   SHAPES="TAG FLAGS...;TAG FLAGS..." (default: the list below)
#   SRC: the source every shape is built from (default: the reference)
#   NCU_TAG: the shape whose kernels ncu measures (default ref; NCU=0: none)
# Until 2026-11-24 this script had its own copy of the build and ncu's
# SpeedOfLight/Occupancy/WarpStateStats sections; the builds script's
# metrics (issue, pipes, stalls, DRAM) now stand for them.
set -u
cd "$(dirname "$0")/../.."
src=${SRC:-solutions/lab7-scan-at-work/scan.cu}
shapes=${SHAPES:-ref -DMINB_ORDERS=2;minb1 -DMINB_ORDERS=1;minb3 -DMINB_ORDERS=3;run64 -DMINB_ORDERS=2 -DRUN_BYTES=64;run64m3 -DMINB_ORDERS=3 -DRUN_BYTES=64;run64m4 -DMINB_ORDERS=4 -DRUN_BYTES=64;t128 -DMINB_ORDERS=4 -DTILE_THREADS=128}
builds=""
IFS=';' read -ra list <<<"$shapes"
for s in "${list[@]}"; do
    set -- $s
    tag=$1; shift
    builds="$builds${builds:+;}$tag $src $*"
done
ncu_tag=${NCU_TAG:-ref}
[ "${NCU:-1}" = 0 ] && ncu_tag=""
OUT=${OUT:-/tmp/device-lab7-order8} BUILDS="$builds" NCU="$ncu_tag" exec bash tests/gpu/device-lab7-builds.sh
