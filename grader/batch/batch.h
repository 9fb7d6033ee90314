/*
 * batch.h - what the batch driver's parts share: one student's record and
 * the helpers outside batch.c (the gradebook, the resume key, reading the
 * grader's status, the suite check before anyone is graded).
 */
#ifndef BATCH_H
#define BATCH_H

#include <stddef.h>

#include "jval.h"

enum { K_DIR, K_ZIP, K_TGZ, K_TAR };

typedef struct {
    char *name;  /* student name */
    char *path;  /* folder or archive */
    int kind;
    int ran;     /* graded in this run */
    int done;
    double seconds; /* NAN when unknown */
    char status[24];
    char note[400];
    char dup_note[300]; /* other submissions under the same name, not graded */
    char key[160];      /* resume key (gradekey.h) of this grading */
    jv *json;
} student;

/* csv.c: the gradebook, one row per student, written atomically; -1 when
 * it cannot be written, -2 when rows mix maxima (written, and each such
 * row named on stderr: a result graded under another suite). */
int write_csv(const char *path, student *st, int nst);
/* "12.5", "3" (no trailing zeros), "" for NaN. */
void fmt_num(double x, char *buf, size_t len);

/* results.c: a results.json the batch accepts (score, tests, and the
 * grader's extra_data.status), and the student's status and note from it. */
int valid_results(const jv *j);
void classify(student *s);

/* names.c: a second submission under a student's name: keep one by a fixed
 * rule (the first name in sort order: "bob" before "bob.tgz") and note the
 * other in the gradebook.  kind/path are the other one's. */
void note_duplicate(student *kept, char *path, int kind);

/* precheck.c: the lab's suite through `grader labN --validate-suite`;
 * 0 when valid, else the grader's exit status (its message on stderr). */
int check_suite_first(const char *grader, const char *lab);

/* gradekey.c: the resume key of a student's grading, "suite=H submission=H
 * kit=H options=..." (hashes of the lab's suite files, the submission's
 * folder or archive, the kit's grader, harness, Makefile and reference).
 * A result is reused only when its saved key is the current one. */
void grade_key(const char *top, const char *lab, const student *s, const char *options,
               char *out, size_t len);
/* 1 when keyfile holds key; else 0 with the parts that differ in changed. */
int key_is_current(const char *keyfile, const char *key, char *changed, size_t len);
int key_save(const char *keyfile, const char *key);

#endif /* BATCH_H */
