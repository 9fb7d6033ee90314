/*
 * lanes.h - which correctness lane runs what (correctness.h says what a
 * lane is).
 *
 * Groups are spread over lanes whole, the costliest first, so that what
 * depends on a group's earlier cases (the hang rule) sees them in order.
 * On a GPU a group has two parts: its cases that run on the device, and
 * its emulated ones (a schedule: the [emu] tests, run by the CPU emulator
 * even where there is a GPU).  The device parts go into `lanes` lanes and
 * the emulated parts into as many more: they need no GPU, only cores, and
 * a lane runs one process at a time, so behind a group's device cases
 * they only made the lane longer (lab 7's skeleton: 0.8-1.4 s of emulated
 * cases after 1.5-2.2 s of device ones in each lane; H200, 16 cores).
 * The hang rule then counts a part's own hangs.  On the emulator every
 * case is emulated: `lanes` lanes of whole groups, as before.
 */
#ifndef LANES_H
#define LANES_H

#include "grade.h"
#include "tunables.h" /* LANES_MAX */

/* What of a group a lane runs (the values of mine[] and want[]). */
enum { PART_DEVICE = 1, PART_EMULATED = 2, PART_ALL = 3 };

/* Lane processes at once: LANES_MAX (tunables.h) of device parts, and as
 * many of emulated ones beside them. */
#define LANE_PROCESSES_MAX (2 * LANES_MAX)

/* The part case c belongs to. */
int lane_part(const suite_case *c);

/* What each lane runs: mine[l][group], the parts (PART_*) of the group,
 * among those the phase wants (want[group]), that lane l runs; emu: the
 * backend is the emulator.  Returns the count of lanes (at most
 * LANE_PROCESSES_MAX, at least `lanes`). */
int lanes_assign(const suite *s, int lanes, int emu, const unsigned char *want,
                 unsigned char mine[][SUITE_MAX_GROUPS]);

#endif /* LANES_H */
