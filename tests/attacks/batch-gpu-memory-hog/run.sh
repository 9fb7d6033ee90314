# A GPU memory hog beside an honest student, two workers on one GPU: the
# honest student's cases that run out of memory while the GPU is shared are
# run again with the GPU to itself (grader/unit.c settle_oom), so alice
# keeps every correctness point.  The hog's own out-of-memory stays its own.
set -u
cd "$top" || exit 1
make -s --no-print-directory batch grader || exit 1
[ "$(make -s --no-print-directory print-backend 2>/dev/null)" = gpu ] || { echo "no GPU backend"; exit 77; }
w=$tmp/batch-gpu-memory-hog
sol=solutions/lab1-reduce-naive
mkdir -p "$w/subs" "$w/t" && chmod 711 "$w" "$w/t"
cp -r "$sol" "$w/subs/alice"
mkdir -p "$w/subs/hog"
# every call of run(): take all free memory but 64 MiB, hold it for a
# second, then run the solution (the memory is never given back)
awk '{print} /^static int run_blocks\(const lab_problem \*p\)/ {f=1}
     f && /^{/ {print "    { size_t fr = 0, tot = 0; cudaMemGetInfo(&fr, &tot); void *hog = 0;";
                print "      while (fr > (96u << 20) && cudaMalloc(&hog, fr - (64u << 20)) != cudaSuccess) fr -= 256u << 20;";
                print "      cudaGetLastError(); usleep(1000000); }"; f=0}' \
    "$sol/reduce.cu" | sed '1i #include <unistd.h>' >"$w/subs/hog/reduce.cu"
grep -q cudaMemGetInfo "$w/subs/hog/reduce.cu" || { echo "the hog was not made"; exit 1; }
TMPDIR="$w/t" ./build/batch "$w/subs" lab1 --json-dir "$w/out" --csv "$w/g.csv" --jobs 2 \
    --no-speed >"$w/log" 2>&1 || { echo "batch exited $?"; cat "$w/log"; exit 1; }
cat "$w/log" "$w/g.csv"
grep -c "out of GPU memory" "$w/out/hog.txt" "$w/out/alice.txt"
python3 - "$w/out/alice.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = [t for t in r["tests"] if not t["name"].startswith("Speed")]
got, mx = sum(t["score"] for t in c), sum(t["max_score"] for t in c)
print("alice: %g of %g" % (got, mx))
sys.exit(0 if got == mx and mx > 0 else 1)
PY
