/*
 * visible.cpp - CUEMU_MEMORY=weak, the reader's side: a volatile load that
 * nothing orders after the load of a flag may see the value from before
 * the flag's store, so that a reader without a fence (flag, then value,
 * with no __threadfence() between) fails here the way it may on a GPU.
 *
 * The rule.  Every store made visible to other blocks (memory.cpp: a held
 * volatile store written back, or an atomic that writes) is recorded,
 * before its bytes reach memory, with a global sequence number, its block,
 * its place in the block's program order and its block's fence count (the
 * epoch: two stores of one block with the same epoch have no fence between
 * them).  Each worker has a view: the sequence number at its last device
 * fence, atomic or block start.  It remembers the stores of other blocks
 * that its volatile loads read in the block (the flags), and when.  A
 * volatile load of a value V is then served V's previous bytes when this
 * worker has not read this store of V yet (coherence: a location never
 * goes back to an older value for one reader) and either
 *   - the reader's fence is missing: V's store is newer than the view, and
 *     since the view the worker read a newer store of the same block with
 *     a later epoch (its writer fenced between the value and the flag), or
 *   - the writer's fence is missing: the worker read (at any time in this
 *     block) a store of V's block made after V's with the same epoch (no
 *     fence between: lab 7's lanes' stores, __syncwarp, then atomicExch),
 *     and no store of that block with a later epoch (fenced after V).
 *     Whether V's store happened to become visible first does not matter:
 *     nothing promises it to the reader.
 * The load itself is inline in the program, after its hook: the previous
 * bytes are put in memory for it and the current ones put back (if nobody
 * wrote the word since) at the worker's next hook.  Only code with this
 * pattern is touched, and that code has the bug.  A warning names both
 * blocks and the four lines (two stores, two loads).
 *
 * The writer's side has its own warning: a load that reads a store which
 * overtook an older store of its block (no fence between, memory.cpp) is
 * reported with the block and both store lines.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include <atomic>
#include <mutex>

namespace cuemu {

__thread bool tl_vis_pending;

namespace {

struct Record {
    uintptr_t addr;
    unsigned size;
    bool has_old;
    unsigned long long seq;
    StoreOrigin origin;
    uintptr_t ahead_pc;
    unsigned char old[16];
};

/* The latest visible store per address (direct-mapped).  A slot is
 * guarded by a sequence lock: odd while a publisher writes it; a reader
 * copies it and retries if the count moved. */
struct Slot {
    std::atomic<unsigned> version;
    Record r;
};
Slot g_slots[VIS_SLOTS];
std::atomic<unsigned long long> g_seq{0};

/* What one worker has seen since its view. */
struct Observed {
    uintptr_t addr;
    unsigned long long seq;
    unsigned long long block_id;
    unsigned long long epoch, order;
    unsigned long long view; /* the worker's view when it read it */
    uintptr_t store_pc, load_pc;
};
struct ReaderState {
    StoreOrigin me;
    unsigned long long view;
    int n, next;
    Observed obs[VIS_OBSERVED];
    /* the stale value served, to put back */
    uintptr_t addr;
    unsigned size;
    unsigned char stale[16], fresh[16];
};
__thread ReaderState tl_rs;

/* Fibonacci hashing: the product's high bits, so that arrays a power of two
 * apart (a status array and its values) do not share slots. */
Slot &slot_of(uintptr_t a)
{
    static_assert((VIS_SLOTS & (VIS_SLOTS - 1)) == 0, "VIS_SLOTS: a power of two");
    return g_slots[((a >> 2) * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctz(VIS_SLOTS))];
}

/* Copy slot s's record into r; false if it is for another address. */
bool lookup(uintptr_t a, unsigned size, Record &r)
{
    Slot &s = slot_of(a);
    for (;;) {
        unsigned v = s.version.load(std::memory_order_acquire);
        if (v & 1)
            continue;
        memcpy(&r, &s.r, sizeof r);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (s.version.load(std::memory_order_relaxed) == v)
            return v != 0 && r.addr == a && r.size == size;
    }
}

