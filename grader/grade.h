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
    unsigned pattern;   /* a wrong output's shape (diagnose.h PAT_*), or 0 */
    int gpu_oom;        /* CUDA-ERROR from out of device memory (EXIT_CUDA_OOM) */
    double moved[3];    /* --traffic: global bytes loaded, stored, and atomics, or NaN */
} test_result;

typedef struct {
    verdict_t verdict;
    double t_student, t_ref; /* median ms, best of the rounds */
    double gbps, copy_gbps;  /* the student's, and the copy yardstick's */
    double ref_copy_gbps;    /* the copy as the reference's process measured it (best) */
    char ref_device[96];     /* the GPU as the reference's process named it (witness_cache.h) */
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
    char emu_build_log[2048]; /* on a GPU: the tail of the CPU-emulator build's output when
                                 it failed (its [emu] tests then fail), else "" */
    char forbidden[512];     /* why the submission was refused, or "" */
    verdict_t file_verdict;  /* V_MISSING_FILE or V_AMBIGUOUS_FILE (why in build_log),
                                else V_PASS: the lab's files were found */
    char files[1024];        /* the submission's files graded, as found (pick.h) */
    char isolation[1024];    /* why students' code ran without its filesystem view, or "" */
    test_result tests[SUITE_MAX_CASES];
    speed_result speed[SUITE_MAX_SPEED];
    /* --sanitize: per group, the case run and each tool's result (verdict
     * SKIPPED where a tool was not run) */
    int sanitize;            /* asked for */
    char sanitize_why[256];  /* why nothing was sanitized, or "" */
    suite_case san_case[SUITE_MAX_GROUPS];
    suite_case san_small[SUITE_MAX_GROUPS]; /* the group's smallest case, or n = 0 */
    unsigned char san_on_small[SUITE_MAX_GROUPS][SAN_TOOL_COUNT]; /* the finding was there */
    test_result san[SUITE_MAX_GROUPS][SAN_TOOL_COUNT];
    double san_taken[SUITE_MAX_GROUPS]; /* points taken off for findings */
    double group_points[SUITE_MAX_GROUPS];
    int group_passed[SUITE_MAX_GROUPS], group_run[SUITE_MAX_GROUPS];
    double total, max_total;
    double speed_pending; /* speed points not graded here (no GPU, --no-speed): left out
                             of max_total, to be earned in a speed run on a GPU */
    double build_seconds; /* set-up and builds (nvcc's time, mostly) */
    double seconds;       /* running and judging the tests */
    /* Where the running went (report.c's extra_data.timing, the batch's
     * closing line): correctness, sanitizers, the speed rounds (the GPU
     * held alone) and the witness runs under ncu. */
    double t_correctness, t_sanitize, t_speed, t_witness;
    /* Of those, the seconds this grading waited for the GPU held alone,
     * held it so, and kept it from other graders' new runs (gpulock.h). */
    double t_gpu_wait, t_gpu_alone, t_gpu_kept;
} grade_run;

/* Add up group and speed points into g->total / g->max_total, less the
 * suite's penalty for each sanitizer tool that found errors in a group.
 * Speed that was not graded counts in neither: it goes to speed_pending,
 * so a total on the emulator reads as correctness out of correctness. */
void tally(grade_run *g);

/* The table a student reads: hidden groups (suite.h) only as a count and
 * their points, never their tests, hints or scores. */
void print_report(const grade_run *g, FILE *f);
/* What became of the submission, as one word the batch reads from the
 * results (graded, build failed, forbidden, missing file, ambiguous file),
 * and why in one line (reason; "" when graded). */
const char *grade_status(const grade_run *g, char *reason, size_t len);
/* Gather the suite's files from the submission paths (a folder, or the
 * files themselves; pick.h) into dest; 0 when all were found, else -1 with
 * g->file_verdict and the reason in g->build_log. g->files names them. */
int collect_submission(grade_run *g, const char *const *paths, int npaths, const char *dest);
/* Gradescope's results.json. */
int write_results_json(const grade_run *g, const char *path);

#endif /* GRADE_H */
