/*
 * options.c - the grader's command line, read with getopt_long; the usage
 * text is the list of options, each with what it does.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_exit.h"
#include "options.h"
#include "tunables.h"

enum { O_SUBMISSION = 256, O_JSON, O_TIMEOUT, O_EMU, O_NO_SPEED, O_SANITIZE, O_SANDBOX, O_KEEP,
       O_CHECK_SUITE, O_VALIDATE_SUITE, O_LANES, O_SUITES };

/* The options, on stdout when asked for, on stderr after a mistake. */
void grade_usage(FILE *f)
{
    fprintf(f,
            "usage: ./grade labN [options]\n"
            "Builds your copy of lab N (labs/labN-*/), runs the lab's test suite\n"
            "(grader/suites/labN.suite), and prints a score table.\n"
            "  --submission PATH  grade the lab files at PATH (a folder, or the files\n"
            "                     themselves; may be repeated) instead of labs/labN-*/\n"
            "  --json FILE        also write Gradescope's results.json to FILE\n"
            "  --emu              use the CPU emulator even when a GPU is present\n"
            "  --no-speed         skip the speed tests\n"
            "  --sanitize         also run compute-sanitizer (memcheck, racecheck,\n"
            "                     synccheck, initcheck) on one small case of each group (GPU only;\n"
            "                     findings cost points as the lab's suite says)\n"
            "  --timeout SEC      limit per run (default %.0f on a GPU, %.0f emulated)\n"
            "  --keep             keep the scratch folder (its path is printed)\n"
            "  --lanes N          run N test groups at once (default on a GPU: one per\n"
            "                     two cores, emulated one per core; at most %d; on a\n"
            "                     GPU the groups' [emu] tests run in as many more)\n"
            "  --sandbox MODE     where students' code cannot be isolated from the kit\n"
            "                     (no namespaces here): refuse (the default where the\n"
            "                     kit has solutions/) or unsandboxed (the default in a\n"
            "                     student's copy); also GRADE_SANDBOX=MODE\n"
            "  --check-suite      instructors: grade the reference solution (solutions/)\n"
            "                     with the suite; exit 5 unless it gets full marks\n"
            "  --validate-suite   instructors: only check the suite (and its hidden part,\n"
            "                     grader/suites/hidden/labN.suite); exit 4 when invalid\n"
            "  --suites DIR       instructors and the kit's tests: read DIR/labN.suite and\n"
            "                     DIR/hidden/labN.suite instead of grader/suites/ (keep DIR\n"
            "                     out of what students' code sees: not in common/ or labs/)\n"
            "  -h, --help         this text\n"
            "Exit status: 0 graded (whatever the score), 2 usage, 3 the grader could not\n"
            "work, 4 the suite is invalid, 5 --check-suite: the reference lost points.\n",
            LIMIT_RUN_GPU_S, LIMIT_RUN_EMU_S, LANES_MAX);
}

/* One option of the command line into o; 0, or -1 with the message said. */
static int take_option(int c, const char *arg, grade_opts *o)
{
    char *end;
    switch (c) {
    case O_SUBMISSION:
        if (o->nsubmissions == 16) return fprintf(stderr, "grade: too many --submission\n"), -1;
        o->submissions[o->nsubmissions++] = arg;
        return 0;
    case O_JSON: o->json = arg; return 0;
    case O_TIMEOUT:
        o->timeout = strtod(arg, &end);
        if (!*arg || *end || !(o->timeout > 0 && o->timeout <= 3600))
            return fprintf(stderr, "grade: bad --timeout '%s' (seconds, up to 3600)\n", arg), -1;
        return 0;
    case O_EMU: o->emu = 1; return 0;
    case O_NO_SPEED: o->no_speed = 1; return 0;
    case O_SANITIZE: o->sanitize = 1; return 0;
    case O_SANDBOX:
        if (isolation_parse_policy(arg, &o->policy) || !*arg)
            return fprintf(stderr, "grade: --sandbox '%s': refuse or unsandboxed\n", arg), -1;
        return 0;
    case O_KEEP: o->keep = 1; return 0;
    case O_LANES:
        o->lanes = (int)strtol(arg, &end, 10);
        if (!*arg || *end || o->lanes < 1 || o->lanes > LANES_MAX)
            return fprintf(stderr, "grade: bad --lanes '%s' (1 to %d)\n", arg, LANES_MAX), -1;
        return 0;
    case O_CHECK_SUITE: o->check_suite = 1; return 0;
    case O_VALIDATE_SUITE: o->validate_suite = 1; return 0;
    case O_SUITES: o->suites = arg; return 0;
    }
    return -1;
}

int grade_parse_args(int argc, char **argv, grade_opts *o)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"submission", required_argument, NULL, O_SUBMISSION},
        {"json", required_argument, NULL, O_JSON},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"emu", no_argument, NULL, O_EMU},
        {"no-speed", no_argument, NULL, O_NO_SPEED},
        {"sanitize", no_argument, NULL, O_SANITIZE},
        {"sandbox", required_argument, NULL, O_SANDBOX},
        {"keep", no_argument, NULL, O_KEEP},
        {"lanes", required_argument, NULL, O_LANES},
        {"check-suite", no_argument, NULL, O_CHECK_SUITE},
        {"validate-suite", no_argument, NULL, O_VALIDATE_SUITE},
        {"suites", required_argument, NULL, O_SUITES},
        {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    if (isolation_parse_policy(getenv("GRADE_SANDBOX"), &o->policy))
        return fprintf(stderr, "grade: GRADE_SANDBOX='%s' is not refuse or unsandboxed\n",
                       getenv("GRADE_SANDBOX")), -1;
    opterr = 0; /* the messages below, in the grader's words */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            grade_usage(stdout);
            exit(GRADE_OK);
        }
        if (c == '?')
            return fprintf(stderr, "grade: unknown or incomplete option '%s'\n",
                           argv[optind - 1]), -1;
        if (take_option(c, optarg, o))
            return -1;
    }
    if (optind < argc)
        o->lab = argv[optind++];
    if (optind < argc)
        return fprintf(stderr, "grade: unexpected argument '%s'\n", argv[optind]), -1;
    if (!o->lab)
        return fprintf(stderr, "grade: which lab? e.g. ./grade lab1\n"), -1;
    if (o->check_suite && o->nsubmissions)
        return fprintf(stderr, "grade: --check-suite grades the reference, not --submission\n"), -1;
    if (strncmp(o->lab, "lab", 3) != 0 || strlen(o->lab) > 8 || strchr(o->lab, '/'))
        return fprintf(stderr, "grade: '%s' is not a lab name (lab1, lab2, ...)\n", o->lab), -1;
    return 0;
}
