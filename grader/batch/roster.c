/*
 * roster.c - the students of a batch: who they are (one entry of the
 * submissions folder each), whether an earlier result of theirs still
 * stands, and what their grading left (a results.json, or why not).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "rmtree.h"

/* Does s end in suf (and hold more than it)? */
static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a > b && strcmp(s + a - b, suf) == 0;
}

/* qsort order of students: by name. */
static int by_name(const void *a, const void *b)
{
    return strcmp(((const student *)a)->name, ((const student *)b)->name);
}

/* Fill b->st[] from DIR; -1 when DIR cannot be read. */
int list_students(batch *b, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int cap = 0;
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        char path[PATH_MAX];
        struct stat sb;
        const char *n = e->d_name;
        static const struct { const char *suf; int kind; } sufs[] = {
            {".zip", K_ZIP}, {".tar.gz", K_TGZ}, {".tgz", K_TGZ}, {".tar", K_TAR}};
        if (n[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (stat(path, &sb))
            continue;
        int kind = -1;
        size_t keep = strlen(n);
        if (S_ISDIR(sb.st_mode)) {
            kind = K_DIR;
        } else if (S_ISREG(sb.st_mode)) {
            for (size_t k = 0; k < sizeof sufs / sizeof sufs[0] && kind < 0; k++)
                if (has_suffix(n, sufs[k].suf)) {
                    kind = sufs[k].kind;
                    keep -= strlen(sufs[k].suf);
                }
        }
        if (kind < 0) {
            batch_say(stderr, "batch: ignoring %s: not a folder or a .zip/.tar.gz/.tgz/.tar\n",
                    path);
            continue;
        }
        char *name = strndup(n, keep);
        int dup = -1;
        for (int i = 0; i < b->nst && dup < 0; i++)
            dup = strcmp(b->st[i].name, name) == 0 ? i : -1;
        if (dup >= 0) {
            note_duplicate(&b->st[dup], strdup(path), kind);
            free(name);
            continue;
        }
        if (b->nst == cap) {
            cap = cap ? cap * 2 : 64;
            b->st = realloc(b->st, sizeof *b->st * (size_t)cap);
            if (!b->st) { closedir(d); return -1; }
        }
        memset(&b->st[b->nst], 0, sizeof b->st[b->nst]);
        b->st[b->nst].name = name;
        b->st[b->nst].path = strdup(path);
        b->st[b->nst].kind = kind;
        b->st[b->nst].seconds = NAN;
        b->st[b->nst].gpu = -1;
        b->nst++;
    }
    closedir(d);
    if (b->nst)
        qsort(b->st, (size_t)b->nst, sizeof *b->st, by_name);
    return 0;
}

/* A student's file in the JSON folder: NAME.json, NAME.txt, NAME.key. */
void student_file(const batch *b, const student *s, const char *ext, char *out, size_t len)
{
    snprintf(out, len, "%s/%s%s", b->json_dir, s->name, ext);
}

/* gpu: a batch graded without a GPU (speed pending) is graded again on one.
 * On Slurm the submission decides it (a GPU was asked for), so that the
 * login node, the tasks and the merge job agree on every key. */
void key_options(const batch *b, char *out, size_t len)
{
    int gpu = b->sl.key_gpu >= 0 ? b->sl.key_gpu : b->ngpu > 0;
    snprintf(out, len, "emu%d,nospeed%d,sanitize%d,gpu%d", b->emu, b->no_speed, b->sanitize,
             gpu);
}

/* Is s's earlier result still its grade: valid, and graded under the
 * current resume key (suite, submission, kit, options)?  1, with it
 * loaded, when it is. */
int resume_one(const batch *b, student *s, const char *options)
{
    char json[PATH_MAX], keyfile[PATH_MAX], changed[120];
    grade_key(b->top, b->lab, s, options, s->key, sizeof s->key);
    student_file(b, s, ".json", json, sizeof json);
    student_file(b, s, ".key", keyfile, sizeof keyfile);
    jv *j = b->redo ? NULL : jv_parse_file(json);
    if (!valid_results(j) || !key_is_current(keyfile, s->key, changed, sizeof changed)) {
        if (valid_results(j) && !b->quiet_resume)
            batch_say(stderr, "batch: %s: graded again: %s changed\n", s->name, changed);
        jv_free(j);
        return 0;
    }
    s->json = j;
    s->done = 1;
    jv_num(j, "execution_time", &s->seconds);
    classify(s);
    return 1;
}

/* Last non-empty line of a file (a grader's error). */
static void last_line(const char *path, char *out, size_t len)
{
    char buf[4096];
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET);
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    while (got && (buf[got - 1] == '\n' || buf[got - 1] == '\r' || buf[got - 1] == ' '))
        buf[--got] = '\0';
    char *nl = strrchr(buf, '\n');
    snprintf(out, len, "%s", nl ? nl + 1 : buf);
}

/* Student s (the index-th) was graded: its child ended with wait status
 * ws (timed_out: the batch killed it).  Its status and note from what the
 * child left. */
void finish(const batch *b, student *s, int index, int ws, int timed_out, double seconds)
{
    char txt[PATH_MAX], part[PATH_MAX], json[PATH_MAX], tmp[PATH_MAX], why[300];
    student_file(b, s, ".txt", txt, sizeof txt);
    student_file(b, s, ".json.part", part, sizeof part);
    student_file(b, s, ".json", json, sizeof json);
    snprintf(tmp, sizeof tmp, "%s/%d", b->scratch, index);
    remove_tree(tmp);
    s->done = 1;
    s->ran = 1;
    s->seconds = seconds;
    s->note[0] = '\0';
    if (timed_out) {
        snprintf(s->status, sizeof s->status, "timeout");
        snprintf(s->note, sizeof s->note, "grading killed after %.0f s", seconds);
        FILE *f = fopen(txt, "a");
        if (f) {
            batch_say(f, "\nbatch: %s\n", s->note);
            fclose(f);
        }
        unlink(part);
        return;
    }
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    if (code == 0) {
        jv *j = jv_parse_file(part);
        if (valid_results(j) && rename(part, json) == 0) {
            s->json = j;
            classify(s);
            char keyfile[PATH_MAX];
            student_file(b, s, ".key", keyfile, sizeof keyfile);
            if (key_save(keyfile, s->key) != 0)
                batch_say(stderr, "batch: cannot write %s: it will be graded again\n", keyfile);
            return;
        }
        jv_free(j);
        snprintf(s->status, sizeof s->status, "grader error");
        snprintf(s->note, sizeof s->note, "the grader wrote no valid results.json");
        unlink(part);
        return;
    }
    unlink(part);
    last_line(txt, why, sizeof why);
    if (code == X_REFUSED || code == X_UNPACK) {
        snprintf(s->status, sizeof s->status, "unpack failed");
        snprintf(s->note, sizeof s->note, "%s", why);
    } else if (code < 0) {
        snprintf(s->status, sizeof s->status, "grader error");
        snprintf(s->note, sizeof s->note, "grader killed by signal %d", WTERMSIG(ws));
    } else {
        snprintf(s->status, sizeof s->status, "grader error");
        snprintf(s->note, sizeof s->note, "exit %d: %s", code, why);
    }
}
