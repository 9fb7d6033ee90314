# Two archive bombs in a batch: a sparse member (the header says 3 GiB,
# the data is a hole) and plain zeros compressed a thousandfold.  Both are
# refused with a clear status, and the batch writes little: the folder of
# the batch's scratch stays small while it runs, and nothing is left.
set -u
cd "$top" || exit 1
make -s --no-print-directory batch grader || exit 1
w=$tmp/batch-archive-bomb
mkdir -p "$w/subs" "$w/t" "$w/pack/big" && chmod 711 "$w" "$w/t"
truncate -s 3G "$w/pack/big/reduce.cu"
tar --sparse -czf "$w/subs/sparse.tgz" -C "$w/pack" big || { echo "no GNU tar --sparse"; exit 77; }
rm -rf "$w/pack"
python3 - "$w/subs/zeros.tar.gz" <<'PY' || exit 1
import io, sys, tarfile
class Zeros(io.RawIOBase):            # 300 MiB of zeros, never held in memory
    left = 300 << 20
    def readable(self): return True
    def readinto(self, b):
        n = min(len(b), self.left); b[:n] = bytes(n); self.left -= n; return n
with tarfile.open(sys.argv[1], "w:gz") as t:
    info = tarfile.TarInfo("zeros/reduce.cu"); info.size = 300 << 20
    t.addfile(info, io.BufferedReader(Zeros()))
PY
ls -l "$w/subs"
# the most the scratch held while the batch ran, sampled every 0.2 s
( peak=0; while [ ! -e "$w/done" ]; do
      k=$(du -sk "$w/t" 2>/dev/null | cut -f1); [ "${k:-0}" -gt $peak ] && peak=$k
      echo $peak >"$w/peak"; sleep 0.2; done ) &
TMPDIR="$w/t" ./build/batch "$w/subs" lab1 --json-dir "$w/out" --csv "$w/g.csv" --jobs 1 \
    --no-speed >"$w/log" 2>&1
rc=$?
touch "$w/done"; wait
cat "$w/log" "$w/g.csv"
peak=$(cat "$w/peak")
fail=0
[ $rc -eq 0 ] || { echo "batch exited $rc"; fail=1; }
for s in sparse zeros; do
    grep -q "^$s,0,.*unpack" "$w/g.csv" || { echo "$s: not refused in the CSV"; fail=1; }
    grep -q "archive refused.*bytes" "$w/out/$s.txt" || { echo "$s: no clear refusal"; cat "$w/out/$s.txt"; fail=1; }
done
# the cap is UNPACK_MAX_BYTES (256 MiB): the zeros stop there at the latest
[ "$peak" -le $((300 * 1024)) ] || { echo "the scratch held $peak KiB at its peak"; fail=1; }
echo "scratch peak: $peak KiB"
[ -z "$(ls -A "$w/t")" ] || { echo "scratch left behind"; fail=1; }
exit $fail
