/* Every atomic of the subset, under contention from many blocks that run
 * on several worker threads at once. */
#include "check.h"

struct Cells {
    int add_i, sub_i, min_i, max_i, exch_i, cas_i, and_i, or_i, xor_i;
    unsigned add_u, inc_u, min_u, max_u;
    unsigned long long add_ull, cas_ull;
    float add_f, min_f, max_f, exch_f;
    double add_d;
};

__global__ void hammer(Cells *c)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c->add_i, 2);
    atomicSub(&c->sub_i, 1);
    atomicMin(&c->min_i, 1000 - t);
    atomicMax(&c->max_i, t);
    atomicExch(&c->exch_i, 7);
    /* A CAS loop that adds one: the count must come out exact. */
    int seen = c->cas_i, assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&c->cas_i, assumed, assumed + 1);
    } while (seen != assumed);
    atomicAnd(&c->and_i, ~(1 << (t % 8)));
    atomicOr(&c->or_i, 1 << (t % 16));
    atomicXor(&c->xor_i, 1 << (t % 4));
    atomicAdd(&c->add_u, 3u);
    atomicInc(&c->inc_u, 99u);
    atomicMin(&c->min_u, (unsigned)t + 5u);
    atomicMax(&c->max_u, (unsigned)t * 2u);
    atomicAdd(&c->add_ull, 1ull << 33);
    unsigned long long s2 = c->cas_ull, a2;
    do {
        a2 = s2;
        s2 = atomicCAS(&c->cas_ull, a2, a2 + 1);
    } while (s2 != a2);
    atomicAdd(&c->add_f, 0.5f);
    atomicMin(&c->min_f, (float)t - 0.25f);
    atomicMax(&c->max_f, (float)t + 0.25f);
    atomicExch(&c->exch_f, 1.5f);
    atomicAdd(&c->add_d, 0.25);
}

int main()
{
    const int B = 64, T = 256, N = B * T;
    Cells h;
    memset(&h, 0, sizeof h);
    h.min_i = 1 << 30;
    h.and_i = -1;
    h.min_u = ~0u;
    h.min_f = 1e30f;
    h.max_f = -1e30f;
    Cells *d;
    CUDA_OK(cudaMalloc(&d, sizeof h));
    CUDA_OK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    hammer<<<B, T>>>(d);
    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h.add_i == 2 * N);
    EXPECT(h.sub_i == -N);
    EXPECT(h.min_i == 1000 - (N - 1));
    EXPECT(h.max_i == N - 1);
    EXPECT(h.exch_i == 7);
    EXPECT(h.cas_i == N);
    EXPECT(h.and_i == ~0xff);
    EXPECT(h.or_i == 0xffff);
    EXPECT(h.xor_i == 0); /* each bit flipped N/4 times, an even number */
    EXPECT(h.add_u == 3u * N);
    EXPECT(h.inc_u == (unsigned)(N % 100));
    EXPECT(h.min_u == 5u);
    EXPECT(h.max_u == 2u * (N - 1));
    EXPECT(h.add_ull == (unsigned long long)N << 33);
    EXPECT(h.cas_ull == (unsigned long long)N);
    EXPECT(h.add_f == 0.5f * N);
    EXPECT(h.min_f == -0.25f);
    EXPECT(h.max_f == (float)(N - 1) + 0.25f);
    EXPECT(h.exch_f == 1.5f);
    EXPECT(h.add_d == 0.25 * N);
    return finish("atomics");
}
