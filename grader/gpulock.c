/*
 * gpulock.c - see gpulock.h.  Two files per GPU, PREFIX.turn and
 * PREFIX.rw.  A reader passes through the turnstile (takes and drops
 * .turn) and holds .rw shared; a writer holds .turn, so no new reader gets
 * through, and then waits for .rw exclusive, which it gets once the
 * readers already inside have finished.
 */
#define _GNU_SOURCE
#include "gpulock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "run.h" /* now_s */

static int turn_fd = -1, rw_fd = -1;
static pid_t opened_by; /* a forked child must not lock through its parent's files */
static int held;        /* GPU_HELD_*, for opened_by only */
static double waited_s, alone_s, alone_since, kept_s, kept_since; /* gpu_lock_times */

/* flock, retried when a signal interrupts the wait. */
static int lock(int fd, int how)
{
    while (flock(fd, how) != 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

/* Open the two files named by GRADE_GPU_LOCK (once); -1 without them. */
static int open_files(void)
{
    const char *prefix = getenv("GRADE_GPU_LOCK");
    char path[4096];
    if (!prefix || !*prefix)
        return -1;
    if (opened_by != getpid()) {
        /* flock belongs to the open file: files inherited over fork would
         * share the parent's lock instead of competing with it */
        if (turn_fd >= 0)
            close(turn_fd);
        if (rw_fd >= 0)
            close(rw_fd);
        turn_fd = rw_fd = -1;
        opened_by = getpid();
    }
    if (turn_fd < 0) {
        snprintf(path, sizeof path, "%s.turn", prefix);
        turn_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    }
    if (rw_fd < 0) {
        snprintf(path, sizeof path, "%s.rw", prefix);
        rw_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    }
    return turn_fd >= 0 && rw_fd >= 0 ? 0 : -1;
}

int gpu_lock_shared(void)
{
    if (open_files() != 0 || lock(turn_fd, LOCK_EX) != 0)
        return -1;
    int rc = lock(rw_fd, LOCK_SH);
    lock(turn_fd, LOCK_UN);
    held = rc == 0 ? GPU_HELD_SHARED : GPU_HELD_NONE;
    return rc;
}

int gpu_lock_exclusive(void)
{
    double asked = now_s();
    if (open_files() != 0 || lock(turn_fd, LOCK_EX) != 0)
        return -1;
    if (lock(rw_fd, LOCK_EX) != 0) {
        lock(turn_fd, LOCK_UN);
        return -1;
    }
    held = GPU_HELD_EXCLUSIVE;
    alone_since = kept_since = now_s();
    waited_s += alone_since - asked;
    return 0; /* .turn stays held: no reader enters until gpu_unlock */
}

/* .turn first, as a writer; then .rw shared, beside the readers in. */
int gpu_lock_next(void)
{
    double asked = now_s();
    if (gpu_lock_held() != GPU_HELD_NONE || open_files() != 0 || lock(turn_fd, LOCK_EX) != 0)
        return -1;
    /* no writer holds .rw alone without .turn, so this does not wait */
    if (lock(rw_fd, LOCK_SH) != 0) {
        lock(turn_fd, LOCK_UN);
        return -1;
    }
    held = GPU_HELD_NEXT;
    kept_since = now_s();
    waited_s += kept_since - asked;
    return 0;
}

/* Alone, from first in line.  flock converts .rw by dropping the old lock
 * before taking the new one; with .turn held no writer can be granted .rw
 * in between, and no new reader gets to it. */
int gpu_lock_upgrade(void)
{
    double asked = now_s();
    if (gpu_lock_held() != GPU_HELD_NEXT)
        return -1;
    if (lock(rw_fd, LOCK_EX) != 0) {
        /* the shared lock may be gone; .turn stays held, so no run or speed
         * test starts until gpu_unlock, whatever the program does */
        lock(rw_fd, LOCK_SH);
        return -1;
    }
    held = GPU_HELD_EXCLUSIVE;
    alone_since = now_s();
    waited_s += alone_since - asked;
    return 0;
}

/* Shared again, from alone: .rw converted while .turn is still held (no
 * writer gets .rw in between), then .turn given back to readers. */
int gpu_lock_downgrade(void)
{
    if (gpu_lock_held() != GPU_HELD_EXCLUSIVE)
        return -1;
    if (lock(rw_fd, LOCK_SH) != 0)
        return -1; /* .turn still held: still nothing starts beside the program */
    alone_s += now_s() - alone_since;
    kept_s += now_s() - kept_since;
    held = GPU_HELD_SHARED;
    lock(turn_fd, LOCK_UN);
    return 0;
}

void gpu_unlock(void)
{
    if (opened_by != getpid())
        return; /* nothing of ours: never unlock through a parent's files */
    if (held == GPU_HELD_EXCLUSIVE)
        alone_s += now_s() - alone_since;
    if (held == GPU_HELD_EXCLUSIVE || held == GPU_HELD_NEXT)
        kept_s += now_s() - kept_since;
    held = GPU_HELD_NONE;
    if (rw_fd >= 0)
        lock(rw_fd, LOCK_UN);
    if (turn_fd >= 0)
        lock(turn_fd, LOCK_UN); /* harmless when a reader holds no .turn */
}

int gpu_lock_held(void)
{
    return opened_by == getpid() ? held : GPU_HELD_NONE;
}

void gpu_lock_times(double *waited, double *alone, double *kept)
{
    *waited = waited_s;
    *alone = alone_s;
    *kept = kept_s;
}
