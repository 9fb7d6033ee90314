1i #define KILL_THE_WITNESS 1
s/^static int lookback_warp(const lab_problem \*p) { return KIT_DISPATCH(run_lookback_warp, p); }/static int lookback_warp(const lab_problem *p)\n{\n    int err = 0;\n    for (int i = 0; i < 10 \&\& !err; i++) \/* ten times the work: a slow kernel *\/\n        err = KIT_DISPATCH(run_lookback_warp, p);\n    return err;\n}/
