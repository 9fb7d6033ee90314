/*
 * fastmath.cpp - the note of a fast-math intrinsic (CUEMU_FASTMATH).  A GPU
 * computes __expf, __logf, __sinf, __fdividef, rsqrtf ... with its
 * special-function unit's approximation.  For the exponentials, logarithms,
 * __powf, __fdividef and rsqrtf the emulator has the unit's bits
 * (mufu.cpp); for __sinf, __cosf, __tanf and __sincosf it gives the
 * full-precision value (include/cuemu_math.h), so a program that prints a
 * result of one may print other last digits than a GPU.  The user is told
 * so once per call site, naming its file and line: CUEMU_FASTMATH=note (the
 * default) prints the note, off prints nothing, stop makes the first call a
 * diagnostic (exit 86).  The header's macro gives each site a flag and
 * says whether mufu.h has the intrinsic's bits; this is called only while
 * the flag is 0, and sets it.
 */
#include "internal.h"

#include <mutex>
#include <set>
#include <stdio.h>
#include <string>
#include <string.h>

namespace cuemu {

namespace {
std::mutex g_fastmath_mu;
/* "file:line" of the sites noted: a template's instantiations share a
 * line, each with a flag of its own, and should be noted once. */
std::set<std::string> g_fastmath_sites;

} // namespace

void fastmath_first(int *seen, const char *name, const char *full, bool has_bits,
                    const char *file, int line)
{
    if (has_bits && mufu_available()) { /* a GPU's bits: nothing to say */
        __atomic_store_n(seen, 1, __ATOMIC_RELAXED);
        return;
    }
    const Settings &s = settings();
    if (s.fastmath == FASTMATH_STOP)
        diag_exit("%s at %s:%d is an approximation: a GPU computes it with its "
                  "special-function unit, whose bits the emulator does not have "
                  "(CUEMU_FASTMATH=stop; =note lets the run go on with the full-precision value)",
                  name, relative_path(file), line);
    std::lock_guard<std::mutex> lk(g_fastmath_mu);
    if (s.fastmath == FASTMATH_NOTE &&
        g_fastmath_sites.insert(std::string(file) + ":" + std::to_string(line)).second) {
        char how[64];
        if (full[0] == '/')
            snprintf(how, sizeof how, "the exactly rounded quotient a / b");
        else if (strcmp(full, "1/sqrt") == 0)
            snprintf(how, sizeof how, "1 / sqrt(x) rounded once from double");
        else
            snprintf(how, sizeof how, "the C library's full-precision %s", full);
        fprintf(stderr,
                "cuemu: note: %s at %s:%d is an approximation: a GPU computes it with its "
                "special-function unit, whose bits the emulator does not have%s; "
                "the emulator returns %s instead, so results may differ from a GPU's in the last "
                "digits (CUEMU_FASTMATH=off silences this note, =stop stops the run here)\n",
                name, relative_path(file), line,
                has_bits ? " (its tables, build/emu/mufu, could not be read)" : "", how);
        fflush(stderr);
    }
    __atomic_store_n(seen, 1, __ATOMIC_RELAXED);
}

} // namespace cuemu
