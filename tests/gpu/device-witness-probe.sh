#!/bin/bash
# device-witness-probe.sh - can a profiler outside the grader's sandbox
# time the kernels of a process inside it?  (issue 11: the student's kernel
# time measured by a process the student does not control.)
#
# Runs a small CUDA program under ncu (and nsys where installed) in the
# ways the grader could wrap it: the target alone; the target in a new
# network / IPC / mount (private /tmp, /dev/shm) / PID namespace; the
# profiler itself inside a fresh network namespace with loopback up; the
# target as an unprivileged user.  For each: did the profiler report the
# kernels, and how long did it take.  Also prints the environment the
# profiler gives its target (what a sandbox must let through) and the
# sockets and files the profiler opens while the target runs.
# Output: $OUT/witness-probe.txt.  Needs root (unshare).
set -u
OUT=${OUT:-/tmp/witness-probe}
mkdir -p "$OUT"
exec > >(tee "$OUT/witness-probe.txt") 2>&1
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "uid: $(id -u)"
ncu=$(python3 -c 'import sys; sys.path.insert(0, "common/tools"); import profile_lab as p; print(p.find_ncu() or "")')
nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "ncu: ${ncu:-none} $([ -n "$ncu" ] && "$ncu" --version | tail -1)"
echo "ncu real path: $([ -n "$ncu" ] && readlink -f "$ncu")"
echo "nsys: ${nsys:-none} $([ -n "$nsys" ] && "$nsys" --version 2>&1 | tail -1)"

W=$(mktemp -d /tmp/witness.XXXX)
chmod 755 "$W"
cat >"$W/tiny.cu" <<'CU'
#include <cstdio>
#include <unistd.h>
__global__ void add_one(int *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1; }
int main(int argc, char **argv) {
    int n = 1 << 22, reps = argc > 1 ? atoi(argv[1]) : 5, *x;
    cudaMalloc(&x, n * sizeof(int));
    cudaMemset(x, 0, n * sizeof(int));
    for (int r = 0; r < reps; r++) add_one<<<(n + 255) / 256, 256>>>(x, n);
    int h;
    cudaMemcpy(&h, x, sizeof h, cudaMemcpyDeviceToHost);
    if (argc > 2) sleep(atoi(argv[2]));
    printf("tiny: x[0] = %d after %d launches\n", h, reps);
    return h == reps ? 0 : 1;
}
CU
nvcc -arch=sm_90 -o "$W/tiny" "$W/tiny.cu" || { echo "nvcc failed"; exit 1; }
"$W/tiny" 3

