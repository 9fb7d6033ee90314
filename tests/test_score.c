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
    cr_assert_str_eq(verdict_name(V_COUNT), "?");
}
