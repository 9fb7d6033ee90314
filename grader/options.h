/*
 * options.h - the grader's command line (./grade labN [options]): what
 * each option sets, read with getopt_long (--opt VALUE and --opt=VALUE).
 */
#ifndef OPTIONS_H
#define OPTIONS_H

#include <stdio.h>

#include "isolation.h"

typedef struct {
    const char *lab;
    const char *submissions[16];
    int nsubmissions;
    const char *json;
    int emu;        /* force the emulator */
    int no_speed;
    int keep;       /* keep the scratch folder */
    int lanes;      /* --lanes, or 0: correctness.h's default */
    int sanitize;   /* compute-sanitizer on a case of each group */
    int check_suite;    /* grade the reference solution; full marks expected */
    int validate_suite; /* only load the suite (and its hidden part) */
    const char *suites; /* --suites: the suites' folder, else grader/suites (the
                         * instructor's option, never a student's: a test's fixture) */
    double timeout; /* per run; 0 = backend default */
    sandbox_policy policy; /* where students' code cannot be isolated (isolation.h) */
} grade_opts;

/* Fill o from the command line (and GRADE_SANDBOX); -1 after a message on
 * stderr.  --help prints the usage and exits 0. */
int grade_parse_args(int argc, char **argv, grade_opts *o);
void grade_usage(FILE *f);

#endif /* OPTIONS_H */
