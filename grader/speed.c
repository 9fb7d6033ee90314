/*
 * speed.c - the speed phase: each speed test's case run by the student's
 * binary and by the reference, the GPU held alone, in rounds; points from
 * the ratio of the best medians (score.h), a time beyond what the GPU can
 * do never credited.
 */
#define _GNU_SOURCE
#include "speed.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsview.h"
#include "gpulock.h"
#include "hidden.h"
#include "tunables.h"
#include "run.h"
#include "unit.h"
#include "witness.h"
#include "witness_cache.h"

/* The case a speed test times: the group's inputs at the test's size. */
static void speed_case(const suite_speed *sp, suite_case *c)
{
    memset(c, 0, sizeof *c);
    c->group = sp->group;
    snprintf(c->variant, sizeof c->variant, "%s", sp->variant);
    c->kind = sp->kind;
    c->section = sp->section;
    c->op = sp->op;
    c->dtype = sp->dtype;
    c->dist = DIST_SMALL;
    c->n = sp->n;
    c->seed = SPEED_SEED;
    c->exclusive = sp->exclusive;
    c->order = sp->order;
    c->tuple = sp->tuple;
    c->pred = sp->pred;
    snprintf(c->tol, sizeof c->tol, "n");
}

/* Run every case of a list as planned, in as few processes as the cases
 * allow (unit.h), judging each into out[]. */
static void run_all(const run_plan *plan, const suite_case *const *cases, int count,
                    test_result *out)
{
    for (int done = 0; done < count;)
        done += run_unit(plan, cases + done, count - done, out + done);
}

/* Why speed test k is not timed, or NULL when it is. */
static const char *speed_skip_why(const grade_run *g, int k, char *buf, size_t len)
{
    const suite_speed *sp = &g->s->speed[k];
    if (g->forbidden[0])
        return "not timed: forbidden shortcut";
    if (g->build_failed)
        return "not timed: build failed";
    if (!g->speed_graded)
        return strcmp(g->backend, "gpu") == 0 ? g->no_speed_why
                                              : "speed not graded: no GPU (CPU emulator)";
    if (g->group_passed[sp->group] < g->group_run[sp->group] || g->group_run[sp->group] == 0) {
        snprintf(buf, len, "not timed: group '%s' must pass first", g->s->groups[sp->group].id);
        return buf;
    }
    return NULL;
}

/* One round: every timed case run by the student's binary and then by the
 * reference, the GPU held alone; each keeps its best median. */
static void speed_round(grade_run *g, const int *which, const suite_case *const *cases,
                        int count, const run_plan *mine, const run_plan *theirs)
{
    static test_result got[SUITE_MAX_SPEED], ref[SUITE_MAX_SPEED];
    gpu_lock_exclusive(); /* the GPU to itself while it times (a batch on one GPU) */
    double t0 = now_s();
    run_all(mine, cases, count, got);
    double t1 = now_s();
    run_all(theirs, cases, count, ref);
    gpu_unlock();
    if (getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: speed round: submission %.2f s, reference %.2f s\n",
                t1 - t0, now_s() - t1);
    for (int i = 0; i < count; i++) {
        speed_result *r = &g->speed[which[i]];
        if (r->verdict != V_PASS)
            continue; /* failed in an earlier round */
        if (got[i].verdict != V_PASS) {
            r->verdict = got[i].verdict;
            snprintf(r->detail, sizeof r->detail, "speed run failed: %s %.400s",
                     verdict_name(got[i].verdict), later_run_text(g->s, got[i].detail));
        } else if (ref[i].verdict != V_PASS) {
            r->verdict = V_SKIPPED;
            snprintf(r->detail, sizeof r->detail, "the reference failed its speed run (%s): "
                     "tell your instructor", verdict_name(ref[i].verdict));
        }
        if (got[i].verdict == V_PASS && got[i].ms < r->t_student) {
            r->t_student = got[i].ms;
            r->gbps = got[i].gbps;
            r->copy_gbps = got[i].copy_gbps;
        }
        if (ref[i].verdict == V_PASS && ref[i].ms < r->t_ref)
            r->t_ref = ref[i].ms;
        if (ref[i].verdict == V_PASS && ref[i].copy_gbps > r->ref_copy_gbps)
            r->ref_copy_gbps = ref[i].copy_gbps;
        if (ref[i].verdict == V_PASS)
            snprintf(r->ref_device, sizeof r->ref_device, "%s", ref[i].device);
    }
}