/* Compare-and-swap of an indivisible word; false if it was not `expect`. */
bool swap_word(uintptr_t a, unsigned size, const void *expect, const void *want)
{
#define CUEMU_SWAP(T)                                                                      \
    {                                                                                      \
        T e, w;                                                                            \
        memcpy(&e, expect, sizeof e);                                                      \
        memcpy(&w, want, sizeof w);                                                        \
        return __atomic_compare_exchange_n((T *)a, &e, w, false, __ATOMIC_SEQ_CST,         \
                                           __ATOMIC_SEQ_CST);                              \
    }
    if (size == 1)
        CUEMU_SWAP(uint8_t)
    if (size == 2 && a % 2 == 0)
        CUEMU_SWAP(uint16_t)
    if (size == 4 && a % 4 == 0)
        CUEMU_SWAP(uint32_t)
    if (size == 8 && a % 8 == 0)
        CUEMU_SWAP(uint64_t)
#undef CUEMU_SWAP
    return false; /* not one word: never served stale */
}

/* Print one warning per pair of code addresses, VIS_WARNINGS in all. */
bool first_time(uintptr_t x, uintptr_t y)
{
    static std::mutex mu;
    static uintptr_t seen[VIS_WARNINGS][2];
    static int n;
    std::lock_guard<std::mutex> g(mu);
    for (int i = 0; i < n; i++)
        if (seen[i][0] == x && seen[i][1] == y)
            return false;
    if (n == VIS_WARNINGS)
        return false;
    seen[n][0] = x;
    seen[n][1] = y;
    n++;
    return true;
}

void block_text(char *buf, size_t len, uint3 b) { snprintf(buf, len, "(%u,%u,%u)", b.x, b.y, b.z); }

/* A load read a store that overtook an older store of its block. */
void warn_writer(const Record &r, uintptr_t load_pc)
{
    if (!first_time(r.origin.pc, r.ahead_pc))
        return;
    char me[48], them[48], lload[256], lstore[256], lahead[256];
    block_text(me, sizeof me, tl_rs.me.block);
    block_text(them, sizeof them, r.origin.block);
    pc_line(load_pc, lload, sizeof lload);
    pc_line(r.origin.pc, lstore, sizeof lstore);
    pc_line(r.ahead_pc, lahead, sizeof lahead);
    fprintf(stderr,
            "cuemu: warning: kernel '%s': block %s read at %s the store that block %s made at "
            "%s before its earlier store at %s was visible: no __threadfence() between the two "
            "stores (a GPU may publish them in either order; %s)\n",
            tl_rs.me.kernel, me, lload, them, lstore, lahead, settings_text());
}

/* A load was served the value from before the flag it follows: the
 * reader's fence is missing (the flag has a later epoch) or the writer's. */
void warn_reader(const Record &v, const Observed &flag, uintptr_t load_pc)
{
    if (!first_time(flag.load_pc, load_pc))
        return;
    const char *missing = flag.epoch > v.origin.epoch
                              ? "with no __threadfence() between its two loads: a GPU may serve "
                                "the value's load first"
                              : "with no __threadfence() between the writer's two stores: a GPU "
                                "may make the flag visible first";
    char me[48], them[48], lflag[256], lval[256], sflag[256], sval[256];
    block_text(me, sizeof me, tl_rs.me.block);
    block_text(them, sizeof them, v.origin.block);
    pc_line(flag.load_pc, lflag, sizeof lflag);
    pc_line(load_pc, lval, sizeof lval);
    pc_line(flag.store_pc, sflag, sizeof sflag);
    pc_line(v.origin.pc, sval, sizeof sval);
    fprintf(stderr,
            "cuemu: warning: kernel '%s': block %s read at %s a value that block %s stored at "
            "%s, after reading at %s the flag that block %s stored at %s, %s, so it was given "
            "the value from before the flag (%s)\n",
            tl_rs.me.kernel, me, lval, them, sval, lflag, them, sflag, missing, settings_text());
}

