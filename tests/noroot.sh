#!/bin/sh
# noroot.sh - a student with neither root nor sudo, on a Debian machine
# where the grader's libraries (cJSON, libarchive: GRADER_DEPS) are missing,
# runs `make lab1 && ./grade lab1`: the grader's packages are downloaded
# with apt-get and unpacked into build/deps/ (common/tools/grader_deps.sh),
# and the grade is the reference's.
#
# As root it makes a throwaway user, copies the kit (its tracked files, with
# lab 1's solution as the student's lab 1) into a folder of that user, and
# runs the two commands as that user in a private mount namespace where the
# installed libraries' headers and shared objects are masked by empty files
# (the packages still read as installed to dpkg, as on a machine where only
# the runtime libraries are; their files are what counts).  SKIPPED where it
# cannot run: not root, no unshare or useradd, not Debian, no network to the
# distribution's mirror.  On the emulator the student's copy gets this
# kit's build/emu/libcuemu.a (its timestamp kept, so emu-nvcc finds it up to
# date) instead of building it again: the runtime reads none of the grader's
# libraries, and tests/dist.sh builds it from scratch in a student's copy.
# What that gives up: the runtime's compile as the unprivileged user (the
# lab's own emulator build under build/emu/ still runs as that user).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "noroot: SKIPPED: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (to make a throwaway user and mask the libraries)"
for t in unshare useradd userdel runuser apt-get dpkg git; do
    command -v $t >/dev/null 2>&1 || skip "no $t here"
done
pkgs="libcjson-dev libcjson1 libarchive-dev"
pkgs="$pkgs $(apt-cache depends libarchive-dev 2>/dev/null | sed -n 's/^ *Depends: \(libarchive[^ ]*\)$/\1/p')"
tmp=$(mktemp -d /tmp/noroot.XXXXXX) || exit 1
user=kitnoroot$$
trap 'userdel "$user" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
(cd "$tmp" && timeout 30 apt-get download libcjson1 >/dev/null 2>&1) ||
    skip "apt-get download does not reach the distribution's mirror from here"
useradd --no-create-home --home-dir "$tmp/home" --shell /bin/sh "$user" || skip "useradd failed"

# the kit, as a student has it: lab 1 done (the reference), no build/
kit=$tmp/kit
mkdir -p "$kit" "$tmp/home" "$tmp/masks"
(cd "$top" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -C "$kit" -xf -
cp "$top"/solutions/lab1-*/*.cu "$kit"/labs/lab1-*/
if [ "$(make -s --no-print-directory -C "$top" print-backend)" = emu ]; then
    make -s --no-print-directory -C "$top" emu-runtime >/dev/null || { echo "FAIL noroot: make emu-runtime"; exit 1; }
    mkdir -p "$kit/build/emu" && cp -p "$top/build/emu/libcuemu.a" "$kit/build/emu/"
fi
chown -R "$user" "$kit" "$tmp/home"

# the masks: one empty file over each header and shared object of the packages
: >"$tmp/masks/empty"
for f in $(dpkg -L $pkgs 2>/dev/null | grep -E '(\.so[.0-9]*|\.h)$'); do
    [ -f "$f" ] && [ ! -L "$f" ] && echo "$f"
done >"$tmp/masks/list"
[ -s "$tmp/masks/list" ] || echo "noroot: (none of $pkgs is installed: nothing to mask)"
cat >"$tmp/masks/run.sh" <<'EOF'
while read -r f; do mount --bind "$1/empty" "$f" || exit 1; done <"$1/list"
test -s /usr/include/archive.h && { echo "the mask did not hold"; exit 1; }
cd "$2" && exec runuser -u "$3" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$4" \
    sh -c 'make -s lab1 >build.log 2>&1 || { cat build.log; exit 1; }; ./grade lab1 --no-speed'
EOF
fail=0
no() { echo "FAIL noroot: $*"; fail=1; }
# first with no network: nothing can be fetched, and the message says what
# to ask the administrator for
unshare -mn sh "$tmp/masks/run.sh" "$tmp/masks" "$kit" "$user" "$tmp/home" >"$tmp/nonet.log" 2>&1 &&
    no "with no network, the build succeeded: were the libraries masked?"
grep -q "ask your administrator to install them:" "$tmp/nonet.log" &&
    grep -q "sudo apt-get install -y libcjson-dev libarchive-dev" "$tmp/nonet.log" ||
    no "with no network, no message naming the packages to ask for: $(cat "$tmp/nonet.log")"
start=$(date +%s)
unshare -m sh "$tmp/masks/run.sh" "$tmp/masks" "$kit" "$user" "$tmp/home" >"$tmp/out.log" 2>&1
rc=$?
[ $rc = 0 ] || no "make lab1 && ./grade lab1 as $user: exit $rc"
grep -q "^deps: no root here: downloaded .* unpacked them into $kit/build/deps" "$tmp/out.log" ||
    no "no line saying what was fetched"
grep -q "TOTAL 80.0 / 80.0" "$tmp/out.log" || no "lab 1's reference did not grade 80 / 80"
ls "$kit"/build/deps/root/usr/include/cjson/cJSON.h >/dev/null 2>&1 || no "no cJSON header under build/deps"
[ $fail = 0 ] || { echo "--- what it printed:"; cat "$tmp/out.log"; exit 1; }
grep -A1 "ask your administrator" "$tmp/nonet.log"
grep "^deps:" "$tmp/out.log"
echo "ok   noroot: a user without root built and ran the grader on unpacked packages ($(( $(date +%s) - start )) s)"
