#!/bin/sh
# The padded file is made here, not kept in the kit: 1.1 MiB of comment
# lines, then the include the scan would have refused.
set -u
cd "$top" || exit 1
mkdir -p "$sub"
file=$sub/reduce.cu
cp solutions/lab1-reduce-naive/reduce.cu "$file"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "// %060d\n", i }' >>"$file"
printf '#include <cub/cub.cuh>\n' >>"$file"
chmod -R a+rX "$sub"
./grade lab1 --submission "$sub" --timeout 20 --no-speed --json "$json" >"$report" 2>&1 ||
    { tail -5 "$report"; exit 1; }
grep -q "FORBIDDEN: reduce.cu is larger than the 1024 KiB a submitted file may be" "$report" ||
    { echo "no FORBIDDEN verdict for the padded file"; tail -15 "$report"; exit 1; }
grep -q '"score": 0' "$json" && ! grep -q '"score": [1-9]' "$json" ||
    { echo "points given to the padded file"; exit 1; }
