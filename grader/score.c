/* score.c - see score.h for the rules; kept tiny so tests pin them down. */
#include "score.h"
#include "tunables.h"

#include <math.h>

static const char *const names[V_COUNT] = {
    "PASS", "WRONG", "UNWRITTEN", "OUT-OF-BOUNDS", "RACE", "TIMEOUT", "CRASH",
    "CUDA-ERROR", "EMU-ERROR", "NO-RESULT", "BUILD-FAILED", "FORBIDDEN", "SKIPPED",
    "SANITIZER", "MISSING-FILE", "AMBIGUOUS-FILE", "IMPLAUSIBLE", "HOST-ERROR",
    "HOST-WRITTEN",
};

const char *verdict_name(verdict_t v) { return (unsigned)v < V_COUNT ? names[v] : "?"; }

double speed_fraction(double ratio)
{
    if (!(ratio > 0) || !isfinite(ratio) || ratio > SPEED_ZERO_RATIO)
        return 0.0;
    return ratio <= SPEED_FULL_RATIO ? 1.0 : SPEED_FULL_RATIO / ratio;
}

int speed_settled(double t_student, double t_ref)
{
    return isfinite(t_student) && isfinite(t_ref) && t_ref > 0 &&
           speed_fraction(t_student / t_ref) == 1.0;
}

double group_score(double points, int passed, int run)
{
    return run > 0 ? points * (double)passed / (double)run : 0.0;
}

int speed_unwitnessed_credit(int require, int ref_witnessed)
{
    return !require && !ref_witnessed;
}

int speed_plausible(double t_ms, double bytes, double copy_gbps, double max_ratio, double *fastest_ms)
{
    *fastest_ms = copy_gbps > 0 && max_ratio > 0 ? bytes / (copy_gbps * max_ratio) / 1e6 : 0.0;
    if (!(copy_gbps > 0))
        return 1; /* no yardstick: nothing to hold the time against */
    return t_ms > 0 && t_ms >= *fastest_ms;
}