/*
 * The student's time comes from the student's process, which could write
 * any number there.  A time that would move the case's bytes faster than
 * SPEED_MAX_COPY_RATIO device copies (the copy timed by the reference's
 * process) is physically out of reach: it is flagged, never credited.
 */
static void check_plausible(speed_result *r, const suite_case *c)
{
    double bytes = bytes_moved(c->kind, c->n, c->dtype), fastest_ms;
    if (r->verdict != V_PASS ||
        speed_plausible(r->t_student, bytes, r->ref_copy_gbps, SPEED_MAX_COPY_RATIO, &fastest_ms))
        return;
    r->verdict = V_IMPLAUSIBLE;
    snprintf(r->detail, sizeof r->detail,
             "reported %.4f ms, but its %.0f MB take at least %.4f ms on this GPU (a device "
             "copy, timed by the reference's process, moves %.0f GB/s; %.2fx that is the "
             "limit): not credited", r->t_student, bytes / 1e6, fastest_ms, r->ref_copy_gbps,
             SPEED_MAX_COPY_RATIO);
}

/*
 * The reference's clock ratio for case c: its median on the events' clock
 * over its kernels' time under ncu, which turns a witnessed time into the
 * events' clock.  Kept from an earlier grading on this GPU
 * (witness_cache.h), else measured now and kept; measured now whatever is
 * kept when `now` is set (whether ncu works today decides who failed).
 * 0 with *ratio, or -1 when the reference could not be witnessed.
 */
static int reference_ratio(const speed_result *r, const suite_case *c, const run_plan *theirs,
                           const char *ncu, int now, double *ratio)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], dir[PATH_MAX], why[200];
    snprintf(dir, sizeof dir, "%s", theirs->binary); /* beside it: build/gpu/ref/witness */
    char *slash = strrchr(dir, '/');
    snprintf(slash ? slash + 1 : dir, sizeof dir - (size_t)(slash ? slash + 1 - dir : 0), "witness");
    int keyed = witness_cache_key(key, sizeof key, theirs->binary, r->ref_device, ncu, c,
                                  WITNESS_REPS, WITNESS_WARMUP) == 0;
    if (keyed && !now && witness_cache_get(dir, key, ratio) == 0)
        return 0;
    witness_result wr;
    if (!isfinite(r->t_ref) || witness_case(theirs, c, ncu, &wr, why, sizeof why) != 0 ||
        wr.run.verdict != V_PASS || wr.kernels == 0 || !(wr.ms_per_call > 0))
        return -1;
    *ratio = r->t_ref / wr.ms_per_call;
    if (keyed)
        witness_cache_put(dir, key, *ratio);
    return 0;
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

/* Credit a witnessed run ws of case c (witness.h): the student's time
 * becomes at least the witnessed one, turned to the events' clock by the
 * reference's ratio.  The run's own text is shown as hidden.h's
 * later_run_text allows. */
static void witness_credit(speed_result *r, const suite_case *c, const witness_result *ws,
                           const run_plan *theirs, const char *ncu, const suite *s)
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
    if (reference_ratio(r, c, theirs, ncu, 0, &ratio) != 0)
        ratio = 1.0; /* the reference unwitnessed: ncu's own clock */
    double seen = ws->ms_per_call * ratio, claimed = r->t_student;
    if (claimed < WITNESS_MIN_AGREE * seen) {
        r->verdict = V_IMPLAUSIBLE;
        snprintf(r->detail, sizeof r->detail, "reported %.4f ms, but ncu, outside your process, "
                 "timed your kernels at %.4f ms per call (%.4f ms on the events' clock): not "
                 "credited", claimed, ws->ms_per_call, seen);
        return;
    }
    if (seen > claimed) {
        r->gbps *= claimed / seen;
        r->t_student = seen;
    }
    snprintf(r->detail, sizeof r->detail, "timed outside your process by ncu: %d kernels, %.4f ms "
             "per call (%.4f ms on the events' clock; your process reported %.4f ms)",
             ws->kernels, ws->ms_per_call, seen, claimed);
}

