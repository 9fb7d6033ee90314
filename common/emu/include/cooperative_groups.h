/*
 * cooperative_groups.h - CUDA's cooperative groups as the CPU emulator
 * (cuemu) provides them, written on its warp operations and barriers so
 * that the divergence diagnostics hold for groups too: a tile shuffle that
 * some lane of the tile never reaches is a divergent warp operation, named
 * with the caller's file and line.  The toolkit's header is never read.
 *
 * Provided: thread_group, thread_block, thread_block_tile<N> (N a power of
 * two up to 32) with tiled_partition<N>() and tiled_partition(g, n),
 * coalesced_group with coalesced_threads(), labeled_partition() and
 * binary_partition(), grid_group with this_grid() (sync() needs a
 * cudaLaunchCooperativeKernel launch), memcpy_async() and wait(), and
 * reduce / inclusive_scan / exclusive_scan (cooperative_groups/reduce.h,
 * scan.h) with plus, less, greater, bit_and, bit_or, bit_xor.  Tiles of
 * more than 32 threads are not provided (see common/emu/README.md).
 */
#ifndef CUEMU_COOPERATIVE_GROUPS_H
#define CUEMU_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

namespace cuemu {
/* grid_group::sync(): every thread of the grid waits (src/sched.cpp). */
void grid_sync(const char *file, int line);
/* Was the running grid launched with cudaLaunchCooperativeKernel? */
bool grid_is_cooperative();
/* A group operation the emulator cannot perform: a diagnostic. */
[[noreturn]] void trap(const char *what, const char *file, int line);
} // namespace cuemu

namespace cooperative_groups {

namespace details {
/* This thread's linear index in its block, and its lane in its warp. */
static inline unsigned block_rank()
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
static inline unsigned lane() { return block_rank() & 31u; }
/* The lane of the rank-th set bit of mask (ranks count from 0), or 32. */
static inline unsigned nth_lane(unsigned mask, unsigned rank)
{
    for (unsigned m = mask; m; m &= m - 1)
        if (rank-- == 0)
            return (unsigned)__builtin_ctz(m);
    return 32;
}
/* Lane mask of a tile of n lanes (a power of two) holding `lane`. */
static inline unsigned tile_mask(unsigned n, unsigned lane)
{
    return n >= 32 ? 0xffffffffu : ((1u << n) - 1) << (lane & ~(n - 1));
}
/* Shuffle of any trivially copyable type: 8 bytes per warp operation. */
template <class T>
static inline T shfl(unsigned mask, T v, int src, int width, const char *file, int line)
{
    static_assert(std::is_trivially_copyable<T>::value, "cooperative groups shuffle a trivially copyable type");
    if (sizeof(T) <= 8)
        return cuemu::from_bits<T>(cuemu::warp_op(cuemu::WARP_SHFL_IDX, mask, cuemu::to_bits(v), src, width, file, line));
    unsigned long long w[(sizeof(T) + 7) / 8] = {};
    std::memcpy(w, &v, sizeof(T));
    for (auto &x : w)
        x = cuemu::warp_op(cuemu::WARP_SHFL_IDX, mask, x, src, width, file, line);
    std::memcpy(&v, w, sizeof(T));
    return v;
}
template <class T>
static inline T shfl_kind(cuemu::WarpOp kind, unsigned mask, T v, int arg, int width,
                          const char *file, int line)
{
    static_assert(std::is_trivially_copyable<T>::value, "cooperative groups shuffle a trivially copyable type");
    unsigned long long w[(sizeof(T) + 7) / 8] = {};
    std::memcpy(w, &v, sizeof(T));
    for (auto &x : w)
        x = cuemu::warp_op(kind, mask, x, arg, width, file, line);
    std::memcpy(&v, w, sizeof(T));
    return v;
}
template <class T> static inline unsigned long long match_bits(T v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value, "match_any/match_all take a value of at most 8 bytes");
    return cuemu::to_bits(v);
}
enum Kind { BLOCK, TILE, COALESCED, GRID, MULTI_WARP };
/* A tile of more than one warp waits here (defined below). */
void multi_warp_sync(unsigned size, const char *file, int line);
} // namespace details

