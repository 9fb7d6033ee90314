/*
 * progress.cpp - the note of a long launch (CUEMU_SLOW_NOTE).  A workload
 * sized for a GPU (an 8192^2 matrix product, a sample's 16M options) takes
 * the emulator minutes or hours; without a word the user cannot tell a slow
 * run from a hung one until a timeout kills it.  So the host thread, which
 * wakes every 100 ms while a launch runs (sched.cpp, launch_grid), prints
 * once a launch has run CUEMU_SLOW_NOTE seconds, and again at growing
 * intervals (SLOW_NOTE_GROWTH), one line on stderr: the kernel, its launch
 * site, its grid and block, the blocks done out of all, and the time left
 * at the rate so far on this many workers.  A workload of many shorter
 * launches (BlackScholes: 512 of a few seconds each) is slow as a whole:
 * once the launches without a note of their own have taken CUEMU_SLOW_NOTE
 * seconds in all (and again at growing totals), a note says so, naming the
 * latest.  Nothing is added to a block's path, and stdout is never touched.
 */
#include "internal.h"
#include "fiber.h"

#include <stdio.h>

namespace cuemu {
using namespace detail;

namespace {

/* "0.4 s", "42 s", "17 min", "3.5 h": a duration as a person reads it. */
void human_duration(double s, char *buf, size_t len)
{
    if (s < 10)
        snprintf(buf, len, "%.1f s", s);
    else if (s < 120)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 7200)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
}

/* The note itself, at `ran` seconds into launch g. */
void print_slow_note(const Grid &g, double ran)
{
    unsigned long long done = g.done.load(std::memory_order_relaxed);
    char ran_s[32], left[64];
    human_duration(ran, ran_s, sizeof ran_s);
    if (done == 0) {
        snprintf(left, sizeof left, "no block finished yet");
    } else {
        char t[32];
        human_duration(ran / (double)done * (double)(g.total - done), t, sizeof t);
        snprintf(left, sizeof left, "about %s left at this rate", t);
    }
    int workers = g.cooperative ? (int)g.total : settings().threads;
    fprintf(stderr,
            "cuemu: note: kernel '%s' (launched at %s:%d), grid (%u,%u,%u) of blocks "
            "(%u,%u,%u), has run %s on %d worker thread(s) (CUEMU_THREADS): %llu of %llu "
            "blocks done, %s; a GPU-sized launch takes the emulator far longer than a GPU "
            "(CUEMU_SLOW_NOTE=0 silences this note)\n",
            g.name, relative_path(g.file), g.line, g.grid.x, g.grid.y, g.grid.z, g.block.x,
            g.block.y, g.block.z, ran_s, workers, done, g.total, left);
    fflush(stderr);
}

/* Launches that ended without a note of their own (the host thread, g_mu
 * held): how many, their time in all, when the next note on them is due. */
unsigned long long g_quiet_launches;
double g_quiet_total, g_quiet_next;

} // namespace

void slow_note_launch_end(const Grid &g, const LaunchProgress &p, double now)
{
    double threshold = settings().slow_note;
    if (threshold <= 0 || p.noted)
        return;
    g_quiet_launches++;
    g_quiet_total += now - p.start;
    if (g_quiet_next == 0)
        g_quiet_next = threshold;
    if (g_quiet_total < g_quiet_next)
        return;
    char total[32], last[32];
    human_duration(g_quiet_total, total, sizeof total);
    human_duration(now - p.start, last, sizeof last);
    fprintf(stderr,
            "cuemu: note: %llu kernel launches have taken %s in all (the latest: kernel '%s' "
            "launched at %s:%d, grid (%u,%u,%u) of blocks (%u,%u,%u), %s); a GPU-sized "
            "workload takes the emulator far longer than a GPU (CUEMU_SLOW_NOTE=0 silences "
            "this note)\n",
            g_quiet_launches, total, g.name, relative_path(g.file), g.line, g.grid.x, g.grid.y,
            g.grid.z, g.block.x, g.block.y, g.block.z, last);
    fflush(stderr);
    while (g_quiet_next <= g_quiet_total)
        g_quiet_next *= SLOW_NOTE_GROWTH;
}

void slow_note_check(const Grid &g, LaunchProgress &p, double now)
{
    double threshold = settings().slow_note;
    if (threshold <= 0)
        return;
    if (p.next == 0)
        p.next = threshold;
    double ran = now - p.start;
    if (ran < p.next)
        return;
    print_slow_note(g, ran);
    p.noted = true;
    while (p.next <= ran)
        p.next *= SLOW_NOTE_GROWTH;
}

} // namespace cuemu
