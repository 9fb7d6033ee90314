#!/bin/sh
# hint-table.sh - does the first hint of a report name the TODO that holds
# the bug?  Grades mutants of the reference solutions of labs 1-6 (every
# __syncthreads() removed in turn, as tests/missing-barrier.sh does; the
# broken submissions of tests/bad-submissions.sh; the student mistakes of
# issue 14) and writes a markdown table to stdout:
#   docs/hint-table.sh >docs/hint-table.md
# The TODO that holds a bug is the TODO region (TODO BEGIN k .. TODO END k
# of the solution) around the first line the edit changed.  Slow on the
# emulator (about 10 s a mutant); ONLY="name ..." grades only those.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "hint-table: SKIPPED: no GPU and no CPU emulator here" >&2
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# Bad submissions that test the sandbox or the grader, not a kernel: no
# TODO holds their "bug".
not_kernel=" compile-error forbidden-cub huge-file fork-bomb extra-files macro-include reads-the-kit correct-but-slow "

# name|lab|sed edit, one mutant a line.
mutants() {
    for sol in solutions/lab[1-6]-*/*.cu; do
        lab=$(basename "$(dirname "$sol")" | cut -d- -f1)
        for line in $(grep -n '^ *__syncthreads();' "$sol" | cut -d: -f1); do
            echo "barrier-$lab-line$line|$lab|${line}s/__syncthreads();/\\/* barrier removed *\\//"
        done
    done
    sed -n "/^done <<'CASES'/,/^CASES/p" tests/bad-submissions.sh | sed '1d;$d' |
        while IFS='|' read -r name lab edit expect want; do
            case "$lab" in lab[1-6]) ;; *) continue ;; esac
            case "$not_kernel" in *" $name "*) continue ;; esac
            printf '%s|%s|%s\n' "$name" "$lab" "$edit" # (dash's echo would expand \n)
        done
    # issue 14's two mistakes (the second is barrier-lab3-line55 above), then
    # mistakes the handouts list under "common mistakes", one or two a lab
    cat <<'MISTAKES'
t-gt-stride|lab3|s/if (t >= stride)/if (t > stride)/
i-gt-0|lab3|s/xy\[t\] = (t > 0 \&\& i - 1 < n)/xy[t] = (i > 0 \&\& i - 1 < n)/
plus-not-op|lab3|s/sum = op(xy\[t - stride\], xy\[t\]);/sum = xy[t - stride] + xy[t];/
store-out-t|lab3|s/out\[i\] = xy\[t\];/out[t] = xy[t];/
bk-index|lab4|0,/unsigned int index = (t + 1) \* 2 \* stride - 1;/s//unsigned int index = t * 2 * stride;/
phase3-no-offset|lab4|s/chunk\[k\] = op(before, chunk\[k\]);/chunk[k] = chunk[k];/
add-wrong-section|lab5|s/const size_t start = ((size_t)blockIdx.x + 1) \* SECTION;/const size_t start = (size_t)blockIdx.x * SECTION;/
rts-no-carry|lab5|s/^ *sums);$/NULL);/
no-writer-fence|lab6|/st.prefix\[id\] = bits;/{n;s/__threadfence();//}
ticket-plus-one|lab6|s/ticket = atomicAdd(next_tile, 1u);/ticket = atomicAdd(next_tile, 1u) + 1;/
MISTAKES
}

# The TODO region around line $2 of file $1, or "kit code".
todo_at() {
    awk -v at="$2" '/TODO BEGIN [0-9]/ { for (k = 1; k <= NF; k++) if ($k == "BEGIN") { cur = $(k + 1); gsub(/[^0-9]/, "", cur) } }
        NR == at { print (cur != "" ? "TODO " cur : "kit code"); exit }
        /TODO END [0-9]/ { cur = "" }' "$1"
}

echo "| mutant | lab | bug at | first failing group | its hint | names the bug's TODO? |"
echo "|---|---|---|---|---|---|"
hits=0 misses=0 general=0 kit=0 clean=0
mutants >"$tmp/list"
while IFS='|' read -r name lab edit; do
    case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
    sol=$(ls solutions/$lab-*/*.cu)
    mkdir -p "$tmp/$name"
    sed "$edit" "$sol" | sed "s|KITTOP|$top|g" >"$tmp/$name/$(basename "$sol")"
    at=$(diff "$sol" "$tmp/$name/$(basename "$sol")" | sed -n '1s/^\([0-9]*\).*/\1/p')
    [ -n "$at" ] || { echo "| $name | $lab | (edit changed nothing) | | | |"; continue; }
    bug=$(todo_at "$sol" "$at")
    chmod -R a+rX "$tmp/$name"
    ./grade "$lab" --submission "$tmp/$name" --no-speed --timeout 10 >"$tmp/$name.log" 2>&1
    hint=$(grep -m1 '^  hint (\|^  general advice' "$tmp/$name.log")
    group=$(awk '/^== .*\[[a-z0-9-]*\]$/ { g = $NF } /^  hint \(|^  general advice/ { print g; exit }' \
        "$tmp/$name.log" | tr -d '[]')
    named=$(echo "$hint" | sed -n 's/^  hint (TODO \([0-9]*\);.*/TODO \1/p')
    if grep -q "^BUILD FAILED" "$tmp/$name.log"; then
        verdict="the mutant does not build"; clean=$((clean + 1))
    elif [ -z "$hint" ]; then
        verdict="no failing group ($(grep -m1 '^TOTAL' "$tmp/$name.log"))"; clean=$((clean + 1))
    elif [ "$bug" = "kit code" ]; then
        verdict="n/a (kit code)"; kit=$((kit + 1))
    elif [ -n "$named" ] && [ "$named" = "$bug" ]; then
        verdict="**yes**"; hits=$((hits + 1))
    elif [ -z "$named" ]; then
        verdict="no (general advice)"; general=$((general + 1))
    else
        verdict="no ($named)"; misses=$((misses + 1))
    fi
    short=$(echo "$hint" | sed 's/^  //; s/|/\\|/g' | cut -c1-160)
    echo "| $name | $lab | line $at, $bug | ${group:-} | $short | $verdict |"
done <"$tmp/list"
echo
echo "Named the bug's TODO: $hits; named another TODO: $misses; general advice only: $general;" \
     "bug in the kit's own code: $kit; nothing failed or no build: $clean."