/* Any group, as a value (what tiled_partition(g, n) returns). */
class thread_group {
protected:
    details::Kind kind_;
    unsigned size_; /* threads of a tile or a coalesced group */
    unsigned mask_; /* its lanes in the warp */
    thread_group(details::Kind k, unsigned size, unsigned mask) : kind_(k), size_(size), mask_(mask) {}

public:
    unsigned long long size() const { return num_threads(); }
    unsigned long long num_threads() const
    {
        switch (kind_) {
        case details::BLOCK: return (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
        case details::GRID:
            return (unsigned long long)blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z;
        case details::TILE: case details::MULTI_WARP: return size_;
        default: return (unsigned)__builtin_popcount(mask_);
        }
    }
    unsigned long long thread_rank() const
    {
        unsigned r = details::block_rank();
        switch (kind_) {
        case details::BLOCK: return r;
        case details::GRID:
            return ((unsigned long long)(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) *
                       (blockDim.x * blockDim.y * blockDim.z) + r;
        case details::TILE: case details::MULTI_WARP: return r & (size_ - 1);
        default: return (unsigned)__builtin_popcount(mask_ & ((1u << (r & 31)) - 1));
        }
    }
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        switch (kind_) {
        case details::BLOCK: cuemu::block_sync(cuemu::BAR_PLAIN, 0, file, line); break;
        case details::GRID: cuemu::grid_sync(file, line); break;
        case details::MULTI_WARP: details::multi_warp_sync(size_, file, line); break;
        default: cuemu::warp_op(cuemu::WARP_SYNC, mask_, 0, 0, 32, file, line);
        }
    }
    unsigned get_type() const { return kind_; }
    /* The group's lanes in the warp (tiles of a warp and coalesced groups). */
    unsigned lanes() const { return mask_; }
    bool is_valid() const { return kind_ != details::GRID || cuemu::grid_is_cooperative(); }
};

class thread_block : public thread_group {
public:
    thread_block() : thread_group(details::BLOCK, 0, 0) {}
    static unsigned size() { return blockDim.x * blockDim.y * blockDim.z; }
    static unsigned num_threads() { return size(); }
    static unsigned thread_rank() { return details::block_rank(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
    static void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        cuemu::block_sync(cuemu::BAR_PLAIN, 0, file, line);
    }
};
static inline thread_block this_thread_block() { return thread_block(); }
/* Scratch for tiles of more than 32 threads, which the emulator does not
 * provide: accepted so that the error names the tile, not this type. */
template <unsigned MaxBlockSize = 1024, unsigned Unused = 0> struct block_tile_memory {
    char unused;
};
template <unsigned S, unsigned U>
static inline thread_block this_thread_block(block_tile_memory<S, U> &) { return thread_block(); }

class grid_group : public thread_group {
public:
    grid_group() : thread_group(details::GRID, 0, 0) {}
    unsigned long long size() const { return num_threads(); }
    unsigned long long num_threads() const { return thread_group::num_threads(); }
    unsigned long long thread_rank() const { return thread_group::thread_rank(); }
    unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    unsigned long long block_rank() const
    {
        return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 dim_blocks() const { return gridDim; }
    dim3 group_dim() const { return gridDim; }
    dim3 dim_threads() const { return blockDim; }
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        cuemu::grid_sync(file, line);
    }
};
static inline grid_group this_grid() { return grid_group(); }

/* Operations common to tiles and coalesced groups, on lanes_ of the warp. */
class coalesced_group : public thread_group {
public:
    explicit coalesced_group(unsigned mask) : thread_group(details::COALESCED, 0, mask) {}
    unsigned size() const { return (unsigned)__builtin_popcount(mask_); }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const { return (unsigned)thread_group::thread_rank(); }
    unsigned meta_group_rank() const { return 0; }
    unsigned meta_group_size() const { return 1; }
    /* Lane of a rank, or this lane's own where the rank is out of range. */
    unsigned lane_of(long rank) const
    {
        unsigned l = rank < 0 ? 32 : details::nth_lane(mask_, (unsigned)rank);
        return l < 32 ? l : details::lane();
    }
    template <class T>
    T shfl(T v, unsigned src_rank, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl(mask_, v, (int)lane_of(src_rank % size()), 32, file, line);
    }
    template <class T>
    T shfl_up(T v, unsigned d, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl(mask_, v, (int)lane_of((long)thread_rank() - d), 32, file, line);
    }
    template <class T>
    T shfl_down(T v, unsigned d, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl(mask_, v, (int)lane_of((long)thread_rank() + d), 32, file, line);
    }
    /* Lane bits packed into rank order, as for a group smaller than a warp. */
    unsigned pack(unsigned lanes) const
    {
        unsigned r = 0, i = 0;
        for (unsigned m = mask_; m; m &= m - 1, i++)
            if (lanes >> __builtin_ctz(m) & 1)
                r |= 1u << i;
        return r;
    }
    unsigned ballot(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return pack(__ballot_sync(mask_, p, file, line));
    }
    bool any(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __any_sync(mask_, p, file, line);
    }
    bool all(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __all_sync(mask_, p, file, line);
    }
    template <class T>
    unsigned match_any(T v, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return pack((unsigned)cuemu::warp_op(cuemu::WARP_MATCH_ANY, mask_, details::match_bits(v), 0, 32, file, line));
    }
    template <class T>
    unsigned match_all(T v, int &pred, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        unsigned long long r = cuemu::warp_op(cuemu::WARP_MATCH_ALL, mask_, details::match_bits(v), 0, 32, file, line);
        pred = (int)(r >> 32);
        return pack((unsigned)r);
    }
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        cuemu::warp_op(cuemu::WARP_SYNC, mask_, 0, 0, 32, file, line);
    }
};

/* The threads of the warp that execute this call together (see
 * __activemask in the README for which those are). */
static inline coalesced_group coalesced_threads(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return coalesced_group(cuemu::active_mask(file, line));
}

template <unsigned N, class Parent = void> class thread_block_tile;

namespace details {
/* Tiles of more than one warp meet through per-worker state (a worker runs
 * one block at a time, all its fibers on one OS thread): a generation
 * barrier per tile that polls with __nanosleep, and one 8-byte slot per
 * thread for shuffles and reductions. */
struct multi_warp_state {
    unsigned count[32], gen[32];      /* per tile: 16 of 64 threads, 8 of 128 ... 1 of 1024 */
    unsigned long long slot[5][1024]; /* per tile size: one per thread */
};
static inline multi_warp_state &multi_state()
{
    static thread_local multi_warp_state st;
    return st;
}
/* The slots of this thread's tile of `size` threads. */
static inline unsigned long long *multi_slots(unsigned size)
{
    unsigned k = (unsigned)__builtin_ctz(size) - 6;
    return multi_state().slot[k] + (block_rank() & ~(size - 1));
}
inline void multi_warp_sync(unsigned size, const char *file, int line)
{
    multi_warp_state &st = multi_state();
    unsigned first = block_rank() & ~(size - 1), threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned id = 32 - 2048 / size + block_rank() / size, g = st.gen[id];
    unsigned members = threads - first < size ? threads - first : size; /* a partial last tile */
    (void)file, (void)line;
    if (++st.count[id] == members) {
        st.count[id] = 0;
        st.gen[id] = g + 1;
        return;
    }
    while (st.gen[id] == g)
        cuemu::soft_yield();
}
} // namespace details

/* A tile of N threads, N a power of two from 64 to 1024: N / 32 whole
 * warps.  Collectives go through memory, as in CUDA (which needs a
 * block_tile_memory for them); values of at most 8 bytes. */
template <unsigned N> class multi_warp_tile : public thread_group {
    static_assert(N <= 1024 && (N & (N - 1)) == 0, "thread_block_tile<N>: N a power of two up to 1024");

public:
    static constexpr bool cuemu_multi_warp = true; /* found by cg::reduce */
    multi_warp_tile() : thread_group(details::MULTI_WARP, N, 0xffffffffu) {}
    static constexpr unsigned size() { return N; }
    static constexpr unsigned num_threads() { return N; }
    static unsigned thread_rank() { return details::block_rank() & (N - 1); }
    static unsigned meta_group_rank() { return details::block_rank() / N; }
    static unsigned meta_group_size() { return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N; }
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        details::multi_warp_sync(N, file, line);
    }
    /* Threads this tile really has (the last tile of a block may be partial). */
    static unsigned members()
    {
        unsigned first = details::block_rank() & ~(N - 1), threads = blockDim.x * blockDim.y * blockDim.z;
        return threads - first < N ? threads - first : N;
    }
    /* Every thread publishes v; returns the value of thread `src` of the tile. */
    template <class T>
    T shfl(T v, unsigned src, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        static_assert(sizeof(T) <= 8, "collectives of tiles larger than 32 threads take at most 8 bytes");
        unsigned long long *slot = details::multi_slots(N);
        std::memcpy(&slot[thread_rank()], &v, sizeof(T));
        sync(file, line);
        T r;
        std::memcpy(&r, &slot[src % N], sizeof(T));
        sync(file, line);
        return r;
    }
    bool any(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return reduce_bits(p != 0, file, line) > 0;
    }
    bool all(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return reduce_bits(p != 0, file, line) == members();
    }
    unsigned reduce_bits(unsigned p, const char *file, int line) const
    {
        unsigned long long *slot = details::multi_slots(N);
        slot[thread_rank()] = p;
        sync(file, line);
        unsigned c = 0;
        for (unsigned i = 0; i < members(); i++)
            c += (unsigned)slot[i];
        sync(file, line);
        return c;
    }
};

