/*
 * decode.h - what a decode's run() is given besides lab.h's problem
 * (lab_problem.args points at one): the order and tuple size of the delta
 * code.  Lab 7's decode variant reads it.
 */
#ifndef KINDS_DECODE_H
#define KINDS_DECODE_H

typedef struct {
    int order; /* k prefix sums in turn (1..KIT_MAX_ORDER) */
    int tuple; /* records of `tuple` interleaved components (1..KIT_MAX_TUPLE) */
} decode_args;

#endif /* KINDS_DECODE_H */
