/*
 * unit.h - several test cases run by one process of a lab binary (its
 * --cases mode, common/caselist.h), each judged as if it had run alone.
 *
 * Why: starting a CUDA process costs 0.3 s of driver time, more than most
 * cases take; one process per case made grading a lab take a minute.
 *
 * What stays as it was: each case gets its own verdict from its own raw
 * output.  The process is launched (launch.h: launch_unit), and each case
 * judged (judge.h: judge_run) as the launcher hands it over: most as soon
 * as they have ended, while the later cases run.  When the
 * process dies part-way, the progress file says which case it was in:
 * that case gets the verdict of how the process ended (a crash or CUDA
 * error is first confirmed by running the case again alone, so that state
 * left by an earlier case cannot be blamed on it), and the cases after it
 * are the caller's to run again.
 */
#ifndef UNIT_H
#define UNIT_H

#include "judge.h"

/*
 * Run cases[0..count) in one process as planned (every case of a unit has
 * the same binary and emulator schedule) and judge them into out[].
 * Returns how many were settled, from the first: count when the process
 * went to the end, fewer when it died (at least 1).
 */
int run_unit(const run_plan *plan, const suite_case *const *cases, int count, test_result *out);

/* Two cases may share a process: the same binary, the same emulator
 * schedule and threads. */
int unit_compatible(const suite_case *a, const suite_case *b);

#endif /* UNIT_H */