/* A tile of N threads (a power of two, at most a warp): lanes
 * [rank & ~(N-1), +N) of a warp. */
template <unsigned N> class thread_block_tile_base : public thread_group {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "thread_block_tile<N>: N a power of two");

public:
    thread_block_tile_base() : thread_group(details::TILE, N, details::tile_mask(N, details::lane())) {}
    static constexpr unsigned size() { return N; }
    static constexpr unsigned num_threads() { return N; }
    static unsigned thread_rank() { return details::block_rank() & (N - 1); }
    static unsigned meta_group_rank() { return details::block_rank() / N; }
    static unsigned meta_group_size() { return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N; }
    unsigned base() const { return details::lane() & ~(N - 1); }
    template <class T>
    T shfl(T v, int src, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl(mask_, v, src, (int)N, file, line);
    }
    template <class T>
    T shfl_up(T v, unsigned d, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl_kind(cuemu::WARP_SHFL_UP, mask_, v, (int)d, (int)N, file, line);
    }
    template <class T>
    T shfl_down(T v, unsigned d, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl_kind(cuemu::WARP_SHFL_DOWN, mask_, v, (int)d, (int)N, file, line);
    }
    template <class T>
    T shfl_xor(T v, unsigned m, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return details::shfl_kind(cuemu::WARP_SHFL_XOR, mask_, v, (int)m, (int)N, file, line);
    }
    unsigned ballot(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __ballot_sync(mask_, p, file, line) >> base();
    }
    bool any(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __any_sync(mask_, p, file, line);
    }
    bool all(int p, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return __all_sync(mask_, p, file, line);
    }
    template <class T>
    unsigned match_any(T v, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        return (unsigned)cuemu::warp_op(cuemu::WARP_MATCH_ANY, mask_, details::match_bits(v), 0, 32, file, line) >> base();
    }
    template <class T>
    unsigned match_all(T v, int &pred, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        unsigned long long r = cuemu::warp_op(cuemu::WARP_MATCH_ALL, mask_, details::match_bits(v), 0, 32, file, line);
        pred = (int)(r >> 32);
        return (unsigned)r >> base();
    }
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        cuemu::warp_op(cuemu::WARP_SYNC, mask_, 0, 0, 32, file, line);
    }
};

