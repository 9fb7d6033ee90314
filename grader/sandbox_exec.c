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
 *         -- PROGRAM ARGS...
 *
 * The program's output goes to FILE (in the student's folder) and not to
 * the profiler's: the profiler's report, which the grader reads back,
 * is on a file of the grader's that the program can neither write nor
 * reopen.
 */
#define _GNU_SOURCE
#include "sandbox_exec.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox.h"

/* The options before "--"; the index of the program's name, or -1. */
static int parse(int argc, char **argv, sandbox *sb, const char **log)
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

int sandbox_exec_main(int argc, char **argv)
{
    sandbox sb;
    const char *log = NULL;
    char why[512];
    sandbox_defaults(&sb, NULL);
    sb.uid = sb.gid = -1;  /* the cell's user already */
    sb.isolate_net = 0;    /* the cell's network namespace already */
    sb.profiled = 1;
    int prog = parse(argc, argv, &sb, &log);
    if (prog < 0) {
        fprintf(stderr, "grade --sandbox-exec: usage: [--home D] [--max-file B] [--log F] "
                        "-- PROGRAM ARGS...\n");
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
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "grader sandbox: cannot run %s\n", argv[prog]);
    return 127;
}
