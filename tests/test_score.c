/* test_score.c - the scoring rules: speed credit and group shares. */
#include <criterion/criterion.h>
#include <math.h>

#include "score.h"

Test(score, speed_fraction)
{
    cr_assert_eq(speed_fraction(0.5), 1.0, "faster than the reference: full");
    cr_assert_eq(speed_fraction(1.2), 1.0, "within 1.2x: full");
    cr_assert_float_eq(speed_fraction(2.4), 0.5, 1e-12);
    cr_assert_float_eq(speed_fraction(10.0), 0.12, 1e-12);
    cr_assert_eq(speed_fraction(10.01), 0.0, "past 10x: nothing");
    cr_assert_eq(speed_fraction(NAN), 0.0);
    cr_assert_eq(speed_fraction(INFINITY), 0.0);
    cr_assert_eq(speed_fraction(0.0), 0.0, "a zero time is not a measurement");
    cr_assert_eq(speed_fraction(-1.0), 0.0);
}

Test(score, speed_settled)
{
    cr_assert(!speed_settled(INFINITY, INFINITY), "nothing measured yet: another round");
    cr_assert(!speed_settled(0.5, INFINITY), "the reference not measured: another round");
    cr_assert(!speed_settled(INFINITY, 0.5), "the student not measured: another round");
    cr_assert(speed_settled(0.6, 0.5), "1.2x: full points, settled");
    cr_assert(speed_settled(0.4, 0.5), "faster than the reference: settled");
    cr_assert(!speed_settled(0.61, 0.5), "short of full points: another round may help");
    cr_assert(!speed_settled(NAN, 0.5));
}

Test(score, group_share)
{
    cr_assert_float_eq(group_score(30, 26, 26), 30, 1e-12);
    cr_assert_float_eq(group_score(30, 13, 26), 15, 1e-12);
    cr_assert_eq(group_score(30, 0, 0), 0, "a group with nothing run earns nothing");
}

Test(score, verdict_names)
{
    cr_assert_str_eq(verdict_name(V_PASS), "PASS");
    cr_assert_str_eq(verdict_name(V_OUT_OF_BOUNDS), "OUT-OF-BOUNDS");
    cr_assert_str_eq(verdict_name(V_HOST_ERROR), "HOST-ERROR");
    cr_assert_str_eq(verdict_name(V_HOST_WRITTEN), "HOST-WRITTEN");
    for (int v = 0; v < V_COUNT; v++)
        cr_assert(verdict_name((verdict_t)v) && verdict_name((verdict_t)v)[0] != '?',
                  "verdict %d has no name", v);
    cr_assert_str_eq(verdict_name(V_COUNT), "?");
}

/* The physical bound on a reported time (issue 11: a submission rewrote
 * its own result to 0.10x the reference's time). */
Test(score, speed_plausible)
{
    double fastest;
    /* 2^26 int32 scan: 512 MiB moved; a copy at 4000 GB/s takes 0.134 ms */
    double bytes = 8.0 * (1 << 26);
    cr_assert(speed_plausible(0.146, bytes, 4000, 1.25, &fastest)); /* the reference's time */
    cr_assert_float_eq(fastest, bytes / (4000 * 1.25) / 1e6, 1e-12);
    cr_assert(speed_plausible(0.108, bytes, 4000, 1.25, &fastest)); /* 1.24x a copy: believed */
    cr_assert(!speed_plausible(0.0146, bytes, 4000, 1.25, &fastest)); /* 0.10x: flagged */
    cr_assert(!speed_plausible(0.0, bytes, 4000, 1.25, &fastest));
    cr_assert(!speed_plausible(-1.0, bytes, 4000, 1.25, &fastest));
    cr_assert(!speed_plausible(NAN, bytes, 4000, 1.25, &fastest));
    cr_assert(speed_plausible(0.01, bytes, 0, 1.25, &fastest)); /* no yardstick */
}

/* A run the witness could not time (issue 34: a program that exited early
 * under --witness, or killed ncu, had its own forged time credited). */
Test(score, unwitnessed_runs_earn_nothing_where_the_witness_works)
{
    cr_assert_eq(speed_unwitnessed_credit(0, 1), 0, "the witness timed the reference: no credit");
    cr_assert_eq(speed_unwitnessed_credit(0, 0), 1, "ncu fails here for everyone: own time");
    cr_assert_eq(speed_unwitnessed_credit(1, 0), 0, "GRADE_WITNESS=require: no credit");
    cr_assert_eq(speed_unwitnessed_credit(1, 1), 0);
}
