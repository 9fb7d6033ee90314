
/* The attack: the kit's CUB baseline runs CUB on the harness's buffers,
 * and its header is in the include path. */
#include "cub_baseline.h"
__attribute__((constructor)) static void use_the_kit_cub(void)
{
    static lab_problem p;
    static timing t;
    if (p.n) /* never true: linking is the point */
        time_cub(CUB_REDUCE, &p, NULL, 0, 1, &t);
}
