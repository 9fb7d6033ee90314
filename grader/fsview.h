/*
 * fsview.h - the filesystem a sandboxed process sees, built from nothing:
 * a new mount namespace whose root is an empty tmpfs, into which only the
 * listed paths are bound (read-only unless said otherwise), plus a /dev
 * with the ordinary character devices and the NVIDIA ones (but the GPUs
 * the grader was not given: gpunodes.h), a private /tmp
 * and /dev/shm, a /proc of its own PID namespace and a read-only /sys.
 * Everything else of the machine (the kit's solutions/ and suites, the
 * reference binaries, other students' scratch folders) does not exist
 * inside.  The network and System V IPC namespaces are new as well.
 *
 * Why not text scanning: `#include S(path)` with a stringizing macro, or
 * an open() at run time, reads any file the process can see; only what it
 * cannot see is safe.  Why not bubblewrap: as root the grader must mount
 * first and then become an unprivileged user (so that files on disk are
 * never written as root and RLIMIT_NPROC counts per user); bwrap would
 * either run the student as root or need a user namespace, which a root
 * grader in a container often may not create.  Doing the same few system
 * calls here works in both cases and adds no package.
 *
 * As root: mount + PID + network + IPC namespaces.  Otherwise: the same
 * inside a new user namespace that maps the caller's own uid (so the
 * student's program has no capabilities after exec).
 */
#ifndef FSVIEW_H
#define FSVIEW_H

#include <stddef.h>

#include "gpunodes.h"

#define FSVIEW_MAX 128 /* the system, masks, the kit's parts: common's headers one by one */
#define FSVIEW_PATH 1024

typedef enum {
    FSV_RO,    /* bind the path read-only at the same place */
    FSV_RW,    /* bind it writable (the scratch folder) */
    FSV_MASK,  /* an empty read-only tmpfs over it: hides what an earlier bind showed */
} fsview_kind;

typedef struct fsview_s {
    int in_cell;   /* the view of a witness cell (fsview_cell_enter): its /proc is
                      the cell's, mounted before the view is built, so that the
                      profiler in the cell can follow the program */
    int n;
    char path[FSVIEW_MAX][FSVIEW_PATH]; /* absolute, symbolic links resolved */
    fsview_kind kind[FSVIEW_MAX];
    gpu_view gpu;  /* the GPUs whose device nodes are left out (gpunodes.h); the
                      program's CUDA_VISIBLE_DEVICES when gpu.active */
} fsview;

void fsview_init(fsview *v);

/* Add a path (resolved with realpath).  Returns 0; 1 when the path does not
 * exist (nothing added: a missing optional part); -1 when the list is
 * full or the path too long. */
int fsview_add(fsview *v, const char *path, fsview_kind kind);

/* Is `path` the same as, or inside, a path of the view bound with `kind`? */
int fsview_covers(const fsview *v, const char *path, fsview_kind kind);

/*
 * In a forked child that is about to exec (run.c): create the namespaces
 * and the view, and return in a process that lives in them, with the
 * working directory "/".  The caller's process stays outside as a waiter
 * and ends with the sandboxed program's exit status or signal, so the
 * grader sees the program's fate as if it had run it directly.  Returns 0
 * in the sandboxed process; -1 with the reason in why (nothing was
 * entered, or the view could not be built: the caller must not exec).
 */
int fsview_enter(const fsview *v, char *why, size_t len);
/*
 * A witness cell (witness.h): new PID, network, IPC and mount namespaces
 * (and a user namespace when not root) with a /proc of their own and,
 * when v is not NULL, the view v (with in_cell set, listing the
 * profiler's own folder) around everything in the cell; a private /tmp
 * always.  The profiler then starts the program through
 * `grade --sandbox-exec`, which only cleans its environment and limits:
 * profiler and program share the view, the cell's processes, its /tmp
 * (the profiler's tracking sockets) and its user.  Returns 0 in a process
 * inside the cell (the caller's stays outside as the waiter, as with
 * fsview_enter); -1 with the reason.
 */
int fsview_cell_enter(const fsview *v, char *why, size_t len);

#endif /* FSVIEW_H */
