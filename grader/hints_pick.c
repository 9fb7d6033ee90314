/*
 * hints_pick.c - from a group's verdicts to its patterns, and from its
 * patterns to the first rule of the lab's hint table that matches
 * (hints.h).  The table itself is parsed in hints.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "hidden.h"
#include "hints.h"
#include "judge.h"

static int failed(verdict_t v) { return v != V_PASS && v != V_SKIPPED; }

/* Two cases that compute the same thing (but maybe at another n or
 * schedule). */
static int same_shape(const suite_case *a, const suite_case *b)
{
    return a->kind == b->kind && a->dtype == b->dtype && a->op == b->op &&
           a->exclusive == b->exclusive && strcmp(a->variant, b->variant) == 0;
}

/* GPAT_SCHEDULE: case f failed, and a case of its shape at least as
 * large passed under another schedule: the bug depends on the order in
 * which threads run, the mark of a missing barrier or a race. */
static int schedule_dependent(const grade_run *g, int group, int f)
{
    const suite *s = g->s;
    for (int c = 0; c < s->ncases; c++) {
        const suite_case *a = &s->cases[c], *b = &s->cases[f];
        if (a->group == group && g->tests[c].verdict == V_PASS && same_shape(a, b) &&
            a->n >= b->n && strcmp(a->schedule, b->schedule) != 0)
            return 1;
    }
    return 0;
}

/* The verdict's own pattern bits. */
static unsigned verdict_bits(const test_result *t)
{
    switch (t->verdict) {
    case V_WRONG: case V_UNWRITTEN: return GPAT_WRONG;
    case V_RACE: return GPAT_RACE | GPAT_WRONG;
    case V_TIMEOUT: return GPAT_HANG;
    case V_OUT_OF_BOUNDS: return GPAT_BOUNDS;
    case V_CRASH: case V_CUDA_ERROR: case V_NO_RESULT: return GPAT_CRASH;
    case V_EMU_ERROR:
        return test_hung(t) ? GPAT_HANG
               : strstr(t->detail, "barrier") ? GPAT_BARRIER
               : strstr(t->detail, "out-of-bounds") ? GPAT_EMU_BOUNDS : GPAT_CRASH;
    case V_HOST_WRITTEN: return 0; /* no TODO to name: the kernel must write `out` itself */
    default: return 0;
    }
}

/* Which kinds of case fail: only floats, only ints, only exclusive, only
 * with a schedule, only large; each needs a passing case of the other
 * kind, or it says nothing.  And whether no case stored anything at all. */
static unsigned which_cases(const grade_run *g, int group)
{
    const suite *s = g->s;
    int fail[5] = {0}, pass[5] = {0}; /* float, int, exclusive, inclusive, scheduled */
    int unwritten = 0;
    size_t max_pass = 0, min_fail = (size_t)-1;
    for (int c = 0; c < s->ncases; c++) {
        const suite_case *k = &s->cases[c];
        verdict_t v = g->tests[c].verdict;
        if (k->group != group || v == V_SKIPPED)
            continue;
        int *into = failed(v) ? fail : pass;
        unwritten += v == V_UNWRITTEN;
        into[k->dtype == DT_FLOAT32 ? 0 : 1]++;
        into[k->exclusive ? 2 : 3]++;
        into[4] += k->schedule[0] != 0;
        if (failed(v) && k->n < min_fail)
            min_fail = k->n;
        if (!failed(v) && k->n > max_pass)
            max_pass = k->n;
    }
    int nfail = fail[0] + fail[1], npass = pass[0] + pass[1];
    unsigned bits = nfail && !npass && unwritten == nfail ? GPAT_NOTHING_STORED : 0;
    if (nfail && fail[0] == nfail && pass[1])
        bits |= GPAT_FLOAT_ONLY;
    if (nfail && fail[1] == nfail && pass[0])
        bits |= GPAT_INT_ONLY;
    if (nfail && fail[2] == nfail && pass[3])
        bits |= GPAT_EXCLUSIVE_ONLY;
    if (nfail && fail[4] == nfail && npass > pass[4])
        bits |= GPAT_SCHEDULED_ONLY;
    if (nfail && npass && max_pass > 1 && min_fail > max_pass)
        bits |= GPAT_LARGE_ONLY;
    return bits;
}

