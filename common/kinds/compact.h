/*
 * compact.h - what a compaction's run() is given besides lab.h's problem
 * (lab_problem.args points at one): the predicate, and where the count
 * goes.  Lab 7's compaction variants read it.
 */
#ifndef KINDS_COMPACT_H
#define KINDS_COMPACT_H

#include "kit.h"

typedef struct {
    pred_t pred; /* which elements are kept (pred_keep, kit.h) */
    void *count; /* &out[n], where the number kept goes (element type) */
} compact_args;

#endif /* KINDS_COMPACT_H */
