/*
 * kinds.c - the table of problem kinds (one row each, defined in the
 * kind's own file) and what every caller asks of a row: its name, its
 * sizes, whether it takes a case, how its parameters read.  The rules
 * here are about parameters and forms, never about one kind.
 */
#include "kinds.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const kind_def KIND_DEF_REDUCE, KIND_DEF_SCAN, KIND_DEF_SECTION_SCAN, KIND_DEF_COMPACT,
    KIND_DEF_DECODE;

/* The table: row k is kind_t k. */
static const kind_def *const kinds[KIND_COUNT] = {
    [KIND_REDUCE] = &KIND_DEF_REDUCE,
    [KIND_SCAN] = &KIND_DEF_SCAN,
    [KIND_SECTION_SCAN] = &KIND_DEF_SECTION_SCAN,
    [KIND_COMPACT] = &KIND_DEF_COMPACT,
    [KIND_DECODE] = &KIND_DEF_DECODE,
};

/* A kind outside the table is a bug of the caller's, never an input: it
 * stops the program rather than being read as some other kind. */
const kind_def *kind_get(kind_t k)
{
    if ((unsigned)k >= KIND_COUNT || !kinds[k]) {
        fprintf(stderr, "internal error: kind %d is not in the table (common/kinds/kinds.c)\n",
                (int)k);
        abort();
    }
    return kinds[k];
}

/* Names are printed for any value (a message about a bad one included). */
const char *kind_name(kind_t k)
{
    return (unsigned)k < KIND_COUNT && kinds[k] ? kinds[k]->name : "?";
}

int kind_parse(const char *s, kind_t *out)
{
    for (int k = 0; s && k < KIND_COUNT; k++)
        if (strcmp(kinds[k]->name, s) == 0) {
            *out = (kind_t)k;
            return 0;
        }
    return -1;
}

/* Built from the table, so a message lists every kind there is. */
const char *kind_names_text(void)
{
    static char text[256];
    size_t o = 0;
    for (int k = 0; k < KIND_COUNT && o < sizeof text; k++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%s%s", k == 0 ? "" :
                              k == KIND_COUNT - 1 ? " or " : ", ", kinds[k]->name);
    return text;
}

size_t kind_len_per_input(size_t n) { return n; }

double kind_bytes_in_out(size_t n, dtype_t dtype) { return 2.0 * n * dtype_size(dtype); }

size_t out_len_for(kind_t k, size_t n) { return kind_get(k)->out_len(n); }

size_t out_words_for(kind_t k, size_t n, dtype_t dtype)
{
    return out_len_for(k, n) * (dtype_size(dtype) / 4);
}

double bytes_moved(kind_t k, size_t n, dtype_t dtype) { return kind_get(k)->bytes(n, dtype); }

/* The names of the dtypes kind k takes, "int32 or int64". */
static void dtypes_text(const kind_def *d, char *buf, size_t len)
{
    size_t o = 0;
    int shown = 0, count = 0;
    for (int t = 0; t < DT_COUNT; t++)
        count += (d->dtypes >> t) & 1;
    buf[0] = '\0';
    for (int t = 0; t < DT_COUNT && o < len; t++)
        if ((d->dtypes >> t) & 1)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", shown++ == 0 ? "" :
                                  shown == count ? " or " : ", ", dtype_name((dtype_t)t));
}

void kinds_with(unsigned param, int dtype, char *buf, size_t len);

int kind_accepts(kind_t k, const char *who, dtype_t dtype, op_t op, int exclusive,
                 const kind_params *p, char *err, size_t len)
{
    const kind_def *d = kind_get(k);
    char types[64];
    dtypes_text(d, types, sizeof types);
    if ((unsigned)dtype >= DT_COUNT || !((d->dtypes >> dtype) & 1))
        return snprintf(err, len, "%s (kind %s) takes %s, not %s", who, d->name, types,
                        dtype_name(dtype)), -1;
    if (op != OP_SUM && !d->any_op)
        return snprintf(err, len, "%s (kind %s) takes no --op (it sums)", who, d->name), -1;
    if (exclusive && !d->exclusive)
        return snprintf(err, len, "%s (kind %s) is not a scan: --exclusive does not apply", who,
                        d->name), -1;
    if (!(d->params & KP_ORDER_TUPLE) && (p->order != 1 || p->tuple != 1)) {
        char which[128];
        kinds_with(KP_ORDER_TUPLE, 0, which, sizeof which);
        return snprintf(err, len, "--order and --tuple go with %s, and %s is of kind %s", which,
                        who, d->name), -1;
    }
    if ((d->params & KP_ORDER_TUPLE) && (p->order < 1 || p->order > KIT_MAX_ORDER ||
                                         p->tuple < 1 || p->tuple > KIT_MAX_TUPLE))
        return snprintf(err, len, "%s: order is 1..%d and tuple 1..%d", who, KIT_MAX_ORDER,
                        KIT_MAX_TUPLE), -1;
    if ((d->params & KP_SECTION) && p->section == 0)
        return snprintf(err, len, "%s (kind %s) needs a section size", who, d->name), -1;
    return 0;
}

int kind_params_text(kind_t k, const kind_params *p, char *buf, size_t len)
{
    const kind_def *d = kind_get(k);
    int o = 0;
    buf[0] = '\0';
    if (d->params & KP_ORDER_TUPLE)
        o += snprintf(buf + o, len - (size_t)o, " order=%d tuple=%d", p->order, p->tuple);
    if ((d->params & KP_PRED) && (size_t)o < len)
        o += snprintf(buf + o, len - (size_t)o, " keep=%s", pred_name(p->pred));
    return o;
}

int kind_perturb_keep(kind_t k, const kind_params *p)
{
    return kind_get(k)->params & KP_PRED ? (int)p->pred : -1;
}

void kind_encode(kind_t k, void *data, size_t n, dtype_t dtype, const kind_params *p)
{
    if (kind_get(k)->input == INPUT_DELTA_CODE)
        ref_encode(data, n, dtype, p->order, p->tuple);
}

void kind_decode(kind_t k, void *data, size_t n, dtype_t dtype, const kind_params *p)
{
    if (kind_get(k)->input == INPUT_DELTA_CODE)
        ref_decode(data, n, dtype, p->order, p->tuple);
}

void kinds_with(unsigned param, int dtype, char *buf, size_t len)
{
    int count = 0, shown = 0;
    size_t o = 0;
    for (int k = 0; k < KIND_COUNT; k++)
        count += param ? (kinds[k]->params & param) != 0 : (kinds[k]->dtypes >> dtype) & 1;
    buf[0] = '\0';
    for (int k = 0; k < KIND_COUNT && o < len; k++)
        if (param ? (kinds[k]->params & param) != 0 : (kinds[k]->dtypes >> dtype) & 1)
            o += (size_t)snprintf(buf + o, len - o, "%skind=%s", shown++ == 0 ? "" :
                                  shown == count ? " or " : ", ", kinds[k]->name);
}
