/*
 * speed_witness.c - the witness's part of the speed phase (speed_witness.h):
 * the reference's clock ratios, kept or measured, and each passing speed
 * test's witnessed time credited, or the test not credited.
 */
#define _GNU_SOURCE
#include "speed_witness.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "score.h"
#include "tunables.h"
#include "witness.h"
#include "witness_cache.h"

/* Where the reference's ratios are kept: beside its binary, in
 * build/gpu/ref/witness (witness_cache.h). */
static void ratio_dir(const run_plan *theirs, char *dir, size_t len)
{
    snprintf(dir, len, "%s", theirs->binary);
    char *slash = strrchr(dir, '/');
    snprintf(slash ? slash + 1 : dir, len - (size_t)(slash ? slash + 1 - dir : 0), "witness");
}

/* Ratios measured during this grading, by case: as good as "now" for
 * reference_ratio, and found even with GRADE_WITNESS_CACHE=off. */
static struct {
    const suite_case *c;
    double ratio;
} measured[WITNESS_UNIT_MAX];
static int nmeasured;

static void ratio_measured(const suite_case *c, double ratio)
{
    if (nmeasured < WITNESS_UNIT_MAX) {
        measured[nmeasured].c = c;
        measured[nmeasured++].ratio = ratio;
    }
}

static int ratio_known_now(const suite_case *c, double *ratio)
{
    for (int i = 0; i < nmeasured; i++)
        if (measured[i].c == c)
            return *ratio = measured[i].ratio, 0;
    return -1;
}

/* Case c's cache key; 0, or -1 when it cannot be keyed (not kept). */
static int ratio_key(const speed_result *r, const suite_case *c, const run_plan *theirs,
                     const char *ncu, char *key, size_t len)
{
    return witness_cache_key(key, len, theirs->binary, r->ref_device, ncu, c, WITNESS_REPS,
                             WITNESS_WARMUP) == 0 ? 0 : -1;
}

/* Case c's ratio measured during this grading or, when kept_ok, kept from
 * an earlier one (witness_cache.h); 0 with *ratio, or -1. */
static int ratio_found(const speed_result *r, const suite_case *c, const run_plan *theirs,
                       const char *ncu, int kept_ok, double *ratio)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], dir[PATH_MAX];
    if (ratio_known_now(c, ratio) == 0)
        return 0;
    if (!kept_ok || ratio_key(r, c, theirs, ncu, key, sizeof key) != 0)
        return -1;
    ratio_dir(theirs, dir, sizeof dir);
    return witness_cache_get(dir, key, ratio) == 0 ? 0 : -1;
}

/* The reference's witnessed run wr of case c made its ratio, remembered
 * for this grading and kept; 0 with *ratio, or -1 when the run gives none. */
static int ratio_from_run(const speed_result *r, const suite_case *c, const run_plan *theirs,
                          const char *ncu, const witness_result *wr, double *ratio)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], dir[PATH_MAX];
    if (wr->run.verdict != V_PASS || wr->kernels == 0 || !(wr->ms_per_call > 0))
        return -1;
    *ratio = r->t_ref / wr->ms_per_call;
    ratio_measured(c, *ratio);
    if (ratio_key(r, c, theirs, ncu, key, sizeof key) == 0) {
        ratio_dir(theirs, dir, sizeof dir);
        witness_cache_put(dir, key, *ratio);
    }
    return 0;
}

/*
 * The reference's clock ratio for case c: its median on the events' clock
 * over its kernels' time under ncu, which turns a witnessed time into the
 * events' clock.  Measured during this grading, or kept from an earlier
 * one on this GPU (witness_cache.h), else measured now and kept; measured
 * during this grading whatever is kept when `now` is set (whether ncu
 * works today decides who failed).
 * 0 with *ratio, or -1 when the reference could not be witnessed.
 */
static int reference_ratio(const speed_result *r, const suite_case *c, const run_plan *theirs,
                           const char *ncu, int now, double *ratio)
{
    char why[200];
    witness_result wr;
    if (ratio_found(r, c, theirs, ncu, !now, ratio) == 0)
        return 0;
    if (!isfinite(r->t_ref) || witness_case(theirs, c, ncu, &wr, why, sizeof why) != 0)
        return -1;
    return ratio_from_run(r, c, theirs, ncu, &wr, ratio);
}

