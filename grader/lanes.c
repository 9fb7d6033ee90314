/*
 * lanes.c - see lanes.h.
 */
#include "lanes.h"

#include <string.h>

#include "tunables.h"

int lane_part(const suite_case *c)
{
    return c->schedule[0] ? PART_EMULATED : PART_DEVICE;
}

/* The expected cost in seconds of a group's part, to balance the lanes:
 * a process start per unit and the bytes each case moves through the
 * host (tunables.h); 0 when the part has no case.  On the emulator a case
 * too large for it costs nothing: it is skipped (lab 7's 2^26 cases would
 * otherwise weigh most). */
static double group_cost(const suite *s, int group, int part, int emu)
{
    double cost = 0;
    int any = 0;
    for (int c = 0; c < s->ncases; c++)
        if (s->cases[c].group == group && (lane_part(&s->cases[c]) & part) &&
            (any = 1) && !(emu && s->cases[c].emu_skip))
            cost += COST_PROCESS_START_S / LIMIT_CASES_PER_UNIT +
                    (s->cases[c].schedule[0] ? COST_PROCESS_START_S : 0.0) +
                    (double)s->cases[c].n * (double)dtype_size(s->cases[c].dtype) * 3.0 /
                        COST_HOST_BYTES_PER_S;
    return any ? cost + COST_PROCESS_START_S : 0;
}

/* The part `part` of each group of the phase (want) into one of the
 * lanes [first, first + lanes) with the least cost so far, the costliest
 * first (longest-processing-time first: within 4/3 of the best). */
static void assign_part(const suite *s, int part, int first, int lanes, int emu,
                        const unsigned char *want, unsigned char mine[][SUITE_MAX_GROUPS])
{
    double load[LANE_PROCESSES_MAX] = {0}, cost[SUITE_MAX_GROUPS];
    int done[SUITE_MAX_GROUPS] = {0};
    for (int i = 0; i < s->ngroups; i++) {
        cost[i] = group_cost(s, i, part, emu);
        done[i] = !(want[i] & part) || cost[i] == 0;
    }
    for (int k = 0; k < s->ngroups; k++) {
        int big = -1, low = first;
        for (int i = 0; i < s->ngroups; i++)
            if (!done[i] && (big < 0 || cost[i] > cost[big]))
                big = i;
        if (big < 0)
            break;
        for (int l = first + 1; l < first + lanes; l++)
            if (load[l] < load[low])
                low = l;
        done[big] = 1;
        mine[low][big] |= (unsigned char)part;
        load[low] += cost[big];
    }
}

/* (lanes.h says why the emulated cases have lanes of their own.) */
int lanes_assign(const suite *s, int lanes, int emu, const unsigned char *want,
                 unsigned char mine[][SUITE_MAX_GROUPS])
{
    memset(mine, 0, LANE_PROCESSES_MAX * sizeof *mine);
    if (emu) {
        assign_part(s, PART_ALL, 0, lanes, emu, want, mine);
        return lanes;
    }
    int emulated = 0;
    for (int i = 0; i < s->ngroups; i++)
        emulated += (want[i] & PART_EMULATED) && group_cost(s, i, PART_EMULATED, emu) > 0;
    assign_part(s, PART_DEVICE, 0, lanes, emu, want, mine);
    emulated = emulated < lanes ? emulated : lanes;
    assign_part(s, PART_EMULATED, lanes, emulated, emu, want, mine);
    return lanes + emulated;
}
