/*
 * fastmath.cpp - the note of a fast-math intrinsic (CUEMU_FASTMATH).  A GPU
 * computes __logf, __expf, __sinf, __fdividef ... with its special-function
 * unit's approximation, whose bits NVIDIA does not publish; the emulator
 * gives the full-precision value (include/cuemu_math.h), so a program that
 * prints a result of one may print other last digits than a GPU
 * (quasirandomGenerator's L1 norm, through __logf).  The user is told so
 * once per call site, naming its file and line: CUEMU_FASTMATH=note (the
 * default) prints the note, off prints nothing, stop makes the first call
 * a diagnostic (exit 86).  The header's macro gives each site a flag; this
 * is called only while it is 0, and sets it.
 */
#include "internal.h"

#include <mutex>
#include <set>
#include <stdio.h>
#include <string>

namespace cuemu {

namespace {
std::mutex g_fastmath_mu;
/* "file:line" of the sites noted: a template's instantiations share a
 * line, each with a flag of its own, and should be noted once. */
std::set<std::string> g_fastmath_sites;
} // namespace

void fastmath_first(int *seen, const char *name, const char *full, const char *file, int line)
{
    const Settings &s = settings();
    if (s.fastmath == FASTMATH_STOP)
        diag_exit("%s at %s:%d is a fast-math intrinsic: a GPU computes it with its "
                  "special-function unit's approximation, whose bits are not published, and "
                  "the emulator cannot give them (CUEMU_FASTMATH=stop; =note lets the run go "
                  "on with the full-precision value)",
                  name, relative_path(file), line);
    std::lock_guard<std::mutex> lk(g_fastmath_mu);
    if (s.fastmath == FASTMATH_NOTE &&
        g_fastmath_sites.insert(std::string(file) + ":" + std::to_string(line)).second) {
        char how[64];
        if (full[0] == '/')
            snprintf(how, sizeof how, "the exactly rounded quotient a / b");
        else
            snprintf(how, sizeof how, "the C library's full-precision %s", full);
        fprintf(stderr,
                "cuemu: note: %s at %s:%d is a fast-math intrinsic: a GPU computes it with its "
                "special-function unit's approximation, whose bits are not published; the "
                "emulator returns %s instead, so results may differ from a GPU's in the last "
                "digits (CUEMU_FASTMATH=off silences this note, =stop stops the run here)\n",
                name, relative_path(file), line, how);
        fflush(stderr);
    }
    __atomic_store_n(seen, 1, __ATOMIC_RELAXED);
}

} // namespace cuemu
