/*
 * trace_run.h - a lab binary's --trace FILE (make draw): the CPU emulator's
 * recorder (common/emu/include/cuemu_trace.h) is on for the lab's first run
 * only, with the case and the allocations of its input and output named;
 * and --traffic: the global memory traffic of that run, counted.
 * A GPU build never records (cli validation refuses --trace there).
 */
#ifndef TRACE_RUN_H
#define TRACE_RUN_H

#include "cli.h"
#include "lab.h"

/* start 1: before the lab's first run; 0: after it (no-op without --trace
 * or --traffic).  With --traffic, after it moved[] holds the global bytes
 * loaded and stored and the atomics of the run (cuemuTrafficRead). */
void trace_run(const cli_opts *o, const lab_variant *v, const lab_problem *p, int start,
               unsigned long long moved[3]);

#endif /* TRACE_RUN_H */
