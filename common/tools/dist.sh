#!/bin/sh
# dist.sh - a student's copy of the kit: the committed tree without the
# reference solutions (solutions/), the hidden tests (grader/suites/hidden/),
# the handouts' answer keys (handouts/keys/)
# and the kit's own tests (tests/, .ci/, which need the solutions), with
# each lab's reference prebuilt instead, so that
# ./grade can still time a student against it.  A prebuilt reference holds
# the solution's machine code (and PTX for newer GPUs), not its source.
# usage: dist.sh OUT.tar.gz "ARCH..."      (make dist [DIST_ARCHS="sm_80 sm_90"])
# Needs git and nvcc; no GPU.
set -eu
out=$1
archs=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
die() { echo "dist: $*" >&2; exit 2; }
command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1 ||
    die "needs a git checkout of the kit (the tarball is the committed tree)"
nvcc=$(command -v nvcc 2>/dev/null || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
[ -x "$nvcc" ] || die "needs nvcc to prebuild the references (a GPU is not needed)"
[ -n "$archs" ] || die "no architectures (DIST_ARCHS)"
[ -z "$(git status --porcelain -- solutions labs common grader)" ] ||
    echo "dist: warning: uncommitted changes in the kit are not in the tarball" >&2

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
name=reduce-scan-kit
git archive --format=tar --prefix="$name/" HEAD | tar -xf - -C "$stage"
kit="$stage/$name"

# One fat binary per lab: machine code for every architecture asked for,
# and PTX of the newest, which the driver compiles for GPUs newer still.
gencode=""
last=""
for a in $archs; do
    case $a in sm_[0-9]*) ;; *) die "'$a' is not an architecture like sm_90" ;; esac
    n=${a#sm_}
    gencode="$gencode -gencode arch=compute_$n,code=sm_$n"
    last=$n
done
gencode="$gencode -gencode arch=compute_$last,code=compute_$last"
mkdir -p "$kit/refbin"
# Built by the kit's own Makefile from the committed files (the archive),
# not the working tree, in a build folder of its own.
cd "$kit"
for d in solutions/lab*-*/; do
    lab=$(basename "$d" | cut -d- -f1)
    echo "dist: prebuilding the $lab reference for$(printf ' %s' $archs)"
    make -s --no-print-directory EMU=0 NVCC="$nvcc" BUILD="$stage/build" GENCODE="$gencode" \
        bin SRC_DIR="${d%/}" BIN="refbin/$lab" >"$stage/build.log" 2>&1 ||
        { cat "$stage/build.log" >&2; die "the $lab reference did not build"; }
done
rm -rf solutions tests .ci grader/suites/hidden handouts/keys
cd "$top"
cat >"$kit/refbin/README.md" <<TXT
# Prebuilt reference solutions

\`./grade labN\` times your kernel against the reference solution in the same run. This copy of
the kit has no \`solutions/\` folder, so the grader uses these binaries instead: each is the lab's
reference built with the kit's harness, for $(echo $archs | sed 's/ /, /g') (and PTX for newer
GPUs), from commit $(git rev-parse --short HEAD) on $(date -u +%Y-%m-%d). If your GPU cannot run
them, the speed tests say so and your instructor can rebuild them with \`make dist\`.
TXT
mkdir -p "$(dirname "$out")"
tar -czf "$out" -C "$stage" "$name"
echo "dist: wrote $out ($(du -h "$out" | cut -f1))"
