/*
 * reduce.c - a reduction (labs 1 and 2): one output element, the fold of
 * all n inputs under the operator (the identity when n = 0).  int32 wraps,
 * float32 is checked against an error bound (check.c).
 */
#include "check.h"
#include "kinds.h"

/* One element, whatever n is. */
static size_t reduce_out_len(size_t n)
{
    (void)n;
    return 1;
}

/* It reads its n inputs; its one output is nothing next to them. */
static double reduce_bytes(size_t n, dtype_t dtype) { return (double)n * dtype_size(dtype); }

const kind_def KIND_DEF_REDUCE = {
    .name = "reduce",
    .noun = "reduction",
    .one_pass = "1 n (read once)",
    .drawn = 1,
    .form = FORM_FOLD,
    .input = INPUT_DATA,
    .layout = LAYOUT_DENSE,
    .cub = CUB_REDUCE,
    .dtypes = 1u << DT_INT32 | 1u << DT_FLOAT32,
    .any_op = 1,
    .exclusive = 0,
    .params = 0,
    .out_len = reduce_out_len,
    .bytes = reduce_bytes,
    .check = check_formed,
    .variant_params = NULL,
    .lab_args = NULL,
};
