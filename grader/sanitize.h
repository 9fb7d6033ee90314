/*
 * sanitize.h - `./grade --sanitize`: compute-sanitizer's memcheck,
 * racecheck, synccheck and initcheck on two cases of each test group (its largest
 * n, clamped and made ragged, and its smallest),
 * on a GPU, with buffers of exactly the input's size (harness --exact).
 * A finding costs the group the suite's penalty (suite.h) and is reported
 * with the tool's own message.
 */
#ifndef SANITIZE_H
#define SANITIZE_H

#include "grade.h"
#include "judge.h"

/* "memcheck", "racecheck", "synccheck", "initcheck" for SAN_MEMCHECK, ... */
const char *sanitize_tool_name(int tool);

/*
 * The case of group g to run under the sanitizers: among the group's cases
 * that run on the machine's own backend (no emulator schedule), the one with
 * the largest n after clamping to the suite's max_n (the first such on a
 * tie); its n clamped, and made odd (ragged: the last section partial).  Returns 0 and fills *out, or -1 when the group has none.
 */
int sanitize_pick_case(const suite *s, int g, suite_case *out);

/*
 * The second case of group g, run by a tool that found nothing in the
 * first: the group's smallest n >= 2 below large->n (no emulator
 * schedule), unclamped and as written.  0 and *out, or -1 when there is
 * none.
 */
int sanitize_pick_small(const suite *s, int g, const suite_case *large, suite_case *out);

/*
 * compute-sanitizer's path: $COMPUTE_SANITIZER, else $CUDA_HOME/bin, else
 * PATH, else /usr/local/cuda/bin.  0 and the path in buf, or -1.
 */
int sanitize_locate(char *buf, size_t len);

/*
 * Run `tool` (one SAN_* bit) over case c as planned (plan->wrap is set
 * here); the run may take `slowdown` times the plan's time limit.  Fills r:
 * PASS when the tool reported nothing, SANITIZER with its message, or how
 * the run failed otherwise.
 */
void sanitize_case(const char *sanitizer, int tool, const run_plan *plan, double slowdown,
                   const suite_case *c, test_result *r);

#endif /* SANITIZE_H */
