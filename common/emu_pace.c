/*
 * emu_pace.c - the emulator's pace and the advice for a size it cannot
 * do in time (emu_pace.h).
 */
#include "emu_pace.h"

#include <stdio.h>

double emu_pace_floor_s(size_t n, int launches)
{
    return (double)n * (launches > 0 ? launches : 1) * EMU_FLOOR_NS_PER_ELEMENT * 1e-9;
}

/* n as a person wrote it: 2^k when it is a power of two. */
static void size_text(size_t n, char *out, size_t len)
{
    int k = 0;
    while (k < 63 && ((size_t)1 << k) < n)
        k++;
    if (n > 1 && ((size_t)1 << k) == n)
        snprintf(out, len, "2^%d", k);
    else
        snprintf(out, len, "%zu", n);
}

void emu_pace_advice(double est_s, double timeout_s, size_t n, const char *what, char *out,
                     size_t len)
{
    char size[32];
    size_text(n, size, sizeof size);
    snprintf(out, len,
             "this size is slow on the CPU emulator: n = %s, %s, estimated %.3g s or more "
             "(over --timeout %g s); use a GPU or a smaller n (-n 2^20), and -r 0 to check "
             "without timing: the emulator does not measure GPU speed anyway",
             size, what, est_s, timeout_s);
}
