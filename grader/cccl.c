/*
 * cccl.c - see cccl.h: the toolkit's include folders, from nvcc itself
 * (never a list of guessed paths), and a mask over CUB and Thrust in each.
 */
#define _GNU_SOURCE
#include "cccl.h"
#include "isolation.h"
#include "run.h"
#include "tunables.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cccl_is_algorithm_header(const char *path)
{
    static const char *const libs[] = {"cub/", "thrust/"};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        for (const char *p = strstr(path, libs[i]); p; p = strstr(p + 1, libs[i]))
            if (p == path || p[-1] == '/')
                return 1;
    return 0;
}

/* Mask dir/cub and dir/thrust where they are folders; the count masked,
 * or -1 when the view is full. */
static int mask_in(fsview *v, const char *dir)
{
    static const char *const libs[] = {"cub", "thrust"};
    char path[PATH_MAX], real[PATH_MAX];
    struct stat st;
    int added = 0;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, libs[i]);
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(path, real) ||
            fsview_covers(v, real, FSV_MASK))
            continue;
        if (fsview_add(v, real, FSV_MASK) < 0)
            return -1;
        added++;
    }
    return added;
}

/* The include folders nvcc passes to its own preprocessor, from the
 * INCLUDES and SYSTEM_INCLUDES lines of `nvcc --dryrun` (tokens in double
 * quotes: "-I/dir", or "-isystem" "/dir"); each one's masks added.  The
 * count masked, or -1 when the view is full. */
static int mask_from_dryrun(fsview *v, const char *nvcc, const char *work)
{
    char log[PATH_MAX], line[8192];
    snprintf(log, sizeof log, "%s/toolkit-includes.txt", work);
    char *argv[] = {(char *)nvcc, "--dryrun", "-c", "-x", "cu", "/dev/null", "-o", "/dev/null",
                    NULL};
    run_status st;
    if (run_command(argv, log, LIMIT_MAKE_QUERY_S, &st) != 0)
        return 0;
    FILE *in = fopen(log, "r");
    if (!in)
        return 0;
    int added = 0, next_is_dir = 0;
    while (added >= 0 && fgets(line, sizeof line, in)) {
        if (!strstr(line, "INCLUDES="))
            continue;
        for (char *q = strchr(line, '"'); q && added >= 0; q = strchr(q + 1, '"')) {
            char *end = strchr(q + 1, '"');
            if (!end)
                break;
            *end = '\0';
            const char *tok = q + 1;
            const char *dir = next_is_dir ? tok : !strncmp(tok, "-I", 2) ? tok + 2 : NULL;
            next_is_dir = !strcmp(tok, "-isystem");
            int n = dir && dir[0] == '/' ? mask_in(v, dir) : 0;
            added = n < 0 ? -1 : added + n;
            q = end;
        }
    }
    fclose(in);
    return added;
}

int cccl_mask(fsview *v, const char *work, char *why, size_t len)
{
    char nvcc[PATH_MAX], dir[PATH_MAX + 32];
    if (isolation_tool_path("nvcc", nvcc, sizeof nvcc) != 0)
        return 0; /* no toolkit: no CUB or Thrust either */
    int added = mask_from_dryrun(v, nvcc, work);
    /* Older toolkits keep them in include/ itself, newer in include/cccl/:
     * the prefix's own folders too, in case the dry run said nothing. */
    char *cut = strrchr(nvcc, '/');
    for (int up = 0; up < 2 && cut; up++, cut = strrchr(nvcc, '/'))
        *cut = '\0';
    static const char *const sub[] = {"include", "include/cccl"};
    for (size_t i = 0; i < sizeof sub / sizeof sub[0] && added >= 0; i++) {
        snprintf(dir, sizeof dir, "%s/%s", nvcc, sub[i]);
        int n = mask_in(v, dir);
        added = n < 0 ? -1 : added + n;
    }
    if (added < 0)
        snprintf(why, len, "view: too many paths");
    return added;
}
