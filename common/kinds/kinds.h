/*
 * kinds.h - what a problem kind is: everything the harness, the checker
 * and the grader need to know about one kind of computation (a reduction,
 * a scan, ...), in one row of one table (kinds.c), each row defined in its
 * own file here (reduce.c, scan.c, section_scan.c, compact.c, decode.c).
 * Code outside this folder asks the row and never switches on a kind: a
 * new kind is its file and its row, and nothing else changes.
 *
 * Plain C11 (the grader, the tests and nvcc include it).
 */
#ifndef KINDS_H
#define KINDS_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds, by their row in the table: the names are the kit's words for
 * them (suites say kind=NAME, result files "kind": NAME, labs name theirs). */
typedef enum {
    KIND_REDUCE = 0, KIND_SCAN = 1, KIND_SECTION_SCAN = 2, KIND_COMPACT = 3, KIND_DECODE = 4,
    KIND_COUNT
} kind_t;

/* A kind's parameters beyond dtype, op and n: each kind reads the ones its
 * row names in `params` (KP_*) and the others keep their defaults
 * (KP_DEFAULTS).  A kind with a parameter no kind has yet adds it
 * here, to the command line (cli.c) and to the suite's keys (suite.c). */
typedef struct {
    size_t section; /* KP_SECTION: elements per independent section (the variant's) */
    int order;      /* KP_ORDER_TUPLE: order k of a delta code (1..KIT_MAX_ORDER) */
    int tuple;      /* KP_ORDER_TUPLE: records of d interleaved components (1..KIT_MAX_TUPLE) */
    pred_t pred;    /* KP_PRED: which elements are kept */
} kind_params;
#define KP_DEFAULTS {0, 1, 1, PRED_POSITIVE}
enum { KP_SECTION = 1, KP_ORDER_TUPLE = 2, KP_PRED = 4 };

/* How the generic checker (check.c) and the grader's diagnosis read an
 * output: FOLD is one element, the fold of every input; PREFIX is one
 * element per input, element i the fold of the inputs up to i (restarting
 * every `section` elements when the kind takes KP_SECTION); OWN kinds
 * check and describe their outputs themselves (their `check`). */
typedef enum { FORM_FOLD, FORM_PREFIX, FORM_OWN } kind_form;

/* What the kernel reads: the data as generated, or the data delta-encoded
 * (order, tuple) so that decoding it gives the data back.  The harness
 * encodes on the device (buffers.cu), the grader on the host. */
typedef enum { INPUT_DATA, INPUT_DELTA_CODE } kind_input;

/* Where the output's elements are: all of out[0..out_len), or COUNTED:
 * out[0..count) and the count in out[n], the rest never written (with
 * --exact the harness copies back only what was written: buffers.cu). */
typedef enum { LAYOUT_DENSE, LAYOUT_COUNTED } kind_layout;

/* The CUB algorithm the harness times beside a variant (cub_baseline.cu):
 * none, DeviceReduce, DeviceScan, DeviceSelect::If, or `order` strided
 * DeviceScans one after another. */
typedef enum { CUB_NONE, CUB_REDUCE, CUB_SCAN, CUB_SELECT, CUB_STRIDED_SCANS } kind_cub;

struct check_spec;
struct check_result;

/* The room a kind's lab arguments (lab_problem.args) take in the harness. */
typedef union {
    long double align;
    unsigned char bytes[64];
} kind_args;

typedef struct {
    const char *name;
    /* What a student calls one ("reduction", "scan", "compaction"), and
     * the least global traffic any one pass of it needs, in words: the
     * grader's emulated speed line sets a run's measured traffic beside it. */
    const char *noun, *one_pass;
    /* make draw checks this kind's outputs (its dataflow grid), so the
     * report may point a failing group at it. */
    int drawn;
    kind_form form;
    kind_input input;
    kind_layout layout;
    kind_cub cub;
    unsigned dtypes; /* the element types it takes: bit 1u << dtype_t */
    int any_op;      /* takes --op min and max (else sum only) */
    int exclusive;   /* takes --exclusive */
    unsigned params; /* the KP_* it reads */
    /* Output elements for n inputs (the device buffer before its guard). */
    size_t (*out_len)(size_t n);
    /* The fewest bytes it must move through device memory (GB/s figures
     * and the grader's plausibility bound use it; kinds.c says why a
     * compaction counts its reads alone). */
    double (*bytes)(size_t n, dtype_t dtype);
    /* Judge got against the reference for in (check.h's check_output). */
    void (*check)(const struct check_spec *spec, const void *in, const void *got,
                  struct check_result *r);
    /* The parameters a variant fixes, read from lab_variant.args (the
     * kind's header says what they point at) into *k; -1 when args are
     * missing or say nothing usable.  NULL: its variants fix none. */
    int (*variant_params)(const void *variant_args, kind_params *k);
    /* Its lab arguments (lab.h's lab_problem.args) written into *store for
     * a problem whose output is out, or NULL when it has none. */
    const void *(*lab_args)(const kind_params *k, void *out, size_t n, dtype_t dtype,
                            kind_args *store);
} kind_def;

/* The row of kind k; a k outside the table stops the program (a broken
 * invariant: every kind_t comes from kind_parse or the table). */
const kind_def *kind_get(kind_t k);
const char *kind_name(kind_t k);
/* 0 and *out set when s names a kind, -1 when not. */
int kind_parse(const char *s, kind_t *out);
/* The kinds' names, "a, b or c", for messages. */
const char *kind_names_text(void);

/* For the rows of kinds that write one element per input and move each
 * input in and each output out once (scans and decodes): n, and 2 n
 * elements' bytes. */
size_t kind_len_per_input(size_t n);
double kind_bytes_in_out(size_t n, dtype_t dtype);

/* Output elements, output 32-bit words and bytes moved of a kind-k case. */
size_t out_len_for(kind_t k, size_t n);
size_t out_words_for(kind_t k, size_t n, dtype_t dtype);
double bytes_moved(kind_t k, size_t n, dtype_t dtype);

/* 0 when kind k takes this dtype, op, exclusiveness and parameters; -1 and
 * a sentence naming `who` (a variant, a suite line) in err when not. */
int kind_accepts(kind_t k, const char *who, dtype_t dtype, op_t op, int exclusive,
                 const kind_params *p, char *err, size_t len);

/* "kind=a or kind=b": the kinds that read parameter `param` (a KP_*
 * bit), or with param 0 those that take dtype `dtype`; for messages. */
void kinds_with(unsigned param, int dtype, char *buf, size_t len);

/* The parameters kind k reads, as " order=3 tuple=2" or " keep=mult4"
 * ("" when none): the words reports and labels print.  Returns the length. */
int kind_params_text(kind_t k, const kind_params *p, char *buf, size_t len);

/* The predicate that a perturbed input must keep each element's answer
 * under (perturb.h's keep): p->pred for a kind with KP_PRED, else -1. */
int kind_perturb_keep(kind_t k, const kind_params *p);

/* data (n elements) into the input the kernel reads, and back (host; the
 * identity for INPUT_DATA kinds). */
void kind_encode(kind_t k, void *data, size_t n, dtype_t dtype, const kind_params *p);
void kind_decode(kind_t k, void *data, size_t n, dtype_t dtype, const kind_params *p);

#ifdef __cplusplus
}
#endif
#endif /* KINDS_H */
