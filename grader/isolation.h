/*
 * isolation.h - what of the machine a student's build and runs may see
 * (the kit's view, built on fsview.h), and what the grader does where that
 * view cannot be set up (the instructor's policy).
 *
 * Seen, read-only: the system (/usr, /etc, /bin, /lib*), the CUDA toolkit
 * and the tools the build calls wherever they are installed, the GPU's
 * device nodes, and of the kit only the Makefile, common's headers (.h,
 * .cuh), the emulator (common/emu/), common/tools/no_algorithms.sh (which
 * `make bin` runs) and the prebuilt objects build/host/,
 * build/<backend>/common/ and build/emu/libcuemu.a.  Masked (empty): the
 * toolkit's cub/ and thrust/ folders (cccl.h).  Writable: the
 * scratch folder (sources, binary, logs, outputs).  Not there at all:
 * solutions/, grader/ (the suites), tests/, labs/, build/<backend>/ref/
 * (the reference binaries), the harness's own sources (common's .c and .cu
 * files: a graded build links them prebuilt) and the other tools,
 * other students' scratch folders and
 * submissions, the network.
 *
 * Policy where namespaces are forbidden (some containers):
 *   refuse       print why and grade nothing (exit 3).  The default in the
 *                instructor's tree (it has solutions/): grading there
 *                without isolation hands every student the reference.
 *   unsandboxed  grade with the old sandbox only (environment, limits,
 *                user) and say so in the report.  The default in a
 *                student's copy of the kit (make dist: no solutions/),
 *                where there is nothing of the instructor's to read.
 * Chosen with ./grade --sandbox MODE or GRADE_SANDBOX=MODE (a batch
 * passes the variable on to every worker).
 */
#ifndef ISOLATION_H
#define ISOLATION_H

#include <stddef.h>

#include "fsview.h"
#include "sandbox.h"

typedef enum { POLICY_DEFAULT, POLICY_REFUSE, POLICY_UNSANDBOXED } sandbox_policy;

/* "refuse" / "unsandboxed" (or NULL / "": the default); -1 for anything
 * else. */
int isolation_parse_policy(const char *text, sandbox_policy *out);

/* The policy in force: an explicit one, else refuse where the kit at top
 * has solutions/ and unsandboxed where it has not. */
sandbox_policy isolation_effective(sandbox_policy asked, const char *top);

/*
 * The view for a student's build and runs of the kit at top (an absolute,
 * resolved path), with the scratch folder work writable.  Paths of the
 * kit that are not there yet (an emulator runtime never built) are left
 * out.  0, or -1 with the reason in why.
 */
int isolation_kit_view(fsview *v, const char *top, const char *work, char *why, size_t len);

/*
 * Start `sh` in the sandbox sb and have it check the view: the kit's
 * Makefile and headers visible, none of the kit's private parts
 * (solutions/, the suites, the reference binaries, tests/, the harness's
 * sources).  0 when the sandbox works as it
 * should; -1 with the reason (a namespace refused, a private part
 * visible) in why.  *seconds: how long the sandboxed start took.
 */
int isolation_probe(const sandbox *sb, const char *top, const char *work, char *why, size_t len,
                    double *seconds);

/*
 * On a GPU machine: make sure /dev/nvidia-uvm exists before any sandboxed
 * run.  CUDA creates it on first use through the setuid nvidia-modprobe,
 * which cannot work inside the view (its /dev is not the machine's, and no
 * setuid program gains privilege there); on a machine where no CUDA
 * program has run since boot, the grader creates it first, as itself.
 * 0, or -1 with a warning in why (runs may then fail to find the GPU).
 */
int isolation_gpu_nodes(char *why, size_t len);
/* Where a tool is: the first `tool` in PATH, else CUDA_HOME/bin (default
 * /usr/local/cuda), links resolved, into path; 0, or -1 when not found. */
int isolation_tool_path(const char *tool, char *path, size_t len);

#endif /* ISOLATION_H */
