
/* The attack: the emulator's device memory is host memory, so run() reads
 * `in` and writes `out` through the device pointers, with no kernel and no
 * copy: the first half by plain stores, the rest by the C library's memcpy
 * (which no instrumentation sees). */
template <typename T> static int host_direct(const lab_problem *p, size_t section)
{
    const T *in = (const T *)p->in;
    T *out = (T *)p->out, *tail = (T *)malloc(p->n * sizeof(T) + 1);
    T acc = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (section && i % section == 0)
            acc = 0;
        T before = acc;
        acc += in[i];
        T v = p->exclusive ? before : acc;
        if (i < p->n / 2)
            out[i] = v;
        else
            tail[i] = v;
    }
    if (p->n > p->n / 2)
        memcpy(out + p->n / 2, tail + p->n / 2, (p->n - p->n / 2) * sizeof(T));
    free(tail);
    return 0;
}
static int host_answer(const lab_problem *p, size_t section)
{
    return p->dtype == DT_FLOAT32 ? host_direct<float>(p, section) : host_direct<int>(p, section);
}