NCU_ARGS="--target-processes all --metrics gpu__time_duration.sum --csv --print-units base --cache-control none --clock-control none"
# One way of wrapping the target: a name and a command prefix.
try_ncu() {
    local name=$1; shift
    local t0=$(date +%s.%N)
    timeout 120 "$ncu" $NCU_ARGS --log-file "$W/$name.csv" "$@" >"$W/$name.out" 2>&1
    local rc=$? t1=$(date +%s.%N)
    local k=$(grep -c 'add_one' "$W/$name.csv" 2>/dev/null)
    printf 'ncu %-22s rc=%-3s kernels=%-3s %.2f s  | %s\n' "$name" "$rc" "${k:-0}" \
        "$(echo "$t1 - $t0" | bc)" "$(grep -v '^tiny' "$W/$name.out" | grep -m1 -i -E 'error|warn|no kernels' )"
}
if [ -n "$ncu" ]; then
    try_ncu plain "$W/tiny" 5
    head -5 "$W/plain.csv"
    try_ncu netns unshare --net "$W/tiny" 5
    try_ncu ipcns unshare --ipc "$W/tiny" 5
    try_ncu pidns unshare --pid --fork "$W/tiny" 5
    try_ncu mountns-tmp unshare --mount sh -c "mount -t tmpfs none /tmp && mount -t tmpfs none /dev/shm && exec $W/tiny 5"
    try_ncu all-ns unshare --net --ipc --pid --fork --mount sh -c "mount -t tmpfs none /tmp && mount -t tmpfs none /dev/shm && exec $W/tiny 5"
    try_ncu nobody setpriv --reuid=65534 --regid=65534 --clear-groups "$W/tiny" 5
    try_ncu nobody-netns unshare --net setpriv --reuid=65534 --regid=65534 --clear-groups "$W/tiny" 5
    try_ncu userns unshare --user --map-root-user "$W/tiny" 5
    try_ncu cleared-env env -i PATH=/usr/bin:/bin "$W/tiny" 5
    # ncu itself in a fresh network and IPC namespace (loopback up), the target deeper.
    t0=$(date +%s.%N)
    timeout 120 unshare --net --ipc sh -c "ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null; \
        $ncu $NCU_ARGS --log-file $W/outer-netns.csv unshare --pid --fork --mount sh -c 'mount -t tmpfs none /tmp && exec $W/tiny 5'" \
        >"$W/outer-netns.out" 2>&1
    echo "ncu outer-netns rc=$? kernels=$(grep -c add_one $W/outer-netns.csv 2>/dev/null) $(echo "$(date +%s.%N) - $t0" | bc) s"
    timeout 120 unshare --net --ipc sh -c "$ncu $NCU_ARGS --log-file $W/outer-netns-lodown.csv $W/tiny 5" >"$W/outer-lodown.out" 2>&1
    echo "ncu outer-netns-lo-down rc=$? kernels=$(grep -c add_one $W/outer-netns-lodown.csv 2>/dev/null)"
    echo "--- environment ncu gives its target (names added to a plain env):"
    env | cut -d= -f1 | sort >"$W/env.plain"
    "$ncu" --target-processes all /usr/bin/env 2>/dev/null | grep -v '^==PROF==' | cut -d= -f1 | sort >"$W/env.ncu"
    comm -13 "$W/env.plain" "$W/env.ncu"
    "$ncu" --target-processes all /usr/bin/env 2>/dev/null | grep -E '^(LD_PRELOAD|CUDA_INJECTION|NV_|NVTX|TMPDIR)' | cut -c1-200
    echo "--- sockets and files while a target runs under ncu:"
    "$ncu" $NCU_ARGS --log-file "$W/slow.csv" "$W/tiny" 2 6 >/dev/null 2>&1 &
    sleep 4
    ss -xlpn 2>/dev/null | grep -i -E 'ncu|tiny|nv' | head; ss -tlpn 2>/dev/null | grep -i -E 'ncu|tiny|nv' | head
    ls -la /dev/shm | head; ls -la /tmp | grep -i -E 'nsight|ncu|nv' | head
    for p in $(pgrep -f "$W/tiny"); do echo "pid $p: $(tr '\0' ' ' </proc/$p/cmdline | cut -c1-80)"; ls -l /proc/$p/fd 2>/dev/null | awk '{print $NF}' | sort | uniq -c | head -20; done
    wait
    echo "--- overhead: 50 launches"
    /usr/bin/time -f "plain %e s" "$W/tiny" 50
    /usr/bin/time -f "ncu %e s" "$ncu" $NCU_ARGS --log-file "$W/fifty.csv" "$W/tiny" 50 >/dev/null
    grep -c add_one "$W/fifty.csv"
    cp "$W"/*.csv "$W"/*.out "$OUT/" 2>/dev/null
fi

if [ -n "$nsys" ]; then
    try_nsys() {
        local name=$1; shift
        local t0=$(date +%s.%N)
        timeout 180 "$nsys" profile --trace=cuda --sample=none --cpuctxsw=none -o "$W/$name" --force-overwrite true "$@" >"$W/$name.nsys.out" 2>&1
        local rc=$?
        "$nsys" stats --report cuda_gpu_trace --format csv -o "$W/$name" "$W/$name.nsys-rep" >/dev/null 2>&1
        local k=$(cat "$W/$name"*gpu_trace*.csv 2>/dev/null | grep -c add_one)
        local m=$(cat "$W/$name"*gpu_trace*.csv 2>/dev/null | grep -c -i memcpy)
        printf 'nsys %-21s rc=%-3s kernels=%-3s memcpys=%-3s %.2f s | %s\n' "$name" "$rc" "${k:-0}" "${m:-0}" \
            "$(echo "$(date +%s.%N) - $t0" | bc)" "$(grep -m1 -i -E 'error|warn' "$W/$name.nsys.out")"
    }
    try_nsys plain "$W/tiny" 5
    head -3 "$W"/plain*gpu_trace*.csv
    try_nsys netns unshare --net "$W/tiny" 5
    try_nsys all-ns unshare --net --ipc --pid --fork --mount sh -c "mount -t tmpfs none /tmp && mount -t tmpfs none /dev/shm && exec $W/tiny 5"
    try_nsys nobody setpriv --reuid=65534 --regid=65534 --clear-groups "$W/tiny" 5
    try_nsys cleared-env env -i PATH=/usr/bin:/bin "$W/tiny" 5
    cp "$W"/*.csv "$W"/*.nsys.out "$OUT/" 2>/dev/null
fi
echo "done"
