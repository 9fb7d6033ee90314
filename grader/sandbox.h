/*
 * sandbox.h - what a student's build and run may do.  Applied in the child
 * process just before exec: a cleared environment, resource limits, a
 * private network namespace where the system allows one, and an
 * unprivileged user when the grader runs as root.
 *
 * Memory is deliberately not limited with RLIMIT_AS: the CUDA driver
 * reserves tens of GiB of virtual address space at start-up, so an address
 * space limit kills every CUDA program.  Limit memory from outside instead,
 * e.g. `systemd-run --scope -p MemoryMax=8G ./grade ...` (a cgroup counts
 * resident memory, not reservations).
 */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <stddef.h>

typedef struct sandbox_s {
    const char *home;              /* HOME and TMPDIR of the child: the scratch folder */
    unsigned long long max_file;   /* largest file it may write, bytes (RLIMIT_FSIZE) */
    unsigned long max_procs;       /* processes and threads of its user (RLIMIT_NPROC);
                                      applied only together with a user switch */
    int uid, gid;                  /* >= 0: run as this user and group */
    int isolate_net;               /* without a view: try a new, empty network namespace */
    int cell;                      /* a witness cell for a profiler (fsview_cell_enter):
                                      the view (when set) around the profiler, a
                                      private /tmp, then the user; the environment
                                      is kept; the program the profiler starts
                                      enters the rest of its sandbox through
                                      `grade --sandbox-exec` (sandbox_exec.h) */
    int profiled;                  /* started by a profiler in a cell: its variables
                                      (injection, tracking) are kept */
    const struct fsview_s *view;   /* what of the filesystem it sees (fsview.h), or NULL
                                      for all of it (then nothing is isolated but the
                                      network, where permitted) */
} sandbox;

/* The default limits: files up to 4 GiB, 4096 processes, no id change, no
 * view (the grader sets one: isolation.h). */
void sandbox_defaults(sandbox *sb, const char *home);

/*
 * When the grader runs as root: the unprivileged account to run students'
 * code as, provided it can read the kit at `top`: the uid in
 * GRADE_SANDBOX_UID when set (batch workers: one user each, with nobody's
 * group), else "nobody".  Returns 0 and sets *uid / *gid; 1 when it had to
 * fall back to nobody (why says from what); -1 (stay as is) with the
 * reason in why.
 */
int sandbox_pick_user(const char *top, int *uid, int *gid, char *why, size_t len);

/* Can uid:gid read path?  Asked of a child that has become that user (root
 * only); 0 yes, -1 no or unknown. */
int sandbox_user_can_read(int uid, int gid, const char *path);

/* In the child, just before exec.  Returns 0, or -1 with the reason in why
 * (with a view, nothing may be run then: the view could not be built).
 * GRADE_SANDBOX_SIMULATE_FAILURE=1 in the environment makes a view fail as
 * in a container that forbids namespaces (for the tests of the policy). */
int sandbox_enter(const sandbox *sb, char *why, size_t len);

/* Give the scratch folder (and what is in it) to the sandbox user. */
int sandbox_hand_over(const char *dir, int uid, int gid);

#endif /* SANDBOX_H */
