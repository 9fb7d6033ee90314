/*
 * spawn.c - fork, redirect, exec: the one place the kit starts a process
 * (spawn.h says why one place).
 */
#define _GNU_SOURCE
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Point fd `to` at `from` (when from >= 0), closing from. */
static void move_fd(int from, int to)
{
    if (from >= 0 && from != to) {
        dup2(from, to);
        close(from);
    }
}

/* The child's half of spawn(): session, redirections, prepare, exec. */
static void child(char *const argv[], const spawn_opts *o)
{
    if (o->new_session)
        setsid();
    else if (o->new_group)
        setpgid(0, 0);
    move_fd(open("/dev/null", O_RDONLY), STDIN_FILENO);
    if (o->out_path) {
        int fd = open(o->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            move_fd(fd, STDERR_FILENO);
        }
    } else if (o->out_fd_set) {
        dup2(o->out_fd, STDOUT_FILENO);
        move_fd(open("/dev/null", O_WRONLY), STDERR_FILENO);
    } else if (o->stdout_to_stderr) {
        dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    if (o->prepare) {
        int code = o->prepare(o->arg);
        if (code)
            _exit(code);
    }
    fflush(stdout);
    execvp(argv[0], argv);
    fprintf(stderr, "%s%scannot run %s: %s\n", o->who ? o->who : "", o->who ? ": " : "",
            argv[0], strerror(errno));
    _exit(o->exec_failed_code ? o->exec_failed_code : 127);
}

pid_t spawn(char *const argv[], const spawn_opts *o)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        child(argv, o);
    if (pid > 0 && o->new_group && !o->new_session)
        setpgid(pid, pid); /* also here: no race with the child's own call */
    return pid;
}

int spawn_wait(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

/* Read fd to its end into a buffer of at most cap bytes (the rest is
 * drained and counted as truncation, so the writer never blocks). */
static char *read_all(int fd, size_t cap, int *truncated)
{
    size_t len = 0, size = 4096 < cap ? 4096 : cap;
    char *buf = malloc(size + 1), sink[4096];
    ssize_t got;
    while (buf) {
        int full = len >= cap;
        got = read(fd, full ? sink : buf + len, full ? sizeof sink : size - len);
        if (got == 0 || (got < 0 && errno != EINTR))
            break;
        if (got < 0)
            continue;
        if (full) {
            *truncated = 1;
            continue;
        }
        len += (size_t)got;
        if (len == size && size < cap) {
            size_t bigger = size * 2 < cap ? size * 2 : cap;
            char *b = realloc(buf, bigger + 1);
            if (!b)
                break;
            buf = b;
            size = bigger;
        }
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

int spawn_capture(char *const argv[], char **out, size_t cap, int *truncated)
{
    int fd[2];
    *out = NULL;
    *truncated = 0;
    if (pipe2(fd, O_CLOEXEC)) /* the child's copies close at exec; dup2'ed stdout stays */
        return -1;
    spawn_opts o = {.out_fd = fd[1], .out_fd_set = 1};
    pid_t pid = spawn(argv, &o);
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        return -1;
    }
    *out = read_all(fd[0], cap, truncated);
    close(fd[0]);
    int status = spawn_wait(pid);
    if (status < 0) {
        free(*out);
        *out = NULL;
    }
    return status;
}
