/*
 * section_scan.c - a scan of independent sections (labs 3 and 4, whose
 * kernels scan what one block holds): the input is cut into sections of
 * `section` elements (the last one may be partial), each scanned on its
 * own.  The section size is the variant's (section_scan.h).  No CUB
 * yardstick: CUB has no sectioned scan, and a whole scan is not the same
 * work.
 */
#include "check.h"
#include "kinds.h"
#include "section_scan.h"

/* The section size of the variant: what its kernel scans as one piece. */
static int section_scan_variant_params(const void *variant_args, kind_params *k)
{
    const section_scan_variant *v = (const section_scan_variant *)variant_args;
    if (!v || v->section == 0)
        return -1;
    k->section = v->section;
    return 0;
}

const kind_def KIND_DEF_SECTION_SCAN = {
    .name = "section-scan",
    .noun = "scan",
    .one_pass = "2 n (read once, write once)",
    .drawn = 1,
    .form = FORM_PREFIX,
    .input = INPUT_DATA,
    .layout = LAYOUT_DENSE,
    .cub = CUB_NONE,
    .dtypes = 1u << DT_INT32 | 1u << DT_FLOAT32,
    .any_op = 1,
    .exclusive = 1,
    .params = KP_SECTION,
    .out_len = kind_len_per_input,
    .bytes = kind_bytes_in_out,
    .check = check_formed,
    .variant_params = section_scan_variant_params,
    .lab_args = NULL,
};
