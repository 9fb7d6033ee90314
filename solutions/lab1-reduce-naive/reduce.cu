/*
 * Lab 1 - naive (interleaved) parallel reduction.
 *
 * A reduction combines n values with an associative operator (sum, min,
 * max) into one.  Here a block of threads does it as a tree in shared
 * memory: at every step each active thread combines two partial results,
 * halving their number, so 2*blockDim values take log2(2*blockDim) steps.
 * This first version keeps the thread -> data mapping of the textbook's
 * interleaved tree (thread t owns position 2t); lab 2 improves on it.
 *
 * Read handouts/lab1.md first.  Fill in the regions between TODO BEGIN and
 * TODO END, in order; `make lab1 && ./grade lab1` tells you how far you are.
 */
#include "cuda_check.h"
#include "lab.h"
#include "ops.cuh"

/* Tuning, kept apart from the algorithm: threads per block, and the
 * elements one block reduces (each thread starts with two). */
#define BLOCK_THREADS 512
#define SECTION (2 * BLOCK_THREADS)

/*
 * Stage 1: a single block reduces the whole input (n <= SECTION).  Why
 * start here: within one block, __syncthreads() is all the coordination the
 * tree needs.
 */
template <typename T, typename Op>
__global__ void reduce_single_block(const T *in, T *out, int n)
{
    __shared__ T partial[SECTION];
    const Op op;
    const unsigned int t = threadIdx.x;

    /* TODO BEGIN 1: load.  Thread t copies in[2t] to partial[2t] and
     * in[2t + 1] to partial[2t + 1].  A position at or past n does not
     * exist: store Op::identity() there instead (0 for a sum), so the tree
     * below can always combine full pairs. */
    partial[2 * t] = 2 * t < n ? in[2 * t] : Op::identity();
    partial[2 * t + 1] = 2 * t + 1 < n ? in[2 * t + 1] : Op::identity();
    /* TODO END 1 */

    /* TODO BEGIN 2: the interleaved tree.  For stride = 1, 2, 4, ... up to
     * blockDim.x: wait with __syncthreads() until every thread has finished
     * the previous step, then the threads with t % stride == 0 set
     * partial[2t] = op(partial[2t], partial[2t + stride]).  Finally thread 0
     * writes partial[0] to *out.  Combine with op(a, b), not a + b: the same
     * code then also computes min and max. */
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        if (t % stride == 0)
            partial[2 * t] = op(partial[2 * t], partial[2 * t + stride]);
    }
    if (t == 0)
        *out = partial[0];
    /* TODO END 2 */
}

/*
 * Stage 2: any n.  Block b reduces its own section of SECTION elements
 * (starting at b * SECTION) exactly as in stage 1, then folds its partial
 * result into *out with one atomic operation: blocks cannot wait for each
 * other, but atomics let them combine without losing an update.
 */
template <typename T, typename Op>
__global__ void reduce_blocks(const T *in, T *out, size_t n)
{
    __shared__ T partial[SECTION];
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t start = (size_t)blockIdx.x * SECTION;

    /* TODO BEGIN 3: load this block's section: element start + 2t into
     * partial[2t] and start + 2t + 1 into partial[2t + 1], with the identity
     * for positions at or past n (the last block is usually partial). */
    partial[2 * t] = start + 2 * t < n ? in[start + 2 * t] : Op::identity();
    partial[2 * t + 1] = start + 2 * t + 1 < n ? in[start + 2 * t + 1] : Op::identity();
    /* TODO END 3 */

    /* TODO BEGIN 4: the same tree as TODO 2; then thread 0 folds the
     * block's result into *out with atomic_combine(op, out, partial[0])
     * (ops.cuh: atomicAdd for sums, atomicMin/atomicMax or a
     * compare-and-swap loop for the others). */
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        if (t % stride == 0)
            partial[2 * t] = op(partial[2 * t], partial[2 * t + stride]);
    }
    if (t == 0)
        atomic_combine(op, out, partial[0]);
    /* TODO END 4 */
}

/* Host side of stage 1: one block, whatever n is (n <= SECTION). */
template <typename T, typename Op>
static int run_single_block(const lab_problem *p)
{
    reduce_single_block<T, Op><<<1, BLOCK_THREADS>>>((const T *)p->in, (T *)p->out, (int)p->n);
    return cudaGetLastError();
}

/* Host side of stage 2: the atomics fold into *out, so it must start as the
 * identity; then one block per section. */
template <typename T, typename Op>
static int run_blocks(const lab_problem *p)
{
    /* TODO BEGIN 5: set *out to the identity: const T identity =
     * Op::identity() on the host, copied to out = (T *)p->out with
     * cudaMemcpy (host to device) inside CUDA_TRY, which returns a failed
     * call's error from run() to the harness.  Then launch reduce_blocks<T, Op>
     * with ceil(n / SECTION) blocks of BLOCK_THREADS threads.  When n == 0
     * there is nothing to launch (a grid of 0 blocks is an error): the
     * identity is the answer. */
    const T identity = Op::identity();
    T *out = (T *)p->out;
    CUDA_TRY(cudaMemcpy(out, &identity, sizeof identity, cudaMemcpyHostToDevice));
    size_t blocks = (p->n + SECTION - 1) / SECTION;
    if (blocks > 0)
        reduce_blocks<T, Op><<<(unsigned int)blocks, BLOCK_THREADS>>>((const T *)p->in, out, p->n);
    /* TODO END 5 */
    return cudaGetLastError();
}

static int single_block(const lab_problem *p) { return KIT_DISPATCH(run_single_block, p); }
static int hierarchical(const lab_problem *p) { return KIT_DISPATCH(run_blocks, p); }

static const lab_variant variants[] = {
    {"single-block", "one block reduces up to 2*512 elements (TODO 1-2)", "reduce", SECTION,
     "log2n", single_block},
    {"hierarchical", "any n: per-block trees folded with atomics (TODO 3-5)", "reduce", 0,
     "chain:1024", hierarchical},
};

const lab_def LAB = {"lab1-reduce-naive", "naive (interleaved) parallel reduction", variants, 2, 1};
