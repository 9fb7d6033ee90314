/*
 * safefile.c - see safefile.h.  Paths here are absolute and were made by
 * the grader from its own (resolved) scratch folder, so a link anywhere
 * in them can only be the student's doing: refusing every link is exact.
 */
#define _GNU_SOURCE
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The walk for kernels without openat2 (before 5.6): from the folder
 * start (an fd, or "/" when start is -1 and path absolute), each folder
 * with O_NOFOLLOW|O_DIRECTORY, the last part with flags|O_NOFOLLOW.  ".."
 * is refused (the grader's paths never hold it). */
static int walk_open(int start, const char *path, int flags, int mode)
{
    char buf[PATH_MAX];
    if ((start < 0) != (path[0] == '/') || strlen(path) >= sizeof buf)
        return errno = EINVAL, -1;
    snprintf(buf, sizeof buf, "%s", path);
    int dir = start < 0 ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
                        : fcntl(start, F_DUPFD_CLOEXEC, 0);
    char *save = NULL, *part = strtok_r(buf, "/", &save);
    while (dir >= 0 && part) {
        char *next = strtok_r(NULL, "/", &save);
        if (!strcmp(part, "..")) {
            close(dir);
            return errno = ELOOP, -1;
        }
        int fd = next ? openat(dir, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                      : openat(dir, part, flags | O_NOFOLLOW | O_CLOEXEC, mode);
        int saved = errno;
        close(dir);
        errno = saved;
        if (!next)
            return fd;
        dir = fd;
        part = next;
    }
    if (dir >= 0) /* the path was "/" */
        return (flags & O_DIRECTORY) ? dir : (close(dir), errno = EISDIR, -1);
    return -1;
}

/* openat(start, path, flags, mode) with no symbolic link followed
 * anywhere (start -1: an absolute path); below start only when it is a
 * folder (RESOLVE_BENEATH). */
static int open_no_links_at(int start, const char *path, int flags, int mode)
{
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? (unsigned long long)mode : 0;
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | (start >= 0 ? RESOLVE_BENEATH : 0);
    long fd = syscall(SYS_openat2, start >= 0 ? start : AT_FDCWD, path, &how, sizeof how);
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
        return (int)fd;
    return walk_open(start, path, flags, mode);
}

/* open(path, flags, mode) with no symbolic link followed anywhere. */
static int open_no_links(const char *path, int flags, int mode)
{
    return open_no_links_at(-1, path, flags, mode);
}

/* fd (opened O_NONBLOCK) kept when it is a regular file of at most max
 * bytes (max < 0: any), made blocking again; else closed, and -1 with
 * errno EINVAL (not a regular file) or EFBIG. */
static int regular_only(int fd, long long max, long long *size)
{
    struct stat st;
    if (fd < 0)
        return -1;
    int why = fstat(fd, &st) != 0         ? errno
              : !S_ISREG(st.st_mode)      ? EINVAL
              : max >= 0 && st.st_size > max ? EFBIG
                                          : 0;
    if (!why && fcntl(fd, F_SETFL, 0) != 0)
        why = errno;
    if (why) {
        close(fd);
        errno = why;
        return -1;
    }
    if (size)
        *size = (long long)st.st_size;
    return fd;
}

int safe_open_read(const char *path, long long max, long long *size)
{
    return regular_only(open_no_links(path, O_RDONLY | O_NONBLOCK, 0), max, size);
}

int safe_open_beneath(const char *root, const char *rel, long long max, long long *size)
{
    int dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC); /* the instructor's path */
    if (dir < 0)
        return -1;
    int fd = rel[0] == '/' ? (errno = EINVAL, -1)
                           : open_no_links_at(dir, rel, O_RDONLY | O_NONBLOCK, 0);
    int saved = errno;
    close(dir);
    errno = saved;
    return regular_only(fd, max, size);
}

FILE *safe_fopen_read(const char *path, long long max)
{
    int fd = safe_open_read(path, max, NULL);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    return f;
}

int safe_slurp(const char *path, char *buf, size_t size)
{
    buf[0] = '\0';
    int fd = safe_open_read(path, (long long)size - 1, NULL);
    if (fd < 0)
        return -1;
    size_t got = 0;
    for (;;) {
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || (got += (size_t)n) == size - 1)
            break;
    }
    char extra;
    int more = got == size - 1 && read(fd, &extra, 1) == 1; /* grew since fstat */
    close(fd);
    buf[got] = '\0';
    return more ? -1 : 0;
}

/* The folder of path opened with no link followed, and its last part in
 * *base (a pointer into path); -1 when there is none. */
static int open_parent(const char *path, char *dir, size_t len, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash || !slash[1] || (size_t)(slash - path) + 2 > len)
        return errno = EINVAL, -1;
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    memcpy(dir, path, n);
    dir[n] = '\0';
    *base = slash + 1;
    if (!strcmp(*base, ".") || !strcmp(*base, ".."))
        return errno = EINVAL, -1;
    return open_no_links(dir, O_PATH | O_DIRECTORY, 0);
}

int safe_unlink(const char *path)
{
    char dir[PATH_MAX];
    const char *base;
    int d = open_parent(path, dir, sizeof dir, &base);
    if (d < 0)
        return errno == ENOENT ? 0 : -1;
    int rc = unlinkat(d, base, 0);
    int saved = errno;
    close(d);
    return rc == 0 || saved == ENOENT ? 0 : (errno = saved, -1);
}

/* path's folder opened (open_parent) with whatever stood at its last name
 * removed, for safe_create and safe_mkfifo to make it afresh there: the
 * folder's fd, base set to the name, or -1. */
static int parent_cleared(const char *path, char *dir, size_t len, const char **base)
{
    int d = open_parent(path, dir, len, base);
    if (d < 0 || unlinkat(d, *base, 0) == 0 || errno == ENOENT)
        return d;
    int saved = errno;
    close(d);
    errno = saved;
    return -1;
}

int safe_create(const char *path, int mode)
{
    char dir[PATH_MAX];
    const char *base;
    int d = parent_cleared(path, dir, sizeof dir, &base);
    if (d < 0)
        return -1;
    int fd = openat(d, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    int saved = errno;
    close(d);
    errno = saved;
    return fd;
}

int safe_mkdir(const char *path, int mode)
{
    char dir[PATH_MAX];
    const char *base;
    int d = open_parent(path, dir, sizeof dir, &base);
    if (d < 0)
        return -1;
    int rc = mkdirat(d, base, (mode_t)mode) == 0 || errno == EEXIST ? 0 : -1;
    int fd = rc ? -1 : openat(d, base, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int saved = errno;
    close(d);
    if (fd >= 0)
        close(fd);
    errno = saved;
    return fd >= 0 ? 0 : -1;
}

int safe_mkfifo(const char *path, int mode)
{
    char dir[PATH_MAX];
    const char *base;
    int d = parent_cleared(path, dir, sizeof dir, &base);
    if (d < 0)
        return -1;
    int rc = mkfifoat(d, base, (mode_t)mode);
    int saved = errno;
    close(d);
    errno = saved;
    return rc;
}

int safe_open_fifo(const char *path, int flags)
{
    struct stat st;
    int fd = open_no_links(path, flags, 0);
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))) {
        close(fd);
        return errno = EINVAL, -1;
    }
    return fd;
}
