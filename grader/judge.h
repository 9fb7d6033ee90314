/*
 * judge.h - one run of a lab binary, judged in the grader's own process:
 * the input is regenerated from the seed, the reference computed here, and
 * the raw output read back from the file the binary wrote.  Nothing the
 * binary says about its result is believed; only its times are read from
 * its result file, and speed.c bounds them by a device copy's.
 */
#ifndef JUDGE_H
#define JUDGE_H

#include "cuda_exit.h" /* EMU_DIAGNOSTIC_EXIT and the lab binary's codes */
#include "grade.h"
#include "run.h"

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
} run_plan;

/* The exit status a wrapping compute-sanitizer is told to use for findings
 * (--error-exitcode): a SANITIZER verdict. */
#define SANITIZER_FOUND_EXIT 97

/* compute-sanitizer's output (its whole text) in one line for a student:
 * the first report, shortened, and "(compute-sanitizer: N errors)".  Returns
 * N from its summary line, or -1 when there is none. */
int sanitizer_summary(const char *text, char *out, size_t len);
/* The same for a log file. */
void sanitizer_excerpt(const char *log, char *out, size_t len);

/* Run case c as planned, in a process of its own, and fill t (verdict,
 * detail, time).  Many cases in one process: unit.h. */
void judge_case(const run_plan *plan, const suite_case *c, test_result *t);

/* ---- the parts judge_case is made of, shared with unit.c ---- */

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

/* The verdict for case c from how its run ended (st), what its log said
 * (excerpt, one line) and, when it ended well, the result files at
 * PREFIX.json / PREFIX.bin (the .bin is removed once judged). */
void judge_ending(const run_plan *plan, const suite_case *c, const run_status *st,
                  const char *excerpt, const char *prefix, test_result *t);

/* One line from a run's log text for a student (first diagnostic, else
 * its end). */
void log_excerpt_text(const char *text, char *out, size_t len);

/* A run that never ended: a timeout, or the emulator's deadlock report. */
int test_hung(const test_result *t);

#endif /* JUDGE_H */
