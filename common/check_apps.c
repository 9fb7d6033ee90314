/*
 * check_apps.c - the judge of lab 7's two kinds, scan at work: a stream
 * compaction and a delta decoding.  Both are integer-exact, so every
 * element is compared for equality; what a student needs is where the
 * first wrong one is and what was expected there.
 */
#include "check.h"
#include "reference.h"

#include <stdio.h>
#include <string.h>

/* Is element i of `got` (int32 or int64) still the poison pattern? */
static int is_poison(const void *got, dtype_t dtype, size_t i)
{
    size_t words = dtype_size(dtype) / 4;
    uint32_t w;
    for (size_t k = 0; k < words; k++) {
        memcpy(&w, (const char *)got + 4 * (i * words + k), 4);
        if (w != POISON_WORD)
            return 0;
    }
    return 1;
}

/* One value for a message: the number, or <unwritten> for the poison. */
static void fmt_int(char *buf, size_t size, const void *a, dtype_t dtype, size_t i)
{
    if (is_poison(a, dtype, i))
        snprintf(buf, size, "<unwritten>");
    else
        snprintf(buf, size, "%lld", (long long)int_at(a, dtype, i));
}

/* Record a wrong element (the first one is the one described). */
static void mark_wrong(check_result *r, size_t i, int unwritten)
{
    if (!r->mismatches++) {
        r->first = i;
        r->unwritten = unwritten;
    }
    r->ok = 0;
}

/*
 * Decoding gives the data back: out[i] == in[i] for every i.  The message
 * shows the neighbourhood of the first wrong element, the way the scan
 * labs' checker does.
 */
void check_decode(const check_spec *s, const void *in, const void *got, check_result *r)
{
    memset(r, 0, sizeof *r);
    r->ok = 1;
    for (size_t i = 0; i < s->n; i++)
        if (int_at(got, s->dtype, i) != int_at(in, s->dtype, i))
            mark_wrong(r, i, is_poison(got, s->dtype, i));
    if (r->ok)
        return;
    char *p = r->detail;
    size_t room = sizeof r->detail, lo = r->first >= 2 ? r->first - 2 : 0;
    size_t hi = r->first + 3 < s->n ? r->first + 3 : s->n;
    int w = snprintf(p, room, "order-%d decode of %d-tuples: %zu of %zu elements wrong, first at "
                     "out[%zu]; ", s->order, s->tuple, r->mismatches, s->n, r->first);
    p += w, room -= (size_t)w;
    for (size_t i = lo; i < hi && room > 100; i++) {
        char es[32], gs[32];
        fmt_int(es, sizeof es, in, s->dtype, i);
        fmt_int(gs, sizeof gs, got, s->dtype, i);
        w = snprintf(p, room, "%sout[%zu] expected %s got %s%s", i == lo ? "" : ", ", i, es, gs,
                     i == r->first ? " <--" : "");
        p += w, room -= (size_t)w;
    }
}

/*
 * A compaction: out[j] is the j-th kept input, in input order; out[n] is
 * the count; out[count..n) must still hold the poison (a kernel that
 * writes anything there wrote where nothing belongs).  The first problem
 * in output order is described.
 */
void check_compact(const check_spec *s, const void *in, const void *got, check_result *r)
{
    size_t kept = 0, src = 0;
    memset(r, 0, sizeof *r);
    r->ok = 1;
    for (size_t i = 0; i < s->n; i++) {
        int64_t x = int_at(in, s->dtype, i);
        if (!pred_keep(s->pred, x))
            continue;
        if (int_at(got, s->dtype, kept) != x) {
            if (r->ok)
                src = i; /* the input the first wrong output should hold */
            mark_wrong(r, kept, is_poison(got, s->dtype, kept));
        }
        kept++;
    }
    char gs[32];
    size_t first_value_wrong = r->ok ? s->n + 1 : r->first;
    for (size_t j = kept; j < s->n; j++)
        if (!is_poison(got, s->dtype, j))
            mark_wrong(r, j, 0);
    int count_wrong = int_at(got, s->dtype, s->n) != (int64_t)kept;
    if (count_wrong)
        mark_wrong(r, s->n, is_poison(got, s->dtype, s->n));
    if (r->ok)
        return;
    const char *what = pred_name(s->pred);
    if (r->first == first_value_wrong) {
        char es[32];
        fmt_int(es, sizeof es, in, s->dtype, src);
        fmt_int(gs, sizeof gs, got, s->dtype, r->first);
        snprintf(r->detail, sizeof r->detail,
                 "compaction (keep %s) of %zu elements, %zu kept: %zu outputs wrong, first at "
                 "out[%zu]: expected %s (in[%zu], kept element #%zu) got %s; kept elements go "
                 "to out[] in input order",
                 what, s->n, kept, r->mismatches, r->first, es, src, r->first, gs);
    } else if (r->first < s->n) {
        fmt_int(gs, sizeof gs, got, s->dtype, r->first);
        snprintf(r->detail, sizeof r->detail,
                 "compaction (keep %s) of %zu elements, %zu kept: out[%zu] is past the kept "
                 "elements and was written (holds %s); only out[0..%zu) and the count at out[%zu] "
                 "may be written",
                 what, s->n, kept, r->first, gs, kept, s->n);
    } else {
        fmt_int(gs, sizeof gs, got, s->dtype, s->n);
        snprintf(r->detail, sizeof r->detail,
                 "compaction (keep %s) of %zu elements: the count at out[%zu] is %s, expected %zu",
                 what, s->n, s->n, gs, kept);
    }
}
