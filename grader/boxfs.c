/*
 * boxfs.c - see boxfs.h: the grader's private mount namespace and the
 * size-capped tmpfs on the student's box.
 */
#define _GNU_SOURCE
#include "boxfs.h"
#include "judge.h"
#include "run.h"
#include "tunables.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* The folder beneath the box's tmpfs, opened before the mount hides it:
 * where a kept box is copied to (-1: no tmpfs mounted). */
static int under_fd = -1;

int boxfs_private(char *why, size_t len)
{
    if (geteuid() != 0)
        return 1;
    if (unshare(CLONE_NEWNS) != 0) {
        snprintf(why, len, "unshare(mount namespace): %s", strerror(errno));
        return -1;
    }
    /* Private all the way down: no mount of ours reaches the host's table,
     * and none of the host's later ones reaches us. */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        snprintf(why, len, "make the grader's mounts private: %s", strerror(errno));
        return -1;
    }
    return 0;
}

unsigned long long boxfs_bytes(const suite *s)
{
    unsigned long long cases = 0, speed = 0, unit = 0;
    for (int c = 0; c < s->ncases; c++)
        cases += case_max_file(&s->cases[c]);
    for (int i = 0; i < s->nspeed; i++) {
        suite_case c;
        memset(&c, 0, sizeof c);
        c.kind = s->speed[i].kind;
        c.n = s->speed[i].n;
        c.dtype = s->speed[i].dtype;
        if (2ULL * case_max_file(&c) > speed)
            speed = 2ULL * case_max_file(&c);
        unit += case_max_file(&c); /* the witness's one process writes every case's
                                      output before any is judged (witness_unit) */
    }
    if (unit > speed)
        speed = unit;
    return BOX_BUILD_BYTES + (cases > speed ? cases : speed);
}

int boxfs_mount(const char *box, unsigned long long bytes, char *why, size_t len)
{
    char opts[64];
    int fd = open(box, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, len, "open %s: %s", box, strerror(errno));
        return -1;
    }
    snprintf(opts, sizeof opts, "size=%llu,mode=0700", bytes);
    if (mount("tmpfs", box, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0) {
        snprintf(why, len, "tmpfs on %s: %s", box, strerror(errno));
        close(fd);
        return -1;
    }
    under_fd = fd;
    return 0;
}

void boxfs_release(const char *box, int keep)
{
    if (under_fd < 0)
        return;
    if (keep) { /* cp as the grader, never following the student's links */
        char from[700], to[64];
        snprintf(from, sizeof from, "%s/.", box);
        snprintf(to, sizeof to, "/proc/%d/fd/%d/", (int)getpid(), under_fd);
        char *argv[] = {"cp", "-a", "--no-dereference", from, to, NULL};
        run_status st;
        run_command(argv, "/dev/null", LIMIT_MAKE_QUERY_S, &st);
    }
    umount2(box, MNT_DETACH);
    close(under_fd);
    under_fd = -1;
}
