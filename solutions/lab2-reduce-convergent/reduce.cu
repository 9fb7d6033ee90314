/*
 * Lab 2 - divergence-free (convergent) reduction, then "+ ?": add during
 * load, thread coarsening, and warp shuffles.
 *
 * Lab 1's tree kept thread t on position 2t, so at every step the active
 * threads were scattered over all warps and most warps diverged.  Stage 1
 * keeps the same tree but maps the active threads onto a contiguous prefix
 * of the block: at stride s only threads 0..s-1 work, so whole warps either
 * all work or all sit out.  Stage 2 attacks what is left: each thread first
 * folds many elements in registers while loading (so the tree runs once per
 * thread instead of once per two elements), and the last 32 partials are
 * combined with warp shuffles instead of shared memory and barriers.
 *
 * Read handouts/lab2.md first.  Fill in the TODO regions in order;
 * `make lab2 && ./grade lab2` tells you how far you are.
 */
#include "cuda_check.h"
#include "lab.h"
#include "ops.cuh"

/* Stage 1 tuning: threads per block, elements per block (two per thread). */
#define BLOCK_THREADS 512
#define SECTION (2 * BLOCK_THREADS)

/* Stage 2 tuning: threads per block, loads each thread keeps in flight per
 * loop trip, and resident blocks per SM the grid is sized for. */
#define COARSE_THREADS 256
#define LOADS_IN_FLIGHT 4
#define BLOCKS_PER_SM 8
#define FULL_MASK 0xffffffffu

/*
 * Stage 1: the convergent tree.  Block b reduces in[b*SECTION ...] exactly
 * as in lab 1, but at stride s the threads 0..s-1 combine partial[t] with
 * partial[t + s]: the active threads stay contiguous.
 */
template <typename T, typename Op>
__global__ void reduce_convergent(const T *in, T *out, size_t n)
{
    __shared__ T partial[SECTION];
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t start = (size_t)blockIdx.x * SECTION;

    /* TODO BEGIN 1: load.  Thread t loads element start + t into partial[t]
     * and element start + t + blockDim.x into partial[t + blockDim.x]
     * (Op::identity() past n).  Unlike lab 1, neighbouring threads now read
     * neighbouring addresses in both loads: the loads are coalesced. */
    partial[t] = start + t < n ? in[start + t] : Op::identity();
    partial[t + blockDim.x] =
        start + t + blockDim.x < n ? in[start + t + blockDim.x] : Op::identity();
    /* TODO END 1 */

    /* TODO BEGIN 2: the convergent tree.  For stride = blockDim.x, then half
     * of it each step, down to 1: __syncthreads(), then threads t < stride
     * set partial[t] = op(partial[t], partial[t + stride]).  Thread 0 then
     * folds partial[0] into *out with atomic_combine(op, out, partial[0]). */
    for (unsigned int stride = blockDim.x; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride)
            partial[t] = op(partial[t], partial[t + stride]);
    }
    if (t == 0)
        atomic_combine(op, out, partial[0]);
    /* TODO END 2 */
}

/* Combine the values of the 32 lanes of a warp; lane 0 ends with the result.
 * Why shuffles: lanes read each other's registers directly, with no shared
 * memory traffic and no __syncthreads(); __shfl_down_sync also names the
 * lanes taking part, which the old "volatile warp-synchronous" trick never
 * did (and which is wrong since Volta's independent thread scheduling). */
template <typename T, typename Op> __device__ T warp_reduce(T v)
{
    const Op op;
    /* TODO BEGIN 3: five shuffle steps: for offset = 16, 8, 4, 2, 1:
     * v = op(v, __shfl_down_sync(FULL_MASK, v, offset)).  All 32 lanes must
     * execute every step (the mask says so). */
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v = op(v, __shfl_down_sync(FULL_MASK, v, offset));
    /* TODO END 3 */
    return v;
}

/*
 * Stage 2: a grid of a few blocks per SM sweeps the whole array.  Each
 * thread folds its share in registers (add during load), then the block
 * reduces its COARSE_THREADS partials: a shared-memory tree down to one
 * warp, the warp with shuffles, and one atomic per block.
 */
