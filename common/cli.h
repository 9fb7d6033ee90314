/*
 * cli.h - the command line of every lab binary.  Parsing is separate from
 * main() so the tests can feed it argument vectors.
 */
#ifndef CLI_H
#define CLI_H

#include "kit.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_MAX_N ((size_t)1 << 30)

typedef struct {
    size_t n;
    uint64_t seed;
    dtype_t dtype;
    op_t op;
    dist_t dist;
    int exclusive;
    int order;           /* --order K: decode order (lab 7; default 1) */
    int tuple;           /* --tuple D: decode tuple size (lab 7; default 1) */
    pred_t pred;         /* --pred P: compaction predicate (lab 7; default positive) */
    const char *variant; /* NULL: the lab's default */
    int reps;            /* timed runs after warm-up; 0 = check only */
    int warmup;
    double timeout_s;    /* a run (all repetitions) past this is a timeout */
    const char *out;     /* PREFIX for PREFIX.json / PREFIX.bin, or NULL */
    int verify;          /* --verify R: R more launches, each output checked */
    int list;            /* --list: print the variants and exit */
    int quiet;
    const char *cases;    /* --cases FILE: run every case of FILE (caselist.h) */
    const char *progress; /* --progress FILE: where --cases records each case */
    int graded;           /* --graded: the grader judges the raw output, so the
                             binary's own check is left out */
    int no_raw;           /* --no-raw: with --out, PREFIX.json only (timing runs of a
                             trusted reference: nobody reads its raw output) */
    int exact;            /* --exact: buffers of exactly n elements, no guard band and
                             no poison (runs under compute-sanitizer) */
    int witness;          /* --witness: the harness launches no kernel of its own
                             (input and poison are copied up from the host, the
                             repeat check is done on the host), so every kernel a
                             profiler outside the process sees is the lab's */
    int witness_mark;     /* --witness-mark K (-1: none): with --witness, the case
                             starts with the kit's marker kernel (witness_mark.h) */
    const char *trace;    /* --trace FILE: the emulator records the first launch of the
                             lab's run into FILE (make draw; cuemu_trace.h) */
    int traffic;          /* --traffic: the emulator counts the global memory traffic of
                             the first run (traffic_* in PREFIX.json; the grader's
                             speed line on the emulator) */
} cli_opts;

enum { CLI_OK = 0, CLI_HELP = 1, CLI_ERROR = 2 };

void cli_defaults(cli_opts *o);

/* Parse argv; on CLI_ERROR, err holds one line saying what was wrong. */
int cli_parse(int argc, char **argv, cli_opts *o, char *err, size_t errlen);

/* Parse a size: decimal digits, or 2^k; at most CLI_MAX_N.  0 on success. */
int cli_parse_size(const char *s, size_t *out);

/* The usage text (the program name is substituted). */
void cli_usage(FILE *f, const char *prog);

#ifdef __cplusplus
}
#endif
#endif /* CLI_H */
