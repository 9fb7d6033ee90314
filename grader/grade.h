/*
 * grade.h - what one grading run produces, shared by the orchestration
 * (main.c, judge.c) and the output (report.c).
 */
#ifndef GRADE_H
#define GRADE_H

#include <stdio.h>

#include "score.h"
#include "suite.h"

typedef struct {
    verdict_t verdict;
    char detail[1024];
    double ms;          /* median kernel time reported by the run, or NaN */
    double gbps, copy_gbps;
    char device[96];    /* the device the run reported, or "" */
} test_result;

typedef struct {
    verdict_t verdict;
    double t_student, t_ref; /* median ms, best of the rounds */
    double gbps, copy_gbps;  /* the student's, and the copy yardstick's */
    double points;
    char detail[512];
} speed_result;

typedef struct {
    const suite *s;
    char submission[1024];
    const char *backend;     /* "gpu" or "emu" */
    char device[256];
    int speed_graded;        /* 0 without a GPU or with --no-speed */
    const char *no_speed_why; /* why not, for the report */
    char build_log[4096];    /* tail of the compiler output when the build failed */
    int build_failed;
    char forbidden[512];     /* why the submission was refused, or "" */
    char isolation[1024];    /* why students' code ran without its filesystem view, or "" */
    test_result tests[SUITE_MAX_CASES];
    speed_result speed[SUITE_MAX_SPEED];
    /* --sanitize: per group, the case run and each tool's result (verdict
     * SKIPPED where a tool was not run) */
    int sanitize;            /* asked for */
    char sanitize_why[256];  /* why nothing was sanitized, or "" */
    suite_case san_case[SUITE_MAX_GROUPS];
    test_result san[SUITE_MAX_GROUPS][3];
    double san_taken[SUITE_MAX_GROUPS]; /* points taken off for findings */
    double group_points[SUITE_MAX_GROUPS];
    int group_passed[SUITE_MAX_GROUPS], group_run[SUITE_MAX_GROUPS];
    double total, max_total;
    double build_seconds; /* set-up and builds (nvcc's time, mostly) */
    double seconds;       /* running and judging the tests */
} grade_run;

/* Add up group and speed points into g->total / g->max_total, less the
 * suite's penalty for each sanitizer tool that found errors in a group. */
void tally(grade_run *g);

/* The table a student reads. */
void print_report(const grade_run *g, FILE *f);
/* Gradescope's results.json. */
int write_results_json(const grade_run *g, const char *path);

#endif /* GRADE_H */
