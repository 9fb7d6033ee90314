/*
 * speed.c - the speed phase: each speed test's case timed for the
 * reference, the GPU held alone, and for the submission by the witness
 * (speed_witness.h: ncu, outside its process) or, where GRADE_WITNESS
 * allows none, by its own process in rounds; points from the ratio of the
 * times (score.h), a time beyond what the GPU can do never credited.
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
#include "ref_round.h"
#include "tunables.h"
#include "run.h"
#include "unit.h"
#include "speed_witness.h"

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

/* The cases timed by plan's binary, the GPU held alone while they run (a
 * batch on one GPU: no other worker's kernels beside them); judged into
 * out[] after. */
static void timed_runs(const run_plan *plan, const suite_case *const *cases, int count,
                       test_result *out)
{
    run_plan alone = *plan;
    alone.gpu_hold = GPU_HELD_EXCLUSIVE;
    double t0 = now_s();
    run_all(&alone, cases, count, out);
    if (getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: speed round: %s %.2f s\n",
                plan->no_raw ? "reference" : "submission", now_s() - t0);
}

/* The reference's run ref of a timed case into r: its best median, its
 * copy yardstick and the GPU it named; a failed run leaves the test
 * uncredited (the kit's fault, not the student's). */
static void keep_reference(speed_result *r, const test_result *ref)
{
    if (ref->verdict != V_PASS) {
        if (r->verdict == V_PASS) {
            r->verdict = V_SKIPPED;
            snprintf(r->detail, sizeof r->detail, "the reference failed its speed run (%s): "
                     "tell your instructor", verdict_name(ref->verdict));
        }
        return;
    }
    if (ref->ms < r->t_ref)
        r->t_ref = ref->ms;
    if (ref->copy_gbps > r->ref_copy_gbps)
        r->ref_copy_gbps = ref->copy_gbps;
    snprintf(r->ref_device, sizeof r->ref_device, "%s", ref->device);
}

/* The student's own timed run got of a case into r: its best median, or
 * the failure that ends the test. */
static void keep_student(grade_run *g, speed_result *r, const test_result *got)
{
    if (got->verdict != V_PASS) {
        r->verdict = got->verdict;
        snprintf(r->detail, sizeof r->detail, "speed run failed: %s %.400s",
                 verdict_name(got->verdict), later_run_text(g->s, got->detail));
    } else if (got->ms < r->t_student) {
        r->t_student = got->ms;
        r->gbps = got->gbps;
        r->copy_gbps = got->copy_gbps;
    }
}

/* One round of the reference alone: its times on the events' clock, which
 * the witness's ratio and the score are made from.  With kept (the
 * witnessed path), in a batch the round another grader of this GPU kept
 * while it is recent (ref_round.h), else timed now and kept for them. */
static void reference_round(grade_run *g, const int *which, const suite_case *const *cases,
                            int count, const run_plan *theirs, int kept)
{
    static test_result ref[SUITE_MAX_SPEED];
    if (kept && ref_round_get(theirs->binary, cases, count, ref) == 0) {
        if (getenv("GRADE_TRACE"))
            fprintf(stderr, "grade: trace: speed round: reference kept by the batch\n");
    } else {
        timed_runs(theirs, cases, count, ref);
        if (kept)
            ref_round_put(theirs->binary, cases, count, ref);
    }
    for (int i = 0; i < count; i++)
        keep_reference(&g->speed[which[i]], &ref[i]);
}

/* One round of self-reported times (no witness to take them from): every
 * timed case run by the student's binary and then by the reference. */
static void speed_round(grade_run *g, const int *which, const suite_case *const *cases,
                        int count, const run_plan *mine, const run_plan *theirs)
{
    static test_result got[SUITE_MAX_SPEED];
    timed_runs(mine, cases, count, got);
    for (int i = 0; i < count; i++)
        if (g->speed[which[i]].verdict == V_PASS)
            keep_student(g, &g->speed[which[i]], &got[i]);
    reference_round(g, which, cases, count, theirs, 0);
}

/*
 * The student's time comes from ncu or from the student's own process,
 * which could write any number there.  A time that would move the case's bytes faster than
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

/* The tests still passing with no time of the student's (no witness, and
 * GRADE_WITNESS allows that): up to SPEED_ROUNDS rounds of the process's
 * own medians, student and reference alternating, until no round could
 * raise a score. */
static void self_reported_rounds(grade_run *g, const int *which, const suite_case *const *cases,
                                 int count, const run_plan *mine, const run_plan *theirs)
{
    const suite_case *left[SUITE_MAX_SPEED];
    int at[SUITE_MAX_SPEED], n = 0;
    for (int i = 0; i < count; i++) {
        const speed_result *r = &g->speed[which[i]];
        if (r->verdict == V_PASS && isinf(r->t_student)) {
            at[n] = which[i];
            left[n++] = cases[i];
        }
    }
    for (int round = 0; round < SPEED_ROUNDS && n > 0 && !settled(g, at, n); round++)
        speed_round(g, at, left, n, mine, theirs);
}

/* Every speed test: the reference timed, then the submission witnessed
 * (speed_witness.h) or, without a witness, timed in self-reported rounds;
 * points from the ratio of the student's time to the reference's. */
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
    witness_setup ws;
    witness_setup_get(&ws);
    double t0 = now_s();
    if (count > 0 && witness_planned(&ws))
        reference_round(g, which, cases, count, &theirs, 1);
    double t1 = now_s();
    witness_all(g, which, cases, count, &mine, &theirs, &ws);
    double t2 = now_s();
    self_reported_rounds(g, which, cases, count, &mine, &theirs);
    g->t_speed = (t1 - t0) + (now_s() - t2);
    g->t_witness = t2 - t1;
    for (int i = 0; i < count; i++) {
        speed_result *r = &g->speed[which[i]];
        check_plausible(r, cases[i]);
        if (r->verdict == V_PASS)
            r->points = s->speed[which[i]].points * speed_fraction(r->t_student / r->t_ref);
    }
}

