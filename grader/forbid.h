/*
 * forbid.h - shortcuts a lab forbids: calling a library that does the work
 * (CUB, Thrust), reaching into the harness's CPU reference or input
 * generator, or including files from outside the submission.  Found in the
 * source with comments and string literals blanked out, so mentioning CUB
 * in a comment is fine.
 */
#ifndef FORBID_H
#define FORBID_H

#include <stddef.h>

/*
 * Scan `text` (a submitted file called `name`) for forbidden uses, plus the
 * suite's extra comma-separated words in `extra` (may be NULL).  Returns 0
 * when clean; otherwise 1 with "name:LINE: what" in why.
 */
int forbid_scan(const char *name, const char *text, const char *extra, char *why, size_t len);

#endif /* FORBID_H */
