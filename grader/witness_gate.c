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

static char gate_path[PATH_MAX], ready_path[PATH_MAX + 8], go_path[PATH_MAX + 8],
    window_path[PATH_MAX + 8];
static run_gate gate = {.ready_fd = -1, .window_fd = -1};
static int go_fd = -1; /* PATH.go, opened with PATH.ready when the gate is made */
static int cases, done; /* the cases of a witnessed process, and those it said were timed */
/* for GRADE_TRACE: ncu's start, the program's, and gpulock.h's account at the arm */
static double armed_at, next_at, alone0, kept0;

const char *witness_gate_path(const char *dir)
{
    snprintf(gate_path, sizeof gate_path, "%s/gate", dir);
    snprintf(ready_path, sizeof ready_path, "%s.ready", gate_path);
    snprintf(go_path, sizeof go_path, "%s.go", gate_path);
    snprintf(window_path, sizeof window_path, "%s.window", gate_path);
    return gate_path;
}

/* Bytes left in a FIFO of the grader's (non-blocking), read and dropped. */
static void drain(int fd)
{
    char buf[256];
    while (fd >= 0 && read(fd, buf, sizeof buf) > 0) {}
}

/* run_gate's open: no program of this gate's runs now (the byte comes
 * from `grade --sandbox-exec` before its exec, or was left by a process
 * that has ended), so ncu's shared hold can be given back and the GPU
 * taken first in line (gpulock.h); what an ended process left on the
 * window and on PATH.go is dropped first, so that no byte of it lets
 * this program through or moves the hold.  The byte ('g', or 'n' when the
 * hold cannot be taken) is written on the FIFO opened when the gate was
 * made (no path is looked up again: the folder is the student's). */
static int open_gate(const run_gate *g)
{
    char byte = 'g';
    double asked = now_s();
    drain(g->window_fd);
    drain(go_fd);
    done = 0;
    if (WITNESS_GPU_ALONE) {
        gpu_unlock();
        if (gpu_lock_next() != 0 && getenv("GRADE_GPU_LOCK")) {
            /* a batch's lock that cannot be taken: the program is not run
             * unheld ('n' ends `grade --sandbox-exec` with status 126) */
            fprintf(stderr, "grade: the GPU's lock %s cannot be taken (%s); the witnessed "
                    "program is not started\n", getenv("GRADE_GPU_LOCK"), strerror(errno));
            byte = 'n';
        }
    }
    next_at = now_s();
    if (getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: witness gate: ncu started in %.2f s, first in line "
                "in %.2f s\n", asked - armed_at, next_at - asked);
    return write(go_fd, &byte, 1) == 1;
}

/* run_gate's heard: the program's window (witness_window.h).  'r': the
 * GPU alone (once the runs already in have finished), then its byte; the
 * 'd' of the process's last case, counted while alone: shared again.
 * Anything else, or a byte out of turn, changes nothing: a program can
 * only keep the GPU from itself, never let another speed test in beside
 * its kernels. */
static void heard(const run_gate *g, char byte)
{
    (void)g;
    char go = 'g';
    if (byte == 'r' && WITNESS_GPU_ALONE && gpu_lock_held() == GPU_HELD_NEXT) {
        if (gpu_lock_upgrade() != 0)
            fprintf(stderr, "grade: the GPU could not be held alone for the witnessed "
                    "program (%s); its kernels share it with the runs already in\n",
                    strerror(errno));
    }
    if (byte == 'r' && write(go_fd, &go, 1) != 1) { /* the program waits; its limit ends it */ }
    if (byte == 'd' && gpu_lock_held() == GPU_HELD_EXCLUSIVE && ++done == cases)
        gpu_lock_downgrade();
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

const run_gate *witness_gate_arm(int uid, int gid, int process_cases, char *why, size_t len)
{
    /* every end the grader uses, opened now, before any run: read-write on
     * PATH.go, so that a byte can be written before the program reads */
    gate.ready_fd = gate_path[0] ? make_fifo(ready_path, uid, gid, O_RDONLY) : -1;
    gate.window_fd = gate.ready_fd >= 0 ? make_fifo(window_path, uid, gid, O_RDONLY) : -1;
    go_fd = gate.window_fd >= 0 ? make_fifo(go_path, uid, gid, O_RDWR) : -1;
    if (go_fd < 0) {
        snprintf(why, len, "cannot make the witness's gate: %s", strerror(errno));
        witness_gate_disarm();
        return NULL;
    }
    gate.open = open_gate;
    gate.heard = heard;
    cases = process_cases;
    armed_at = now_s();
    next_at = 0;
    double waited;
    gpu_lock_times(&waited, &alone0, &kept0);
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
    if (WITNESS_GPU_ALONE && gpu_lock_held() != GPU_HELD_NONE)
        gpu_unlock();
    double waited, alone, kept;
    gpu_lock_times(&waited, &alone, &kept);
    if (next_at && getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: witness gate: the program ran %.2f s: first in line "
                "%.2f s, the GPU held alone %.2f s of it\n", now_s() - next_at, kept - kept0,
                alone - alone0);
    next_at = 0;
    int *fds[] = {&gate.ready_fd, &gate.window_fd, &go_fd};
    for (int i = 0; i < 3; i++)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    safe_unlink(ready_path);
    safe_unlink(window_path);
    safe_unlink(go_path);
}
