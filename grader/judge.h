/*
 * judge.h - a case's verdict, decided in the grader's own process from
 * how its run ended (launch.h): the input is regenerated from the seed, the
 * reference computed here, and the raw output read back from the file the
 * binary wrote.  Nothing the binary says about its result is believed;
 * only its times are read from its result file, and speed.c bounds them
 * by a device copy's.
 */
#ifndef JUDGE_H
#define JUDGE_H

#include "grade.h"
#include "launch.h"
#include "logtext.h"

/* The verdict for case c from its run (launch.h): how it ended, what its
 * log said and, when it ended well, its result files (the .bin is removed
 * once judged). */
void judge_run(const run_plan *plan, const suite_case *c, const case_run *run, test_result *t);

/* Run case c alone as planned and judge it: launch_case, then judge_run.
 * Many cases in one process: unit.h. */
void judge_case(const run_plan *plan, const suite_case *c, test_result *t);

/* A run that never ended: a timeout, or the emulator's deadlock report. */
int test_hung(const test_result *t);

#endif /* JUDGE_H */
