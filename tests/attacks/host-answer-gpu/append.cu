
/* The attack on a GPU: no kernel at all.  The input is copied to the host
 * (cudaMemcpyAsync, kind cudaMemcpyDefault: the counting trusts the
 * pointers, not the kind), scanned
 * there (section by section), and the answer copied into out. */
template <typename T> static T host_op(op_t op, T a, T b)
{
    return op == OP_SUM ? a + b : op == OP_MIN ? (a < b ? a : b) : (a > b ? a : b);
}
template <typename T> static T host_identity(op_t op)
{
    return op == OP_SUM ? (T)0 : op == OP_MIN ? (T)3.0e38 : (T)-3.0e38;
}
template <typename T> static int host_scan(const lab_problem *p, size_t section)
{
    if (p->n == 0)
        return 0;
    T *h = (T *)malloc(p->n * sizeof(T)), *o = (T *)malloc(p->n * sizeof(T));
    cudaMemcpyAsync(h, p->in, p->n * sizeof(T), cudaMemcpyDefault, 0);
    cudaStreamSynchronize(0);
    double acc = 0;
    T run = host_identity<T>(p->op);
    for (size_t i = 0; i < p->n; i++) {
        if (section && i % section == 0) {
            acc = 0;
            run = host_identity<T>(p->op);
        }
        T before = p->op == OP_SUM ? (T)acc : run;
        if (p->op == OP_SUM)
            acc += (double)h[i];
        else
            run = host_op<T>(p->op, run, h[i]);
        o[i] = p->exclusive ? before : (p->op == OP_SUM ? (T)acc : run);
        if (p->op == OP_SUM && sizeof(T) == 4 && (T)1 / 2 == 0) /* ints wrap */
            acc = (double)(T)(long long)acc;
    }
    cudaMemcpyAsync(p->out, o, p->n * sizeof(T), cudaMemcpyDefault, 0);
    cudaStreamSynchronize(0);
    free(h);
    free(o);
    return 0;
}
static int host_answer(const lab_problem *p, size_t section)
{
    return p->dtype == DT_FLOAT32 ? host_scan<float>(p, section) : host_scan<int>(p, section);
}
