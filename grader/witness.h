/*
 * witness.h - kernel time measured outside the student's process.
 *
 * A speed run's median comes from the student's own process, which can
 * write any number into its result file (a destructor after main, a forked
 * child, /proc).  A witness runs the same case once more under ncu, which
 * the grader starts outside the student's sandbox: ncu's collector records
 * the duration of every kernel the process (and its children) launches,
 * and writes them where the student's process cannot reach.  With
 * --witness the harness launches no kernel of its own, so every kernel ncu
 * sees is the lab's; the output of that run is judged like any other, so
 * a program that does less work when watched fails.
 *
 * Layout: the grader forks into a witness cell (fsview_cell_enter: its own
 * PID, network, IPC and mount namespaces, the student's view with ncu's
 * folder added, a private /tmp) and execs ncu there as the sandbox's user
 * (as root: never root); ncu starts `grade --sandbox-exec -- <lab binary>
 * <case>` (sandbox_exec.h), which cleans the environment, sets the limits
 * and sends the program's output to its own log.  ncu's report goes to
 * its standard output, a file of the grader's outside the view that the
 * sandbox's user cannot open.  ncu's tracking needs to share the PID and
 * network namespaces and /tmp with its target, hence the cell; ncu's
 * lock and tracking folders in the private /tmp belong to the cell's user.
 * The GPU is held alone from the moment `grade --sandbox-exec` is about to
 * start the program to the end of ncu's process, not during ncu's own
 * start (witness_gate.h).
 *
 * What it does not stop: code in the student's process can tamper with
 * ncu's in-process collector, signal ncu (the same user: the run is then
 * not witnessed), or, where the kernel lets a process trace another of
 * its user (kernel.yama.ptrace_scope=0), ncu itself, and work done off the GPU's kernels (host
 * computation copied up) is not seen; the copy bound (speed.c) still
 * applies to the witnessed time.
 */
#ifndef WITNESS_H
#define WITNESS_H
#include <stddef.h>

#include "grade.h"
#include "judge.h"

/* GRADE_WITNESS: "auto" (default: witness where ncu runs), "require" (no
 * speed points without a witness) or "off". */
typedef enum { WITNESS_AUTO, WITNESS_REQUIRE, WITNESS_OFF } witness_mode;
/* The mode from GRADE_WITNESS; -1 (and why) for a value it does not know. */
int witness_mode_get(witness_mode *mode, char *why, size_t len);

/* ncu's path into path (NCU, PATH, the toolkit's and NVIDIA's folders);
 * 0, or -1 when there is none. */
int witness_find_ncu(char *path, size_t len);

/* Sum the durations of ncu's CSV log (--csv --print-units base, one
 * gpu__time_duration.sum row per kernel): total ns into *ns, kernels into
 * *kernels.  0, or -1 when the file has no table (ncu failed). */
int witness_parse_csv(const char *path, double *ns, int *kernels);

/* ncu's CSV log of a witness unit (common/witness_mark.h): the rows
 * after case i's mark and before the next, summed into ns[i] and counted
 * into kernels[i], for i < count; the marks are not counted.  Returns the
 * number of marks, or -1 when the file is not a table, a kernel comes
 * before the first mark, or a mark is out of order or one too many (a
 * forged mark). */
int witness_parse_marked(const char *path, int count, double *ns, int *kernels);

typedef struct {
    double ms_per_call; /* the kernels' time per call of the lab's run(), ms */
    int kernels;        /* kernels ncu saw */
    test_result run;    /* the witness run judged (its output too) */
} witness_result;

/* Case c run by plan->binary under ncu, in the view of plan->sandbox
 * (NULL: none), its files in a fresh folder under plan->work.  0 with *w
 * filled, or -1 with why (no ncu, the cell refused, ncu's log empty). */
int witness_case(const run_plan *plan, const suite_case *c, const char *ncu, witness_result *w,
                 char *why, size_t len);
/*
 * Cases cases[0..count) (2 <= count <= WITNESS_UNIT_MAX) run by one
 * process of plan->binary under one ncu (its start, about 2 s, paid once),
 * each case first launching the kit's mark; each judged and timed into
 * w[i].  0, or -1 with why when the table cannot be split by case (the
 * process died part-way, a mark is missing or forged): the caller then
 * witnesses each case alone.
 */
int witness_unit(const run_plan *plan, const suite_case *const *cases, int count, const char *ncu,
                 witness_result *w, char *why, size_t len);
#endif /* WITNESS_H */