/* Witness one case alone under ncu and credit it. */
static void witness_one(speed_result *r, const suite_case *c, const run_plan *mine,
                        const run_plan *theirs, const char *ncu, witness_mode mode, const suite *s)
{
    witness_result ws;
    char why[600];
    double ratio;
    if (witness_case(mine, c, ncu, &ws, why, sizeof why) != 0) {
        /* Does it work for the reference, now?  Then the failure is the
         * program's (a kept ratio says only that ncu worked once). */
        int ref_witnessed = mode != WITNESS_REQUIRE &&
                            reference_ratio(r, c, theirs, ncu, 1, &ratio) == 0;
        witness_failed(r, later_run_text(s, why), ref_witnessed, mode);
        return;
    }
    witness_credit(r, c, &ws, theirs, ncu, s);
}

/* The passing speed tests witnessed by one ncu process (witness_unit),
 * each credited; 1 when done, 0 when each must be witnessed alone (fewer
 * than two, or the unit's table could not be split by case). */
static int witness_together(grade_run *g, const int *which, const suite_case *const *cases,
                            int count, const run_plan *mine, const run_plan *theirs,
                            const char *ncu)
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
        witness_credit(&g->speed[which[at[k]]], cases[at[k]], &ws[k], theirs, ncu, g->s);
    return 1;
}

/* Every passing speed test witnessed, as GRADE_WITNESS says. */
static void witness_all(grade_run *g, const int *which, const suite_case *const *cases, int count,
                        const run_plan *mine, const run_plan *theirs)
{
    witness_mode mode;
    char why[200], ncu[PATH_MAX];
    int ok = witness_mode_get(&mode, why, sizeof why) == 0;
    if (ok && mode == WITNESS_OFF)
        return;
    int found = ok && witness_find_ncu(ncu, sizeof ncu) == 0;
    /* A witness is a timing: its kernels must not run beside another
     * worker's timed runs, nor theirs beside it (a batch on one GPU). */
    int alone = found && WITNESS_GPU_ALONE && count > 0;
    if (alone)
        gpu_lock_exclusive();
    int together = found && witness_together(g, which, cases, count, mine, theirs, ncu);
    for (int i = 0; i < count && !together; i++) {
        speed_result *r = &g->speed[which[i]];
        if (r->verdict != V_PASS)
            continue;
        if (found) {
            witness_one(r, cases[i], mine, theirs, ncu, mode, g->s);
        } else if (!ok || mode == WITNESS_REQUIRE) {
            r->verdict = V_SKIPPED;
            snprintf(r->detail, sizeof r->detail, "not credited: %s", ok ? "no witness (ncu "
                     "not found) and GRADE_WITNESS=require" : why);
        } else {
            snprintf(r->detail, sizeof r->detail, "not witnessed (ncu not found): your "
                     "process's time, bounded by a device copy's");
        }
    }
    if (alone)
        gpu_unlock();
}

/* No later round can raise a score: every test timed has failed or is
 * within SPEED_FULL_RATIO of the reference (full points) after a round. */
static int settled(const grade_run *g, const int *which, int count)
{
    for (int i = 0; i < count; i++) {
        const speed_result *r = &g->speed[which[i]];
        if (r->verdict == V_PASS && !speed_settled(r->t_student, r->t_ref))
            return 0; /* not timed yet, or short of full points */
    }
    return 1;
}

/* On the emulator, where speed is not graded: what the student's kernels
 * moved through global memory on speed test k's input, cut to EMU_TRAFFIC_N
 * elements (one run with --traffic), beside what one pass needs; only
 * where the test's group passed (a wrong kernel's traffic means nothing).
 * make profile sets it beside the design's own minimum. */
