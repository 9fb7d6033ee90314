/*
 * archive.c - a student's .zip, .tar.gz, .tgz or .tar, unpacked with
 * libarchive into the scratch folder.  Every member is checked first and
 * the whole archive refused, nothing extracted, when one is absolute,
 * holds a ".." component, is a link or a device, or when there are too
 * many, or when their declared sizes add up past UNPACK_MAX_BYTES.  The
 * extraction is this file's own (libarchive only reads): every folder and
 * file opened by descriptor below the destination with O_NOFOLLOW, and
 * every byte written counted first, holes of sparse members included, so
 * at most UNPACK_MAX_BYTES are written whatever the headers say.  Messages
 * go to stdout, which is the student's report; member names in them are
 * cleaned (text.h).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "text.h"
#include "tunables.h"

/* A reader for the formats a submission may come in. */
static struct archive *open_reader(const char *path)
{
    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    archive_read_support_format_zip(a);
    archive_read_support_filter_gzip(a);
    if (archive_read_open_filename(a, path, 64 * 1024) != ARCHIVE_OK) {
        batch_say(stdout, "batch: cannot read the archive %s: %s\n", path, archive_error_string(a));
        archive_read_free(a);
        return NULL;
    }
    return a;
}

/* Is a member safe to extract?  NULL when it is, else why not. */
static const char *bad_member(struct archive_entry *e)
{
    const char *name = archive_entry_pathname(e);
    if (!name || !*name)
        return "nameless";
    if (name[0] == '/')
        return "an absolute path";
    for (const char *p = name; *p;) {
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.')
            return "a '..' component";
        p += len;
        while (*p == '/') p++;
    }
    if (archive_entry_hardlink(e))
        return "a hard link";
    switch (archive_entry_filetype(e)) {
    case AE_IFREG: case AE_IFDIR: return NULL;
    case AE_IFLNK: return "a symbolic link";
    default: return "not a plain file or folder";
    }
}

/* First pass: every member's header, before anything is written; the sizes
 * the headers declare are added up for an early, friendly refusal (the
 * second pass counts what it really writes: a header can lie). */
static int check_members(const char *path)
{
    struct archive *a = open_reader(path);
    struct archive_entry *e;
    int count = 0, r, rc = 0;
    long long declared = 0;
    if (!a)
        return X_UNPACK;
    while (!rc && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *why = bad_member(e);
        char name[256];
        if (why) {
            text_clean(archive_entry_pathname(e) ? archive_entry_pathname(e) : "", name,
                       sizeof name, NULL);
            batch_say(stdout, "batch: archive refused, nothing extracted: member '%s' is %s\n", name, why);
            rc = X_REFUSED;
        } else if (++count > UNPACK_MAX_MEMBERS) {
            batch_say(stdout, "batch: archive refused: more than %d members\n", UNPACK_MAX_MEMBERS);
            rc = X_REFUSED;
        } else if ((declared += archive_entry_size(e)) > UNPACK_MAX_BYTES) {
            batch_say(stdout, "batch: archive refused, nothing extracted: its members declare more than "
                   "%lld bytes in all (an archive bomb, or not a lab's files)\n",
                   (long long)UNPACK_MAX_BYTES);
            rc = X_REFUSED;
        }
    }
    if (!rc && r != ARCHIVE_EOF) {
        batch_say(stdout, "batch: cannot list the archive %s (corrupt, or not a zip or tar file): %s\n",
               path, archive_error_string(a));
        rc = X_UNPACK;
    }
    archive_read_free(a);
    return rc;
}

/* Open member `name` for writing below the folder `top`, making its
 * folders on the way; every step by descriptor with O_NOFOLLOW, so nothing
 * is written outside `top` whatever the name.  A descriptor, or -1. */
