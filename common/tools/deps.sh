#!/bin/sh
# deps.sh - make sure the Debian packages the kit needs are installed.
# usage: deps.sh PACKAGE...
# Installs the missing ones with apt-get when running as root (or through
# sudo without a password); otherwise prints the exact command and fails.
set -u
missing=""
for pkg in "$@"; do
    if command -v dpkg-query >/dev/null 2>&1; then
        status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
        case "$status" in *"install ok installed"*) continue ;; esac
        missing="$missing $pkg"
    fi
done
if ! command -v dpkg-query >/dev/null 2>&1; then
    # Not Debian: say what is needed and let the build tell whether it is there.
    echo "deps: not a Debian-like system; make sure these (or your distribution's" >&2
    echo "      equivalents) are installed:$(printf ' %s' "$@")" >&2
    exit 0
fi
[ -z "$missing" ] && exit 0

echo "deps: missing packages:$missing"
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "deps: run this (as root) and try again:" >&2
    echo "    sudo apt-get install -y$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet; retry once after updating.
$SUDO apt-get install -y --no-install-recommends $missing ||
    { $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends $missing; } ||
    { echo "deps: apt-get failed; install by hand:$missing" >&2; exit 1; }
