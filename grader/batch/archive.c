/*
 * archive.c - a student's .zip, .tar.gz, .tgz or .tar, unpacked with
 * libarchive into the scratch folder.  Every member is checked first and
 * the whole archive refused, nothing extracted, when one is absolute,
 * holds a ".." component, is a link or a device, or when there are too
 * many; the extraction then runs with libarchive's own secure flags
 * (no "..", no absolute paths, no writing through symbolic links), so a
 * check missed here is still refused there.  Messages go to stdout, which
 * is the student's report.
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
        printf("batch: cannot read the archive %s: %s\n", path, archive_error_string(a));
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

/* First pass: every member's header, before anything is written. */
static int check_members(const char *path)
{
    struct archive *a = open_reader(path);
    struct archive_entry *e;
    int count = 0, r, rc = 0;
    if (!a)
        return X_UNPACK;
    while (!rc && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *why = bad_member(e);
        if (why) {
            printf("batch: archive refused, nothing extracted: member '%s' is %s\n",
                   archive_entry_pathname(e) ? archive_entry_pathname(e) : "", why);
            rc = X_REFUSED;
        } else if (++count > UNPACK_MAX_MEMBERS) {
            printf("batch: archive refused: more than %d members\n", UNPACK_MAX_MEMBERS);
            rc = X_REFUSED;
        }
    }
    if (!rc && r != ARCHIVE_EOF) {
        printf("batch: cannot list the archive %s (corrupt, or not a zip or tar file): %s\n",
               path, archive_error_string(a));
        rc = X_UNPACK;
    }
    archive_read_free(a);
    return rc;
}

/* Copy one member's data, counting the bytes against the archive's budget. */
static int copy_data(struct archive *in, struct archive *out, long long *budget)
{
    const void *buf;
    size_t size;
    la_int64_t offset;
    int r;
    while ((r = archive_read_data_block(in, &buf, &size, &offset)) == ARCHIVE_OK) {
        *budget -= (long long)size;
        if (*budget < 0) {
            printf("batch: archive refused: it unpacks to more than %lld bytes\n",
                   (long long)UNPACK_MAX_BYTES);
            return X_REFUSED;
        }
        if (archive_write_data_block(out, buf, size, offset) != ARCHIVE_OK) {
            printf("batch: unpacking failed: %s\n", archive_error_string(out));
            return X_UNPACK;
        }
    }
    if (r != ARCHIVE_EOF) {
        printf("batch: unpacking failed: %s\n", archive_error_string(in));
        return X_UNPACK;
    }
    return 0;
}

/* Second pass: extract into the current folder, with libarchive's secure
 * flags (relative names only: the absolute-path flag refuses any other). */
static int extract(const char *path)
{
    struct archive *in = open_reader(path), *out = archive_write_disk_new();
    struct archive_entry *e;
    long long budget = UNPACK_MAX_BYTES;
    int r, rc = 0;
    archive_write_disk_set_options(out, ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                        ARCHIVE_EXTRACT_SECURE_SYMLINKS |
                                        ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS);
    while (in && !rc && (r = archive_read_next_header(in, &e)) == ARCHIVE_OK) {
        archive_entry_set_perm(e, archive_entry_filetype(e) == AE_IFDIR ? 0755 : 0644);
        if (archive_write_header(out, e) != ARCHIVE_OK) {
            printf("batch: unpacking failed: %s\n", archive_error_string(out));
            rc = X_UNPACK;
        } else if (archive_entry_size(e) > 0) {
            rc = copy_data(in, out, &budget);
        }
        if (!rc && archive_write_finish_entry(out) != ARCHIVE_OK)
            rc = X_UNPACK;
    }
    if (in && !rc && r != ARCHIVE_EOF) {
        printf("batch: unpacking %s failed: %s\n", path, archive_error_string(in));
        rc = X_UNPACK;
    }
    archive_read_free(in);
    archive_write_free(out);
    return in ? rc : X_UNPACK;
}

int unpack(const char *archive, const char *dest)
{
    int rc = check_members(archive);
    if (!rc && mkdir(dest, 0700) && errno != EEXIST) {
        printf("batch: cannot make %s: %s\n", dest, strerror(errno));
        rc = X_UNPACK;
    }
    int here = open(".", O_RDONLY | O_DIRECTORY);
    if (!rc && (here < 0 || chdir(dest) != 0)) {
        printf("batch: cannot enter %s: %s\n", dest, strerror(errno));
        rc = X_UNPACK;
    }
    if (!rc) {
        rc = extract(archive);
        if (fchdir(here) != 0) /* back: the grader runs where the batch runs */
            rc = rc ? rc : X_UNPACK;
    }
    if (here >= 0)
        close(here);
    fflush(stdout);
    return rc;
}
