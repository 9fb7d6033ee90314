/*
 * collect.c - the submission's files for a grading: only the lab's own
 * files (the suite's lab line) are taken, each picked as pick.h says, and
 * copied into the scratch folder; the harness, Makefile and grader always
 * come from the kit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "pick.h"
#include "safefile.h"
#include "tunables.h"

/* Why a submitted file cannot be taken, from safe_open_beneath's errno:
 * the student's repository may hold a link to a file of the machine or of
 * another student, a FIFO, or a huge file. */
static const char *refusal(int err)
{
    return err == ELOOP ? "a symbolic link, not a file (only regular files are taken)"
         : err == EINVAL ? "not a regular file (a FIFO, a device or a folder)"
         : err == EFBIG ? "too large" : strerror(err);
}

/* Copy rel below root (nothing inside the submission followed: safefile.h)
 * to the new file `to`, at most SUBMISSION_FILE_MAX_BYTES; 0, else -1 and
 * errno (EFBIG also when the file grew while read). */
static int copy_file(const char *root, const char *rel, const char *to)
{
    int in = safe_open_beneath(root, rel, SUBMISSION_FILE_MAX_BYTES, NULL), err = errno;
    int out = in >= 0 ? safe_create(to, 0644) : -1;
    char buf[65536];
    ssize_t got;
    long long total = 0;
    if (out < 0) {
        err = in < 0 ? err : errno;
        if (in >= 0) close(in);
        return errno = err, -1;
    }
    err = 0;
    while (!err && (got = read(in, buf, sizeof buf)) != 0) {
        if (got < 0)
            err = errno == EINTR ? 0 : errno;
        else if ((total += got) > SUBMISSION_FILE_MAX_BYTES)
            err = EFBIG;
        else if (write(out, buf, (size_t)got) != got)
            err = EIO;
    }
    close(in);
    if (close(out) != 0 && !err)
        err = EIO;
    return err ? (errno = err, -1) : 0;
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
        struct stat st, own;
        const char *base = strrchr(paths[p], '/') ? strrchr(paths[p], '/') + 1 : paths[p];
        if (stat(paths[p], &st) != 0)
            continue;
        /* the file named itself: copy_file opens it with no link followed */
        if ((S_ISREG(st.st_mode) || (lstat(paths[p], &own) == 0 && !S_ISDIR(own.st_mode))) &&
            strcmp(base, s->files[f]) == 0) {
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

/* Copy found (inside the submission folder of length root, or a file
 * named by itself when root is 0) to `to`: below the submission's folder,
 * or below the named file's own folder, nothing is followed. */
static int copy_from(const char *found, size_t root, const char *to)
{
    char dir[1024];
    const char *slash = strrchr(found, '/'), *rel = found + root;
    if (root)
        snprintf(dir, sizeof dir, "%.*s", (int)root, found);
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == found ? 1 : (int)(slash - found), found);
    else
        snprintf(dir, sizeof dir, ".");
    if (!root)
        rel = slash ? slash + 1 : found;
    while (*rel == '/')
        rel++;
    return copy_file(dir, rel, to);
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
        if (r == PICK_FOUND && copy_from(found, root, to) != 0) {
            const char *named = root && found[root] ? found + root + 1 : found;
            if (errno == EFBIG) { /* FORBIDDEN, as main.c's scan says it */
                snprintf(g->forbidden, sizeof g->forbidden, "%s is larger than the %d KiB a "
                         "submitted file may be: refused unread", s->files[f],
                         SUBMISSION_FILE_MAX_BYTES >> 10);
                return g->file_verdict = V_PASS, -1;
            }
            r = PICK_MISSING;
            snprintf(why, sizeof why, "%s is %s", named, refusal(errno));
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
