/*
 * spawn.h - the one fork/exec layer of the grader and the batch driver.
 * Every child the kit starts (a build, a lab binary, a student's grading,
 * nvidia-smi) goes through spawn(): the same redirections, the same stdin
 * (/dev/null: nothing a child does may wait on the terminal) and the same
 * report when exec fails.  run.h adds deadlines and sandboxes on top.
 */
#ifndef SPAWN_H
#define SPAWN_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    const char *out_path;  /* stdout and stderr into this file (truncated), or NULL */
    int out_fd;            /* with out_fd_set: stdout into this fd, stderr to /dev/null */
    int out_fd_set;
    int stdout_to_stderr;  /* stdout joins the parent's stderr */
    int new_group;         /* a process group of its own (killed together) */
    int new_session;       /* a session of its own (the batch kills what is left of it) */
    /* In the child, after the redirections: 0 to go on and exec, else the
     * exit status the child ends with (its reason printed by prepare). */
    int (*prepare)(void *arg);
    void *arg;
    int exec_failed_code;  /* exit status when exec fails; 0 means 127 */
    const char *who;       /* prefix of the "cannot run" message, or NULL */
} spawn_opts;

/* Start argv[0] (searched in PATH); the child's pid, or -1 when fork fails. */
pid_t spawn(char *const argv[], const spawn_opts *o);

/* Wait for pid, through signals; its wait status, or -1. */
int spawn_wait(pid_t pid);

/* Run argv to its end with its stdout into *out (malloc'ed, NUL-terminated,
 * at most cap bytes kept, *truncated set when more came); stderr goes to
 * /dev/null.  The wait status, or -1 when it could not be started. */
int spawn_capture(char *const argv[], char **out, size_t cap, int *truncated);

#endif /* SPAWN_H */
