/*
 * rawout.c - see rawout.h.
 */
#define _GNU_SOURCE
#include "rawout.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "safefile.h"

/* The kept buffer: one, taken by one reader at a time (witness units are
 * judged on threads: witness.c); another reader meanwhile gets its own. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void *kept;
static size_t kept_bytes;

/* A buffer of at least bytes: the kept one (grown when too small) if no
 * other reader has it, else a fresh one; NULL when out of memory. */
static void *take_buffer(size_t bytes, int *is_kept)
{
    *is_kept = pthread_mutex_trylock(&kept_lock) == 0;
    if (!*is_kept)
        return malloc(bytes ? bytes : 1);
    if (kept_bytes < bytes) {
        if (kept)
            munmap(kept, kept_bytes);
        kept = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        kept_bytes = kept == MAP_FAILED ? 0 : bytes;
        if (kept == MAP_FAILED)
            kept = NULL;
    }
    if (!kept)
        pthread_mutex_unlock(&kept_lock);
    *is_kept = kept != NULL;
    return kept ? kept : malloc(bytes ? bytes : 1);
}

/* size bytes of fd from its start into buf; how many could be read. */
static size_t read_all(int fd, char *buf, size_t size)
{
    size_t got = 0;
    while (got < size) {
        ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

int raw_read(const char *path, size_t words, raw_out *out, long *size)
{
    long long bytes;
    out->words = NULL;
    out->copies = out->kept = 0;
    *size = -1;
    int fd = safe_open_read(path, -1, &bytes); /* the student's folder: safefile.h */
    if (fd < 0)
        return -1;
    *size = (long)bytes;
    int copies = bytes == (long long)(words * 4) ? 1 : bytes == (long long)(2 * words * 4) ? 2 : 0;
    void *buf = copies ? take_buffer((size_t)bytes, &out->kept) : NULL;
    size_t got = buf ? read_all(fd, buf, (size_t)bytes) : 0;
    close(fd);
    if (buf && got == (size_t)bytes) {
        out->words = buf;
        out->copies = copies;
        return 0;
    }
    if (buf)
        *size = (long)got; /* cut short while it was read */
    out->words = buf;
    raw_release(out);
    return -1;
}

void raw_release(raw_out *out)
{
    if (out->kept)
        pthread_mutex_unlock(&kept_lock);
    else
        free(out->words);
    out->words = NULL;
    out->kept = 0;
}
