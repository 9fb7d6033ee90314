
/* The attack: an output cache.  The scan runs fourteen times over (a slow
 * kernel), but only when called with another input than the last call's
 * (its buffers, size and operation: all a cheap cache can compare): a repeated call
 * returns at once, leaving the previous output in place.  Timed calls of
 * one process all look alike to it, so only the first is slow. */
static int cached_run(const lab_problem *p, int warp)
{
    static lab_problem seen[2]; /* each variant's last problem */
    static int have[2];
    const lab_problem *last = &seen[warp];
    if (have[warp] && p->in == last->in && p->out == last->out && p->n == last->n &&
        p->dtype == last->dtype && p->op == last->op && p->exclusive == last->exclusive)
        return 0;
    seen[warp] = *p;
    have[warp] = 1;
    int err = 0;
    for (int i = 0; i < 14 && !err; i++)
        err = warp ? KIT_DISPATCH(run_lookback_warp, p) : KIT_DISPATCH(run_lookback, p);
    return err;
}
