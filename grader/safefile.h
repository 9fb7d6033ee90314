/*
 * safefile.h - opening what a student's process could have written.
 *
 * The sandbox user owns its scratch folder (the box) and everything in
 * it, so any name there may have become a symbolic link to a file of the
 * machine (/etc/shadow, another student's results), a FIFO (an open for
 * reading that never returns) or a file of many gigabytes.  The grader,
 * often root, reads and removes files there after each run.  Every such
 * access goes through this module, which by construction:
 *   - follows no symbolic link anywhere in the path (openat2 with
 *     RESOLVE_NO_SYMLINKS; on kernels without it, a walk of the path one
 *     component at a time with O_NOFOLLOW);
 *   - opens with O_NONBLOCK and then accepts only a regular file, of at
 *     most the size asked for (a FIFO or a device is refused, never read);
 *   - creates only with O_CREAT|O_EXCL after removing what was there, so
 *     no existing file (or link) is ever written through;
 *   - removes a name with unlinkat in its folder, opened the same way.
 * The grader's own files live outside the box (grade.h's layout), where
 * the student can neither write nor see.
 */
#ifndef SAFEFILE_H
#define SAFEFILE_H

#include <stddef.h>
#include <stdio.h>

/* Open an absolute path for reading: a regular file of at most max bytes
 * (max < 0: any size), no link followed.  The fd (O_CLOEXEC, blocking
 * again) with its size in *size when size is not NULL; -1 with errno
 * ELOOP (a link), EINVAL (not a regular file), EFBIG (too large) or the
 * open's own. */
int safe_open_read(const char *path, long long max, long long *size);

/* The same for rel below the folder root (the instructor's path, whose
 * own links are followed): a submission's file, read with no link inside
 * the submission followed and never beyond root (a repository's
 * `scan.cu -> /etc/shadow`, or `-> ../other-student/scan.cu`). */
int safe_open_beneath(const char *root, const char *rel, long long max, long long *size);

/* The same as a stdio stream ("rb"), or NULL. */
FILE *safe_fopen_read(const char *path, long long max);

/* The whole file into buf (NUL-terminated); 0, or -1 when it cannot be
 * opened as above or does not fit in size - 1 bytes. */
int safe_slurp(const char *path, char *buf, size_t size);

/* Remove the name path (whatever it is: a file, a link, a FIFO; not a
 * folder), its folder reached with no link followed.  0 when it is gone
 * (or was never there), -1 otherwise. */
int safe_unlink(const char *path);

/* Create path afresh for writing (what was there removed first) with
 * O_EXCL and O_NOFOLLOW, its folder reached with no link followed; the fd
 * (O_CLOEXEC) or -1. */
int safe_create(const char *path, int mode);

/* mkdir path (mode), or accept it as it is when it is already a real
 * folder reached with no link; 0, or -1 (a link, a file, an error). */
int safe_mkdir(const char *path, int mode);

/* A FIFO made afresh at path (what was there removed first), its folder
 * reached with no link followed; 0, or -1. */
int safe_mkfifo(const char *path, int mode);

/* Open the FIFO at path with flags (O_NONBLOCK where the caller must not
 * wait for the other end), no link followed anywhere; the fd (O_CLOEXEC)
 * or -1 (errno EINVAL when path is not a FIFO). */
int safe_open_fifo(const char *path, int flags);

#endif /* SAFEFILE_H */
