/*
 * witness_cache.c - see witness_cache.h: one small file per key, named by
 * the key's hash, holding the key and the ratio.
 */
#define _GNU_SOURCE
#include "witness_cache.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tunables.h"

/* The cache is off when GRADE_WITNESS_CACHE says so. */
static int cache_off(void)
{
    const char *v = getenv("GRADE_WITNESS_CACHE");
    return v && !strcmp(v, "off");
}

/* FNV-1a, 64 bits: only a file name (the file holds the whole key). */
static uint64_t key_hash(const char *key)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

int cache_key_binary(char *key, size_t len, int used, const char *path)
{
    struct stat st;
    if (used < 0 || (size_t)used >= len || stat(path, &st) != 0)
        return -1;
    int n = snprintf(key + used, len - used, "%s|%lld|%llu|%lld.%09ld|", path,
                     (long long)st.st_size, (unsigned long long)st.st_ino,
                     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    return n < 0 || (size_t)(used + n) >= len ? -1 : used + n;
}

int cache_key_case(char *key, size_t len, int used, const run_plan *plan, const suite_case *c)
{
    case_cmd cmd;
    case_command(plan, c, "-", &cmd);
    for (int a = 0; a < cmd.argc && used >= 0 && (size_t)used < len; a++) {
        int n = snprintf(key + used, len - used, "%s ", cmd.argv[a]);
        used = n < 0 ? -1 : used + n;
    }
    return used < 0 || (size_t)used >= len ? -1 : used;
}

int witness_cache_key(char *key, size_t len, const char *ref, const char *device, const char *ncu,
                      const suite_case *c, int reps, int warmup)
{
    char real_ncu[PATH_MAX];
    if (!realpath(ncu, real_ncu) || !device || !*device)
        return -1;
    run_plan p = {.reps = reps, .warmup = warmup, .timeout_s = WITNESS_TIMEOUT_S, .no_raw = 1,
                  .witness = 1};
    int used = cache_key_binary(key, len, snprintf(key, len, "v1|"), ref);
    if (used >= 0) {
        int n = snprintf(key + used, len - used, "%s|%s|", device, real_ncu);
        used = n < 0 || (size_t)(used + n) >= len ? -1 : used + n;
    }
    used = cache_key_case(key, len, used, &p, c);
    return used < 0 || strchr(key, '\n') ? -1 : 0; /* too long to keep whole, or a name no
                                                      line can hold */
}

/* The entry's path for key in dir. */
static void entry_path(char *path, size_t len, const char *dir, const char *key)
{
    snprintf(path, len, "%s/%016llx.ratio", dir, (unsigned long long)key_hash(key));
}

int witness_cache_get(const char *dir, const char *key, double *ratio)
{
    char path[PATH_MAX], line[WITNESS_CACHE_KEY_MAX + 2];
    if (cache_off())
        return -1;
    entry_path(path, sizeof path, dir, key);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(line, sizeof line, f) && line[strcspn(line, "\n")] == '\n' &&
             (line[strcspn(line, "\n")] = '\0', !strcmp(line, key)) &&
             fscanf(f, "%lf", ratio) == 1 && isfinite(*ratio) && *ratio > 0;
    fclose(f);
    return ok ? 0 : -1;
}

void witness_cache_put(const char *dir, const char *key, double ratio)
{
    char path[PATH_MAX], tmp[PATH_MAX + 32];
    if (cache_off() || !isfinite(ratio) || ratio <= 0 || (mkdir(dir, 0755) != 0 && errno != EEXIST))
        return;
    entry_path(path, sizeof path, dir, key);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    int ok = fprintf(f, "%s\n%.17g\n", key, ratio) > 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}
