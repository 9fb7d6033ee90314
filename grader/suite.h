/*
 * suite.h - a lab's test description (grader/suites/labN.suite): which
 * files a submission consists of, the groups of tests with their points,
 * and the speed tests.  Instructors add (hidden) cases by editing the file;
 * no code changes.  The format is documented at the top of each suite.
 */
#ifndef SUITE_H
#define SUITE_H

#include "kinds/kinds.h"

#define SUITE_MAX_GROUPS 16
#define SUITE_MAX_CASES 512
#define SUITE_MAX_SPEED 8
#define SUITE_TEXT 160
#define SUITE_MAX_VARIANTS 8
/* Hidden groups live apart, in grader/suites/hidden/labN.suite: make dist leaves
 * that folder out, so students never read them. */
#define SUITE_HIDDEN_DIR "hidden"

typedef enum { VIS_VISIBLE = 0, VIS_HIDDEN = 1, VIS_AFTER_DUE = 2 } visibility_t;

typedef struct {
    char id[32];
    char title[SUITE_TEXT];
    char hint[SUITE_TEXT];  /* which TODOs the group exercises */
    double points;
    visibility_t visibility;
    int line;               /* where it is defined (for messages) */
} suite_group;

/* One test: one run of the lab binary. */
typedef struct {
    int group;              /* index into groups */
    char variant[32];
    kind_t kind;            /* what the variant computes: the grader's own word */
    size_t section;         /* section scans: elements per section */
    op_t op;
    dtype_t dtype;
    dist_t dist;
    size_t n;
    uint64_t seed;
    int exclusive;
    int order, tuple;       /* decodes (lab 7): order k and tuple size d, else 1 */
    pred_t pred;            /* compactions (lab 7): the predicate */
    char tol[32];           /* float association depth spec (check.h) */
    int emu_skip;           /* too large for the emulator: run only on a GPU */
    size_t emu_n;           /* the emulator's stand-in size for an n above emu_max
                               (emu_n=; 0: none, the case is skipped there) */
    char schedule[24];      /* run on the CPU emulator with this CUEMU_SCHEDULE, even
                               where there is a GPU ("" = the machine's backend) */
    int emu_threads;        /* CUEMU_THREADS for such a run (0 = emulator default) */
    char emu_memory[24];    /* CUEMU_MEMORY of every emulator run ("" = its default),
                               from the lab line's emu_memory= */
    visibility_t visibility;
} suite_case;

/* A speed test: student vs reference at one size, only when the group passed. */
typedef struct {
    int group;
    char variant[32];
    kind_t kind;
    size_t section;
    op_t op;
    dtype_t dtype;
    int exclusive;
    int order, tuple;       /* decodes (lab 7) */
    pred_t pred;            /* compactions (lab 7) */
    size_t n;
    double points;
} suite_speed;

/* compute-sanitizer tools run by `./grade --sanitize` (bit mask). */
enum { SAN_MEMCHECK = 1, SAN_RACECHECK = 2, SAN_SYNCCHECK = 4, SAN_INITCHECK = 8, SAN_ALL = 15 };
#define SAN_TOOL_COUNT 4 /* bits of SAN_ALL: tool t is bit 1 << t */

/* The sanitize directive: which tools, how much a finding costs, how large a
 * case they run (sanitizers slow a kernel down 10-100x). */
typedef struct {
    int tools;              /* SAN_* mask */
    double penalty;         /* fraction of a group's points taken off per tool that
                               reports an error on the group's case */
    size_t max_n;           /* the case's n is clamped to this */
} suite_sanitize;

typedef struct {
    char lab[16];           /* "lab1" */
    char dir[64];           /* "lab1-reduce-naive" */
    char files[8][64];      /* the files a submission provides */
    char forbid[256];       /* extra forbidden words, comma-separated (forbid.h) */
    char emu_memory[24];    /* lab line's emu_memory=: strong | weak[:SEED] */
    int nfiles;
    char variants[SUITE_MAX_VARIANTS][32]; /* the lab's variants (lab.h) a case may name */
    int nvariants;
    int hidden_from;        /* groups from this index on come from the hidden suite */
    suite_group groups[SUITE_MAX_GROUPS];
    int ngroups;
    suite_case cases[SUITE_MAX_CASES];
    int ncases;
    suite_speed speed[SUITE_MAX_SPEED];
    int nspeed;
    suite_sanitize sanitize; /* defaults: all three tools, 0.25, 2^16 */
} suite;

/* Parse a suite from text; on error return -1 with "line N: what" in err.
 * Strict: an unknown key, variant, operator, type or value is an error. */
int suite_parse(const char *text, suite *s, char *err, size_t errlen);
/* Add a hidden suite's groups and cases to s (parsed by suite_parse): only
 * group and cases lines, every group hidden (default after_due_date), its
 * cases only in its own groups, so no visible score depends on them. */
int suite_parse_hidden(const char *text, suite *s, char *err, size_t errlen);
/* The suite as the CPU emulator grades it: each case above its line's
 * emu_max that names an emu_n runs at that size instead of n (not skipped). */
void suite_for_emulator(suite *s);
/* Read and parse a file (errors: "PATH: line N: what"). */
int suite_load(const char *path, suite *s, char *err, size_t errlen);
/* A lab's whole suite: DIR/LAB.suite, then DIR/hidden/LAB.suite when that
 * exists; 1 in *has_hidden when it did (has_hidden may be NULL). */
int suite_load_lab(const char *dir, const char *lab, suite *s, int *has_hidden, char *err,
                   size_t errlen);

#endif /* SUITE_H */
