/*
 * diagnose.h - what a wrong output looks like, so a report can point at
 * the bug: the inputs that fed the first wrong element, and the shape of
 * the mistake (which outputs are wrong, and how).  "out[1] expected 4 got
 * -2" means little; "in[0] = 6, in[1] = -2: out[1] lacks in[0]" shows a
 * step that skipped its partner.  The shapes are bits a hint table
 * (hints.h) matches against.
 */
#ifndef DIAGNOSE_H
#define DIAGNOSE_H

#include <stddef.h>

#include "check.h"

/* The shape of one wrong output, as bits (several may hold). */
enum {
    PAT_ALL = 1 << 0,           /* every output element is wrong */
    PAT_SECTION_FIRST = 1 << 1, /* only first elements of sections are wrong */
    PAT_BOUNDARY = 1 << 2,      /* all right up to a multiple of >= 32 elements,
                                   wrong from there: a carry between blocks */
    PAT_TAIL = 1 << 3,          /* only the last, partial section is wrong */
    PAT_MISSING_ONE = 1 << 4,   /* the first wrong sum lacks exactly one input */
    PAT_DOUBLED_ONE = 1 << 5,   /* ... or counts one input twice */
    PAT_IS_INPUT = 1 << 6,      /* the first wrong element is its own input, uncombined */
    PAT_IDENTITY = 1 << 7,      /* the first wrong element is the operator's identity */
    PAT_UNWRITTEN = 1 << 8,     /* the first wrong element was never stored */
    PAT_SHIFTED = 1 << 9,       /* the wrong elements hold their neighbour's answer
                                   (inclusive for exclusive, or the reverse) */
    PAT_PREFIX = 1 << 10,       /* a reduction's result combines only a prefix of in[] */
    PAT_FIRST_BLOCK = 1 << 11,  /* the first wrong element is in the first 1024 */
};

/* Names of the bits, as hint tables write them ("all", "section-first",
 * ...); bit k is names[k].  PAT_NAMES entries, the last NULL. */
#define PAT_NAMES 12
extern const char *const pattern_names[PAT_NAMES + 1];

typedef struct {
    unsigned bits;   /* PAT_* */
    char text[400];  /* the inputs that fed the first wrong element, and what
                        the shape says, for a student ("" when none) */
} diagnosis;

/* Look at a wrong output: spec and in as check_output had them, got the
 * output, r its failed check.  Outputs longer than DIAGNOSE_MAX_N elements
 * (tunables.h) get only the input window, no shape. */
void diagnose(const check_spec *spec, const void *in, const void *got, const check_result *r,
              diagnosis *d);

#endif /* DIAGNOSE_H */
