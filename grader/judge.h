/*
 * judge.h - one run of a lab binary, judged in the grader's own process:
 * the input is regenerated from the seed, the reference computed here, and
 * the raw output read back from the file the binary wrote.  Nothing the
 * binary prints about itself is believed.
 */
#ifndef JUDGE_H
#define JUDGE_H

#include "grade.h"

/* Exit code of the CPU emulator's diagnostics (common/emu/README.md). */
#define EMU_DIAGNOSTIC_EXIT 86

typedef struct {
    const char *binary;  /* lab binary to run */
    const char *work;    /* scratch folder for its output files */
    int reps, warmup;    /* passed through: reps >= 1 also repeats the run */
    double timeout_s;    /* the binary's own watchdog; the grader kills 10 s later */
    const char *emu_binary; /* build for the CPU emulator, for cases with a schedule */
    const struct sandbox_s *sandbox; /* limits for the run, or NULL */
    char *const *wrap;   /* run the binary under this command (NULL-terminated argv
                            prefix, e.g. compute-sanitizer --tool memcheck ...), or NULL */
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

/* Run case c as planned and fill t (verdict, detail, time). */
void judge_case(const run_plan *plan, const suite_case *c, test_result *t);

#endif /* JUDGE_H */
