#!/bin/sh
# timed.sh - run one of make test's steps and say how long it took, so that
# a slow `make test` shows where its time goes:  sh tests/timed.sh CMD ARGS...
# Exit status: the step's.
s=$(date +%s)
"$@"
rc=$?
echo "time: $* took $(( $(date +%s) - s )) s"
exit $rc
