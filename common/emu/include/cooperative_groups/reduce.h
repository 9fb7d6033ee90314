/*
 * cooperative_groups/reduce.h - cg::reduce over a tile of a warp or a
 * coalesced group (cuemu).  Every thread of the group receives the result.
 * The order of operations is CUDA's: an xor butterfly over a tile or a
 * full warp, an inclusive scan read from the last lane otherwise.
 */
#ifndef CUEMU_CG_REDUCE_H
#define CUEMU_CG_REDUCE_H

#include "../cooperative_groups.h"
#include "scan.h"

namespace cooperative_groups {
template <class G, class T, class Op>
static inline auto reduce(const G &g, T val, Op op, const char *file = __builtin_FILE(),
                          int line = __builtin_LINE()) -> decltype(op(val, val));

/* A tile of several warps: each warp reduces its part, then every thread
 * combines the warps' results in warp order. */
namespace details {
template <class G, class = void> struct is_multi_warp : std::false_type {};
template <class G> struct is_multi_warp<G, std::void_t<decltype(G::cuemu_multi_warp)>> : std::true_type {};

template <unsigned N, class T, class Op>
static inline auto reduce_multi(const multi_warp_tile<N> &g, T val, Op op, const char *file, int line)
    -> decltype(op(val, val))
{
    static_assert(sizeof(T) <= 8, "collectives of tiles larger than 32 threads take at most 8 bytes");
    thread_block_tile_base<32> warp;
    auto part = cooperative_groups::reduce(warp, val, op, file, line);
    unsigned long long *slot = details::multi_slots(N);
    if (warp.thread_rank() == 0)
        std::memcpy(&slot[g.thread_rank() / 32], &part, sizeof part);
    g.sync(file, line);
    decltype(part) out, w;
    std::memcpy(&out, &slot[0], sizeof out);
    for (unsigned i = 1; i < (g.members() + 31) / 32; i++) {
        std::memcpy(&w, &slot[i], sizeof w);
        out = op(out, w);
    }
    g.sync(file, line);
    return out;
}
} // namespace details

template <class G, class T, class Op>
static inline auto reduce(const G &g, T val, Op op, const char *file, int line) -> decltype(op(val, val))
{
    if constexpr (details::is_multi_warp<G>::value)
        return details::reduce_multi(g, val, op, file, line);
    details::lane_set s = details::lanes_of(g, file, line);
    decltype(op(val, val)) out = val;
    if (s.contiguous) {
        for (unsigned m = s.size >> 1; m > 0; m >>= 1)
            out = op(out, details::shfl_kind(cuemu::WARP_SHFL_XOR, s.mask, out, (int)m, (int)s.width, file, line));
        return out;
    }
    out = details::scan_inclusive(g, val, op, file, line);
    return details::shfl(s.mask, out, 31 - __builtin_clz(s.mask), 32, file, line);
}
} // namespace cooperative_groups

#endif
