/*
 * caselist.h - many cases in one process.  Starting a CUDA process costs
 * 0.3 s of driver time, more than most test cases take, so the grader
 * hands a lab binary a file of cases (`--cases FILE`), one per line:
 *
 *     ID option option ...      (the lab binary's own options, no spaces inside)
 *
 * Each case is parsed and run as if it had been its own command line.
 * Around it, two records let the grader tell which cases finished when the
 * process dies part-way (a crash, a CUDA error, a watchdog timeout):
 *   - the progress file gets "begin ID" before and "end ID RC" after, each
 *     one write(2), so nothing is lost in a buffer when the process dies;
 *   - stderr (the run's log) gets "@@ case ID" before, so the log can be
 *     cut into each case's part.
 * What the grader concludes from them is in grader/unit.c.
 */
#ifndef CASELIST_H
#define CASELIST_H

#include "cli.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest case line, and most options on one. */
#define CASELIST_LINE_MAX 2048
#define CASELIST_ARGS_MAX 64

/* Run one case; returns its exit code (0, EXIT_SELF_CHECK_FAILED, ...).
 * Fatal events (CUDA errors, the watchdog) end the process instead. */
typedef int (*caselist_fn)(const cli_opts *o, void *ctx);

/*
 * Run every case of `file`, each parsed over cli_defaults(); `progress` is
 * the progress file (NULL: none).  A line that does not parse is reported
 * on stderr and ends with EXIT_USAGE; the others still run.  Returns 0
 * when every case ran (whatever their codes), EXIT_USAGE when the files
 * cannot be opened.
 */
int caselist_run(const char *file, const char *progress, const char *prog, caselist_fn fn,
                 void *ctx);

/* Split a line into at most `max` whitespace-separated words, in place;
 * returns their count, or -1 when there are more. */
int caselist_split(char *line, char **words, int max);

#ifdef __cplusplus
}
#endif
#endif /* CASELIST_H */
