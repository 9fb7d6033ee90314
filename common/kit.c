/*
 * kit.c - names of the kit's enums, both ways, so every tool prints and
 * parses them the same way.
 */
#include "kit.h"

#include <string.h>

static const char *const dtype_names[DT_COUNT] = {"int32", "float32", "int64"};
static const char *const op_names[OP_COUNT] = {"sum", "min", "max"};
static const char *const dist_names[DIST_COUNT] = {"small", "ones", "wide"};
static const char *const pred_names[PRED_COUNT] = {"positive", "mult4"};

/* One lookup for every table: index of s in names[], or -1. */
static int find_name(const char *const *names, int count, const char *s)
{
    for (int i = 0; s && i < count; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

const char *dtype_name(dtype_t t) { return (unsigned)t < DT_COUNT ? dtype_names[t] : "?"; }
const char *op_name(op_t op) { return (unsigned)op < OP_COUNT ? op_names[op] : "?"; }
const char *dist_name(dist_t d) { return (unsigned)d < DIST_COUNT ? dist_names[d] : "?"; }
const char *pred_name(pred_t p) { return (unsigned)p < PRED_COUNT ? pred_names[p] : "?"; }

#define DEFINE_PARSE(fn, type, table, count)          \
    int fn(const char *s, type *out)                   \
    {                                                  \
        int i = find_name(table, count, s);            \
        if (i < 0)                                     \
            return -1;                                 \
        *out = (type)i;                                \
        return 0;                                      \
    }

DEFINE_PARSE(dtype_parse, dtype_t, dtype_names, DT_COUNT)
DEFINE_PARSE(op_parse, op_t, op_names, OP_COUNT)
DEFINE_PARSE(dist_parse, dist_t, dist_names, DIST_COUNT)
DEFINE_PARSE(pred_parse, pred_t, pred_names, PRED_COUNT)