/*
 * The reference's ratios that are not kept, measured by one ncu process
 * for all of them (witness_unit) before the submission is witnessed: a
 * first grading on a GPU pays ncu's start once for the reference, not
 * once per case.  Cases it cannot measure so are left to reference_ratio.
 */
static void reference_ratios(const grade_run *g, const int *which,
                             const suite_case *const *cases, int count, const run_plan *theirs,
                             const char *ncu)
{
    const suite_case *unit[WITNESS_UNIT_MAX];
    const speed_result *res[WITNESS_UNIT_MAX];
    char why[300];
    double ratio;
    int n = 0;
    for (int i = 0; i < count && n < WITNESS_UNIT_MAX; i++) {
        const speed_result *r = &g->speed[which[i]];
        if (r->verdict != V_PASS || !isfinite(r->t_ref) ||
            ratio_found(r, cases[i], theirs, ncu, 1, &ratio) == 0)
            continue;
        res[n] = r;
        unit[n++] = cases[i];
    }
    witness_result wr[WITNESS_UNIT_MAX];
    if (n < 2 || witness_unit(theirs, unit, n, ncu, wr, why, sizeof why) != 0)
        return;
    for (int k = 0; k < n; k++)
        ratio_from_run(res[k], unit[k], theirs, ncu, &wr[k], &ratio);
}

/* Why the witness of a run failed, said as the mode and the reference's
 * witness decide: the program's doing when the reference was witnessed. */
static void witness_failed(speed_result *r, const char *quoted, int ref_witnessed,
                           witness_mode mode)
{
    if (speed_unwitnessed_credit(mode == WITNESS_REQUIRE, ref_witnessed)) {
        snprintf(r->detail, sizeof r->detail, "not witnessed (%.400s): your process's time, "
                 "bounded by a device copy's", quoted);
    } else if (ref_witnessed) {
        r->verdict = V_NO_RESULT;
        snprintf(r->detail, sizeof r->detail, "the witness failed: ncu, which times the "
                 "kernels from outside your process, timed the reference but not your "
                 "program (%.400s; did it exit early or stop the profiler?): no speed points",
                 quoted);
    } else {
        r->verdict = V_SKIPPED;
        snprintf(r->detail, sizeof r->detail, "not credited: no witness (%.400s)", quoted);
    }
}

/* Credit a witnessed run ws of case c (witness.h): the student's time is
 * the witnessed one, turned to the events' clock by the reference's ratio;
 * the process's own report is never asked for.  The run's own text is
 * shown as hidden.h's later_run_text allows. */
static void witness_credit(speed_result *r, const suite_case *c, const witness_result *ws,
                           const run_plan *theirs, const char *ncu, witness_mode mode,
                           const suite *s)
{
    double ratio = 1.0;
    if (ws->run.verdict != V_PASS) {
        r->verdict = ws->run.verdict;
        snprintf(r->detail, sizeof r->detail, "run under the profiler: %s %.400s",
                 verdict_name(ws->run.verdict), later_run_text(s, ws->run.detail));
        return;
    }
    if (ws->kernels == 0) {
        r->verdict = V_IMPLAUSIBLE;
        snprintf(r->detail, sizeof r->detail, "ncu, outside your process, saw no kernel of "
                 "yours: not credited");
        return;
    }
    if (reference_ratio(r, c, theirs, ncu, 0, &ratio) != 0) {
        /* No clock to hold ncu's time against the reference's events'
         * (kernel durations leave out the gaps between launches): not
         * credited as it stands, nor taken as the process's own word
         * where a witness is required. */
        witness_failed(r, "the reference could not be witnessed: tell your instructor", 0,
                       mode);
        return;
    }
    r->t_student = ws->ms_per_call * ratio;
    r->gbps = bytes_moved(c->kind, c->n, c->dtype) / r->t_student / 1e6;
    r->copy_gbps = r->ref_copy_gbps;
    snprintf(r->detail, sizeof r->detail, "timed outside your process by ncu: %d kernels, %.4f ms "
             "per call, %.4f ms on the events' clock", ws->kernels, ws->ms_per_call,
             r->t_student);
}

