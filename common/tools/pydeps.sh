#!/bin/sh
# pydeps.sh - make sure python3 can import matplotlib (grader/batch/plot.py).
# usage: pydeps.sh [--warn]
# The python3 on PATH may be Debian's (/usr/bin/python3: apt-get's
# python3-matplotlib serves it) or another one (pyenv, conda, a venv: only pip
# reaches it), so the install goes to whichever python3 the kit will run.
# With --warn a missing module that cannot be installed here is a warning
# (exit 0): only the class-distribution plot needs it.
set -u
warn=0
[ "${1:-}" = "--warn" ] && warn=1
py=$(command -v python3) || { echo "pydeps: python3 not found" >&2; exit 1; }
python3 -c "import matplotlib" 2>/dev/null && exit 0

real=$(readlink -f "$py")
echo "pydeps: matplotlib is missing for $py"
case "$real" in
/usr/bin/python3*)
    # Debian's python: its package, through deps.sh (root, sudo, or the command)
    sh "$(dirname "$0")/deps.sh" python3-matplotlib >&2 || true
    hint="sudo apt-get install -y python3-matplotlib" ;;
*)
    # Not the system python: pip installs into it (as root, or with --user).
    user="--root-user-action=ignore"
    [ "$(id -u)" = 0 ] || user="--user"
    cmd="python3 -m pip install --quiet --disable-pip-version-check $user matplotlib"
    $cmd || true
    hint="$cmd" ;;
esac
python3 -c "import matplotlib" 2>/dev/null && { echo "pydeps: matplotlib installed"; exit 0; }
echo "pydeps: could not install matplotlib; run this and try again:" >&2
echo "    $hint" >&2
[ $warn = 1 ] && { echo "pydeps: (going on: only grader/batch/plot.py needs it)" >&2; exit 0; }
exit 1
