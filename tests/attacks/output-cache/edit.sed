s/^static int lookback(const lab_problem \*p) { return KIT_DISPATCH(run_lookback, p); }/static int lookback(const lab_problem *p) { return cached_run(p, 0); }/
s/^static int lookback_warp(const lab_problem \*p) { return KIT_DISPATCH(run_lookback_warp, p); }/static int lookback_warp(const lab_problem *p) { return cached_run(p, 1); }/
0,/^static int chained_blockidx/s/^static int chained_blockidx/static int cached_run(const lab_problem *p, int warp);\n&/
