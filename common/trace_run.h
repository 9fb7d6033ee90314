/*
 * trace_run.h - a lab binary's --trace FILE (make draw): the CPU emulator's
 * recorder (common/emu/include/cuemu_trace.h) is on for the lab's first run
 * only, with the case and the allocations of its input and output named.
 * A GPU build never records (cli validation refuses --trace there).
 */
#ifndef TRACE_RUN_H
#define TRACE_RUN_H

#include "cli.h"
#include "lab.h"

/* start 1: before the lab's first run; 0: after it (no-op without --trace). */
void trace_run(const cli_opts *o, const lab_variant *v, const lab_problem *p, int start);

#endif /* TRACE_RUN_H */
