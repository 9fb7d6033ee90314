/*
 * hidden.c - the one rule for what a student sees of hidden tests
 * (hidden.h).
 */
#include "hidden.h"

#include <stdio.h>

int suite_has_hidden(const suite *s)
{
    for (int i = 0; i < s->ngroups; i++)
        if (group_hidden(s, i))
            return 1;
    return 0;
}

int group_hidden(const suite *s, int i)
{
    return i >= s->hidden_from || s->groups[i].visibility != VIS_VISIBLE;
}

/* The parameters are printed for a visible case only: the single place
 * where a case's size, seed and kind become text a student reads. */
void case_label(const suite_case *c, int index, char *buf, size_t len)
{
    if (c->visibility != VIS_VISIBLE) {
        snprintf(buf, len, "hidden test #%d", index + 1);
        return;
    }
    int used = snprintf(buf, len, "%s %s%s %s %s n=%zu seed=%llu", c->variant,
                        c->exclusive ? "excl " : "", dtype_name(c->dtype), op_name(c->op),
                        dist_name(c->dist), c->n, (unsigned long long)c->seed);
    kind_params kp = {c->section, c->order, c->tuple, c->pred};
    if (used > 0 && (size_t)used < len)
        used += kind_params_text(c->kind, &kp, buf + used, len - (size_t)used);
    if (c->schedule[0] && used > 0 && (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, " [emu %s]", c->schedule);
}

/* A hidden case's run printed what it was given, or its wrong output's
 * diagnosis names indices ("out[777776] ..."): none of it is shown. */
const char *case_text_shown(const suite_case *c, const char *detail)
{
    return c->visibility == VIS_VISIBLE ? detail : "";
}

/* The speed, witness and sanitizer phases run after every correctness
 * case, hidden ones included, and the student's process could repeat
 * there what a hidden case's process saw (its size, its seed, through a
 * file in its folder). */
const char *later_run_text(const suite *s, const char *detail)
{
    return suite_has_hidden(s)
               ? "(the run's own output is not shown: this lab has hidden tests)" : detail;
}
