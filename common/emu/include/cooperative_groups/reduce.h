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
                          int line = __builtin_LINE()) -> decltype(op(val, val))
{
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
