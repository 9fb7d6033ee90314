#!/usr/bin/env python3
"""keys.py - the numbers of the answer keys (handouts/keys/labN-key.md), recomputed.

Each key marks a number it states with an HTML comment, <!-- check NAME VALUE -->,
invisible when rendered.  This script recomputes NAME by running the kit's
algorithm (the trees and scans simulated cell by cell, with the section sizes
read from the reference solutions) and compares.  An unknown NAME fails: a
check that cannot be computed is not a check.  Exit 0 when every one agrees.
"""
import math
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def define(lab_dir, name):
    """An integer #define of a reference solution (the kit's own constant)."""
    folder = os.path.join(TOP, "solutions", lab_dir)
    for f in sorted(os.listdir(folder)):
        text = open(os.path.join(folder, f)).read()
        m = re.search(r"^#define %s (\d+)\b" % name, text, re.M)
        if m:
            return int(m.group(1))
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
        **lab4(),
        **lab2(),
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
