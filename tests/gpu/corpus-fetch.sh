#!/bin/bash
# corpus-fetch.sh - rebuild corpus/ (ignored by git: third-party code is
# never committed) from tests/gpu/corpus-sources.txt, for
# tests/gpu/device-corpus.sh: each program's files, unmodified and at their
# paths in the repository, at the commit listed, into corpus/NAME/, with
# SOURCE (where they came from) and build.txt (the compile line's sources
# and -I flags, relative to corpus/NAME/).
#
# build.txt: every .cu, .cpp and .c file the program lists, then -I for
# each folder it lists, so that a header included by name is found as the
# repository's own build finds it.  NVIDIA's cuda-samples include their
# helpers (helper_cuda.h, ...) from the repository's Common/ folder by
# name, so for them Common/'s headers come too, with -I Common, as the
# samples' own makefiles do.
#
#   bash tests/gpu/corpus-fetch.sh [MIRRORS]
# MIRRORS: a folder of git clones named OWNER+NAME (bare, or with .git, or
# with the clone in OWNER+NAME/repo); without it each repository is cloned
# (no checkout) into build/corpus-git/.  Exit 1 if a file cannot be had.
set -u
cd "$(dirname "$0")/../.." || exit 1
list=tests/gpu/corpus-sources.txt
mirrors=${1:-}

# The git folder holding repository URL $1's history (cloned if need be).
git_dir() {
    local slug=${1#https://github.com/}; slug=${slug%.git}
    local name=${slug/\//+} d
    if [ -n "$mirrors" ]; then
        for d in "$mirrors/$name/repo/.git" "$mirrors/$name/repo" "$mirrors/$name/.git" "$mirrors/$name"; do
            git --git-dir="$d" rev-parse --git-dir >/dev/null 2>&1 && { echo "$d"; return 0; }
        done
        echo "corpus-fetch: no clone of $slug under $mirrors" >&2; return 1
    fi
    d=build/corpus-git/$name
    [ -d "$d" ] || git clone -q --bare --filter=blob:none "$1" "$d" >&2 || return 1
    echo "$d"
}

# One group of files: repo $1 at commit $2, folder $3, files $4 into $5.
take() {
    local g f
    g=$(git_dir "$1") || return 1
    mkdir -p "$5/$3"
    for f in $4; do
        git --git-dir="$g" show "$2:$3/$f" >"$5/$3/$f" 2>/dev/null ||
            { echo "corpus-fetch: $1 $2 has no $3/$f" >&2; return 1; }
        case $f in *.cu|*.cpp|*.c) srcs+=("$3/$f");; esac
    done
    incs+=("-I" "$3")
    printf 'repo: %s\ncommit: %s\npath: %s\nfiles: %s\n' "$1" "$2" "$3" "$4" >>"$5/SOURCE"
    case $1 in */NVIDIA/cuda-samples) common+=("$g" "$2");; esac
}

# cuda-samples' Common/ headers, for a program that has a sample in it.
take_common() {
    local g=$1 c=$2 h
    mkdir -p "$dir/Common"
    for h in $(git --git-dir="$g" ls-tree --name-only "$c" Common/ | grep -E '\.(h|hpp|cuh)$'); do
        git --git-dir="$g" show "$c:$h" >"$dir/$h" || return 1
    done
    incs+=("-I" "Common")
}

# Close the program being read: its build.txt.
finish() {
    [ -n "$dir" ] || return 0
    if [ ${#common[@]} -gt 0 ]; then take_common "${common[0]}" "${common[1]}" || bad=1; fi
    echo "${srcs[*]} ${incs[*]}" >"$dir/build.txt"
    count=$((count + 1))
}

dir="" repo="" commit="" path="" bad=0 count=0
srcs=() incs=() common=()
while IFS= read -r line; do
    case $line in
    "== "*)
        finish
        name=${line#== }; name=${name%% *}
        dir=corpus/$name; rm -rf "$dir"; mkdir -p "$dir"
        srcs=() incs=() common=();;
    repo:*) repo=${line#repo: };;
    commit:*) commit=${line#commit: };;
    path:*) path=${line#path: };;
    files:*) take "$repo" "$commit" "$path" "${line#files: }" "$dir" || bad=1;;
    esac
done <"$list"
finish
echo "corpus-fetch: $count programs in corpus/$([ $bad = 0 ] || echo ', some files missing (above)')"
exit $bad
