/*
 * run.h - running a build or a lab binary as a child process: its own
 * process group, output to a log file, and a wall-clock limit after which
 * the whole group is killed.  Nothing the child does can hang the grader.
 */
#ifndef RUN_H
#define RUN_H

#include <stddef.h>

typedef struct {
    int exited;     /* exited normally; code holds the exit status */
    int code;
    int signaled;   /* killed by signal sig (and not by our timeout) */
    int sig;
    int timed_out;  /* we killed it at the limit */
    double seconds; /* wall-clock time */
} run_status;

/* Seconds on the monotonic clock, for durations (limits, traces, report). */
double now_s(void);

/*
 * Run argv[0] (searched in PATH) with stdout and stderr going to log_path.
 * Returns 0 when the child was started (its fate is in *st), -1 when it
 * could not be (fork or exec failed; *st then says exited with code 127).
 */
int run_command(char *const argv[], const char *log_path, double timeout_s, run_status *st);

/* The same, inside a sandbox (sandbox.h); sb may be NULL (no sandbox).  A
 * sandbox the child cannot enter ends it with exit status 126 and the
 * reason in the log. */
struct sandbox_s;
int run_sandboxed(char *const argv[], const char *log_path, double timeout_s,
                  const struct sandbox_s *sb, run_status *st);

/*
 * A gate the child waits at before its program starts (`grade
 * --sandbox-exec --gate`, sandbox_exec.h): the child sends a byte on
 * ready_fd (the read end of its ready FIFO, non-blocking) when it waits,
 * and open(gate) is then called to let it through, once a run (again if
 * it could not).  A witness (witness_gate.h) starts ncu this way beside
 * other correctness runs and takes the GPU alone only once the student's
 * program is about to start.  The time open() takes (waiting for the
 * GPU) counts against neither the run's limit nor its stall limit.
 */
typedef struct run_gate {
    int ready_fd;
    int (*open)(const struct run_gate *gate); /* 1: let through; 0: could not */
    /* Once through: the program's own bytes (witness_window.h) on
     * window_fd (non-blocking; -1: none), each given to heard; the time
     * heard takes (waiting for the GPU) is left out of the limits too. */
    int window_fd;
    void (*heard)(const struct run_gate *gate, char byte);
} run_gate;

/* A file a run writes as it goes (a list of cases' progress: unit.h):
 * the run is killed (as timed out) when it has not changed size for
 * stall_s seconds, so that each case gets a limit of its own however many
 * the list holds; and grew (when not NULL) is called each time it has,
 * while the run goes on (launch.c passes on the cases that have ended, to
 * be judged meanwhile).  The time grew takes counts against neither
 * limit. */
typedef struct {
    const char *path;
    double stall_s;
    void (*grew)(void *ctx);
    void *ctx;
} run_progress;

/* The same, watched by progress and gate, either of which may be NULL. */
int run_watched(char *const argv[], const char *log_path, double timeout_s,
                const run_progress *progress, const struct sandbox_s *sb, const run_gate *gate,
                run_status *st);

/* Last `max` bytes of a file (NUL-terminated), for showing a log's end. */
void read_tail(const char *path, char *buf, size_t max);

/* One line describing how a run ended ("exit 3", "killed by SIGSEGV", ...). */
void describe_status(const run_status *st, char *buf, size_t len);

#endif /* RUN_H */
