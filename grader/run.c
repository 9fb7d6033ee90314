/*
 * run.c - fork/exec with a deadline.  The child gets a new process group so
 * that everything it starts (make -> nvcc -> cicc, or a binary that forks)
 * is killed together when the time is up.
 */
#define _GNU_SOURCE
#include "run.h"
#include "sandbox.h"
#include "spawn.h"
#include "tunables.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int run_command(char *const argv[], const char *log_path, double timeout_s, run_status *st)
{
    return run_sandboxed(argv, log_path, timeout_s, NULL, st);
}

/* Kill what is left of process group `pgid` and reap it.  The grader is a
 * child subreaper, so the group's orphans (a forked child whose parent
 * has exited) are reparented to it and reaped here, instead of lingering
 * as zombies that count against the sandbox user's process limit. */
static void reap_group(pid_t pgid)
{
    kill(-pgid, SIGKILL);
    for (int tries = 0; tries < (int)(LIMIT_REAP_S * 100); tries++) { /* naps of 10 ms */
        pid_t r = waitpid(-pgid, NULL, WNOHANG);
        if (r < 0 && errno == ECHILD)
            return; /* nobody of that group is left */
        if (r == 0) {
            struct timespec nap = {0, 10 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
}

int run_sandboxed(char *const argv[], const char *log_path, double timeout_s,
                  const struct sandbox_s *sb, run_status *st)
{
    return run_watched(argv, log_path, timeout_s, NULL, sb, NULL, st);
}

/* The size of a file, or -1 when it is not there (the name itself: a
 * link the student put there is not followed). */
static long long file_size(const char *path)
{
    struct stat s;
    return path && lstat(path, &s) == 0 ? (long long)s.st_size : -1;
}

/* spawn()'s prepare hook: enter the sandbox, or end with 126 and why. */
static int enter_sandbox(void *arg)
{
    char why[256];
    if (sandbox_enter(arg, why, sizeof why) != 0) {
        fprintf(stderr, "grader sandbox: %s\n", why);
        return 126;
    }
    return 0;
}

/* Let the child through its gate once it waits there (run_gate); the
 * seconds that took, which the caller leaves out of the child's limits. */
static double pass_gate(const run_gate *gate, int *passed)
{
    char byte;
    if (!gate)
        return 0;
    double t0 = now_s();
    if (!*passed) {
        if (read(gate->ready_fd, &byte, 1) == 1)
            *passed = gate->open(gate);
    } else if (gate->window_fd >= 0 && gate->heard) {
        for (int n = 0; n < 16 && read(gate->window_fd, &byte, 1) == 1; n++)
            gate->heard(gate, byte); /* (a few a turn: a flood cannot stall the watch) */
    }
    return now_s() - t0;
}

/* The progress file's size now, and progress->grew called when it has
 * changed since *seen; the seconds grew took, which the caller leaves out
 * of the child's limits. */
static double watch_progress(const run_progress *progress, long long *seen, double *last)
{
    long long size = file_size(progress ? progress->path : NULL);
    if (size == *seen)
        return 0;
    double t0 = now_s();
    *seen = size;
    *last = t0;
    if (progress->grew)
        progress->grew(progress->ctx);
    return now_s() - t0;
}

int run_watched(char *const argv[], const char *log_path, double timeout_s,
                const run_progress *progress, const struct sandbox_s *sb, const run_gate *gate,
                run_status *st)
{
    /* Not inherited over fork: a correctness lane (correctness.h) asks again. */
    static pid_t subreaper_of;
    if (subreaper_of != getpid()) {
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        subreaper_of = getpid();
    }
    memset(st, 0, sizeof *st);
    double start = now_s();
    spawn_opts o = {.out_path = log_path, .new_group = 1,
                    .prepare = sb ? enter_sandbox : NULL, .arg = (void *)sb};
    pid_t pid = spawn(argv, &o);
    if (pid < 0) {
        st->exited = 1;
        st->code = 127;
        return -1;
    }

    int status = 0, passed = 0;
    long long seen = file_size(progress ? progress->path : NULL);
    double last_progress = start;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            st->exited = 1;
            st->code = 127;
            return -1;
        }
        double gated = pass_gate(gate, &passed);
        start += gated;
        last_progress += gated;
        double judged = watch_progress(progress, &seen, &last_progress);
        start += judged;
        last_progress += judged;
        double now = now_s();
        if (now - start > timeout_s || (progress && now - last_progress > progress->stall_s)) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            st->timed_out = 1;
            break;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    reap_group(pid); /* leftovers of the group (a forked child) */
    st->seconds = now_s() - start;
    if (!st->timed_out) {
        if (WIFEXITED(status)) {
            st->exited = 1;
            st->code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            st->signaled = 1;
            st->sig = WTERMSIG(status);
        }
    }
    return 0;
}

void read_tail(const char *path, char *buf, size_t max)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f || max < 2)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)(max - 1) ? size - (long)(max - 1) : 0;
    fseek(f, from, SEEK_SET);
    size_t got = fread(buf, 1, max - 1, f);
    buf[got] = '\0';
    fclose(f);
    /* Binary junk would garble the table: replace control bytes. */
    for (size_t i = 0; i < got; i++)
        if ((unsigned char)buf[i] < 0x20 && buf[i] != '\n' && buf[i] != '\t')
            buf[i] = '?';
}

void describe_status(const run_status *st, char *buf, size_t len)
{
    if (st->timed_out)
        snprintf(buf, len, "killed after %.0f s (time limit)", st->seconds);
    else if (st->signaled)
        snprintf(buf, len, "killed by signal %d (%s)", st->sig, strsignal(st->sig));
    else
        snprintf(buf, len, "exit status %d", st->code);
}
