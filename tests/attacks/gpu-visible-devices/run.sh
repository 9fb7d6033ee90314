# A grader given one GPU of several (as a batch worker is: CUDA_VISIBLE_DEVICES
# set to its index) grades a submission that unsets the variable before CUDA
# starts.  Every process of it must have seen exactly one GPU (the other
# GPUs' device nodes are not in its view: grader/gpunodes.h), and the
# solution it wraps must still pass.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -ge 2 ] || { echo "needs a machine with 2 or more GPUs (found $gpus)"; exit 77; }
dir=$top/tests/attacks/gpu-visible-devices
sol=$(ls "$top"/solutions/lab1-*/*.cu | head -1)
mkdir -p "$sub" && cat "$sol" "$dir/append.cu" >"$sub/$(basename "$sol")" && chmod -R a+rX "$sub"
cd "$top" || exit 1
CUDA_VISIBLE_DEVICES=1 ./grade lab1 --submission "$sub" --no-speed --keep >"$report" 2>&1 ||
    { tail -8 "$report"; exit 1; }
work=$(sed -n 's/^scratch folder kept: //p' "$report")
[ -d "$work" ] || { echo "no kept scratch folder in the report"; tail -5 "$report"; exit 1; }
seen=$(grep -rhao 'attack: devices seen: -\{0,1\}[0-9][0-9]*' "$work" | sort | uniq -c) # (digits: the binaries hold the format string)
rm -rf "$work"
echo "$seen"
[ -n "$seen" ] || { echo "the attack's count is in no log"; exit 1; }
echo "$seen" | grep -qv 'devices seen: 1$' && { echo "a process saw other than one GPU"; exit 1; }
grep -q '^TOTAL 80.0 / 80.0' "$report" || { echo "the solution lost points"; grep TOTAL "$report"; exit 1; }
echo "one GPU in every process of the student's"
exit 0
