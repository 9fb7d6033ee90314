/*
 * trace_run.cu - --trace FILE: the emulator records the lab's first run
 * (trace_run.h), so that common/tools/draw.py can draw it.  The note says
 * which case it is (draw.py computes the right outputs from it and the
 * recorded input); "in" and "out" name the allocations it draws.
 */
#include "trace_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "cuda_exit.h"
#include "kit.h"
#include "variants.h"

#ifdef __CUEMU__
#include "cuemu_trace.h"
#endif

/* Start or stop the recorder around the first run (see trace_run.h). */
void trace_run(const cli_opts *o, const lab_variant *v, const lab_problem *p, int start,
               unsigned long long moved[3])
{
#ifdef __CUEMU__
    if (o->traffic && start)
        cuemuTrafficStart();
    if (o->traffic && !start)
        cuemuTrafficRead(moved);
    if (!o->trace)
        return;
    if (!start) {
        cuemuTraceStop();
        return;
    }
    if (cuemuTraceStart(o->trace) != 0)
        exit(EXIT_USAGE);
    kind_t k;
    char err[200];
    if (variant_kind(v, &k, err, sizeof err) != 0) { /* (checked before any run) */
        fprintf(stderr, "%s\n", err);
        exit(EXIT_USAGE);
    }
    kind_params kp = case_params(o, v, k);
    char note[512];
    snprintf(note, sizeof note,
             "\"lab\":\"%s\",\"variant\":\"%s\",\"kind\":\"%s\",\"n\":%zu,\"dtype\":\"%s\","
             "\"op\":\"%s\",\"exclusive\":%d,\"section\":%zu,\"seed\":%llu",
             LAB.name, v->name, kind_name(k), o->n, dtype_name(o->dtype), op_name(o->op),
             o->exclusive, kp.section, (unsigned long long)o->seed);
    cuemuTraceNote(note);
    cuemuTraceName(p->in, "in");
    cuemuTraceName(p->out, "out");
#else
    (void)o, (void)v, (void)p, (void)start, (void)moved;
#endif
}
