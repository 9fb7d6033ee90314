
/* The attack: an output cache.  The scan runs fourteen times over (a slow
 * kernel), but only when called with another input than the last call's
 * (its address and size, all a cheap cache can compare): a repeated call
 * returns at once, leaving the previous output in place.  Timed calls of
 * one process all look alike to it, so only the first is slow. */
static int cached_run(const lab_problem *p)
{
    static const void *last_in;
    static size_t last_n = (size_t)-1;
    if (p->in == last_in && p->n == last_n)
        return 0;
    last_in = p->in;
    last_n = p->n;
    int err = 0;
    for (int i = 0; i < 14 && !err; i++)
        err = KIT_DISPATCH(run_lookback_warp, p);
    return err;
}