static void emu_traffic(grade_run *g, int k, const run_plan *base)
{
    const suite_speed *sp = &g->s->speed[k];
    speed_result *r = &g->speed[k];
    if (strcmp(g->backend, "gpu") == 0 || g->build_failed || g->forbidden[0] ||
        g->group_run[sp->group] == 0 || g->group_passed[sp->group] < g->group_run[sp->group])
        return;
    suite_case c;
    speed_case(sp, &c);
    c.n = c.n < EMU_TRAFFIC_N ? c.n : EMU_TRAFFIC_N;
    const suite_case *one[1] = {&c};
    run_plan plan = *base;
    plan.reps = plan.warmup = 0;
    plan.traffic = 1;
    test_result t;
    run_all(&plan, one, 1, &t);
    if (t.verdict != V_PASS || !isfinite(t.moved[0]) || !isfinite(t.moved[1]) || c.n == 0)
        return;
    double unit = (double)c.n * (double)dtype_size(c.dtype);
    size_t len = strlen(r->detail);
    snprintf(r->detail + len, sizeof r->detail - len,
             "\nyour %s moved %.2f n elements through global memory at n = %zu (%.2f n read, "
             "%.2f n written, %.0f atomics); a single pass needs %s (make profile LAB=%s: this "
             "design's minimum)", kind_get(c.kind)->noun,
             (t.moved[0] + t.moved[1]) / unit, c.n, t.moved[0] / unit, t.moved[1] / unit,
             t.moved[2], kind_get(c.kind)->one_pass, g->s->lab);
}

/* Every speed test: up to SPEED_ROUNDS rounds alternating the student's binary
 * and the reference; points from the ratio of the best medians. */
void run_speed_tests(grade_run *g, const char *student, const char *ref, const char *work,
                     const char *box,
                     double timeout, const sandbox *sb)
{
    const suite *s = g->s;
    static suite_case store[SUITE_MAX_SPEED];
    const suite_case *cases[SUITE_MAX_SPEED];
    int which[SUITE_MAX_SPEED], count = 0;
    run_plan mine = {.binary = student, .work = work, .box = box, .reps = SPEED_REPS, .warmup = SPEED_WARMUP,
                     .timeout_s = timeout, .sandbox = sb};
    for (int k = 0; k < s->nspeed; k++) {
        speed_result *r = &g->speed[k];
        char buf[256];
        const char *why = speed_skip_why(g, k, buf, sizeof buf);
        memset(r, 0, sizeof *r);
        r->t_student = r->t_ref = INFINITY;
        r->verdict = why ? V_SKIPPED : V_PASS;
        if (why) {
            snprintf(r->detail, sizeof r->detail, "%s", why);
            emu_traffic(g, k, &mine);
            continue;
        }
        speed_case(&s->speed[k], &store[count]);
        cases[count] = &store[count];
        which[count++] = k;
    }
    /* The reference runs in the same sandbox, shown its own binary too. */
    static fsview ref_view;
    sandbox ref_sb = *sb;
    if (sb->view) {
        ref_view = *sb->view;
        fsview_add(&ref_view, ref, FSV_RO);
        ref_sb.view = &ref_view;
    }
    run_plan theirs = {.binary = ref, .work = work, .box = box, .reps = SPEED_REPS, .warmup = SPEED_WARMUP,
                       .timeout_s = timeout, .sandbox = &ref_sb, .no_raw = 1};
    double t0 = now_s();
    for (int round = 0; round < SPEED_ROUNDS && count > 0 && !settled(g, which, count); round++)
        speed_round(g, which, cases, count, &mine, &theirs);
    double t1 = now_s();
    witness_all(g, which, cases, count, &mine, &theirs);
    g->t_speed = t1 - t0;
    g->t_witness = now_s() - t1;
    for (int i = 0; i < count; i++) {
        speed_result *r = &g->speed[which[i]];
        check_plausible(r, cases[i]);
        if (r->verdict == V_PASS)
            r->points = s->speed[which[i]].points * speed_fraction(r->t_student / r->t_ref);
    }
}