/* Witness one case alone under ncu and credit it. */
static void witness_one(speed_result *r, const suite_case *c, const run_plan *mine,
                        const run_plan *theirs, const char *ncu, witness_mode mode, const suite *s)
{
    witness_result ws;
    char why[600];
    double ratio;
    if (witness_case(mine, c, ncu, &ws, why, sizeof why) != 0) {
        if (ws.run.verdict != V_PASS && ws.run.verdict != V_NO_RESULT &&
            ws.run.verdict != V_CRASH && ws.run.verdict != V_TIMEOUT) {
            /* The program's output was judged and failed (wrong, a CUDA
             * error): said as such.  Leaving early, dying or hanging is
             * what a dodged or killed witness looks like: that is left
             * to the witness's own verdict below. */
            r->verdict = ws.run.verdict;
            snprintf(r->detail, sizeof r->detail, "speed run failed: %s %.400s",
                     verdict_name(ws.run.verdict), later_run_text(s, ws.run.detail));
            return;
        }
        /* Does it work for the reference, now?  Then the failure is the
         * program's (a kept ratio says only that ncu worked once). */
        int ref_witnessed = mode != WITNESS_REQUIRE &&
                            reference_ratio(r, c, theirs, ncu, 1, &ratio) == 0;
        witness_failed(r, later_run_text(s, why), ref_witnessed, mode);
        return;
    }
    witness_credit(r, c, &ws, theirs, ncu, mode, s);
}

/* The passing speed tests witnessed by one ncu process (witness_unit),
 * each credited; 1 when done, 0 when each must be witnessed alone (fewer
 * than two, or the unit's table could not be split by case). */
static int witness_together(grade_run *g, const int *which, const suite_case *const *cases,
                            int count, const run_plan *mine, const run_plan *theirs,
                            const char *ncu, witness_mode mode)
{
    const suite_case *unit[WITNESS_UNIT_MAX];
    int at[WITNESS_UNIT_MAX], n = 0;
    for (int i = 0; i < count; i++) {
        if (g->speed[which[i]].verdict != V_PASS)
            continue;
        if (n == WITNESS_UNIT_MAX)
            return 0;
        at[n] = i;
        unit[n++] = cases[i];
    }
    witness_result ws[WITNESS_UNIT_MAX];
    char why[300];
    if (n < 2 || witness_unit(mine, unit, n, ncu, ws, why, sizeof why) != 0) {
        if (n >= 2 && getenv("GRADE_TRACE"))
            fprintf(stderr, "grade: trace: witness: each case alone (%s)\n", why);
        return 0;
    }
    for (int k = 0; k < n; k++)
        witness_credit(&g->speed[which[at[k]]], cases[at[k]], &ws[k], theirs, ncu, mode,
                       g->s);
    return 1;
}

void witness_setup_get(witness_setup *w)
{
    memset(w, 0, sizeof *w);
    w->ok = witness_mode_get(&w->mode, w->why, sizeof w->why) == 0;
    w->found = w->ok && w->mode != WITNESS_OFF && witness_find_ncu(w->ncu, sizeof w->ncu) == 0;
}

int witness_planned(const witness_setup *w)
{
    return w->found;
}

void witness_all(grade_run *g, const int *which, const suite_case *const *cases, int count,
                 const run_plan *mine, const run_plan *theirs, const witness_setup *w)
{
    const witness_mode mode = w->mode;
    const char *ncu = w->ncu;
    const int ok = w->ok, found = w->found;
    if (ok && mode == WITNESS_OFF)
        return;
    if (found)
        reference_ratios(g, which, cases, count, theirs, ncu);
    int together = found && witness_together(g, which, cases, count, mine, theirs, ncu, mode);
    for (int i = 0; i < count && !together; i++) {
        speed_result *r = &g->speed[which[i]];
        if (r->verdict != V_PASS)
            continue;
        if (found) {
            witness_one(r, cases[i], mine, theirs, ncu, mode, g->s);
        } else if (!ok || mode == WITNESS_REQUIRE) {
            r->verdict = V_SKIPPED;
            snprintf(r->detail, sizeof r->detail, "not credited: %s", ok ? "no witness (ncu "
                     "not found) and GRADE_WITNESS=require" : w->why);
        } else {
            snprintf(r->detail, sizeof r->detail, "not witnessed (ncu not found): your "
                     "process's time, bounded by a device copy's");
        }
    }
}

