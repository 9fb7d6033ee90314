/*
 * scan.c - a scan (labs 5 and 6): n output elements, element i the fold of
 * inputs 0..i (inclusive) or 0..i-1 (exclusive), under any operator.
 * int32 wraps, float32 is checked against an error bound (check.c).
 */
#include "check.h"
#include "kinds.h"

const kind_def KIND_DEF_SCAN = {
    .name = "scan",
    .noun = "scan",
    .one_pass = "2 n (read once, write once)",
    .drawn = 1,
    .form = FORM_PREFIX,
    .input = INPUT_DATA,
    .layout = LAYOUT_DENSE,
    .cub = CUB_SCAN,
    .dtypes = 1u << DT_INT32 | 1u << DT_FLOAT32,
    .any_op = 1,
    .exclusive = 1,
    .params = 0,
    .out_len = kind_len_per_input,
    .bytes = kind_bytes_in_out,
    .check = check_formed,
    .variant_params = NULL,
    .lab_args = NULL,
};
