/*
 * logtext.h - a run's log, cut down to what a student should read
 * (logtext.c).  Only text in, text out: the log files are the grader's own
 * (the student's code can neither see nor write them).
 */
#ifndef LOGTEXT_H
#define LOGTEXT_H

#include <stddef.h>

/* One excerpt of a log text for a student (first diagnostic, the
 * emulator's, CUDA's or the watchdog's, else the text's end), keeping its
 * first line and every "hint:" line. */
void log_excerpt_text(const char *text, char *out, size_t len);
/* The same for a log file (its first LOG_HEAD_BYTES, tunables.h). */
void log_excerpt(const char *log, char *out, size_t len);

/* compute-sanitizer's output (its whole text) in one line for a student:
 * the first report, shortened, and "(compute-sanitizer: N errors)".  Returns
 * N from its summary line, or -1 when there is none. */
int sanitizer_summary(const char *text, char *out, size_t len);
/* The same for a log file. */
void sanitizer_excerpt(const char *log, char *out, size_t len);

#endif /* LOGTEXT_H */
