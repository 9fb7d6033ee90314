/*
 * raw_out.c - see raw_out.h.
 */
#include "raw_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_exit.h"

/* At most this many outputs wait for raw_flush: a suite has at most three
 * speed cases (grader's WITNESS_UNIT_MAX is 8); more are written at once. */
#define RAW_LATER_MAX 8

typedef struct {
    char *prefix;
    void *copies[2];
    int count;
    size_t words;
} raw_kept;

static raw_kept kept[RAW_LATER_MAX];
static int nkept;

FILE *result_open(const char *prefix, const char *suffix, const char *mode, char *path,
                  size_t len)
{
    snprintf(path, len, "%s.%s", prefix, suffix);
    FILE *f = fopen(path, mode);
    if (!f) {
        perror(path);
        exit(EXIT_USAGE);
    }
    return f;
}

void raw_write(const char *prefix, void *const *copies, int count, size_t words)
{
    char path[4096];
    FILE *f = result_open(prefix, "bin", "wb", path, sizeof path);
    for (int i = 0; i < count; i++)
        if (fwrite(copies[i], 4, words, f) != words) {
            perror(path);
            exit(EXIT_USAGE);
        }
    if (fclose(f) != 0) {
        perror(path);
        exit(EXIT_USAGE);
    }
}

void raw_write_later(const char *prefix, void **copies, int count, size_t words)
{
    char *name = strdup(prefix);
    if (nkept == RAW_LATER_MAX || !name || count > 2) {
        free(name);
        raw_write(prefix, copies, count, words);
        return;
    }
    raw_kept *k = &kept[nkept++];
    k->prefix = name;
    k->count = count;
    k->words = words;
    for (int i = 0; i < count; i++) {
        k->copies[i] = copies[i];
        copies[i] = NULL;
    }
}

void raw_flush(void)
{
    for (int i = 0; i < nkept; i++) {
        raw_write(kept[i].prefix, kept[i].copies, kept[i].count, kept[i].words);
        for (int c = 0; c < kept[i].count; c++)
            free(kept[i].copies[c]);
        free(kept[i].prefix);
    }
    nkept = 0;
}
