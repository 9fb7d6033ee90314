/*
 * sanitize.h - `./grade --sanitize`: compute-sanitizer's memcheck,
 * racecheck, synccheck and initcheck on one small case of each test group,
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
