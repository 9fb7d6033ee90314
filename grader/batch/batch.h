/*
 * batch.h - what the batch driver's parts share: one student's record, the
 * batch's settings, and each part's entry points.  The parts: batch.c (the
 * command line and the set-up), roster.c (the students and their results),
 * sched.c (the workers), archive.c (unpacking), csv.c (the gradebook),
 * gradekey.c (the resume key), results.c, names.c, precheck.c, say.c (every
 * message, cleaned), slurm.c and slurm_share.c (a class on a Slurm cluster).
 */
#ifndef BATCH_H
#define BATCH_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "jval.h"

enum { K_DIR, K_ZIP, K_TGZ, K_TAR };

/* Exit codes of a student's child before it execs the grader (the
 * batch's own exit codes are in common/cuda_exit.h). */
enum { X_REFUSED = 90, X_UNPACK = 91, X_EXEC = 92, X_SETUP = 93 };

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
    int gpu;            /* the GPU it was graded on in this run, -1: none or unknown */
    jv *json;
} student;

/* A class on Slurm: what this process is (the instructor's submission, an
 * array task, the merge job) and the submission's options. */
enum { SL_NONE, SL_SUBMIT, SL_TASK, SL_MERGE };
typedef struct {
    int mode, dry_run, per_task;
    const char *partition, *gres, *account; /* NULL: the cluster's default */
    const char *state;      /* task and merge: the folder the submission wrote */
    char **extra;           /* sbatch options after "--" */
    int nextra;
    int key_gpu;            /* task and merge: the resume key's gpu part; -1: this host's */
} slurm_opts;

/* The batch: its settings (from the command line) and its students. */
typedef struct {
    const char *top, *lab;  /* the kit's folder; labN */
    char grader[PATH_MAX];  /* build/grader */
    char json_dir[PATH_MAX], scratch[PATH_MAX];
    int emu, no_speed, sanitize, redo;
    int jobs;               /* students graded at once */
    double limit;           /* seconds per student */
    int gpu_ids[64], ngpu;  /* CUDA_VISIBLE_DEVICES indices; 0 GPUs: none */
    int uid_offset;         /* added to each worker's sandbox uid (Slurm tasks) */
    int quiet_resume;       /* resume_one says nothing (the merge job) */
    slurm_opts sl;
    student *st;
    int nst;
} batch;

/* roster.c: the students of a folder (sorted by name; -1 when it cannot be
 * read); a student's file in the JSON folder; whether an earlier result
 * still stands (1, loaded); what a finished child left (its status). */
int list_students(batch *b, const char *dir);
void student_file(const batch *b, const student *s, const char *ext, char *out, size_t len);
int resume_one(const batch *b, student *s, const char *options);
/* The grading options of the resume key ("emu0,nospeed1,sanitize0,gpu1"). */
void key_options(const batch *b, char *out, size_t len);
void finish(const batch *b, student *s, int index, int ws, int timed_out, double seconds);

/* sched.c: grade every student not done yet, jobs at a time; 1 when
 * interrupted (what ran is kept), else 0.  find_gpus: the GPUs to use. */
int schedule(batch *b, int todo);
int find_gpus(int *ids, int max);
double now_s(void);

/* timing.c: where the time of this run's gradings went, per GPU (the
 * phases of each results.json), after the counts. */
void print_timing(const batch *b, double wall);

/* archive.c: check then unpack an archive into dest; 0, or X_REFUSED or
 * X_UNPACK with the reason on stdout (the student's report). */
int unpack(const char *archive, const char *dest);

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

/* say.c: print a batch message (printf's format and arguments) with its
 * text cleaned (text.h); every batch message goes through it. */
void batch_say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* slurm.c: submit the students left to grade as a job array and a merge
 * job (or print them: --slurm-dry-run); the batch's exit code.  csv and
 * dir are absolute. */
int slurm_submit(batch *b, const char *dir, const char *csv, int todo);
/* The submission's defaults (students per task, the gres, the resume key's
 * gpu part) before the resume; 0, or -1 on a mistake (said). */
int slurm_settle(batch *b);
/* slurm_share.c: an array task takes its share of the roster (the others
 * marked done; how many it grades, -1 on error) and records what each
 * graded student's run left for the merge; the merge job loads those
 * records for students without a result. */
int slurm_take_share(batch *b);
void slurm_record(const batch *b);
void slurm_merge_load(batch *b);

#endif /* BATCH_H */
