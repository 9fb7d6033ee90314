#!/bin/sh
# grader_deps.sh - make sure the grader's C libraries (cJSON, libarchive)
# can be built against and run, for root and for a student without root.
# usage: grader_deps.sh BUILD_DIR PACKAGE...   (CC from the environment)
#
# 1. A probe program that calls both libraries is compiled, linked and run
#    (with BUILD_DIR/deps/flags when an earlier run wrote it): if it works,
#    nothing to do.
# 2. As root (or with sudo without a password): deps.sh installs PACKAGE...
# 3. Otherwise the distribution's own packages are downloaded without root
#    (`apt-get download` writes into the current folder), with the runtime
#    libraries they need that are missing here, and unpacked (`dpkg -x`) into
#    BUILD_DIR/deps/root; BUILD_DIR/deps/flags then holds the -I, -L and
#    rpath flags the Makefile adds.  The rpath is DT_RPATH (not RUNPATH), so
#    the libraries' own dependencies are found there too, and it holds in
#    the grader's sandbox, whose cleared environment has no
#    LD_LIBRARY_PATH (grader/isolation.c shows build/deps in its view).
# 4. Where nothing can be fetched, it says what to ask the administrator for.
# Exit 0 when the probe passes, 1 otherwise.
set -u
build=$1; shift
deps=$build/deps
CC=${CC:-cc}
mkdir -p "$deps" || exit 1
deps=$(cd "$deps" && pwd)
# the probe passed before: nothing has changed that make would not see
[ -f "$deps/probed" ] && exit 0

# Compile, link and run a program calling both libraries, with the flags
# of the unpacked packages when there are any.  Quiet; 0 when it ran.
probe() {
    cat >"$deps/probe.c" <<'EOF'
#include <archive.h>
#include <cjson/cJSON.h>
#include <stdio.h>
int main(void)
{
    struct archive *a = archive_read_new();
    printf("cJSON %s, %s\n", cJSON_Version(), archive_version_string());
    return a == NULL;
}
EOF
    # shellcheck disable=SC2046
    $CC -Werror=implicit-function-declaration -o "$deps/probe" "$deps/probe.c" \
        $(cat "$deps/flags" 2>/dev/null) -lcjson -larchive >"$deps/probe.log" 2>&1 &&
        env -i "$deps/probe" >>"$deps/probe.log" 2>&1
}

# 0 when a package is installed and its shared libraries and headers are all
# there (a file masked by an empty one counts as missing).
present() {
    case "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" in
    *"install ok installed"*) ;;
    *) return 1 ;;
    esac
    for f in $(dpkg -L "$1" 2>/dev/null | grep -E '(\.so[.0-9]*|\.h)$'); do
        [ -s "$f" ] || return 1
    done
    return 0
}

# The Depends and Pre-Depends of the packages given, one name a line
# (alternatives' first choice; virtual packages left out).
depends_of() {
    apt-cache depends --important "$@" 2>/dev/null |
        sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \([^<][^ ]*\)$/\2/p' | sort -u
}

# Download PACKAGE... (and what they need that is missing) into deps/debs
# and unpack them into deps/root; write deps/flags.  Prints the packages.
fetch() {
    rm -rf "$deps/debs" "$deps/root" "$deps/flags"
    mkdir -p "$deps/debs" "$deps/root" || return 1
    # the -dev packages' own runtime libraries come with them always (their
    # versions are locked together); further dependencies only if missing
    want="$*"
    for p in $(depends_of "$@"); do want="$want $p"; done
    queue=$(depends_of $want)
    for depth in 1 2 3; do
        next=""
        for p in $queue; do
            case " $want " in *" $p "*) continue ;; esac
            present "$p" || { want="$want $p"; next="$next $p"; }
        done
        [ -z "$next" ] && break
        queue=$(depends_of $next)
    done
    (cd "$deps/debs" && apt-get download $want) >"$deps/fetch.log" 2>&1 || return 1
    for d in "$deps"/debs/*.deb; do
        dpkg -x "$d" "$deps/root" || return 1
    done
    libs=$(find "$deps/root" -name 'lib*.so*' -exec dirname {} \; | sort -u)
    { printf -- '-I%s ' "$deps/root/usr/include"
      for l in $libs; do printf -- '-L%s -Wl,-rpath,%s ' "$l" "$l"; done
      printf -- '-Wl,--disable-new-dtags\n'; } >"$deps/flags"
    echo $want
}

# The message when nothing worked: what to ask for, and why.
give_up() {
    echo "deps: the grader needs the C libraries cJSON and libarchive, with their headers:" >&2
    echo "      $1" >&2
    shift
    echo "deps: ask your administrator to install them:" >&2
    echo "    sudo apt-get install -y $*" >&2
    echo "      (Fedora/RHEL: cjson-devel libarchive-devel; Arch: cjson libarchive)" >&2
    exit 1
}

probe && { touch "$deps/probed"; exit 0; }
if [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }; then
    sh "$(dirname "$0")/deps.sh" "$@" && probe && { touch "$deps/probed"; exit 0; }
    give_up "installing them failed (see above)" "$@"
fi
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
    give_up "this is not a Debian-like system, and you are not root" "$@"
if got=$(fetch "$@") && probe; then
    touch "$deps/probed"
    echo "deps: no root here: downloaded" $got "with apt-get" \
         "and unpacked them into $deps (the grader is built against them)"
    exit 0
fi
rm -f "$deps/flags"
why="apt-get download failed (no network or no package lists? $deps/fetch.log)"
[ -f "$deps/fetch.log" ] && grep -q '^E:' "$deps/fetch.log" ||
    why="the downloaded packages did not build a test program ($deps/probe.log)"
give_up "you are not root, and $why" "$@"
