#!/bin/sh
# graded_harness.sh - the harness of a graded binary as one object whose only
# global symbols are main and the contract's helpers: the functions of kit.o,
# which is what kit.h and lab.h give a lab.  Everything else the harness
# defines (the CPU reference, the checker, the input generator, the JSON
# writer...) becomes a local symbol, so a submission that calls it does not
# link: nothing is searched for, it is simply not there to call.
#
#   sh common/tools/graded_harness.sh OUT.o KIT.o PART.o...
#
# Writes OUT.o and OUT.local (the names made local, one a line: the grader
# names them when a submission's link fails on one).  Only strong
# definitions are made local; weak ones (inline functions and template
# instances of headers a lab may include anyway) stay, since a copy of the
# same inline function in the lab's object must still link.
set -eu
out=$1 keep_from=$2
shift 2
LD=${LD:-ld} NM=${NM:-nm} OBJCOPY=${OBJCOPY:-objcopy}
# Temporary files of this run's own (two builds at once never share one),
# renamed into place at the end.
t=$out.$$
trap 'rm -f "$t.all" "$t.keep" "$t.tmp" "$t.local"' EXIT
"$LD" -r -o "$t.all" "$@"
{ echo main; "$NM" -g --defined-only "$keep_from" | awk 'NF == 3 { print $3 }'; } | sort -u >"$t.keep"
"$NM" -g --defined-only "$t.all" | awk 'NF == 3 && $2 ~ /^[TDBRGS]$/ { print $3 }' | sort -u |
    comm -23 - "$t.keep" >"$t.local"
"$OBJCOPY" --localize-symbols="$t.local" "$t.all" "$t.tmp"
mv -f "$t.local" "$out.local"
mv -f "$t.tmp" "$out"