unsigned group_patterns(const grade_run *g, int group)
{
    const suite *s = g->s;
    unsigned bits = which_cases(g, group);
    int first_wrong = -1, schedule = 0;
    for (int c = 0; c < s->ncases; c++) {
        const test_result *t = &g->tests[c];
        if (s->cases[c].group != group || !failed(t->verdict))
            continue;
        bits |= verdict_bits(t);
        schedule |= schedule_dependent(g, group, c);
        /* the element shape of the first wrong output, an unscheduled one
         * first (its order is the plain one, easiest to reason about) */
        if ((t->verdict == V_WRONG || t->verdict == V_UNWRITTEN || t->verdict == V_RACE) &&
            (first_wrong < 0 || (s->cases[first_wrong].schedule[0] && !s->cases[c].schedule[0])))
            first_wrong = c;
    }
    if (schedule)
        bits |= GPAT_SCHEDULE;
    if (first_wrong >= 0)
        bits |= g->tests[first_wrong].pattern;
    return bits;
}

/* Group id passed every test it ran. */
static int group_passed(const grade_run *g, const char *id)
{
    for (int i = 0; i < g->s->ngroups; i++)
        if (strcmp(g->s->groups[i].id, id) == 0)
            return g->group_run[i] > 0 && g->group_passed[i] == g->group_run[i];
    return 0;
}

const hint_rule *hint_pick(const grade_run *g, const hint_table *t, int group, unsigned *seen)
{
    *seen = group_patterns(g, group);
    for (int r = 0; r < t->n; r++) {
        const hint_rule *h = &t->rules[r];
        if (strcmp(h->group, "*") != 0 && strcmp(h->group, g->s->groups[group].id) != 0)
            continue;
        if ((*seen & h->need) == h->need && !(*seen & h->avoid) &&
            (!h->passes[0] || group_passed(g, h->passes)))
            return h;
    }
    return NULL;
}

/* The lab's table, read once per process (a grader grades one lab). */
static const hint_table *lab_table(const char *lab)
{
    static hint_table table;
    static char loaded[16];
    if (strcmp(loaded, lab) != 0) {
        char path[1200], err[400];
        const char *top = getenv("KIT_TOP") ? getenv("KIT_TOP") : ".";
        snprintf(path, sizeof path, "%s/grader/hints/%s.hints", top, lab);
        if (hints_load(path, &table, err, sizeof err) < 0)
            fprintf(stderr, "grade: hint table ignored: %s\n", err);
        snprintf(loaded, sizeof loaded, "%s", lab);
    }
    return &table;
}

/* Patterns as phrases ("a; b"), at most `most` of them. */
static void seen_text(unsigned bits, int most, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    /* the group's patterns first: which cases fail says more than how */
    unsigned order[2] = {bits & ~((1u << GPAT_FIRST_BIT) - 1), bits & ((1u << GPAT_FIRST_BIT) - 1)};
    for (int pass = 0; pass < 2; pass++)
        for (unsigned b = 1; b && o + 2 < len && most > 0; b <<= 1)
            if ((order[pass] & b) && b != GPAT_WRONG && b != PAT_FIRST_BLOCK) {
                o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "; " : "",
                                      hint_pattern_phrase(b));
                most--;
            }
}

void hint_line(const grade_run *g, int group, char *out, size_t len)
{
    const suite_group *gr = &g->s->groups[group];
    unsigned seen;
    out[0] = '\0';
    if (g->group_passed[group] >= g->group_run[group] || g->build_failed ||
        group_hidden(g->s, group)) /* a hidden group's tests stay unexplained (hidden.h) */
        return;
    const hint_rule *h = hint_pick(g, lab_table(g->s->lab), group, &seen);
    char why[300];
    if (h) {
        seen_text(h->need, 4, why, sizeof why);
        char todo[24] = "";
        if (h->todo > 0)
            snprintf(todo, sizeof todo, "TODO %d; ", h->todo);
        snprintf(out, len, "hint (%sseen: %s): %s", todo, why[0] ? why : "wrong output", h->text);
    } else if (gr->hint[0]) {
        seen_text(seen, 4, why, sizeof why);
        snprintf(out, len, "general advice for this group (seen: %s; no rule of the lab's "
                 "hint table matches that): %s", why[0] ? why : "nothing telling", gr->hint);
    }
}
