/*
 * stats.h - summarising repeated timings: the median is robust to one slow
 * outlier (a context switch, a clock ramp), the minimum shows the best case.
 */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Median of x[0..n) (sorts x in place); NaN for n = 0. */
double stats_median(double *x, size_t n);
/* Smallest of x[0..n); NaN for n = 0. */
double stats_min(const double *x, size_t n);
/* Gigabytes (1e9 bytes) per second for `bytes` moved in `ms` milliseconds. */
double stats_gbps(double bytes, double ms);

#ifdef __cplusplus
}
#endif
#endif /* STATS_H */
