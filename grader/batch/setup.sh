#!/usr/bin/env bash
# setup.sh - Gradescope's setup script for the kit (runs once, as root, when
# the autograder image is built).  Expects the kit at /autograder/source
# (the autograder zip is the kit's checkout with setup.sh, run_autograder
# and a LAB file at its root; see README).
set -eu
kit=${KIT_DIR:-/autograder/source}
export DEBIAN_FRONTEND=noninteractive
apt-get update
# make, a C compiler and python3 to run `make deps` and the grader; unzip
# and tar for Gradescope's own unpacking.  `make deps` then installs the
# rest (Criterion, cJSON and libarchive for the grader, the CPU emulator's
# packages); matplotlib is only for the instructor's plots.
apt-get install -y --no-install-recommends make gcc g++ python3 tar unzip ca-certificates
cd "$kit"
make deps
make grader
# A GPU image (nvcc present, a GPU at run time) builds the labs for the GPU;
# otherwise they are graded on the CPU emulator (speed tests not graded).
# Everything a grading needs, built now, once, so that no grading in a fresh
# container pays for it: the harness and the emulator's runtime (every lab
# has emulator-schedule cases, even on a GPU), and on a GPU image the
# reference solutions the speed tests time against (./grade finds them in
# build/gpu/ref/ and rebuilds only when their sources change).
make prebuild EMU=1
if command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
    make prebuild EMU=0
    [ -d solutions ] && make solutions EMU=0
fi
