/*
 * witness_gate.c - see witness_gate.h.
 */
#define _GNU_SOURCE
#include "witness_gate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulock.h"
#include "run.h"
#include "safefile.h"
#include "tunables.h"

static char gate_path[PATH_MAX], ready_path[PATH_MAX + 8], go_path[PATH_MAX + 8];
static run_gate gate = {.ready_fd = -1};
static int go_fd = -1; /* PATH.go, opened with PATH.ready when the gate is made */
static double armed_at, opened_at; /* for GRADE_TRACE: ncu's start, and the hold */

const char *witness_gate_path(const char *dir)
{
    snprintf(gate_path, sizeof gate_path, "%s/gate", dir);
    snprintf(ready_path, sizeof ready_path, "%s.ready", gate_path);
    snprintf(go_path, sizeof go_path, "%s.go", gate_path);
    return gate_path;
}

/* run_gate's open: the GPU taken alone (once: a process run again within
 * the same hold keeps it), then the waiting program let through, on the
 * FIFO opened when the gate was made (no path is looked up again: the
 * folder is the student's).  A stale byte on PATH.ready (an earlier run
 * of the same hold wrote it) only takes the GPU sooner: the byte on
 * PATH.go waits there for the program, which finds the GPU held. */
static int open_gate(const run_gate *g)
{
    (void)g;
    char byte = 'g';
    double asked = now_s();
    if (WITNESS_GPU_ALONE && gpu_lock_held() != GPU_HELD_EXCLUSIVE) {
        gpu_unlock(); /* the shared hold of ncu's start (witness_gate_arm) */
        gpu_lock_exclusive();
    }
    if (!opened_at) {
        opened_at = now_s();
        if (getenv("GRADE_TRACE"))
            fprintf(stderr, "grade: trace: witness gate: ncu started in %.2f s, the GPU "
                    "taken in %.2f s\n", asked - armed_at, opened_at - asked);
    }
    return write(go_fd, &byte, 1) == 1;
}

/* A FIFO at path, new, for uid/gid (-1: this user), and the grader's end
 * of it opened with flags; the fd, or -1. */
static int make_fifo(const char *path, int uid, int gid, int flags)
{
    if (safe_mkfifo(path, 0600) != 0)
        return -1;
    int fd = safe_open_fifo(path, flags | O_NONBLOCK);
    if (fd >= 0 && uid >= 0 && fchown(fd, (uid_t)uid, (gid_t)gid) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

const run_gate *witness_gate_arm(int uid, int gid, char *why, size_t len)
{
    /* both ends the grader uses, opened now, before any run: read-write on
     * PATH.go, so that the byte can be written before the program reads */
    gate.ready_fd = gate_path[0] ? make_fifo(ready_path, uid, gid, O_RDONLY) : -1;
    go_fd = gate.ready_fd >= 0 ? make_fifo(go_path, uid, gid, O_RDWR) : -1;
    if (go_fd < 0) {
        snprintf(why, len, "cannot make the witness's gate: %s", strerror(errno));
        witness_gate_disarm();
        return NULL;
    }
    gate.open = open_gate;
    armed_at = now_s();
    /* ncu starts beside correctness runs and other ncu starts, never
     * beside a witnessed program: a class of 32 with ncu starting
     * unlocked held the GPU alone 3.1 s a student, against 2.0-2.3 s for
     * one grading by itself (H200) */
    if (WITNESS_GPU_ALONE)
        gpu_lock_shared();
    return &gate;
}

void witness_gate_disarm(void)
{
    if (opened_at && getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: witness gate: the GPU held alone %.2f s\n",
                now_s() - opened_at);
    opened_at = 0;
    if (WITNESS_GPU_ALONE && gpu_lock_held() != GPU_HELD_NONE)
        gpu_unlock();
    if (gate.ready_fd >= 0)
        close(gate.ready_fd);
    if (go_fd >= 0)
        close(go_fd);
    gate.ready_fd = go_fd = -1;
    safe_unlink(ready_path);
    safe_unlink(go_path);
}
