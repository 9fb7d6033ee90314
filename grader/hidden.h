/*
 * hidden.h - what a student may see of the hidden tests (suite.h: the
 * groups of grader/suites/hidden/labN.suite): that they exist, how many
 * and their points; never a case's parameters, a hint, or any text of a
 * run that could repeat them.  Every piece of the report and results.json
 * that names a case or shows a run's text asks here, so there is one rule
 * in one place:
 *   - a case is named by case_label, which gives a hidden case only its
 *     number ("hidden test #N");
 *   - a hidden case's own text (its run's excerpt, the diagnosis of its
 *     output, a tool's findings on it) is never shown (case_text_shown);
 *   - a run made after the hidden cases (a speed run, the witness's, a
 *     sanitizer's), where the student's process could repeat what a hidden
 *     case's process saw, has its own text withheld when the lab has
 *     hidden tests (later_run_text); the grader's verdict stays.
 */
#ifndef HIDDEN_H
#define HIDDEN_H

#include <stddef.h>

#include "suite.h"

/* Does the lab have hidden tests at all? */
int suite_has_hidden(const suite *s);

/* Is group i hidden (from the hidden suite, or not visible)? */
int group_hidden(const suite *s, int i);

/* "int32 sum small n=33 seed=1" for a visible case, "hidden test #N"
 * (N = index + 1) for a hidden one. */
void case_label(const suite_case *c, int index, char *buf, size_t len);

/* The text of case c's run a student may read: detail, or "" when c is
 * hidden. */
const char *case_text_shown(const suite_case *c, const char *detail);

/* The text of a run made after the hidden cases: detail, or a line saying
 * why it is withheld when the lab has hidden tests. */
const char *later_run_text(const suite *s, const char *detail);

#endif /* HIDDEN_H */
