# The grader ended its run (the report has its TOTAL, checked by the
# verdict) and took its box's tmpfs with it: no mount of a grader's scratch
# folder is left in the machine's mount table, and /dev/shm and /tmp hold
# no fill file of the attack.
if grep -q '/grade\.[^ /]*/box ' /proc/mounts; then
    echo "a grader's box is still mounted: $(grep '/grade\.[^ /]*/box ' /proc/mounts | head -1)"
    exit 1
fi
left=$(find /dev/shm /tmp -maxdepth 3 -name 'fill[0-9]*' -path '*grade.*' 2>/dev/null | head -1)
[ -z "$left" ] || { echo "the attack's files are left on the machine: $left"; exit 1; }
grep -q "6 GiB fitted" "$report" && { echo "6 GiB fitted in the box: it is not capped"; exit 1; }
exit 0
