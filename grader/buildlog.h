/*
 * buildlog.h - what a failed build of a submission says, in plain words,
 * when it failed on something a submission may not have: a header of CUB
 * or Thrust (masked in the build view, cccl.h), code of theirs found in the
 * submission's objects (common/tools/no_algorithms.sh), one of the kit's
 * own sources (not shown in the build view: isolation.h), or a function of
 * the kit's harness (made local in the graded link,
 * common/tools/graded_harness.sh).  The absence is the defence; this only
 * turns the compiler's or the linker's complaint into the FORBIDDEN
 * verdict and its reason.
 */
#ifndef BUILDLOG_H
#define BUILDLOG_H

#include <stddef.h>

/*
 * Read the build log at log_path; local_list is the graded link's list of
 * the harness's local names (one a line; may be missing); top: the kit's
 * folder (NULL: no check of its sources).  Returns 1 with
 * the reason in why when the build failed for one of the reasons above,
 * else 0.
 */
int buildlog_forbidden(const char *log_path, const char *local_list, const char *top, char *why,
                       size_t len);

#endif /* BUILDLOG_H */
