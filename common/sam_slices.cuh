/*
 * sam_slices.cuh - lab 7's warp layer: a warp's slice of 32 runs, moved
 * between global memory and the warp's own part of shared memory in
 * coalesced 16-byte accesses, and read and written back a step of a run
 * at a time.  The transpose needs only __syncwarp(), since no other warp
 * touches that part; the layout keeps both the coalesced copy and the
 * lanes' reads of their runs free of bank conflicts.
 */
#ifndef SAM_SLICES_CUH
#define SAM_SLICES_CUH

#include <string.h>

#include "sam_tuning.cuh"

/* Shared-memory index of slice element j: one word of padding every 32,
 * so 32 lanes reading their runs (lane l at l * R + i) hit 32 banks. */
__device__ __forceinline__ unsigned int pad(unsigned int j) { return j + j / 32; }
#define PADDED(n) ((n) + (n) / 32)

/* The 16-byte vector of an element type, for loads and stores of slices. */
template <typename U> struct vec16;
template <> struct vec16<unsigned int> { typedef uint4 type; };
template <> struct vec16<unsigned long long> { typedef ulonglong2 type; };

/*
 * Where element j of a warp's slice lives in the warp's shared buffer.
 * When a run is whole 16-byte chunks, 8 or more of them (every shape but
 * int32 tuples of 3, 5, 6, 7 and int64 tuples of 3, 5, 6, 7), chunk c is
 * stored at c XOR (the run's lane % 8): 8 lanes reading chunk q of their
 * runs (a 128-bit shared access serves 8 lanes at a time) hit 8 different
 * groups of 4 banks, and so do 8 consecutive chunks of the coalesced copy
 * (one run, one lane); one access moves 16 bytes and nothing is padding.
 * Otherwise one word of padding every 32 (pad()), one element at a time.
 */
template <typename U, int D, int RUN = RUN_BYTES> struct slice_layout {
    typedef typename vec16<U>::type V;
    static constexpr int PER = 16 / (int)sizeof(U);    /* elements per chunk */
    static constexpr int R = shape<U, D, RUN>::R;
    static constexpr int RC = R / PER;                  /* chunks per run */
    static constexpr bool VEC = R % PER == 0 && RC % 8 == 0;
    /* elements per decoding step: whole chunks and whole records (one
     * record at a time where runs are not whole chunks) */
    static constexpr int STEP = !VEC ? D
                                     : (STEP_BYTES / (int)sizeof(U) > D ? STEP_BYTES / (int)sizeof(U) : D);
    static_assert(!VEC || (R % STEP == 0 && STEP % PER == 0), "a step is whole chunks of a run");
    /* the chunk that holds chunk c of the slice */
    static __device__ __forceinline__ unsigned int chunk(unsigned int c) { return c ^ ((c / RC) % 8); }
    /* the index in the buffer of element j of the slice */
    static __device__ __forceinline__ unsigned int slot(unsigned int j)
    {
        return VEC ? chunk(j / PER) * PER + j % PER : pad(j);
    }
};

/*
 * Whether a decode folds its second pass into the store: records of one
 * order (d > 1) in runs of whole chunks.  Pass 1 then writes each run,
 * decoded from a zero state, back to shared memory, and the store adds
 * the run's starting state component by component as the slice goes out
 * (one order moves a state unchanged, so that is the decoded value).  A
 * tile then makes 4 passes over shared memory instead of 5, and after its
 * second barrier only adds and stores.  Plain sums (d = 1) keep two
 * passes: their second pass is one add an element, and the write-back in
 * pass 1 would make their A later.
 */
template <typename U, int K, int D, int RUN> __host__ __device__ constexpr bool folded()
{
    return K == 1 && D > 1 && slice_layout<U, D, RUN>::VEC;
}

/*
 * This warp's slice of tile `id` from global memory into its shared
 * buffer, coalesced (16-byte vectors where the whole slice exists and is
 * aligned); 0 past the end of the data.
 */
template <typename U, int D, int RUN = RUN_BYTES>
__device__ void load_slice(U *buf, const U *in, size_t n, unsigned int id, bool aligned)
{
    typedef shape<U, D, RUN> S;
    typedef slice_layout<U, D, RUN> L;
    typedef typename L::V V;
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t first = (size_t)id * S::TILE + (size_t)warp * S::SLICE;
    if (aligned && first + S::SLICE <= n) {
        constexpr int VECS = S::SLICE / L::PER;
        const V *src = reinterpret_cast<const V *>(in + first);
#pragma unroll
        for (int q = lane; q < VECS; q += 32) {
            const V v = src[q];
            if (L::VEC) {
                reinterpret_cast<V *>(buf)[L::chunk(q)] = v;
            } else {
                U e[L::PER];
                memcpy(e, &v, sizeof v);
#pragma unroll
                for (int k = 0; k < L::PER; k++)
                    buf[pad(q * L::PER + k)] = e[k];
            }
        }
    } else {
        for (unsigned int j = lane; j < S::SLICE; j += 32)
            buf[L::slot(j)] = first + j < n ? in[first + j] : U(0);
    }
    __syncwarp();
}