template <typename T, typename Op>
__global__ void reduce_coarsened(const T *in, T *out, size_t n)
{
    __shared__ T partial[COARSE_THREADS];
    const Op op;
    const unsigned int t = threadIdx.x;
    T acc = Op::identity();

    /* TODO BEGIN 4: add during load, with a grid-stride loop.  Thread t of
     * block b starts at i = b * blockDim.x + t and steps by the whole grid,
     * gridDim.x * blockDim.x, folding in[i] into acc while i < n.  (Speed:
     * the reference unrolls the loop so each thread has LOADS_IN_FLIGHT
     * independent loads outstanding per trip; start with the simple loop.) */
    const size_t tile = (size_t)blockDim.x * LOADS_IN_FLIGHT;
    const size_t step = (size_t)gridDim.x * tile;
    size_t i = (size_t)blockIdx.x * tile + t;
    for (; i + (LOADS_IN_FLIGHT - 1) * blockDim.x < n; i += step) {
        T v[LOADS_IN_FLIGHT];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; k++)
            v[k] = in[i + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; k++)
            acc = op(acc, v[k]);
    }
    for (; i < n; i += blockDim.x) /* the last, partial tile */
        acc = op(acc, in[i]);
    /* TODO END 4 */

    partial[t] = acc;

    /* TODO BEGIN 5: the block's tree, convergent as in TODO 2, from stride =
     * blockDim.x / 2 down to 32, a __syncthreads() before each step; then
     * the first warp (t < 32) finishes with warp_reduce<T, Op>(partial[t]),
     * and lane 0 does the atomic.  (No barrier is needed between the loop
     * and the warp: thread t < 32 reads only partial[t], its own last write.) */
    for (unsigned int stride = blockDim.x / 2; stride >= 32; stride /= 2) {
        __syncthreads();
        if (t < stride)
            partial[t] = op(partial[t], partial[t + stride]);
    }
    if (t < 32) {
        T v = warp_reduce<T, Op>(partial[t]);
        if (t == 0)
            atomic_combine(op, out, v);
    }
    /* TODO END 5 */
}

/* *out starts at the identity: every block folds into it atomically. */
template <typename T, typename Op> static cudaError_t reset_out(const lab_problem *p)
{
    const T identity = Op::identity();
    return cudaMemcpy(p->out, &identity, sizeof identity, cudaMemcpyHostToDevice);
}

template <typename T, typename Op> static int run_convergent(const lab_problem *p)
{
    CUDA_TRY(reset_out<T, Op>(p));
    size_t blocks = (p->n + SECTION - 1) / SECTION;
    if (blocks > 0)
        reduce_convergent<T, Op><<<(unsigned int)blocks, BLOCK_THREADS>>>((const T *)p->in,
                                                                          (T *)p->out, p->n);
    return cudaGetLastError();
}

/* *blocks: enough to fill the GPU (BLOCKS_PER_SM per SM), never more than
 * the input needs: the grid-stride loop does the rest. */
static cudaError_t coarse_grid(size_t n, unsigned int *blocks)
{
    static int sms = 0;
    if (sms == 0) {
        cudaDeviceProp prop;
        CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
        sms = prop.multiProcessorCount;
    }
    size_t per_block = (size_t)COARSE_THREADS * LOADS_IN_FLIGHT;
    size_t needed = (n + per_block - 1) / per_block;
    size_t fill = (size_t)sms * BLOCKS_PER_SM;
    *blocks = (unsigned int)(needed < fill ? needed : fill);
    return cudaSuccess;
}

template <typename T, typename Op> static int run_coarsened(const lab_problem *p)
{
    unsigned int blocks;
    CUDA_TRY(reset_out<T, Op>(p));
    CUDA_TRY(coarse_grid(p->n, &blocks));
    if (blocks > 0)
        reduce_coarsened<T, Op><<<blocks, COARSE_THREADS>>>((const T *)p->in, (T *)p->out, p->n);
    return cudaGetLastError();
}

static int convergent(const lab_problem *p) { return KIT_DISPATCH(run_convergent, p); }
static int coarsened(const lab_problem *p) { return KIT_DISPATCH(run_coarsened, p); }

static const lab_variant variants[] = {
    {"convergent", "contiguous active threads, one atomic per block (TODO 1-2)", "reduce", 0,
     "chain:1024", convergent},
    {"coarsened", "add during load, grid-stride loop, warp shuffles (TODO 3-5)", "reduce", 0,
     "n", coarsened},
};

const lab_def LAB = {"lab2-reduce-convergent", "divergence-free reduction, then coarsening and shuffles",
                     variants, 2, 1};
