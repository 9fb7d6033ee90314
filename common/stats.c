/* stats.c - see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median(double *x, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(x, n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double stats_min(const double *x, size_t n)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || x[i] < m)
            m = x[i];
    return m;
}

double stats_gbps(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : NAN;
}
