# tests/batch/class.sh - the class the batch tests grade (sourced by run.sh
# and slurm.sh): batch_class SUBS PACK SOL fills SUBS with ten lab-1
# submissions built from the solution folder SOL (PACK: a scratch folder
# for the archives' contents):
#   alice, carol, "smith, jo"  correct, as folders (a comma: CSV quoting)
#   dave.zip, erin.tar.gz      correct, as archives
#   skeleton                   the lab's skeleton (compiles, scores 0)
#   broken                     does not compile
#   empty                      no reduce.cu
#   mallory.tar.gz, trudy.zip  a ../evil member (refused, nothing extracted)
batch_class() {
    subs=$1 pack=$2 sol=$3
    mkdir -p "$subs" "$pack"
    for s in alice carol "smith, jo"; do cp -r "$sol" "$subs/$s"; done
    cp -r "$sol" "$pack/dave" && (cd "$pack" && python3 -m zipfile -c "$subs/dave.zip" dave)
    cp -r "$sol" "$pack/erin" && tar -czf "$subs/erin.tar.gz" -C "$pack" erin
    cp -r labs/lab1-reduce-naive "$subs/skeleton"
    mkdir -p "$subs/broken" "$subs/empty"
    sed 's/const Op op;/const Op op; this is not C++;/' "$sol/reduce.cu" >"$subs/broken/reduce.cu"
    echo "I forgot to upload my code" >"$subs/empty/README.txt"
    python3 - "$subs" "$sol/reduce.cu" <<'PY'
import io, sys, tarfile, zipfile
subs, sol = sys.argv[1], sys.argv[2]
data = open(sol, "rb").read()
with tarfile.open(subs + "/mallory.tar.gz", "w:gz") as t:
    for name, body in (("mallory/reduce.cu", data), ("../evil", b"pwned\n")):
        info = tarfile.TarInfo(name)
        info.size = len(body)
        t.addfile(info, io.BytesIO(body))
with zipfile.ZipFile(subs + "/trudy.zip", "w") as z:
    z.writestr("trudy/reduce.cu", data)
    z.writestr("../evil", "pwned\n")
PY
}
