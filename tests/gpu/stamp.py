#!/usr/bin/env python3
"""stamp.py CMD... - run CMD, print each line of its standard output and
error prefixed with the seconds since CMD started, then "ncu: end" with
the total (device-witness-phases.sh reads ncu's phases from it)."""
import subprocess
import sys
import time


def main():
    t0 = time.monotonic()
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    for line in proc.stdout:
        print(f"{time.monotonic() - t0:8.3f} s: {line.rstrip()}", flush=True)
    rc = proc.wait()
    print(f"{time.monotonic() - t0:8.3f} s: ncu: end (exit {rc})", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
