/*
 * status.c - what became of a submission, in one word and one line: the
 * field the batch's gradebook shows (grade.h grade_status), written by the
 * grader into results.json rather than guessed later from its report.
 */
#include <stdio.h>
#include <string.h>

#include "grade.h"

/* The compiler's first error line, without the scratch folder's path:
 * "/tmp/grade.x/src/reduce.cu:32:18: error: ..." -> "reduce.cu:32:18: error: ...". */
static void first_error(const char *log, char *out, size_t len)
{
    const char *hit = strstr(log, "error");
    const char *from = hit ? hit : log;
    while (hit && from > log && from[-1] != '\n')
        from--;
    int n = (int)strcspn(from, "\n");
    const char *colon = memchr(from, ':', (size_t)n), *base = from;
    for (const char *p = from; colon && p < colon; p++)
        if (*p == '/')
            base = p + 1;
    snprintf(out, len, "%.*s", n - (int)(base - from), base);
}

const char *grade_status(const grade_run *g, char *reason, size_t len)
{
    reason[0] = '\0';
    if (g->forbidden[0]) {
        snprintf(reason, len, "%s", g->forbidden);
        return "forbidden";
    }
    if (g->file_verdict != V_PASS) {
        snprintf(reason, len, "%s", g->build_log);
        return g->file_verdict == V_MISSING_FILE ? "missing file" : "ambiguous file";
    }
    if (g->build_failed) {
        first_error(g->build_log, reason, len);
        return "build failed";
    }
    return "graded";
}
