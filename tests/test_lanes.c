/* test_lanes.c - which correctness lane runs what (grader/lanes.c): every
 * case in exactly one lane, whole groups, and on a GPU the emulated cases
 * ([emu] tests) in lanes of their own beside the device lanes. */
#include <criterion/criterion.h>
#include <string.h>

#include "lanes.h"
#include "suite.h"

static suite s;
static unsigned char want[SUITE_MAX_GROUPS], mine[LANE_PROCESSES_MAX][SUITE_MAX_GROUPS];

static void load(const char *lab)
{
    char err[512];
    cr_assert_eq(suite_load_lab(KIT_TOP "/grader/suites", lab, &s, NULL, err, sizeof err), 0,
                 "%s", err);
    for (int i = 0; i < s.ngroups; i++)
        want[i] = PART_ALL;
}

/* The lane that runs case c; fails unless exactly one does. */
static int lane_of(int c, int count)
{
    int found = -1;
    for (int l = 0; l < count; l++)
        if (mine[l][s.cases[c].group] & lane_part(&s.cases[c])) {
            cr_assert_eq(found, -1, "case %d is in lanes %d and %d", c, found, l);
            found = l;
        }
    return found;
}

/* Lab 7 on a GPU with four lanes: its four groups' device cases in lanes
 * 0-3, one group each; their emulated cases in four more lanes. */
Test(lanes, a_gpu_runs_emulated_cases_beside)
{
    load("lab7");
    int count = lanes_assign(&s, 4, 0, want, mine);
    cr_assert_eq(count, 8);
    int emulated = 0;
    for (int c = 0; c < s.ncases; c++) {
        int l = lane_of(c, count), emu = s.cases[c].schedule[0] != 0;
        cr_assert(l >= 0, "case %d in no lane", c);
        cr_assert_eq(l >= 4, emu, "case %d (%s) in lane %d", c, emu ? "emulated" : "device", l);
        emulated += emu;
    }
    cr_assert_gt(emulated, 0);
    for (int l = 0; l < 4; l++) {
        int groups = 0;
        for (int i = 0; i < s.ngroups; i++)
            groups += (mine[l][i] & PART_DEVICE) != 0;
        cr_assert_eq(groups, 1, "lane %d runs the device cases of %d groups", l, groups);
    }
}

/* On the emulator every case is emulated: whole groups, `lanes` lanes. */
Test(lanes, the_emulator_runs_whole_groups)
{
    load("lab7");
    int count = lanes_assign(&s, 2, 1, want, mine);
    cr_assert_eq(count, 2);
    for (int c = 0; c < s.ncases; c++)
        cr_assert_lt(lane_of(c, count), 2);
    for (int i = 0; i < s.ngroups; i++) {
        int holders = 0;
        for (int l = 0; l < count; l++)
            holders += mine[l][i] == PART_ALL;
        cr_assert_eq(holders, 1, "group %d in %d lanes", i, holders);
    }
}

/* Only the groups the phase wants; emulated lanes only as many as there
 * are groups with emulated cases. */
Test(lanes, only_the_wanted_groups)
{
    load("lab7");
    memset(want, 0, sizeof want);
    want[0] = PART_ALL;
    int count = lanes_assign(&s, 4, 0, want, mine);
    cr_assert_eq(count, 5);
    for (int c = 0; c < s.ncases; c++) {
        int l = lane_of(c, count);
        cr_assert_eq(l >= 0, s.cases[c].group == 0, "case %d of group %d in lane %d", c,
                     s.cases[c].group, l);
    }
}
