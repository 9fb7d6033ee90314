/*
 * sandbox_exec.c - `grade --sandbox-exec`: the last steps of a student's
 * sandbox, as a command of its own.  A witness (witness.h) needs it: the
 * profiler that times the student's kernels must start the program
 * itself.  The witness cell (fsview_cell_enter) already holds the
 * student's view, private /tmp and user around the profiler; this
 * command, started by the profiler inside the cell, cleans the
 * environment (keeping the profiler's variables), sets the limits, moves
 * to the scratch folder and sends the program's output to its own log,
 * then runs the program.
 *
 *   grade --sandbox-exec [--home DIR] [--max-file BYTES] [--log FILE]
 *         [--gate PATH] -- PROGRAM ARGS...
 *
 * The program's output goes to FILE (in the student's folder) and not to
 * the profiler's: the profiler's report, which the grader reads back,
 * is on a file of the grader's that the program can neither write nor
 * reopen.
 *
 * With --gate, the last step before the program starts waits for the
 * grader (run.h's run_gate): a byte on the FIFO PATH.ready says it waits,
 * a byte on PATH.go lets it through.  The grader moves its hold of the
 * GPU only then (witness_gate.h), so ncu's own start (0.6 s) overlaps
 * other workers' correctness runs; until the exec, no code of the
 * student's has run, so nothing can reach the GPU before the grader holds
 * it.  The program is then given its window (common/witness_window.h):
 * PATH.window open for writing and PATH.go for reading, named by
 * KIT_WITNESS_WINDOW=W,G.
 */
#define _GNU_SOURCE
#include "sandbox_exec.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safefile.h"
#include "sandbox.h"

/* The options before "--"; the index of the program's name, or -1. */
static int parse(int argc, char **argv, sandbox *sb, const char **log, const char **gate)
{
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--"))
            return i + 1 < argc ? i + 1 : -1;
        if (i + 1 >= argc)
            return -1;
        const char *val = argv[++i];
        if (!strcmp(o, "--home"))
            sb->home = val;
        else if (!strcmp(o, "--max-file"))
            sb->max_file = strtoull(val, NULL, 10);
        else if (!strcmp(o, "--log"))
            *log = val;
        else if (!strcmp(o, "--gate"))
            *gate = val;
        else
            return -1;
    }
    return -1;
}

/* stdout and stderr into the program's own log (its folder is the
 * student's: no link followed, a new file). */
static int to_log(const char *log)
{
    unlink(log);
    int fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
        return -1;
    close(fd);
    return 0;
}

/* The gate's FIFO PATH<suffix> opened with flags (safefile.h: no link
 * followed, not inherited by the program); -1 when it is not a FIFO. */
static int open_fifo(const char *gate, const char *suffix, int flags)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s%s", gate, suffix) >= (int)sizeof path)
        return -1;
    return safe_open_fifo(path, flags);
}

/* The program's window: PATH.window (blocking writes from now on) and
 * PATH.go, both kept open over the exec and named in KIT_WITNESS_WINDOW;
 * 0, or -1 when the window cannot be opened (a grader of an older kit:
 * the program then runs without one). */
static int give_window(const char *gate, int go)
{
    char value[32];
    int w = open_fifo(gate, ".window", O_WRONLY | O_NONBLOCK);
    if (w < 0)
        return -1;
    if (fcntl(w, F_SETFL, 0) != 0 || fcntl(w, F_SETFD, 0) != 0 || fcntl(go, F_SETFD, 0) != 0) {
        close(w);
        return -1;
    }
    snprintf(value, sizeof value, "%d,%d", w, go);
    return setenv("KIT_WITNESS_WINDOW", value, 1);
}

/* Say on PATH.ready that the program is about to start, then wait for the
 * grader's byte on PATH.go (opened read-write: a FIFO whose writers have
 * all gone reads as its end), then give the program its window.  All
 * opened after sandbox_enter, which closes every inherited file.  0 once
 * let through, -1 when there is no gate or grader. */
static int wait_at_gate(const char *gate)
{
    char byte = 'x';
    int go = open_fifo(gate, ".go", O_RDWR);
    int ready = go >= 0 ? open_fifo(gate, ".ready", O_WRONLY | O_NONBLOCK) : -1;
    int said = ready >= 0 && write(ready, &byte, 1) == 1;
    if (ready >= 0)
        close(ready);
    int through = said && read(go, &byte, 1) == 1 && byte == 'g';
    if (through && give_window(gate, go) == 0)
        return 0;
    if (go >= 0)
        close(go);
    return through ? 0 : -1;
}

int sandbox_exec_main(int argc, char **argv)
{
    sandbox sb;
    const char *log = NULL, *gate = NULL;
    char why[512];
    sandbox_defaults(&sb, NULL);
    sb.uid = sb.gid = -1;  /* the cell's user already */
    sb.isolate_net = 0;    /* the cell's network namespace already */
    sb.profiled = 1;
    int prog = parse(argc, argv, &sb, &log, &gate);
    if (prog < 0) {
        fprintf(stderr, "grade --sandbox-exec: usage: [--home D] [--max-file B] [--log F] "
                        "[--gate PATH] -- PROGRAM ARGS...\n");
        return 2;
    }
    if (log && to_log(log) != 0) {
        fprintf(stderr, "grader sandbox: cannot write %s\n", log);
        return 126;
    }
    if (sandbox_enter(&sb, why, sizeof why) != 0) {
        fprintf(stderr, "grader sandbox: %s\n", why);
        return 126;
    }
    if (gate && wait_at_gate(gate) != 0) {
        fprintf(stderr, "grader sandbox: the grader did not open the gate at %s\n", gate);
        return 126;
    }
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "grader sandbox: cannot run %s\n", argv[prog]);
    return 127;
}
