#!/usr/bin/env python3
"""keys.py - the numbers of the answer keys (handouts/keys/labN-key.md), recomputed.

Each key marks a number it states with an HTML comment, <!-- check NAME VALUE -->,
invisible when rendered.  This script recomputes NAME by running the kit's
algorithm (the trees and scans simulated cell by cell, with the section sizes
read from the reference solutions) and compares.  An unknown NAME fails: a
check that cannot be computed is not a check.  Exit 0 when every one agrees.
"""
import functools
import math
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def define(lab_dir, name):
    """An integer #define of a reference solution (the kit's own constant): in its
    folder's files, then in the common/ headers they include (lab 7 keeps its tuning in
    common/sam_tuning.cuh)."""
    folder = os.path.join(TOP, "solutions", lab_dir)
    todo = [os.path.join(folder, f) for f in sorted(os.listdir(folder))]
    seen = set()
    while todo:
        path = todo.pop(0)
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        text = open(path).read()
        m = re.search(r"^#define %s (\d+)\b" % name, text, re.M)
        if m:
            return int(m.group(1))
        for inc in re.findall(r'^#include "([^"]+)"', text, re.M):
            todo.append(os.path.join(TOP, "common", inc))
    raise KeyError("%s not defined in solutions/%s" % (name, lab_dir))


def kogge_stone(values, op, steps_log=None):
    """Kogge-Stone on one section, as kogge_stone_scan: (result, combines)."""
    xy, n, combines, s = list(values), len(values), 0, 1
    while s < n:
        old = list(xy)  # both barriers: every read sees the previous step
        for t in range(s, n):
            xy[t] = op(old[t - s], old[t])
            combines += 1
        s *= 2
    return xy, combines


def ks_combines(section):
    return kogge_stone([0] * section, lambda a, b: a + b)[1]


