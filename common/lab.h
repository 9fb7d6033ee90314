/*
 * lab.h - the contract between the harness (which owns main) and a lab's
 * .cu file.  A lab defines `const lab_def LAB` listing its variants; the
 * harness allocates and fills device buffers, calls a variant's run(), and
 * checks and times what it wrote.
 */
#ifndef LAB_H
#define LAB_H

#include "kit.h"

/* One problem instance, as the lab's host code sees it. */
typedef struct {
    const void *in; /* device input: n elements of dtype */
    void *out;      /* device output (its length is the kind's); a guard band follows */
    size_t n;
    dtype_t dtype;
    op_t op;
    int exclusive;    /* scans: exclusive instead of inclusive */
    const void *args; /* the kind's own arguments, or NULL: common/kinds/KIND.h says */
} lab_problem;

/* A kernel (or kernel sequence) the lab can run. */
typedef struct {
    const char *name;    /* used with --variant and in the grader's suite */
    const char *summary; /* one line for --list */
    const char *kind;    /* what it computes: "reduce", "scan", ... (common/kinds/) */
    size_t max_n;        /* largest n it handles; 0 = any */
    const char *tol;     /* float association depth for the self-check (check.h tol_depth) */
    /* Enqueue the work on the default stream.  Returns cudaSuccess (0) or the
     * error it detected; the harness checks cudaGetLastError afterwards too. */
    int (*run)(const lab_problem *p);
    const void *args;    /* the kind's description of the variant, or NULL (common/kinds/) */
} lab_variant;

typedef struct {
    const char *name;  /* e.g. "lab1-reduce-naive" */
    const char *title; /* one line */
    const lab_variant *variants;
    int count;
    int default_variant;
} lab_def;

/* Every lab .cu defines this. */
extern const lab_def LAB;

#endif /* LAB_H */