/* Chunk q of a slice plus its run's starting state (a folded decode):
 * the chunk's PER elements are components e0 % D ... of run q / RC, where
 * e0 is its first element in the run (D and PER are powers of two when
 * runs are whole chunks, so one of them divides the other).  The chunk's
 * base is found once, not an index per element as store_slice's
 * element-wise path takes it (many more instructions). */
template <typename U, int D, int RUN, typename V>
__device__ __forceinline__ V plus_start(V v, const U *starts, unsigned int q)
{
    typedef slice_layout<U, D, RUN> L;
    constexpr int N = D < L::PER ? D : L::PER; /* distinct components in a chunk */
    const unsigned int e0 = q % L::RC * L::PER;
    const U *st = starts + q / L::RC * D + e0 % D;
    U e[L::PER];
    memcpy(e, &v, sizeof v);
#pragma unroll
    for (int k = 0; k < L::PER; k++)
        e[k] += st[k % N];
    memcpy(&v, e, sizeof v);
    return v;
}

/* The reverse, for the elements that exist; with `starts` (a folded
 * decode), each element plus its run's starting state's component. */
template <typename U, int D, int RUN = RUN_BYTES>
__device__ void store_slice(const U *buf, U *out, size_t n, unsigned int id, bool aligned,
                            const U *starts = nullptr)
{
    typedef shape<U, D, RUN> S;
    typedef slice_layout<U, D, RUN> L;
    typedef typename L::V V;
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t first = (size_t)id * S::TILE + (size_t)warp * S::SLICE;
    __syncwarp();
    if (aligned && first + S::SLICE <= n) {
        constexpr int VECS = S::SLICE / L::PER;
        V *dst = reinterpret_cast<V *>(out + first);
#pragma unroll
        for (int q = lane; q < VECS; q += 32) {
            V v;
            if (L::VEC) {
                v = reinterpret_cast<const V *>(buf)[L::chunk(q)];
                if (starts)
                    v = plus_start<U, D, RUN>(v, starts, q);
            } else {
                U e[L::PER];
#pragma unroll
                for (int k = 0; k < L::PER; k++)
                    e[k] = buf[pad(q * L::PER + k)];
                memcpy(&v, e, sizeof v);
            }
            dst[q] = v;
        }
    } else {
        for (unsigned int j = lane; j < S::SLICE; j += 32)
            if (first + j < n)
                out[first + j] = buf[L::slot(j)] + (starts ? starts[j / S::R * D + j % S::R % D] : U(0));
    }
}

/* Elements i0 .. i0 + N - 1 of this lane's run from / into the warp's
 * shared buffer (i0 and N whole chunks in the 16-byte layout). */
template <typename U, int D, int RUN = RUN_BYTES, int N>
__device__ __forceinline__ void read_elems(const U *buf, int i0, U (&x)[N])
{
    typedef slice_layout<U, D, RUN> L;
    const unsigned int base = (threadIdx.x % 32) * L::R + i0;
    if (L::VEC) {
#pragma unroll
        for (int v = 0; v < N / L::PER; v++) {
            const typename L::V t = reinterpret_cast<const typename L::V *>(buf)[L::chunk(base / L::PER + v)];
            memcpy(&x[v * L::PER], &t, sizeof t);
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; i++)
            x[i] = buf[pad(base + i)];
    }
}
template <typename U, int D, int RUN = RUN_BYTES, int N>
__device__ __forceinline__ void write_elems(U *buf, int i0, const U (&x)[N])
{
    typedef slice_layout<U, D, RUN> L;
    const unsigned int base = (threadIdx.x % 32) * L::R + i0;
    if (L::VEC) {
#pragma unroll
        for (int v = 0; v < N / L::PER; v++) {
            typename L::V t;
            memcpy(&t, &x[v * L::PER], sizeof t);
            reinterpret_cast<typename L::V *>(buf)[L::chunk(base / L::PER + v)] = t;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; i++)
            buf[pad(base + i)] = x[i];
    }
}

/* This lane's whole run (the compaction keeps it in registers). */
template <typename U, int D, int R> __device__ void read_run(const U *buf, U (&x)[R])
{
    read_elems<U, D>(buf, 0, x);
}

/* A block's shared memory is dynamic: a tile of more than 8 warps (a
 * tuning shape) needs more than the 48 KiB a static array may have. */
extern __shared__ __align__(16) unsigned char block_smem_bytes[];
template <typename T> __device__ __forceinline__ T &block_smem()
{
    return *reinterpret_cast<T *>(block_smem_bytes);
}

/* ---- host side ------------------------------------------------------------ */


/* 16-byte vectors need 16-byte aligned data (cudaMalloc gives 256). */
static int aligned16(const void *a, const void *b)
{
    return (((uintptr_t)a | (uintptr_t)b) % 16) == 0;
}
/* Let `kernel` have `bytes` of dynamic shared memory: past the 48 KiB
 * every kernel may use, it must ask (the default shape never does). */
template <typename F> static cudaError_t allow_smem(F *kernel, size_t bytes)
{
    if (bytes <= SMEM_DEFAULT_LIMIT)
        return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}
#endif
