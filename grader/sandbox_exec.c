/*
 * sandbox_exec.c - `grade --sandbox-exec`: enter a student's sandbox and
 * run the program, as run.c does in a forked child, but as a command of
 * its own.  A witness (witness.h) needs it: the profiler that times the
 * student's kernels must start the program itself and stay outside its
 * view, so the sandbox is entered one step later, by this command, which
 * the profiler starts inside the witness cell.
 *
 *   grade --sandbox-exec [--home DIR] [--max-file BYTES] [--ro PATH]...
 *         [--rw PATH]... [--mask PATH]... -- PROGRAM ARGS...
 *
 * The view is built with in_cell set (fsview.h), plus what the profiler
 * named in the variables it gave us: its libraries (read-only) and its
 * process-tracking folder under /tmp (writable: its sockets live there).
 */
#define _GNU_SOURCE
#include "sandbox_exec.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsview.h"
#include "sandbox.h"

/* One absolute path a profiler variable names: a folder as it is, a file
 * by its folder; under /tmp writable (the tracking sockets), else
 * read-only.  Paths already in the view, or gone, are left. */
static void add_profiler_path(fsview *v, const char *path)
{
    char dir[PATH_MAX];
    struct stat st;
    snprintf(dir, sizeof dir, "%s", path);
    if (stat(dir, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode))
        *strrchr(dir, '/') = '\0';
    if (!dir[0] || !strcmp(dir, "/") || !strcmp(dir, "/tmp"))
        return;
    fsview_kind kind = strncmp(dir, "/tmp/", 5) == 0 ? FSV_RW : FSV_RO;
    if (!fsview_covers(v, dir, kind))
        (void)fsview_add(v, dir, kind);
}

/* Every absolute path in the values of the profiler's variables
 * (NV_*, NVIDIA*, CUDA_INJECTION*: ncu's injection and tracking). */
static void add_profiler_paths(fsview *v)
{
    extern char **environ;
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "NV", 2) != 0 && strncmp(*e, "CUDA_INJECTION", 14) != 0)
            continue;
        const char *p = strchr(*e, '=');
        for (p = p ? p + 1 : *e; (p = strchr(p, '/')) != NULL;) {
            size_t n = strcspn(p, ": \t\n\"',;");
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%.*s", (int)(n < sizeof path ? n : sizeof path - 1), p);
            if (strchr(" =:\n\"", p[-1])) /* a path's start, not a '/' inside a word */
                add_profiler_path(v, path);
            p += n ? n : 1;
        }
    }
}

/* The options before "--"; the index of the program's name, or -1. */
static int parse(int argc, char **argv, sandbox *sb, fsview *v)
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
        else if (!strcmp(o, "--ro") || !strcmp(o, "--rw") || !strcmp(o, "--mask")) {
            fsview_kind k = o[2] == 'r' ? (o[3] == 'o' ? FSV_RO : FSV_RW) : FSV_MASK;
            if (fsview_add(v, val, k) < 0)
                return -1;
        } else
            return -1;
    }
    return -1;
}

int sandbox_exec_main(int argc, char **argv)
{
    static fsview v;
    sandbox sb;
    char why[512];
    fsview_init(&v);
    sandbox_defaults(&sb, NULL);
    sb.uid = sb.gid = -1; /* the cell's user: the profiler must reach the program */
    int prog = parse(argc, argv, &sb, &v);
    if (prog < 0) {
        fprintf(stderr, "grade --sandbox-exec: usage: [--home D] [--max-file B] [--ro|--rw|--mask "
                        "P]... -- PROGRAM ARGS...\n");
        return 2;
    }
    v.in_cell = 1;
    add_profiler_paths(&v);
    sb.view = &v;
    if (sandbox_enter(&sb, why, sizeof why) != 0) {
        fprintf(stderr, "grader sandbox: %s\n", why);
        return 126;
    }
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "grader sandbox: cannot run %s\n", argv[prog]);
    return 127;
}
