/*
 * decode.c - a delta decoding of order k and tuple size d (lab 7): the
 * input is the data encoded (k stride-d differences), the output must be
 * the data itself (k stride-d prefix sums, wrapping).  Integer-only and
 * exact: the check compares with the data before encoding.
 */
#include "check.h"
#include "decode.h"
#include "kinds.h"
#include "reference.h"

#include <stdio.h>
#include <string.h>

/* The elements [from, to) compared, on the host's cores (check.h). */
typedef struct {
    const check_spec *s;
    const void *in, *got;
} decode_pass;

static void decode_part(size_t from, size_t to, int slice, void *ctx, check_result *t)
{
    const decode_pass *d = ctx;
    (void)slice;
    for (size_t i = from; i < to; i++)
        if (int_at(d->got, d->s->dtype, i) != int_at(d->in, d->s->dtype, i))
            check_mark_wrong(t, i, elem_is_poison(d->got, d->s->dtype, i));
}

/* Decoding gives the data back: out[i] == in[i] for every i (in is the
 * data before encoding).  The message shows the neighbourhood of the
 * first wrong element, the way the scan labs' checker does. */
static void check_decode(const check_spec *s, const void *in, const void *got, check_result *r)
{
    memset(r, 0, sizeof *r);
    r->ok = 1;
    decode_pass d = {s, in, got};
    check_parallel(s->n, decode_part, &d, r);
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
        fmt_elem_int(es, sizeof es, in, s->dtype, i);
        fmt_elem_int(gs, sizeof gs, got, s->dtype, i);
        w = snprintf(p, room, "%sout[%zu] expected %s got %s%s", i == lo ? "" : ", ", i, es, gs,
                     i == r->first ? " <--" : "");
        p += w, room -= (size_t)w;
    }
}

/* The order and the tuple size. */
static const void *decode_lab_args(const kind_params *k, void *out, size_t n, dtype_t dtype,
                                   kind_args *store)
{
    _Static_assert(sizeof(decode_args) <= sizeof(kind_args), "decode_args outgrew kind_args");
    (void)out, (void)n, (void)dtype;
    decode_args *a = (decode_args *)store;
    a->order = k->order;
    a->tuple = k->tuple;
    return a;
}

const kind_def KIND_DEF_DECODE = {
    .name = "decode",
    .noun = "decode",
    .one_pass = "2 n (read once, write once)",
    .drawn = 0,
    .form = FORM_OWN,
    .input = INPUT_DELTA_CODE,
    .layout = LAYOUT_DENSE,
    .cub = CUB_STRIDED_SCANS,
    .dtypes = 1u << DT_INT32 | 1u << DT_INT64,
    .any_op = 0,
    .exclusive = 0,
    .params = KP_ORDER_TUPLE,
    .out_len = kind_len_per_input,
    .bytes = kind_bytes_in_out,
    .check = check_decode,
    .variant_params = NULL,
    .lab_args = decode_lab_args,
};