template <unsigned N, class Parent>
class thread_block_tile
    : public std::conditional_t<(N > 32), multi_warp_tile<N>, thread_block_tile_base<N>> {
public:
    thread_block_tile() {}
    /* A tile converts to a tile of the same size with another parent. */
    template <class P> thread_block_tile(const thread_block_tile<N, P> &) {}
};

/* Partitions.  Static: tiled_partition<N>(block or tile). */
template <unsigned N, class P> static inline thread_block_tile<N, P> tiled_partition(const P &)
{
    return thread_block_tile<N, P>();
}
/* Dynamic: tiled_partition(g, n) with n a power of two up to 32. */
namespace details {
struct dynamic_tile : thread_group {
    dynamic_tile(unsigned n, unsigned mask) : thread_group(TILE, n, mask) {}
};
/* The lanes of the n-thread tile of coalesced group c holding this thread. */
static inline unsigned coalesced_tile(const coalesced_group &c, unsigned n)
{
    unsigned r = c.thread_rank(), first = r & ~(n - 1), m = 0;
    for (unsigned k = first; k < first + n && k < c.size(); k++)
        m |= 1u << nth_lane(c.lanes(), k);
    return m;
}
static inline void check_tile(unsigned n, const char *file, int line)
{
    if (n == 0 || n > 32 || (n & (n - 1)))
        cuemu::trap("tiled_partition(g, n): the emulator supports n a power of two up to 32", file, line);
}
} // namespace details
static inline coalesced_group tiled_partition(const coalesced_group &parent, unsigned n,
                                              const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    details::check_tile(n, file, line);
    return coalesced_group(details::coalesced_tile(parent, n));
}
static inline thread_group tiled_partition(const thread_group &parent, unsigned n,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    details::check_tile(n, file, line);
    if (parent.get_type() == details::COALESCED)
        return coalesced_group(details::coalesced_tile(static_cast<const coalesced_group &>(parent), n));
    if (parent.get_type() == details::GRID)
        cuemu::trap("tiled_partition of a grid_group", file, line);
    if (parent.get_type() == details::TILE && n > parent.num_threads())
        cuemu::trap("tiled_partition(g, n) with n larger than the tile g", file, line);
    return details::dynamic_tile(n, details::tile_mask(n, details::lane()));
}
static inline thread_group tiled_partition(const thread_block &parent, unsigned n,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return tiled_partition(static_cast<const thread_group &>(parent), n, file, line);
}
/* The lanes of a group (tile or coalesced) holding the same label. */
template <class G, class L>
static inline coalesced_group labeled_partition(const G &g, L label, const char *file = __builtin_FILE(),
                                                int line = __builtin_LINE())
{
    return coalesced_group((unsigned)cuemu::warp_op(cuemu::WARP_MATCH_ANY, g.lanes(), details::match_bits(label), 0,
                                                    32, file, line));
}
template <class G>
static inline coalesced_group binary_partition(const G &g, bool pred, const char *file = __builtin_FILE(),
                                               int line = __builtin_LINE())
{
    unsigned yes = __ballot_sync(g.lanes(), pred, file, line);
    return coalesced_group(pred ? yes : g.lanes() & ~yes);
}

template <class G> static inline void sync(const G &g, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    g.sync(file, line);
}
template <class G> static inline auto thread_rank(const G &g) { return g.thread_rank(); }
template <class G> static inline auto group_size(const G &g) { return g.num_threads(); }
template <class G> static inline auto num_threads(const G &g) { return g.num_threads(); }

/* memcpy_async is performed at once, by the group's threads together;
 * wait() is then the group's barrier. */
template <class G>
static inline void memcpy_async(const G &g, void *dst, const void *src, size_t bytes)
{
    unsigned long long r = g.thread_rank(), n = g.num_threads();
    for (size_t i = r; i < bytes; i += n)
        ((char *)dst)[i] = ((const char *)src)[i];
}
template <class G, class T>
static inline void memcpy_async(const G &g, T *dst, const T *src, size_t bytes)
{
    memcpy_async(g, (void *)dst, (const void *)src, bytes);
}
template <class G> static inline void wait(const G &g, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    g.sync(file, line);
}
template <size_t Stages, class G>
static inline void wait_prior(const G &g, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    g.sync(file, line);
}

} // namespace cooperative_groups

#include "cooperative_groups/reduce.h"
#include "cooperative_groups/scan.h"

#endif
