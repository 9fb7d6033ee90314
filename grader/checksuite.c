/* checksuite.c - the reference solution must get full marks (checksuite.h). */
#include "checksuite.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int check_suite_submission(const char *top, const suite *s, const char **path)
{
    static char dir[1200];
    snprintf(dir, sizeof dir, "%s/solutions/%s", top, s->dir);
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "grade: --check-suite grades the reference solution, and this copy of "
                        "the kit has none (%s): run it in the instructor's checkout\n", dir);
        return -1;
    }
    *path = dir;
    return 0;
}

/* A test the reference lost, or 0 when it is fine: a case skipped only
 * because it is too large for the emulator counts as fine. */
static int case_lost(const grade_run *g, int c)
{
    const test_result *t = &g->tests[c];
    int too_large = t->verdict == V_SKIPPED && g->s->cases[c].emu_skip &&
                    strcmp(g->backend, "emu") == 0;
    return t->verdict != V_PASS && !too_large;
}

/* Cases and groups the reference lost; how many. */
static int lost_cases(const grade_run *g, FILE *f)
{
    const suite *s = g->s;
    int lost = 0;
    for (int c = 0; c < s->ncases; c++) {
        const suite_case *k = &s->cases[c];
        if (!case_lost(g, c))
            continue;
        fprintf(f, "  %s test %d (group %s%s): %s %s%s %s %s n=%zu seed=%llu%s%s: %s %.300s\n",
                verdict_name(g->tests[c].verdict), c + 1, s->groups[k->group].id,
                k->visibility != VIS_VISIBLE ? ", hidden" : "", k->variant,
                k->exclusive ? "excl " : "", dtype_name(k->dtype), op_name(k->op),
                dist_name(k->dist), k->n, (unsigned long long)k->seed,
                k->schedule[0] ? " schedule=" : "", k->schedule, verdict_name(g->tests[c].verdict),
                g->tests[c].detail);
        lost++;
    }
    for (int i = 0; i < s->ngroups; i++)
        if (g->group_run[i] == 0 && lost == 0) {
            fprintf(f, "  group %s ran no test here, so it scores 0 of %.1f\n", s->groups[i].id,
                    s->groups[i].points);
            lost++;
        }
    return lost;
}

/* Speed tests the reference lost against itself (only where timed). */
static int lost_speed(const grade_run *g, FILE *f)
{
    int lost = 0;
    for (int k = 0; g->speed_graded && k < g->s->nspeed; k++) {
        const speed_result *r = &g->speed[k];
        if (r->verdict == V_PASS && r->points >= g->s->speed[k].points - 1e-9)
            continue;
        fprintf(f, "  speed test %d (%s n=%zu): %s, %.1f of %.1f points %s\n", k + 1,
                g->s->speed[k].variant, g->s->speed[k].n, verdict_name(r->verdict), r->points,
                g->s->speed[k].points, r->detail);
        lost++;
    }
    return lost;
}

int check_suite_verdict(const grade_run *g, FILE *f)
{
    fprintf(f, "\ncheck-suite: %s: the reference solution against the suite%s\n", g->s->lab,
            g->s->hidden_from < g->s->ngroups ? " and its hidden part" : "");
    if (g->build_failed) {
        fprintf(f, "check-suite: FAILED: the reference did not build:\n%s\n", g->build_log);
        return -1;
    }
    int lost = lost_cases(g, f) + lost_speed(g, f);
    if (lost) {
        fprintf(f, "check-suite: FAILED: the reference lost points in %d test(s) above; "
                   "fix the suite (or the solution)\n", lost);
        return -1;
    }
    fprintf(f, "check-suite: ok: full marks, %.1f / %.1f%s\n", g->total, g->max_total,
            g->speed_graded ? "" : " (speed not graded here, so its points are not expected)");
    return 0;
}
