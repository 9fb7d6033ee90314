/*
 * cooperative_groups/scan.h - cg::inclusive_scan and cg::exclusive_scan
 * over a tile of a warp or a coalesced group (cuemu).  The order of the
 * operations is CUDA's (a Kogge-Stone scan over the group's ranks), so a
 * float scan rounds as it does on a GPU, FMA contraction aside.
 */
#ifndef CUEMU_CG_SCAN_H
#define CUEMU_CG_SCAN_H

#include "../cooperative_groups.h"
#include "functional.h"

namespace cooperative_groups {
namespace details {
/* How a group's lanes lie in the warp: a tile is `width` contiguous lanes
 * (shuffles with that width); otherwise lanes are found by rank. */
struct lane_set {
    unsigned mask, width, rank, size;
    bool contiguous;
};
static inline lane_set lanes_of(const thread_group &g, const char *file, int line)
{
    if (g.get_type() == BLOCK || g.get_type() == GRID || g.get_type() == MULTI_WARP)
        cuemu::trap("cooperative-groups collective (reduce/scan) on a thread_block, a grid_group or "
                    "(scans) a tile of more than 32 threads: the emulator takes a tile of a warp or a "
                    "coalesced_group", file, line);
    lane_set s;
    s.mask = g.lanes();
    s.rank = (unsigned)g.thread_rank();
    s.size = (unsigned)g.num_threads();
    s.contiguous = g.get_type() == TILE || s.mask == 0xffffffffu;
    s.width = g.get_type() == TILE ? s.size : 32;
    return s;
}
/* The value of the lane `back` ranks below this one (own value if none). */
template <class T> static inline T from_rank_below(const lane_set &s, T v, unsigned back, const char *file, int line)
{
    if (s.contiguous)
        return shfl_kind(cuemu::WARP_SHFL_UP, s.mask, v, (int)back, (int)s.width, file, line);
    unsigned src = s.rank >= back ? nth_lane(s.mask, s.rank - back) : lane();
    return shfl(s.mask, v, (int)src, 32, file, line);
}
template <class G, class T, class Op>
static inline auto scan_inclusive(const G &g, T val, Op op, const char *file, int line) -> decltype(op(val, val))
{
    lane_set s = lanes_of(g, file, line);
    decltype(op(val, val)) out = val;
    for (unsigned i = 1; i < s.size; i <<= 1) {
        auto tmp = from_rank_below(s, out, i, file, line);
        if (i <= s.rank)
            out = op(out, tmp);
    }
    return out;
}
template <class Op, class T> struct is_integral_plus {
    static const bool value = std::is_same<Op, plus<T>>::value && std::is_integral<T>::value;
};
} // namespace details

template <class G, class T, class Op>
static inline auto inclusive_scan(const G &g, T val, Op op, const char *file = __builtin_FILE(),
                                  int line = __builtin_LINE()) -> decltype(op(val, val))
{
    return details::scan_inclusive(g, val, op, file, line);
}
template <class G, class T>
static inline T inclusive_scan(const G &g, T val, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return details::scan_inclusive(g, val, plus<T>(), file, line);
}
/* Rank 0 receives T() (CUDA's choice); an integer sum subtracts the own
 * value instead of shuffling, as CUDA does. */
template <class G, class T, class Op>
static inline auto exclusive_scan(const G &g, T val, Op op, const char *file = __builtin_FILE(),
                                  int line = __builtin_LINE()) -> decltype(op(val, val))
{
    auto inc = details::scan_inclusive(g, val, op, file, line);
    if (details::is_integral_plus<Op, T>::value)
        return inc - val;
    details::lane_set s = details::lanes_of(g, file, line);
    auto prev = details::from_rank_below(s, inc, 1, file, line);
    return s.rank == 0 ? decltype(inc)() : prev;
}
template <class G, class T>
static inline T exclusive_scan(const G &g, T val, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return exclusive_scan(g, val, plus<T>(), file, line);
}
} // namespace cooperative_groups

#endif
