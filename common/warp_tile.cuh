/*
 * warp_tile.cuh - a warp's slice of a section held in registers, scanned
 * without leaving them (given code for labs 5 and 6).
 *
 * Layout.  A warp owns a slice of 32 * Rows * VEC consecutive elements.
 * Lane l holds ROWS rows; row r is the VEC elements at VEC * (32 r + l) of
 * the slice.  So the 32 lanes of a row cover 32 * VEC consecutive elements:
 * each load and store of a row is one coalesced 512-byte access, 16 bytes
 * per lane, and no shared-memory transpose is needed.  The scan runs one
 * warp scan per row over the lanes' row totals; rows are combined in order
 * by a carry that every lane holds.
 *
 * These are the warp layer of a scan (CUB's vocabulary: thread, warp,
 * block, device).  The block layer (combining the slices' totals) and the
 * device layer (combining sections) are the labs' own business.
 */
#ifndef WARP_TILE_CUH
#define WARP_TILE_CUH

#include <stddef.h>

#define VEC 4 /* elements per 16-byte vector (4-byte element types) */
#define FULL_MASK 0xffffffffu

/* The 16-byte vector type of a 4-byte element type. */
template <typename T> struct vec4;
template <> struct vec4<int> { typedef int4 type; };
template <> struct vec4<float> { typedef float4 type; };

/* Inclusive scan across the lanes of a warp: at offset d each lane combines
 * the value d lanes below it, as in Kogge-Stone but in registers. */
template <typename T, typename Op> __device__ T warp_scan(T v)
{
    const Op op;
    const unsigned int lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned int offset = 1; offset < 32; offset *= 2) {
        T below = __shfl_up_sync(FULL_MASK, v, offset);
        if (lane >= offset)
            v = op(below, v);
    }
    return v;
}

/* Load this lane's Rows rows of a slice into x[].  `left` is how many
 * elements of the slice exist (the last slice may be partial: the identity
 * pads it); `vector` says the whole slice exists and is 16-byte aligned. */
template <typename T, typename Op, int Rows>
__device__ void load_slice(T (&x)[Rows * VEC], const T *slice, size_t left, bool vector)
{
    typedef typename vec4<T>::type V;
    const unsigned int lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned int r = 0; r < Rows; r++) {
        const unsigned int j = VEC * (32 * r + lane);
        if (vector) {
            const V q = reinterpret_cast<const V *>(slice)[32 * r + lane];
            x[VEC * r] = q.x, x[VEC * r + 1] = q.y, x[VEC * r + 2] = q.z, x[VEC * r + 3] = q.w;
        } else {
#pragma unroll
            for (unsigned int k = 0; k < VEC; k++)
                x[VEC * r + k] = j + k < left ? slice[j + k] : Op::identity();
        }
    }
}

/* Scan a slice without moving it: row_before[r] receives the combination
 * of every element of the slice before this lane's row r.  One warp scan
 * per row over the row totals; returns the slice's total in every lane. */
template <typename T, typename Op, int Rows>
__device__ T scan_slice(const T (&x)[Rows * VEC], T (&row_before)[Rows])
{
    const Op op;
    const unsigned int lane = threadIdx.x % 32;
    T carry = Op::identity(); /* total of the rows above */
#pragma unroll
    for (unsigned int r = 0; r < Rows; r++) {
        T row = x[VEC * r];
#pragma unroll
        for (unsigned int k = 1; k < VEC; k++)
            row = op(row, x[VEC * r + k]);
        const T inclusive = warp_scan<T, Op>(row);
        const T below = __shfl_up_sync(FULL_MASK, inclusive, 1);
        row_before[r] = lane == 0 ? carry : op(carry, below);
        carry = op(carry, __shfl_sync(FULL_MASK, inclusive, 31));
    }
    return carry;
}

/* Store this lane's rows of a slice, scanned: `prefix` combines everything
 * before the slice.  An exclusive scan stores each running value before
 * combining the element, an inclusive one after. */
template <typename T, typename Op, int Rows>
__device__ void store_slice(T *slice, size_t left, bool vector, const T (&x)[Rows * VEC],
                            const T (&row_before)[Rows], T prefix, int exclusive)
{
    typedef typename vec4<T>::type V;
    const Op op;
    const unsigned int lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned int r = 0; r < Rows; r++) {
        T y[VEC];
        T run = op(prefix, row_before[r]);
#pragma unroll
        for (unsigned int k = 0; k < VEC; k++) {
            const T next = op(run, x[VEC * r + k]);
            y[k] = exclusive ? run : next;
            run = next;
        }
        const unsigned int j = VEC * (32 * r + lane);
        if (vector) {
            V q;
            q.x = y[0], q.y = y[1], q.z = y[2], q.w = y[3];
            reinterpret_cast<V *>(slice)[32 * r + lane] = q;
        } else {
#pragma unroll
            for (unsigned int k = 0; k < VEC; k++)
                if (j + k < left)
                    slice[j + k] = y[k];
        }
    }
}

#endif /* WARP_TILE_CUH */
