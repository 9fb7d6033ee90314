/*
 * slurm_share.c - the two sides of a Slurm class that run on the cluster.
 * An array task reads STATE/roster (the names the submission left to
 * grade, NUL-terminated), grades entries i*K .. i*K+K-1 for task i, and
 * leaves STATE/status-N for each (N: the entry's place in the roster): the
 * status, seconds and note its grading ended with, which a local batch
 * keeps in memory (a timeout or a refused archive has no results.json), or
 * "result" where a results.json holds them.
 * The merge job loads every current results.json as a resume would, and
 * those records for the students that have none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "tunables.h"

/* The roster: its names (pointers into one buffer), how many; -1 when it
 * cannot be read (said). */
static int read_roster(const char *state, char **buf, char ***names)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/roster", state);
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, len = 0, got;
    *buf = malloc(cap + 1);
    while (f && *buf && (got = fread(*buf + len, 1, cap - len, f)) > 0)
        if ((len += got) == cap && !(*buf = realloc(*buf, (cap *= 2) + 1)))
            break;
    if (!f || !*buf || ferror(f)) {
        batch_say(stderr, "batch: cannot read %s: %s\n", path, strerror(errno));
        if (f) fclose(f);
        return -1;
    }
    fclose(f);
    (*buf)[len] = '\0';
    int n = 0;
    for (size_t i = 0; i < len; i++) n += (*buf)[i] == '\0';
    *names = calloc((size_t)n + 1, sizeof **names);
    n = 0;
    for (size_t i = 0; *names && i < len; i += strlen(*buf + i) + 1)
        (*names)[n++] = *buf + i;
    return *names ? n : -1;
}

/* The student of that name in the batch, or NULL (gone since). */
static student *by_name(batch *b, const char *name)
{
    for (int i = 0; i < b->nst; i++)
        if (strcmp(b->st[i].name, name) == 0)
            return &b->st[i];
    return NULL;
}

/* This task's index (SLURM_ARRAY_TASK_ID), or -1 (said). */
static int task_index(void)
{
    const char *id = getenv("SLURM_ARRAY_TASK_ID");
    char *end;
    long i = id ? strtol(id, &end, 10) : -1;
    if (!id || !*id || *end || i < 0 || i > 1000000)
        return batch_say(stderr, "batch: --slurm-task runs in a Slurm array task "
                                 "(SLURM_ARRAY_TASK_ID is '%s')\n", id ? id : ""), -1;
    return (int)i;
}

int slurm_take_share(batch *b)
{
    char *buf, **names, options[64];
    int n = read_roster(b->sl.state, &buf, &names), task = task_index(), todo = 0;
    if (n < 0 || task < 0)
        return -1;
    key_options(b, options, sizeof options);
    for (int i = 0; i < b->nst; i++)
        b->st[i].done = 1; /* not this task's */
    for (int k = task * b->sl.per_task; k < n && k < (task + 1) * b->sl.per_task; k++) {
        student *s = by_name(b, names[k]);
        if (!s) {
            batch_say(stderr, "batch: %s: no longer in the folder\n", names[k]);
            continue;
        }
        grade_key(b->top, b->lab, s, options, s->key, sizeof s->key);
        s->done = 0;
        todo++;
    }
    b->jobs = 1; /* one student after another, on the task's GPU */
    b->uid_offset = task % SLURM_UID_SPREAD;
    batch_say(stderr, "batch: task %d: %d student(s) of %d in the roster\n", task, todo, n);
    return todo;
}

void slurm_record(const batch *b)
{
    char *buf, **names, path[PATH_MAX];
    int n = read_roster(b->sl.state, &buf, &names);
    for (int k = 0; k < n; k++) {
        student *s = by_name((batch *)b, names[k]);
        if (!s || !s->ran)
            continue;
        snprintf(path, sizeof path, "%s/status-%d", b->sl.state, k);
        FILE *f = fopen(path, "w");
        /* three lines, the note last (one line); "result" for a results.json */
        if (!f || fprintf(f, "%s\n%.3f\n%s\n", s->json ? "result" : s->status, s->seconds,
                          s->json ? "" : s->note) < 0 ||
            fclose(f) != 0)
            batch_say(stderr, "batch: cannot write %s: %s\n", path, strerror(errno));
    }
}

/* Student s's record from path, when there is one: 1 when loaded. */
static int load_record(student *s, const char *path)
{
    char status[64], secs[64], note[sizeof s->note];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(status, sizeof status, f) && fgets(secs, sizeof secs, f);
    if (!fgets(note, sizeof note, f))
        note[0] = '\0';
    fclose(f);
    if (!ok)
        return 0;
    status[strcspn(status, "\n")] = '\0';
    note[strcspn(note, "\n")] = '\0';
    if (strcmp(status, "result") == 0) { /* the results.json's, when still current */
        if (s->json)
            s->seconds = strtod(secs, NULL); /* the task's wall time, as a local batch's */
        return s->json != NULL;
    }
    s->seconds = strtod(secs, NULL);
    snprintf(s->status, sizeof s->status, "%s", status);
    snprintf(s->note, sizeof s->note, "%s", note);
    s->done = s->ran = 1;
    return 1;
}

void slurm_merge_load(batch *b)
{
    char *buf, **names, path[PATH_MAX];
    int n = read_roster(b->sl.state, &buf, &names), missing = 0;
    for (int k = 0; k < n; k++) {
        student *s = by_name(b, names[k]);
        if (!s)
            continue;
        snprintf(path, sizeof path, "%s/status-%d", b->sl.state, k);
        if (!load_record(s, path) && !s->done)
            missing++;
    }
    if (missing)
        batch_say(stderr, "batch: %d student(s) of the roster have no result (a task failed or "
                          "was cancelled: see %s/task-*.out); the same --slurm command "
                          "submits them again\n", missing, b->sl.state);
}
