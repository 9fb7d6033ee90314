/*
 * buildlog.c - see buildlog.h: a failed build's log, line by line, for a
 * missing CUB or Thrust header, the objects' check, or an undefined
 * reference to a name the harness holds but does not give a lab.
 */
#define _GNU_SOURCE
#include "buildlog.h"
#include "cccl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ALGORITHMS "CUB and Thrust are not available to a submission: "

/* The file a "no such file" line names: gcc's "FILE: No such file" after
 * "fatal error: ", EDG's "cannot open source file \"FILE\"", or the
 * emulator's "emu-nvcc: error: SRC:LINE includes <FILE>: ..." (or a path without the
 * angle brackets). */
static int missing_header(const char *line, char *file, size_t len)
{
    const char *p = strstr(line, " includes "); /* the emulator's own words */
    if (p && strstr(line, "emu-nvcc: ")) {
        p += strlen(" includes ");
        p += *p == '<';
        return snprintf(file, len, "%.*s", (int)strcspn(p, ">:"), p) > 0;
    }
    p = strstr(line, "cannot open source file \"");
    if (p) {
        p += strlen("cannot open source file \"");
        return snprintf(file, len, "%.*s", (int)strcspn(p, "\""), p) > 0;
    }
    p = strstr(line, "error: ");
    const char *end = strstr(line, ": No such file or directory");
    if (!p || !end || end < p)
        return 0;
    p += strlen("error: ");
    return snprintf(file, len, "%.*s", (int)(end - p), p) > 0;
}

/* The name an undefined-reference line names, without its parameters or
 * namespaces: GNU ld's "undefined reference to `NAME'", lld's "undefined
 * symbol: NAME". */
static int undefined_name(const char *line, char *name, size_t len)
{
    const char *p = strstr(line, "undefined reference to `");
    if (p)
        p += strlen("undefined reference to `");
    else if ((p = strstr(line, "undefined symbol: ")) != NULL)
        p += strlen("undefined symbol: ");
    else
        return 0;
    size_t n = strcspn(p, "'(<\n ");
    for (size_t i = n; i >= 2; i--) /* ns::f -> f */
        if (p[i - 1] == ':' && p[i - 2] == ':') {
            p += i, n -= i;
            break;
        }
    return n > 0 && snprintf(name, len, "%.*s", (int)n, p) > 0;
}

/* Whether the graded link made `name` local: a line of the list that is
 * the name itself (C) or a mangled name holding it ("_Z8time_cub..."). */
static int kit_local(const char *list, const char *name)
{
    FILE *in = fopen(list, "r");
    if (!in)
        return 0;
    char line[4096], mangled[300];
    snprintf(mangled, sizeof mangled, "%zu%s", strlen(name), name);
    int found = 0;
    while (!found && fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        found = !strcmp(line, name) || (!strncmp(line, "_Z", 2) && strstr(line, mangled));
    }
    fclose(in);
    return found;
}

/* Whether the missing file `what` is one of the kit's own sources (the
 * harness's .c/.cu, a tool): a file of that name in the kit's common/ or
 * common/tools/ that is not a header, which the build view does not show
 * (isolation.c).  The absence is the defence; this only names it. */
static int kit_source(const char *top, const char *what)
{
    const char *base = strrchr(what, '/') ? strrchr(what, '/') + 1 : what;
    const char *dot = strrchr(base, '.');
    if (!top || !base[0] || (dot && (!strcmp(dot, ".h") || !strcmp(dot, ".cuh"))))
        return 0;
    static const char *const dirs[] = {"common", "common/tools"};
    char path[4096];
    struct stat st;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", top, dirs[i], base);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return 1;
    }
    return 0;
}

/* The part of a compiler line after the scratch folder's "src/", so the
 * reason names the student's file, not the grader's copy of it. */
static const char *from_src(const char *line)
{
    const char *p = strstr(line, "/src/");
    return p ? p + strlen("/src/") : line;
}

int buildlog_forbidden(const char *log_path, const char *local_list, const char *top, char *why,
                       size_t len)
{
    FILE *in = fopen(log_path, "r");
    if (!in)
        return 0;
    char line[2048], what[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        const char *mark = strstr(line, "forbidden-code: ");
        if (mark)
            found = snprintf(why, len, ALGORITHMS "%s", mark + strlen("forbidden-code: ")) > 0;
        else if (missing_header(line, what, sizeof what) && cccl_is_algorithm_header(what))
            found = snprintf(why, len, ALGORITHMS "%s", from_src(line)) > 0;
        else if (missing_header(line, what, sizeof what) && kit_source(top, what))
            found = snprintf(why, len, "the kit's own sources are not available to a submission "
                                       "(it may include only the kit's headers): %s",
                             from_src(line)) > 0;
        else if (undefined_name(line, what, sizeof what) && kit_local(local_list, what))
            found = snprintf(why, len, "your file calls the kit's own %s, which a submission "
                                       "cannot use (a lab may call only what common/kit.h "
                                       "declares)", what) > 0;
    }
    fclose(in);
    return found;
}