def lab3_q1():
    section = define("lab3-scan-kogge-stone", "SECTION")
    total, s = 0, 1
    while s < section:
        total += sum(1 for w in range(section // 32) if 32 * w + 31 >= s)
        s *= 2
    return total


def lab3_q4():
    """Thread 3 reads xy[1] in step 2 before thread 1 wrote its step-1 value."""
    x = [2, 5, 1, 4, 7, 3, 0, 6, 8, 2, 5, 1, 3, 9, 4, 6]
    step1 = [x[0]] + [x[t - 1] + x[t] for t in range(1, 16)]
    return x[1] + step1[3]  # stale xy[1] (still the load) + thread 3's own new value


def interleaved_tree(threads, section):
    """lab 1's tree: (strides run, largest partial[] index read, combines)."""
    strides, top, combines, s = [], 0, 0, 1
    while s <= threads:
        strides.append(s)
        for t in range(0, threads, s):
            top = max(top, 2 * t + s)
            combines += 1
        s *= 2
    return strides, top, combines


def lab1_q7():
    threads = define("lab1-reduce-naive", "BLOCK_THREADS")
    total, s = 0, 1
    while s <= threads:
        active = threads // s
        total += math.ceil(active / 32)
        s *= 2
    return total


def lab1_q5(part):
    section = define("lab1-reduce-naive", "BLOCK_THREADS") * 2
    n = 300007
    k = int(math.log2(section)) + math.ceil(n / section)
    u = 2.0 ** -24
    gamma = k * u / (1 - k * u)
    mean_abs = (0.25 ** 2 / 2 + 1 ** 2 / 2) / 1.25
    return {"k": k, "gamma": gamma, "bound": gamma * n * mean_abs}[part]


def brent_kung(values, op):
    """brent_kung_scan on one section, n / 2 threads: (after reduction, result, ops,
    ops per step)."""
    xy, n, ops, steps = list(values), len(values), 0, []
    threads, s = n // 2, 1
    while s <= threads:
        k = 0
        for t in range(threads):
            i = (t + 1) * 2 * s - 1
            if i < n:
                xy[i] = op(xy[i - s], xy[i])
                k += 1
        steps.append(k)
        s *= 2
    after = list(xy)
    s = n // 4
    while s > 0:
        k = 0
        for t in range(threads):
            i = (t + 1) * 2 * s - 1
            if i + s < n:
                xy[i + s] = op(xy[i], xy[i + s])
                k += 1
        steps.append(k)
        s //= 2
    return after, xy, sum(steps), steps


def ks_steps(section):
    steps, s = [], 1
    while s < section:
        steps.append(section - s)
        s *= 2
    return steps


def rounds(steps, p):
    return sum(-(-m // p) for m in steps)


def conflict(coarsen):
    """Most lanes of a warp on one bank when lane t touches word coarsen * t."""
    banks = [0] * 32
    for lane in range(32):
        banks[(coarsen * lane) % 32] += 1
    return max(banks)


def three_phase_barriers():
    """__syncthreads() per section of three_phase_scan: after the load, in
    block_scan (2 per Kogge-Stone step and one after), before the store."""
    threads = define("lab4-scan-brent-kung", "CHUNK_THREADS")
    return 1 + 2 * int(math.log2(threads)) + 1 + 1


def lab4():
    add = lambda a, b: a + b
    hand = [4, 6, 7, 1, 2, 8, 5, 2]
    after, result, ops, _ = brent_kung(hand, add)
    bk1024 = brent_kung([0] * 1024, add)[3]
    ks1024 = ks_steps(1024)
    threads = define("lab4-scan-brent-kung", "CHUNK_THREADS")
    coarsen = define("lab4-scan-brent-kung", "COARSEN")
    out = {
        "lab4.q1.reduction": sum(brent_kung([0] * 2048, add)[3][:11]),
        "lab4.q1.distribution": sum(brent_kung([0] * 2048, add)[3][11:]),
        "lab4.q1.total": brent_kung([0] * 2048, add)[2],
        "lab4.q2.after_reduction": after,
        "lab4.q2.result": result,
        "lab4.q2.ops": ops,
        "lab4.q2.ks_ops": kogge_stone(hand, add)[1],
        "lab4.q7.ks_ops_256": ks_combines(threads),
        "lab4.q7.barriers": 2 * int(math.log2(threads)) + 1,
        "lab4.q7.bk_ops_256": brent_kung([0] * 256, add)[2],
        "lab4.q8.barriers": three_phase_barriers(),
        "lab4.q9.bk_depth": int(math.log2(define("lab4-scan-brent-kung", "BLOCK_THREADS") * 2)),
        "lab4.q9.three_phase_depth": (coarsen - 1) + int(math.log2(threads)) + 1,
    }
    for p in (256, 512, 1024):
        out["lab4.q4.ks_%d" % p] = rounds(ks1024, p)
        out["lab4.q4.bk_%d" % p] = rounds(bk1024, p)
    for c in (4, 7, 8, 9, 16):
        out["lab4.q6.conflict_%d" % c] = conflict(c)
    for c in (4, 8, 16):
        out["lab4.q8.smem_%d" % c] = 4 * (threads * c + threads)
    return out


def lab2_table():
    """Section 2.2: warps with an active thread, and divergent warps, per mapping."""
    threads = 1024
    out = {"iw": 0, "id": 0, "cw": 0, "cd": 0}
    for step in range(11):
        s_int, s_conv = 2 ** step, 1024 >> step
        for key, active in (("i", lambda t: t % s_int == 0), ("c", lambda t: t < s_conv)):
            for w in range(threads // 32):
                lanes = sum(1 for t in range(32 * w, 32 * w + 32) if active(t))
                out[key + "w"] += lanes > 0
                out[key + "d"] += 0 < lanes < 32
    return out


def lab2_strings():
    x = list("abcdefgh")
    cat = lambda a, b: a + b
    conv = list(x)
    s = 4
    while s >= 1:  # stage 1: threads t < stride combine t and t + stride
        for t in range(s):
            conv[t] = cat(conv[t], conv[t + s])
        s //= 2
    inter = list(x)
    s = 1
    while s <= 4:  # lab 1: threads t % stride == 0 combine 2t and 2t + stride
        for t in range(0, 4, s):
            inter[2 * t] = cat(inter[2 * t], inter[2 * t + s])
        s *= 2
    loads = define("lab2-reduce-convergent", "LOADS_IN_FLIGHT")
    acc = ["", ""]  # stage 2, one block of 2 threads: loads t, t + 2, t + 4, ...
    for t in range(2):
        for k in range(loads):
            acc[t] += x[t + 2 * k]
    return conv[0], inter[0], acc[0] + acc[1]


def coarse_grid(n, sms):
    per_block = define("lab2-reduce-convergent", "COARSE_THREADS") * \
        define("lab2-reduce-convergent", "LOADS_IN_FLIGHT")
    return min(-(-n // per_block), sms * define("lab2-reduce-convergent", "BLOCKS_PER_SM"))


def coarsened_depth(n, sms):
    """Most additions an input goes through in reduce_coarsened: the thread's
    folds (the solution's two loops), the block tree and warp, the atomics."""
    threads = define("lab2-reduce-convergent", "COARSE_THREADS")
    loads = define("lab2-reduce-convergent", "LOADS_IN_FLIGHT")
    blocks = coarse_grid(n, sms)
    tile, step, most = threads * loads, blocks * threads * loads, 0
    for b in range(blocks):
        for t in (0, threads - 1):  # the extremes of a block
            i, k = b * tile + t, 0
            while i + (loads - 1) * threads < n:
                k += loads
                i += step
            while i < n:
                k += 1
                i += threads
            most = max(most, k)
    tree = int(math.log2(threads // 2)) - int(math.log2(32)) + 1 + 5
    return most + tree + blocks


def lab2():
    t = lab2_table()
    conv, inter, grid = lab2_strings()
    threads = define("lab2-reduce-convergent", "COARSE_THREADS")
    h200 = 132  # SMs of the H200 (the question's figure)
    blocks = coarse_grid(2 ** 28, h200)
    return {
        "lab2.q1.interleaved_warps": t["iw"], "lab2.q1.interleaved_divergent": t["id"],
        "lab2.q1.convergent_warps": t["cw"], "lab2.q1.convergent_divergent": t["cd"],
        "lab2.q2.convergent": conv, "lab2.q2.interleaved": inter, "lab2.q2.grid_stride": grid,
        "lab2.q3.blocks_1": coarse_grid(1, h200),
        "lab2.q3.blocks_1000003": coarse_grid(1000003, h200),
        "lab2.q3.blocks_2_28": blocks,
        "lab2.q3.per_thread_2_28": round(2 ** 28 / (blocks * threads)),
        "lab2.q8.blocks_stage1": 2 ** 28 // (2 * define("lab2-reduce-convergent", "BLOCK_THREADS")),
        "lab2.q8.barriers_stage2": int(math.log2(threads // 2)) - int(math.log2(32)) + 1,
        "lab2.q10.depth_h200": coarsened_depth(300007, h200),
        "lab2.q10.depth_emu2": coarsened_depth(300007, 2),
    }


# ---- labs 5 to 7 -----------------------------------------------------------------

LAB5, LAB6, LAB7 = "lab5-scan-hierarchical", "lab6-scan-single-pass", "lab7-scan-at-work"


def common_define(name, header="warp_tile.cuh"):
    """An integer #define of the kit's common/ (VEC, the 16-byte row of labs 5-6)."""
    text = open(os.path.join(TOP, "common", header)).read()
    return int(re.search(r"^#define %s (\d+)\b" % name, text, re.M).group(1))


def lab5_section():
    """scan_sections' SECTION: BLOCK_THREADS * ROWS * VEC."""
    return define(LAB5, "BLOCK_THREADS") * define(LAB5, "ROWS") * common_define("VEC")


def levels(n, section):
    """Levels of scan_any: one, then one more while S is longer than a section."""
    return 1 if n <= section else 1 + levels(-(-n // section), section)


def scan_any_kernels(n, section):
    """The launches of scan_any, in order: [(kernel, blocks)]."""
    sections = -(-n // section)
    if sections <= 1:
        return [("scan_sections", 1)]
    return ([("scan_sections", sections)] + scan_any_kernels(sections, section) +
            [("add_section_prefix", sections - 1)])


def scan_any_traffic(n, section):
    """Elements scan_any reads and writes: the section scan (n in, n out, S out),
    the recursion on S, the add (S[b] once a block, n - section in and out)."""
    sections = -(-n // section)
    if sections <= 1:
        return 2 * n
    return 2 * n + sections + scan_any_traffic(sections, section) + (sections - 1) + 2 * (n - section)


def rts_traffic(n, section):
    """Elements reduce_then_scan moves: reduce (n in, S out), scan_any(S), the
    second scan (n in, n out, one carry a block but block 0)."""
    sections = -(-n // section)
    return n + sections + scan_any_traffic(sections, section) + 2 * n + (sections - 1)


def warp_scan_combines():
    """Lanes that combine in warp_scan's five steps: lane >= offset."""
    return sum(1 for d in (1, 2, 4, 8, 16) for lane in range(32) if lane >= d)


def lab5_combines_per_element():
    """op() calls per element of scan_sections as written: per lane and row 3
    (row total), the warp scan, row_before (lanes 1-31), the carry; phase 2's
    loop (WARPS + 1 per thread); per row 1 + VEC at the store."""
    rows, vec = define(LAB5, "ROWS"), common_define("VEC")
    threads = define(LAB5, "BLOCK_THREADS")
    per_row_warp = (vec - 1) * 32 + warp_scan_combines() + 31 + 32
    per_thread = rows * per_row_warp / 32 + (threads // 32 + 1) + rows * (1 + vec)
    return per_thread / (rows * vec)


def warp_scan_depth(v):
    """Longest chain of combines per lane after warp_scan, from depths v."""
    for d in (1, 2, 4, 8, 16):
        v = [max(v[l - d], v[l]) + 1 if l >= d else v[l] for l in range(32)]
    return v


def section_depths(rows, warps, vec=4):
    """Longest chain of combines behind each output of one section (lab 5's
    scan_sections, lab 6's tile): scan_slice, the warps before, store_slice;
    combines with the identity counted too.  (depths, depth of the total)."""
    carry, rb = 0, [[0] * rows for _ in range(32)]
    for r in range(rows):
        incl = warp_scan_depth([vec - 1] * 32)
        for lane in range(32):
            rb[lane][r] = carry if lane == 0 else max(carry, incl[lane - 1]) + 1
        carry = max(carry, incl[31]) + 1
    out = []
    for w in range(warps):
        before = (carry + w if w else 0) + 1  # the slices below, then the prefix
        part = [0] * (32 * rows * vec)
        for lane in range(32):
            for r in range(rows):
                run = max(before, rb[lane][r]) + 1
                for k in range(vec):
                    run += 1
                    part[vec * (32 * r + lane) + k] = run
        out += part
    return out, carry + warps


def lab5_depth(n):
    """Two levels: an element of section b + 1 takes max(its own chain, S[b]'s)
    plus the add; S[b] is a section total scanned at position b.
    (deepest, the sections that reach it, the last element's)."""
    section = lab5_section()
    depth, total = section_depths(define(LAB5, "ROWS"), define(LAB5, "BLOCK_THREADS") // 32)
    sections = -(-n // section)
    per = {b + 1: max(max(depth), total + depth[b]) + 1 for b in range(sections - 1)}
    deepest = max(per.values())
    return deepest, [s for s in per if per[s] == deepest], per[sections - 1]


def carry_op(lo, hi):
    """Carry look-ahead: the lower group (g1, p1), then the higher (g2, p2)."""
    return (hi[0] | (hi[1] & lo[0]), hi[1] & lo[1])


def butterfly(lanes):
    """Lane 0's order after v = op(v, shfl_xor(v, off)), off = len/2 .. 1."""
    if len(lanes) == 1:
        return list(lanes[0])
    half = len(lanes) // 2
    return butterfly([a + b for a, b in zip(lanes[:half], lanes[half:])])


def lab5():
    """Lab 5's checks: sections, levels, launches, traffic, counts, depths."""
    section = lab5_section()
    g, k, p = (1, 0), (0, 0), (0, 1)
    x = [p, k, p, p, g, p, p, p]
    fold = lambda seq: functools.reduce(carry_op, seq, (0, 1))
    order = butterfly([[t, t + 4] for t in range(4)])
    deepest, sections, last = lab5_depth(300007)
    u = 2.0 ** -24
    kk = 2 * math.ceil(math.log2(300007)) + 17
    return {
        "lab5.section": section,
        "lab5.q1.bk_section": 2 * define("lab4-scan-brent-kung", "BLOCK_THREADS"),
        "lab5.q2.warp_scan": warp_scan_combines(),
        "lab5.q2.per_element": lab5_combines_per_element(),
        "lab5.q2.total": (lab5_combines_per_element() + 1) * section / (section - 1),
        "lab5.q3.a": section ** 2,
        "lab5.q3.b": (2 * define("lab4-scan-brent-kung", "BLOCK_THREADS")) ** 2,
        "lab5.q3.c": (1024 * 8) ** 2,
        "lab5.q3.levels_2_30": levels(2 ** 30, section),
        "lab5.q3.levels_2_40": levels(2 ** 40, section),
        "lab5.q3.kernels_2_40": 2 * levels(2 ** 40, section) - 1,
        "lab5.q4.sections_pass": -(-(2 ** 22 + 1) // section),
        "lab5.q4.sections_fail": -(-(2 ** 22 + 2049) // section),
        "lab5.q4.first_wrong": (section + 1) * section,
        "lab5.q4.wrong": 2 ** 22 + 2049 - (section + 1) * section,
        "lab5.q5.grids": [b for _, b in scan_any_kernels(2 ** 26, section)],
        "lab5.q5.extra_hier": scan_any_traffic(2 ** 26, section) - 4 * 2 ** 26,
        "lab5.q5.extra_rts": rts_traffic(2 ** 26, section) - 3 * 2 ** 26,
        "lab5.q5.six_over": 6 * 2 ** 26 // section,
        "lab5.q6.kernels_2_16": len(scan_any_kernels(2 ** 16, section)),
        "lab5.q6.s_blocks_2_24": [b for _, b in scan_any_kernels(2 ** 24, section)][1:4],
        "lab5.q7.reads": (2 ** 26 // section) * (2 ** 26 // section - 1) // 2,
        "lab5.q8.in_order": list(fold(x)),
        "lab5.q8.kernel_order": list(fold([x[i] for i in order])),
        "lab5.q9.k": kk,
        "lab5.q9.gamma": kk * u / (1 - kk * u),
        "lab5.q9.bound": kk * u / (1 - kk * u) * 300007 * (0.25 ** 2 / 2 + 1 / 2) / 1.25,
        "lab5.q9.depth": deepest,
        "lab5.q9.deepest_sections": sections,
        "lab5.q9.depth_last": last,
        "lab5.q10.section": define(LAB5, "BLOCK_THREADS") * 4 * common_define("VEC"),
        "lab5.q10.levels_2_26": levels(2 ** 26, define(LAB5, "BLOCK_THREADS") * 16),
        "lab5.q11.order": order,
    }


def lab6_tile():
    """single_pass_scan's TILE: TILE_THREADS * ROWS * VEC."""
    return define(LAB6, "TILE_THREADS") * define(LAB6, "ROWS") * common_define("VEC")


def state_bytes(tiles, stage):
    """run_stage's memset: 16 bytes, then a descriptor (8 bytes) per tile, or a
    flag and a prefix (4 + 4) for the chained stage."""
    return 16 + tiles * (8 if stage == "lookback" else 2 * 4)


def blocks_per_sm(regs, threads, regs_sm=65536, threads_sm=2048, unit=8):
    """Resident blocks when registers decide: a thread's count rounded up to unit."""
    per_thread = -(-regs // unit) * unit
    return min(regs_sm // (per_thread * threads), threads_sm // threads)


def tile_life_us(tile, blocks, sms=132, gbps=2997):
    """Little's law on tiles: resident tiles / tiles finished per us at gbps."""
    per_us = gbps * 1e3 / (8 * tile)  # a tile reads and writes 4 * tile bytes
    return sms * blocks / per_us


def lab6_depth_stage2(n):
    """Longest chain into the last tile's last output, serial look-back walking
    every predecessor down to tile 0: an aggregate (slice total, five-step
    butterfly over the warps), one fold per predecessor, then the store path."""
    rows, warps = define(LAB6, "ROWS"), define(LAB6, "TILE_THREADS") // 32
    depth, _ = section_depths(rows, warps)
    slice_total = section_depths(rows, 1)[1] - 1
    aggregate = slice_total + 5
    preds = -(-n // lab6_tile()) - 1
    return max(max(depth), aggregate + preds + 1 + 1 + common_define("VEC"))


def lab6():
    """Lab 6's checks: tiles, state bytes, hops, blocks per SM, tile lives."""
    tile, tiles = lab6_tile(), 2 ** 28 // lab6_tile()
    threads = define(LAB6, "TILE_THREADS")
    hop_us = 1.12  # section 3.5: the H100's chained time per tile (perf-notes)
    out = {
        "lab6.tile": tile,
        "lab6.q1.tiles": tiles,
        "lab6.q1.bytes": state_bytes(tiles, "lookback"),
        "lab6.q1.bytes_chained": state_bytes(tiles, "chained"),
        "lab6.q1.fraction": state_bytes(tiles, "lookback") / (8 * 2 ** 28),
        "lab6.q1.hop_h100": 36.6635e3 / tiles,
        "lab6.q1.hop_h100_2_24": 2.2963e3 / (2 ** 24 // tile),
        "lab6.q1.tiles_2_30": 2 ** 30 // tile,
        "lab6.q1.ms_2_30": 2 ** 30 // tile * hop_us / 1e3,
        "lab6.q1.ms_16k": 2 ** 28 // 16384 * hop_us / 1e3,
        "lab6.q2.resident": 132 * blocks_per_sm(64, threads),
        "lab6.q4.epoch_bits": 32 - math.ceil(math.log2(3)),
        "lab6.q7.tiles": -(-1000003 // tile),
        "lab6.q7.k": int(math.log2(4096)) + -(-1000003 // 4096) + 32,
        "lab6.q7.tile_depth": max(section_depths(define(LAB6, "ROWS"), threads // 32)[0]),
        "lab6.q7.depth_stage2": lab6_depth_stage2(1000003),
        "lab6.q9.per_sm": 3.0e12 * 1e-6 / 132,
    }
    for rows, regs in ((3, 39), (4, 47), (8, 64)):
        t, b = threads * rows * common_define("VEC"), blocks_per_sm(regs, threads)
        out["lab6.q9.blocks_%d" % rows] = b
        out["lab6.q9.kib_%d" % rows] = b * 4 * t // 1024
        out["lab6.q9.life_%d" % rows] = tile_life_us(t, b)
    return out


def lab7_shape(size, d):
    """shape<U, D>: a run of RUN_BYTES cut to whole d-records, slice, tile."""
    run = define(LAB7, "RUN_BYTES") // size // d * d
    return run, 32 * run, define(LAB7, "TILE_THREADS") // 32 * 32 * run


def decode_run(x, carries, d=1):
    """decode_run: per order, a prefix sum of stride d from that order's carries;
    the run's last d values of each order are the state after it."""
    x, state = list(x), []
    for carry in carries:
        x = [v + (carry[i] if i < d else 0) for i, v in enumerate(x)]
        for i in range(d, len(x)):
            x[i] += x[i - d]
        state.append(x[-d:])
    return x, state


def advance(b, s, a):
    """advance: r[j] = a[j] + sum over e <= j of B[e] * s[j - e] (one component)."""
    return [a[j] + sum(b[e] * s[j - e] for e in range(j + 1)) for j in range(len(a))]


def lab7_q4():
    """Order 2, two runs of two ones: each run's a, and advance over both."""
    zero = [[0], [0]]
    a = [v[0] for v in decode_run([1, 1], zero)[1]]
    b = [math.comb(2 - 1 + e, e) for e in range(2)]  # B_L, L = 2
    both = advance(b, a, a)
    assert both == [v[0] for v in decode_run([1, 1, 1, 1], zero)[1]]
    return a, b, both


def bank_ways(run):
    """Most lanes on one bank when lane l reads word pad(l * run + i)."""
    pad = lambda j: j + j // 32
    worst = 0
    for i in range(run):
        banks = [0] * 32
        for lane in range(32):
            banks[pad(lane * run + i) % 32] += 1
        worst = max(worst, max(banks))
    return worst


def three_step_sector_bytes(s):
    """Bytes per int32 element of compact-3step when the scatter's reads of pos[]
    and in[] cost a whole 32-byte sector wherever one of its 8 elements is kept
    (kept elements independent, as in wide data)."""
    touched = 1 - (1 - s) ** 8
    return 8 + 12 + 4 + 2 * 4 * touched + 4 * s  # step 2 (scan_given) reads the flags twice


def decode_ops(order, lanes=32, run=32):
    """Integer operations per element of an order-k decode: 2 passes of one add
    per element and order; the warp scan (5 steps of k shuffles and k(k+1)/2
    multiply-adds a thread); run_start (one move by the lane's row of B, k adds)."""
    move = order * (order + 1) // 2
    scan = 5 * (move + order)
    start = move + order
    return 2 * order + (scan + start) / run


def lab7_state_bytes(tiles, order, d, size):
    """fresh_state: a 16-byte tile counter, then per tile a descriptor of
    words = order * D * (element bytes / 4) 64-bit words."""
    return 16 + tiles * order * d * (size // 4) * 8


def lab7():
    """Lab 7's checks: shapes, blocks per SM, traffic models, the carry rule, state bytes."""
    r3, _, tile3 = lab7_shape(4, 3)
    _, _, tile1 = lab7_shape(4, 1)
    _, _, tile64 = lab7_shape(8, 1)
    threads = define(LAB7, "TILE_THREADS")
    minb32 = {define(LAB7, m) for m in ("MINB_ORDERS", "MINB_TUPLES", "MINB_PLAIN")}
    assert len(minb32) == 1, "the key says one bound for every int32 kernel"
    a, b, both = lab7_q4()
    tiles8 = -(-2 ** 28 // lab7_shape(4, 8)[2])
    return {
        "lab7.tile": tile1,
        "lab7.warps": threads // 32,
        "lab7.minb_int32": min(minb32),
        "lab7.regs_int32": 65536 // (min(minb32) * threads),
        "lab7.minb_int64_orders": define(LAB7, "MINB_WIDE_ORDERS"),
        "lab7.q1.bytes_3step": 28 + 8 * 0.25,
        "lab7.q1.bytes_fused": 4 + 4 * 0.25,
        "lab7.q1.ratio": (28 + 8 * 0.25) / (4 + 4 * 0.25),
        "lab7.q1.ratio_ones": (28 + 8) / (4 + 4),
        # both with the earlier step 2 (the order-1 decode kernel), not scan_given
        "lab7.q1.measured": 2.7103 / 0.4276,  # H200, 2026-11-28, scan_given
        "lab7.q1.measured_positive": 2.7816 / 0.4876,
        "lab7.q1.measured_h100": 3.0515 / 0.5096,  # H100, 2026-11-24, tiles of 16384
        "lab7.q1.sector_bytes": three_step_sector_bytes(0.25),
        "lab7.q1.sector_ratio": three_step_sector_bytes(0.25) / (4 + 4 * 0.25),
        "lab7.q2.write_bytes": 4 * 2 ** 28 // 4,
        "lab7.q2.state_bytes": lab7_state_bytes(-(-2 ** 28 // tile1), 1, 1, 4),
        "lab7.q3.budget": 132 * 64 * 1.98e9 * 0.508e-3 / 2 ** 28,
        "lab7.q3.ops_1": decode_ops(1),
        "lab7.q3.ops_2": decode_ops(2),
        "lab7.q3.ops_8": decode_ops(8),
        "lab7.q3.ratio_h100": 1.1195 / 0.7370,  # H100, 2026-11-24, tiles of 16384
        "lab7.q4.a": a,
        "lab7.q4.b": b,
        "lab7.q4.both": both,
        "lab7.q5.run": r3,
        "lab7.q5.tile": tile3,
        "lab7.q5.vectors": 32 * r3 // 4,
        "lab7.q5.tiles_2_28": -(-2 ** 28 // tile3),
        "lab7.q5.banks": bank_ways(r3),
        "lab7.q6.tiles_int64": 2 ** 27 // tile64,
        "lab7.q6.tiles_int32": 2 ** 28 // tile1,
        "lab7.q6.words_int64_order8": 8 * 1 * 2,
        "lab7.q6.per_element_order1": 2 * 0.7660 / 0.7370,  # H100, 2026-11-24
        "lab7.q6.per_byte_order8": 2.9329 / 1.1195,  # H100, 2026-11-24
        "lab7.q7.words_one_pass": 8 * 8 * (4 // 4),
        "lab7.q7.one_pass_bytes": lab7_state_bytes(tiles8, 8, 8, 4),
        "lab7.q7.pass_bytes": lab7_state_bytes(tiles8, 1, 8, 4),
        "lab7.q7.passes_bytes": 8 * lab7_state_bytes(tiles8, 1, 8, 4),
        "lab7.q7.int64_desc_bytes": 8 * 8 * (8 // 4) * 8,
        "lab7.q7.int64_tile_bytes": lab7_shape(8, 8)[2] * 8,
    }


def divergent(threads, strides, cond):
    """Warp-level executions of `if (cond(t, stride))`, one per stride, in
    which the lanes of a warp disagree (the emulator's divergent branches),
    plus the final `if (t == 0)` that splits warp 0."""
    split = 0
    for stride in strides:
        for w in range(0, threads, 32):
            taken = {cond(t, stride) for t in range(w, min(w + 32, threads))}
            split += len(taken) == 2
    return split + 1


def padded_ways(coarsen):
    """Wavefronts of lane t reading word coarsen * t with a pad word per 32."""
    banks = {}
    for lane in range(32):
        w = coarsen * lane
        banks.setdefault((w + w // 32) % 32, set()).add(w)
    return max(len(v) for v in banks.values())


def counted():
    """The emulator's counts the keys quote (labs 1-4, question on make profile)."""
    t1 = define("lab1-reduce-naive", "BLOCK_THREADS")
    t2 = define("lab2-reduce-convergent", "BLOCK_THREADS")
    c2 = define("lab2-reduce-convergent", "COARSE_THREADS")
    coarsen = define("lab4-scan-brent-kung", "COARSEN")
    up = [2 ** k for k in range(int(math.log2(t1)) + 1)]
    down = [t2 >> k for k in range(int(math.log2(t2)) + 1)]
    coarse = [c2 // 2 >> k for k in range(int(math.log2(c2 // 64)) + 1)]
    return {
        "lab1.q9.divergent_per_block": divergent(t1, up, lambda t, s: t % s == 0),
        "lab1.q9.convergent_per_block": divergent(t2, down, lambda t, s: t < s),
        "lab2.q11.convergent": divergent(t2, down, lambda t, s: t < s),
        "lab2.q11.coarsened": divergent(c2, coarse + [32], lambda t, s: t < s),
        "lab2.q11.coarsened_barriers": len(coarse),
        "lab3.q11.barriers": 2 * int(math.log2(define("lab3-scan-kogge-stone", "SECTION"))),
        "lab3.q11.stride2": conflict(2),
        "lab4.q10.ways": conflict(coarsen),
        "lab4.q10.padded": padded_ways(coarsen),
    }


def checks():
    """NAME -> value, computed."""
    add = lambda a, b: a + b
    section3 = define("lab3-scan-kogge-stone", "SECTION")
    threads1 = define("lab1-reduce-naive", "BLOCK_THREADS")
    section1 = 2 * threads1
    hand = [4, 6, 7, 1, 2, 8, 5, 2]
    strides384, top384, _ = interleaved_tree(384, 768)
    _, _, tree_combines = interleaved_tree(threads1, section1)
    blocks = 2 ** 20 // section1
    return {
        "lab3.q1.active_warp_steps": lab3_q1(),
        "lab3.q2.combines_2048": ks_combines(2048),
        "lab3.q2.combines_1000003": math.ceil(1000003 / section3) * ks_combines(section3),
        "lab3.q3.inclusive": kogge_stone(hand, add)[0],
        "lab3.q3.max": kogge_stone(hand, max)[0],
        "lab3.q3.exclusive": kogge_stone([0] + hand[:-1], add)[0],
        "lab3.q4.stale_out3": lab3_q4(),
        "lab3.q9.totals": 2 ** 28 // section3,
        "lab3.q10.combines_512": ks_combines(512),
        "lab1.q1.blocks": blocks,
        "lab1.q1.combines": blocks * tree_combines + blocks,
        "lab1.q1.chain": int(math.log2(section1)) + blocks,
        "lab1.q2.atomics_1000003": math.ceil(1000003 / section1),
        "lab1.q2.atomics_2_30": 2 ** 30 // section1,
        "lab1.q2.atomics_64": 2 ** 28 // 64,
        "lab1.q5.k": lab1_q5("k"),
        "lab1.q5.gamma": lab1_q5("gamma"),
        "lab1.q5.bound": lab1_q5("bound"),
        "lab1.q6.strides": strides384,
        "lab1.q6.oob_index": top384 if top384 >= 768 else -1,
        "lab1.q7.warp_steps": lab1_q7(),
        **counted(),
        **lab4(),
        **lab2(),
        **lab5(),
        **lab6(),
        **lab7(),
    }


def agrees(stated, value):
    if isinstance(value, str):
        return stated == value
    if isinstance(value, list):
        return [int(v) for v in stated.split(",")] == value
    if isinstance(value, float):
        digits = len(stated.replace("-", "").split("e")[0].replace(".", "").lstrip("0"))
        return abs(float(stated) - value) <= 0.6 * 10 ** (math.floor(math.log10(abs(value))) - digits + 1)
    return int(stated) == value


def main():
    folder = os.path.join(TOP, "handouts", "keys")
    known, fail, seen = checks(), 0, 0
    for f in sorted(os.listdir(folder)):
        if not f.endswith("-key.md"):
            continue
        text = open(os.path.join(folder, f)).read()
        marks = re.findall(r"<!-- check (\S+) (\S+) -->", text)
        if not marks:
            print("FAIL keys: %s states no checked number" % f)
            fail = 1
        for name, stated in marks:
            seen += 1
            if name not in known:
                print("FAIL keys: %s: no computation for %s" % (f, name))
                fail = 1
            elif not agrees(stated, known[name]):
                print("FAIL keys: %s: %s is %s in the key, %s computed" % (f, name, stated, known[name]))
                fail = 1
    if not fail:
        print("ok   keys: %d numbers of the answer keys recomputed from the kit's algorithms" % seen)
    return fail


if __name__ == "__main__":
    sys.exit(main())
