/*
 * collect.c - the submission's files for a grading: only the lab's own
 * files (the suite's lab line) are taken, each picked as pick.h says, and
 * copied into the scratch folder; the harness, Makefile and grader always
 * come from the kit.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "grade.h"
#include "pick.h"

/* Copy a file byte for byte; 0 on success. */
static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[65536];
    size_t got;
    int rc = 0;
    if (!in || !out)
        rc = -1;
    while (rc == 0 && (got = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, got, out) != got)
            rc = -1;
    if (in) fclose(in);
    if (out && fclose(out)) rc = -1;
    return rc;
}

/* File f of the suite from the paths: a path that is the file itself, or
 * the pick in a folder.  The first path that has it wins; *root is that
 * path's length when the file lies inside it (for the report). */
static pick_result find_one(const suite *s, int f, const char *const *paths, int npaths,
                            char *found, size_t len, char *why, size_t wlen, size_t *root)
{
    *root = 0;
    pick_result r = PICK_MISSING;
    for (int p = 0; p < npaths; p++) {
        struct stat st;
        const char *base = strrchr(paths[p], '/') ? strrchr(paths[p], '/') + 1 : paths[p];
        if (stat(paths[p], &st) != 0)
            continue;
        if (S_ISREG(st.st_mode) && strcmp(base, s->files[f]) == 0) {
            snprintf(found, len, "%s", paths[p]);
            return PICK_FOUND;
        }
        if (S_ISDIR(st.st_mode) &&
            (r = pick_file(paths[p], s->dir, s->files[f], found, len, why, wlen)) != PICK_MISSING) {
            *root = strlen(paths[p]);
            return r;
        }
    }
    if (r == PICK_MISSING && !why[0])
        snprintf(why, wlen, "the submission has no %s", s->files[f]);
    return r;
}

/* Append text to a "; "-separated list in buf. */
static void add_to(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    if (used + 1 < len)
        snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

int collect_submission(grade_run *g, const char *const *paths, int npaths, const char *dest)
{
    const suite *s = g->s;
    char found[1024], why[1024], to[1200], shown[1200];
    size_t root;
    g->file_verdict = V_PASS;
    g->build_log[0] = g->files[0] = '\0';
    mkdir(dest, 0755);
    for (int f = 0; f < s->nfiles; f++) {
        why[0] = '\0';
        pick_result r = find_one(s, f, paths, npaths, found, sizeof found, why, sizeof why, &root);
        snprintf(to, sizeof to, "%s/%s", dest, s->files[f]);
        if (r == PICK_FOUND && copy_file(found, to) != 0) {
            r = PICK_MISSING;
            snprintf(why, sizeof why, "cannot read %s", found);
        }
        if (r == PICK_FOUND) {
            /* "labs/lab1-reduce-naive/reduce.cu (in /path/of/submission)" */
            if (root)
                snprintf(shown, sizeof shown, "%s (in %.*s)", found + root + 1, (int)root, found);
            else
                snprintf(shown, sizeof shown, "%s", found);
            add_to(g->files, sizeof g->files, shown);
            continue;
        }
        if (g->file_verdict != V_AMBIGUOUS_FILE)
            g->file_verdict = r == PICK_AMBIGUOUS ? V_AMBIGUOUS_FILE : V_MISSING_FILE;
        add_to(g->build_log, sizeof g->build_log, why);
    }
    return g->file_verdict == V_PASS ? 0 : -1;
}