static int open_member(int top, const char *name, int is_dir)
{
    char part[4096];
    int dir = dup(top);
    const char *p = name;
    while (dir >= 0 && *p) {
        size_t len = strcspn(p, "/");
        const char *next = p + len;
        while (*next == '/') next++;
        if (len == 0 || (len == 1 && p[0] == '.')) { /* "a//b", "./a" */
            p = next;
            continue;
        }
        if (len >= sizeof part) {
            close(dir);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(part, p, len);
        part[len] = '\0';
        if (*next == '\0' && !is_dir) { /* the file itself */
            int fd = openat(dir, part, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
            close(dir);
            return fd;
        }
        if (mkdirat(dir, part, 0755) != 0 && errno != EEXIST) {
            close(dir);
            return -1;
        }
        int sub = openat(dir, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(dir);
        dir = sub;
        p = next;
    }
    return dir; /* a folder member: its own descriptor */
}

/* Copy one member's data into fd, each byte counted against the budget
 * before it is written: archive_read_data fills a sparse member's holes
 * with zeros, so a hole is bytes written like any other, and nothing
 * stretches a file past what was counted (no ftruncate to a header's
 * size: that is how a 125-byte archive became a 3 GiB file). */
static int copy_data(struct archive *in, int fd, long long *budget)
{
    static char buf[64 * 1024];
    la_ssize_t got;
    while ((got = archive_read_data(in, buf, sizeof buf)) > 0) {
        *budget -= (long long)got;
        if (*budget < 0) {
            batch_say(stdout, "batch: archive refused: it unpacks to more than %lld bytes (an archive "
                   "bomb, or not a lab's files)\n", (long long)UNPACK_MAX_BYTES);
            return X_REFUSED;
        }
        for (la_ssize_t done = 0; done < got;) {
            ssize_t w = write(fd, buf + done, (size_t)(got - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                batch_say(stdout, "batch: unpacking failed: %s\n", strerror(errno));
                return X_UNPACK;
            }
            done += w;
        }
    }
    if (got < 0) {
        batch_say(stdout, "batch: unpacking failed: %s\n", archive_error_string(in));
        return X_UNPACK;
    }
    return 0;
}

/* Second pass: extract below the folder `top`, written by this code alone
 * (no libarchive disk writer): folders and plain files only, as pass one
 * allowed, and at most UNPACK_MAX_BYTES in all. */
static int extract(const char *path, int top)
{
    struct archive *in = open_reader(path);
    struct archive_entry *e;
    long long budget = UNPACK_MAX_BYTES;
    int r = ARCHIVE_EOF, rc = 0;
    while (in && !rc && (r = archive_read_next_header(in, &e)) == ARCHIVE_OK) {
        const char *why = bad_member(e); /* the same archive, read again: checked again */
        int is_dir = archive_entry_filetype(e) == AE_IFDIR;
        int fd = why ? -1 : open_member(top, archive_entry_pathname(e), is_dir);
        if (fd < 0) {
            char name[256];
            text_clean(archive_entry_pathname(e) ? archive_entry_pathname(e) : "", name,
                       sizeof name, NULL);
            batch_say(stdout, "batch: unpacking failed at member '%s': %s\n", name,
                   why ? why : strerror(errno));
            rc = why ? X_REFUSED : X_UNPACK;
        } else {
            if (!is_dir)
                rc = copy_data(in, fd, &budget);
            close(fd);
        }
    }
    if (in && !rc && r != ARCHIVE_EOF) {
        batch_say(stdout, "batch: unpacking %s failed: %s\n", path, archive_error_string(in));
        rc = X_UNPACK;
    }
    archive_read_free(in);
    return in ? rc : X_UNPACK;
}

int unpack(const char *archive, const char *dest)
{
    int rc = check_members(archive);
    if (!rc && mkdir(dest, 0700) && errno != EEXIST) {
        batch_say(stdout, "batch: cannot make %s: %s\n", dest, strerror(errno));
        rc = X_UNPACK;
    }
    int top = rc ? -1 : open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (!rc && top < 0) {
        batch_say(stdout, "batch: cannot enter %s: %s\n", dest, strerror(errno));
        rc = X_UNPACK;
    }
    if (!rc)
        rc = extract(archive, top);
    if (top >= 0)
        close(top);
    fflush(stdout);
    return rc;
}
