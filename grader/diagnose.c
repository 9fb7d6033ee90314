/*
 * diagnose.c - the shape of a wrong output (diagnose.h).  The judge
 * (check.c) decides right or wrong; this only describes, for the report
 * and the hint table, so its float comparisons may be rough.
 */
#include "diagnose.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "tunables.h"

const char *const pattern_names[PAT_NAMES + 1] = {
    "all",       "section-first", "boundary", "tail",   "missing-one", "doubled-one",
    "is-input",  "identity",      "unwritten", "shifted", "prefix",     "first-block", NULL};

/* What the shape finder needs, gathered once. */
typedef struct {
    const check_spec *s;
    const void *in, *got;
    double *want;   /* expected output, as doubles (ints exactly) */
    size_t len;     /* output elements */
    size_t first;   /* first wrong index */
    size_t section; /* elements per independent section (0: none) */
    int fold;       /* the kind's form is FOLD (one element): kinds.h */
} shape;

static double in_at(const shape *x, size_t i)
{
    return x->s->dtype == DT_INT32 ? (double)((const int32_t *)x->in)[i]
                                   : (double)((const float *)x->in)[i];
}

static double got_at(const shape *x, size_t i)
{
    return x->s->dtype == DT_INT32 ? (double)((const int32_t *)x->got)[i]
                                   : (double)((const float *)x->got)[i];
}

/* Equal as the student would read them: ints exactly, floats to about
 * float precision (rough on purpose: check.c is the judge). */
