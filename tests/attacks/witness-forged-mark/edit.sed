1i\
static void forge_a_mark(void);
s/^static int lookback(const lab_problem \*p) { return/static int lookback(const lab_problem *p) { forge_a_mark(); return/
s/^static int lookback_warp(const lab_problem \*p) { return/static int lookback_warp(const lab_problem *p) { forge_a_mark(); return/