/* Remember a store of another block that this worker has now read (once:
 * a poll that reads it again only refreshes when). */
void observe(const Record &r, uintptr_t load_pc)
{
    ReaderState &s = tl_rs;
    for (int i = 0; i < s.n; i++)
        if (s.obs[i].addr == r.addr && s.obs[i].seq == r.seq) { /* a poll reads it again */
            s.obs[i].view = s.view;
            s.obs[i].load_pc = load_pc;
            return;
        }
    Observed &o = s.obs[s.n < VIS_OBSERVED ? s.n++ : (s.next++ % VIS_OBSERVED)];
    o = Observed{r.addr,  r.seq,       r.origin.block_id, r.origin.epoch, r.origin.order,
                 s.view,  r.origin.pc, load_pc};
}

/* The flag this load follows, if either rule of the header applies; null
 * if none does or V's store was read already. */
const Observed *flag_before(const Record &v)
{
    const ReaderState &s = tl_rs;
    const Observed *fenced = nullptr, *unfenced = nullptr;
    bool ordered = false;
    for (int i = 0; i < s.n; i++) {
        const Observed &o = s.obs[i];
        if (o.addr == v.addr && o.seq == v.seq)
            return nullptr;
        if (o.block_id != v.origin.block_id)
            continue;
        if (o.epoch > v.origin.epoch) {
            ordered = true; /* a flag fenced after V */
            if (o.view == s.view && v.seq > s.view)
                fenced = &o;
        }
        else if (o.epoch == v.origin.epoch && o.order > v.origin.order)
            unfenced = &o;
    }
    return fenced ? fenced : ordered ? nullptr : unfenced;
}

/* Put V's previous bytes in memory for the load that follows. */
void serve_stale(const Record &v)
{
    ReaderState &s = tl_rs;
    memcpy(s.fresh, (const void *)v.addr, v.size);
    if (!swap_word(v.addr, v.size, s.fresh, v.old))
        return;
    s.addr = v.addr;
    s.size = v.size;
    memcpy(s.stale, v.old, v.size);
    tl_vis_pending = true;
}

} // namespace

void vis_publish(uintptr_t addr, unsigned size, const void *old, const StoreOrigin &o,
                 uintptr_t ahead_pc)
{
    if (size > 16)
        return;
    Slot &s = slot_of(addr);
    unsigned v = s.version.load(std::memory_order_relaxed);
    while ((v & 1) || !s.version.compare_exchange_weak(v, v + 1, std::memory_order_acquire))
        v = s.version.load(std::memory_order_relaxed);
    Record &r = s.r;
    r.addr = addr;
    r.size = size;
    r.has_old = old != nullptr;
    if (old)
        memcpy(r.old, old, size);
    r.seq = g_seq.fetch_add(1) + 1;
    r.origin = o;
    r.ahead_pc = ahead_pc;
    s.version.store(v + 2, std::memory_order_release);
}

void vis_block_begin(const StoreOrigin &me)
{
    tl_rs.me = me;
    tl_rs.n = tl_rs.next = 0;
    vis_acquire();
}

void vis_acquire()
{
    tl_rs.view = g_seq.load();
}

void vis_load(uintptr_t addr, unsigned size, uintptr_t pc)
{
    Record r;
    if (!lookup(addr, size, r) || r.origin.block_id == tl_rs.me.block_id)
        return;
    if (r.ahead_pc)
        warn_writer(r, pc);
    const Observed *flag = flag_before(r);
    if (flag && r.has_old) {
        warn_reader(r, *flag, pc);
        serve_stale(r);
    }
    observe(r, pc);
}

void vis_restore()
{
    ReaderState &s = tl_rs;
    tl_vis_pending = false;
    swap_word(s.addr, s.size, s.stale, s.fresh); /* unless written since */
}

} // namespace cuemu