static int same(const shape *x, double a, double b)
{
    if (x->s->dtype == DT_INT32)
        return (int32_t)(int64_t)a == (int32_t)(int64_t)b;
    return a == b || fabs(a - b) <= 1e-5 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* a - b as the output type computes it (int32 wraps). */
static double minus(const shape *x, double a, double b)
{
    if (x->s->dtype == DT_INT32)
        return (double)(int32_t)((uint32_t)(int32_t)(int64_t)a - (uint32_t)(int32_t)(int64_t)b);
    return a - b;
}

static int fmt(char *buf, size_t len, const shape *x, double v)
{
    return x->s->dtype == DT_INT32 ? snprintf(buf, len, "%d", (int32_t)(int64_t)v)
                                   : snprintf(buf, len, "%.9g", v);
}

/* The expected output, computed by the kit's sequential reference. */
static double *expected(const shape *x, const void *in, size_t len)
{
    const check_spec *s = x->s;
    size_t section = x->section;
    double *want = malloc((len ? len : 1) * sizeof *want);
    if (!want)
        return NULL;
    if (x->fold) {
        want[0] = s->dtype == DT_INT32 ? ref_reduce_i32(in, s->n, s->op)
                                       : ref_reduce_f32(in, s->n, s->op, NULL);
    } else if (s->dtype == DT_INT32) {
        int32_t *tmp = malloc((len ? len : 1) * sizeof *tmp);
        if (!tmp) {
            free(want);
            return NULL;
        }
        ref_scan_i32(in, s->n, s->op, s->exclusive, section, tmp);
        for (size_t i = 0; i < len; i++)
            want[i] = tmp[i];
        free(tmp);
    } else {
        ref_scan_f32(in, s->n, s->op, s->exclusive, section, want);
    }
    return want;
}

/* Which elements are wrong, as bits: all, only section starts, only the
 * tail section, a clean start up to a power-of-two boundary. */
static unsigned where_wrong(const shape *x)
{
    size_t wrong = 0, not_first = 0, before_tail = 0;
    size_t tail = x->section && x->s->n % x->section ? x->s->n / x->section * x->section : 0;
    for (size_t i = 0; i < x->len; i++) {
        if (same(x, got_at(x, i), x->want[i]))
            continue;
        wrong++;
        not_first += !x->section || i % x->section != 0;
        before_tail += !tail || i < tail;
    }
    unsigned bits = 0;
    if (wrong == x->len && x->len > 0)
        bits |= PAT_ALL;
    if (x->section && not_first == 0 && wrong > 0)
        bits |= PAT_SECTION_FIRST;
    if (tail && before_tail == 0 && wrong > 0)
        bits |= PAT_TAIL;
    if (x->first >= 32 && x->first % 32 == 0)
        bits |= PAT_BOUNDARY;
    if (x->first < 1024)
        bits |= PAT_FIRST_BLOCK;
    return bits;
}

/* The inputs that fed out[first]: in[from..to] (inclusive). */
static void window(const shape *x, size_t *from, size_t *to)
{
    size_t f = x->first;
    if (x->fold) {
        *from = 0;
        *to = x->s->n ? x->s->n - 1 : 0;
        return;
    }
    *from = x->section ? f / x->section * x->section : 0;
    *to = x->s->exclusive ? (f > *from ? f - 1 : *from) : f;
}

/* A sum that lacks, or doubles, exactly one of its inputs: the nearest
 * such input to the wrong element (a step that skipped its partner, or
 * read it twice).  Sets *j; returns PAT_MISSING_ONE, PAT_DOUBLED_ONE or 0. */
static unsigned one_input_off(const shape *x, size_t *j)
{
    size_t from, to, looked = 0;
    double g = got_at(x, x->first), e = x->want[x->first];
    /* (a reduction's sum hides any one input among n: a match says nothing) */
    if (x->s->op != OP_SUM || x->fold || same(x, g, e))
        return 0;
    window(x, &from, &to);
    double lack = minus(x, e, g), extra = minus(x, g, e);
    for (size_t k = to + 1; k-- > from && looked++ < DIAGNOSE_MAX_SEARCH;) {
        double v = in_at(x, k);
        if (v == 0)
            continue;
        if (same(x, v, lack) || same(x, v, extra)) {
            *j = k;
            return same(x, v, lack) ? PAT_MISSING_ONE : PAT_DOUBLED_ONE;
        }
    }
    return 0;
}

/* A reduction that stopped early: its result combines in[0..k) only. */
static int reduce_prefix(const shape *x, size_t *k)
{
    double acc = x->s->dtype == DT_INT32 ? identity_i32(x->s->op) : identity_f64(x->s->op);
    double g = got_at(x, 0);
    for (size_t i = 0; i + 1 < x->s->n; i++) {
        acc = x->s->dtype == DT_INT32 ? combine_i32(x->s->op, (int32_t)acc, (int32_t)in_at(x, i))
                                      : combine_f64(x->s->op, acc, in_at(x, i));
        if (same(x, acc, g) && (i + 1) % 32 == 0) {
            *k = i + 1;
            return 1;
        }
    }
    return 0;
}

/* Wrong elements that hold a neighbour's answer: out[i] == want[i +- 1]
 * for the first few wrong ones. */
static int shifted(const shape *x)
{
    int seen = 0, fit = 0;
    for (size_t i = x->first; i < x->len && seen < 4; i++) {
        if (same(x, got_at(x, i), x->want[i]))
            continue;
        seen++;
        fit += (i + 1 < x->len && same(x, got_at(x, i), x->want[i + 1])) ||
               (i > 0 && same(x, got_at(x, i), x->want[i - 1]));
    }
    return seen >= 2 && fit == seen;
}

/* "inputs: in[lo..hi] = a, b, c" next to the output window check.c shows. */
static int print_inputs(const shape *x, char *p, size_t room)
{
    /* an exclusive out[i] is fed by in[..i-1]: its window one to the left */
    size_t shift = x->s->exclusive ? 1 : 0, n = x->s->n, from, to;
    size_t lo = x->first >= 2 + shift ? x->first - 2 - shift : 0, hi = x->first + 3 - shift;
    window(x, &from, &to);
    if (n == 0)
        return snprintf(p, room, "inputs: none (n = 0): the answer is the identity");
    if (x->fold)
        lo = 0, hi = 5;
    if (hi > n)
        hi = n;
    int w = snprintf(p, room, "inputs: in[%zu..%zu] = ", lo, hi ? hi - 1 : 0);
    for (size_t i = lo; i < hi && (size_t)w + 40 < room; i++) {
        w += i > lo ? snprintf(p + w, room - (size_t)w, ", ") : 0;
        w += fmt(p + w, room - (size_t)w, x, in_at(x, i));
    }
    if (x->fold && n > hi)
        w += snprintf(p + w, room - (size_t)w, ", ... (n = %zu)", n);
    else if (x->s->exclusive && x->first == from && (size_t)w + 80 < room)
        w += snprintf(p + w, room - (size_t)w, "; out[%zu] combines no input: it is the identity",
                      x->first);
    else if (to >= from && (size_t)w + 80 < room)
        w += snprintf(p + w, room - (size_t)w, "; out[%zu] combines in[%zu..%zu]", x->first, from,
                      to);
    return w;
}

/* One sentence for the most telling shape. */
static void print_shape(const shape *x, unsigned bits, size_t j, size_t k, char *p, size_t room)
{
    char v[40];
    size_t f = x->first;
    if ((bits & PAT_BOUNDARY) && !(bits & PAT_ALL)) { /* a carry lost says the most */
        size_t pw = 32;
        while (pw < ((size_t)1 << 24) && f % (pw * 2) == 0)
            pw *= 2;
        snprintf(p, room, "; out[0..%zu) are right: wrong from a multiple of %zu on", f, pw);
    } else if (bits & (PAT_MISSING_ONE | PAT_DOUBLED_ONE)) {
        fmt(v, sizeof v, x, in_at(x, j));
        snprintf(p, room, "; out[%zu] %s in[%zu] = %s%s", f,
                 bits & PAT_MISSING_ONE ? "lacks" : "counts", j, v,
                 bits & PAT_MISSING_ONE ? "" : " twice");
    } else if (bits & PAT_IS_INPUT) {
        snprintf(p, room, "; out[%zu] is in[%zu] alone: nothing was combined into it", f, f);
    } else if (bits & PAT_PREFIX) {
        snprintf(p, room, "; the result combines only in[0..%zu) of the %zu inputs", k, x->s->n);
    } else if (bits & PAT_SECTION_FIRST) {
        snprintf(p, room, "; only the first element of each %zu-element section is wrong",
                 x->section);
    } else if (bits & PAT_TAIL) {
        snprintf(p, room, "; only the last, partial section is wrong");
    } else if (bits & PAT_SHIFTED) {
        snprintf(p, room, "; the wrong elements hold their neighbour's answer");
    } else if (bits & PAT_ALL) {
        snprintf(p, room, "; every element is wrong");
    }
}

void diagnose(const check_spec *s, const void *in, const void *got, const check_result *r,
              diagnosis *d)
{
    memset(d, 0, sizeof *d);
    const kind_def *def = kind_get(s->kind);
    if (def->form == FORM_OWN)
        return; /* such kinds describe themselves (their check: common/kinds/) */
    if ((s->dtype != DT_INT32 && s->dtype != DT_FLOAT32) || r->ok)
        return;
    shape x = {s, in, got, NULL, out_len_for(s->kind, s->n), r->first,
               def->params & KP_SECTION ? s->section : 0, def->form == FORM_FOLD};
    int w = print_inputs(&x, d->text, sizeof d->text);
    if (x.len > DIAGNOSE_MAX_N || !(x.want = expected(&x, in, x.len)))
        return;
    size_t j = 0, k = 0;
    uint32_t raw;
    memcpy(&raw, (const char *)got + 4 * x.first, 4);
    unsigned bits = where_wrong(&x);
    double g = got_at(&x, x.first);
    if (raw == POISON_WORD)
        bits |= PAT_UNWRITTEN;
    else {
        bits |= one_input_off(&x, &j);
        if (!x.fold && !s->exclusive && x.first > 0 &&
            (!x.section || x.first % x.section) && same(&x, g, in_at(&x, x.first)))
            bits |= PAT_IS_INPUT;
        if (same(&x, g, s->dtype == DT_INT32 ? identity_i32(s->op) : identity_f64(s->op)))
            bits |= PAT_IDENTITY;
        if (x.fold && reduce_prefix(&x, &k))
            bits |= PAT_PREFIX;
        if (!x.fold && shifted(&x))
            bits |= PAT_SHIFTED;
    }
    d->bits = bits;
    print_shape(&x, bits, j, k, d->text + w, sizeof d->text - (size_t)w);
    free(x.want);
}
