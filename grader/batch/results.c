/*
 * results.c - what the batch takes from a student's results.json: the
 * grader writes the outcome as a field (extra_data.status and .reason,
 * grader/status.c), so a CUB submission shows as "forbidden" with its
 * reason instead of "graded", and nothing is inferred from report text.
 */
#include <stdio.h>
#include <string.h>

#include "batch.h"

/* The grader's status of a results.json, or NULL when it has none (a
 * result from an older grader: graded again). */
static const char *status_of(const jv *j)
{
    return jv_str(jv_get(j, "extra_data"), "status");
}

int valid_results(const jv *j)
{
    double score;
    const jv *tests = jv_get(j, "tests");
    return j && jv_num(j, "score", &score) == 0 && jv_len(tests) >= 0 &&
           status_of(j);
}

void classify(student *s)
{
    const char *status = status_of(s->json);
    const char *reason = jv_str(jv_get(s->json, "extra_data"), "reason");
    snprintf(s->status, sizeof s->status, "%s", status ? status : "grader error");
    snprintf(s->note, sizeof s->note, "%s", reason ? reason : "");
}
