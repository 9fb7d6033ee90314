/*
 * launch.h - starting a lab binary on suite cases, one case to a process
 * or several (a unit: unit.h says why), and what came of it: how each
 * case's run ended, one line of its log, and where its result files are.
 * Nothing here reads a result or decides a verdict: judge.h does, from
 * what this hands over.  The flow is one way: the launcher hands over
 * each case's run (as it ends, or when the process has), the caller
 * (unit.c) judges it.
 */
#ifndef LAUNCH_H
#define LAUNCH_H

#include <stddef.h>

#include "cuda_exit.h" /* EMU_DIAGNOSTIC_EXIT and the lab binary's codes */
#include "grade.h"
#include "run.h"
#include "tunables.h"

typedef struct {
    const char *binary;  /* lab binary to run */
    const char *work;    /* the grader's own folder for the run's logs and lists: the
                            student's code can neither see nor write it */
    const char *box;     /* the student-writable folder (inside the view) where the
                            binary writes its results: read only through safefile.h */
    int reps, warmup;    /* passed through: reps >= 1 also repeats the run */
    double timeout_s;    /* the binary's own watchdog; the grader kills 10 s later */
    const char *emu_binary; /* build for the CPU emulator, for cases with a schedule */
    const struct sandbox_s *sandbox; /* limits for the run, or NULL */
    char *const *wrap;   /* run the binary under this command (NULL-terminated argv
                            prefix, e.g. compute-sanitizer --tool memcheck ...), or NULL */
    int no_raw;          /* the kit's own reference timed: its raw output is not
                            written (--no-raw) nor judged, only its time read */
    int exact;           /* buffers of exactly n elements (--exact): sanitizer runs */
    int witness;         /* --witness: no kernel but the lab's (a profiler times them) */
    int witness_marks;   /* with witness, in a unit: case i starts with the kit's
                            marker kernel (--witness-mark i, common/witness_mark.h) */
    int traffic;         /* --traffic: the emulator counts the run's global traffic */
    const struct run_gate *gate; /* the wrap's gate (run.h), or NULL */
    int gpu_hold;        /* run_unit launches under this hold of the GPU (gpulock.h's
                            GPU_HELD_*: shared for correctness runs, exclusive for
                            timed ones) and judges after it; 0: none */
} run_plan;

/* The exit status a wrapping compute-sanitizer is told to use for findings
 * (--error-exitcode): a SANITIZER verdict. */
#define SANITIZER_FOUND_EXIT 97

/* How one case's run came out, for judge_run (judge.h). */
typedef struct {
    run_status st;                /* how its process ended, or (in a unit that went on)
                                     how the case itself ended: its exit code */
    char excerpt[EXCERPT_BYTES];  /* one line of its log for a student, or "" */
    char prefix[1200];            /* its results: PREFIX.json and PREFIX.bin in plan->box */
} case_run;

/* Run case c alone, in a process of its own, as planned. */
void launch_case(const run_plan *plan, const suite_case *c, case_run *run);

/*
 * Run cases[0..count) in one process (every case of a unit has the same
 * binary and emulator schedule: unit_compatible, unit.h) into runs[].
 * Returns how many have a run, from the first: count when the process went
 * to the end, fewer when it died (at least 1).  The case it died in is
 * run again alone when the death may have come from an earlier case (a
 * crash or an error; not a timeout, a deadlock or a sanitizer's finding,
 * which would only repeat).  ended (when not NULL) is given each case
 * that ended with a result to judge (exit 0, or the harness's own check
 * failed) as soon as the progress file says so, with its run as runs[i]
 * will hold it, while the later cases run: its time counts against no
 * limit of the run's.  Of those, only the ones below the count returned
 * stand (the progress file, which the program writes, is read again at the end).
 */
typedef void (*case_ended_fn)(void *ctx, int i, const case_run *run);
int launch_unit(const run_plan *plan, const suite_case *const *cases, int count, case_run *runs,
                case_ended_fn ended, void *ctx);

/* What a progress file says about case i (0-based ids "kI"): -1 never
 * begun, -2 begun but not ended, else its exit code.  For the tests. */
int unit_case_state(const char *progress_text, int i);

/* The start of the command that runs case c: plan->wrap (at most
 * PROGRAM_WRAP_MAX words), then the binary (the emulator build for a case
 * with a schedule).  Returns how many words it wrote to argv. */
#define PROGRAM_WRAP_MAX 112 /* a witness's: ncu's options, then grade --sandbox-exec and its view */
int program_argv(const run_plan *plan, const suite_case *c, char **argv);

/* The lab binary's options for case c, results to PREFIX.json/.bin. */
typedef struct {
    char n[32], seed[32], reps[16], warmup[16], timeout[32], prefix[1200], order[8], tuple[8];
    const char *argv[42];
    int argc;
} case_cmd;
void case_command(const run_plan *plan, const suite_case *c, const char *prefix, case_cmd *cmd);

/* The emulator's variables for case c (its schedule and threads, its
 * memory model, the deadlock limit, tunables.h, and CUEMU_FRESH=poison:
 * device memory nothing wrote reads as 0xcd bytes, not a GPU's lucky 0,
 * common/emu/README.md) set in the grader's own
 * environment, which the next child inherits; emu_env_restore puts the
 * caller's back. */
enum { EMU_ENV_VARS = 5 };
typedef struct {
    const char *name[EMU_ENV_VARS];
    char *value[EMU_ENV_VARS];
} emu_env;
void emu_env_set(const suite_case *c, double timeout_s, emu_env *saved);
void emu_env_restore(emu_env *saved);

/* The largest file a run of case c needs to write (its raw output). */
size_t case_max_file(const suite_case *c);

#endif /* LAUNCH_H */
