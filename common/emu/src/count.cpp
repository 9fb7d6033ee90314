/*
 * count.cpp - counted builds (emu-nvcc --count): what a kernel did, counted
 * exactly, per launch, so that a student without a GPU can see the lesson
 * of labs 1-4 on their own kernel: divergent branches, shared-memory bank
 * conflicts and barriers.
 *
 * How it is seen.
 *  - Branches: the source pass wraps each if / while / for condition as
 *    cuemu::branch(cond, site).  Each device thread numbers its own
 *    executions of a site (its n-th); at the end of the block, the lanes of
 *    a warp that made their n-th execution of the same site form one
 *    warp-level branch, divergent when some of those lanes went one way and
 *    some the other.
 *  - Shared memory: every access already calls a hook (memory.cpp, GCC's
 *    ThreadSanitizer instrumentation); in a counted build the hook tells
 *    count_access, which keeps the accesses that fall in the block's shared
 *    memory (the dynamic buffer, and the static __shared__ arrays the
 *    source pass registers as threads declare them).  The lanes of a warp
 *    whose n-th access by the same instruction (the hook's return address)
 *    it is form one request; its wavefronts are the most distinct 4-byte
 *    words any of the 32 banks holds (a broadcast of one word is one), as
 *    Nsight Compute's l1tex wavefronts count them, and its bank conflicts
 *    the wavefronts beyond the fewest its bytes need (one per 128 bytes).
 *  - Barriers: each __syncthreads() that opens, per block, and the warps
 *    that arrive at it.
 *  - Global memory: the bytes device threads loaded from and stored to
 *    device allocations, and their atomics there (the traffic each lab's
 *    design states its minimum in: common/tools/traffic.py).
 * Counting is by each thread's own sequence, so it does not depend on the
 * schedule.  What is not counted is said in the report, never dropped:
 * atomics on shared memory and accesses through memcpy-like ranges.
 */
#include "fiber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace cuemu {

bool g_counting;
bool g_mem_hooks;

namespace detail {
namespace {

/* WARP_LANES: lanes per warp.  BANKS, BANK_BYTES, WAVEFRONT_BYTES: shared
 * memory of every GPU since Maxwell (32 banks of 4 bytes, 128 bytes a
 * pass).  SITES_SHOWN: lines named per launch in the report (the worst
 * first): enough to point at the bug, few enough to read. */
enum { WARP_LANES = 32, BANKS = 32, BANK_BYTES = 4, WAVEFRONT_BYTES = 128, SITES_SHOWN = 4 };

/* One dynamic event of one thread: its k-th execution of site (a branch
 * site, or an instruction's address for a shared access). */
struct Event {
    unsigned long long site;
    unsigned warp, k;
    unsigned char lane, kind, size; /* kind: ACC_LOAD / ACC_STORE, or taken for a branch */
    uintptr_t addr;
};

struct SiteTotal {
    unsigned long long execs = 0, divergent = 0;
};
struct SharedTotal {
    unsigned long long requests = 0, wavefronts = 0, ideal = 0;
    int kind = ACC_LOAD;
};

/* One launch's counts (blocks merge into it as they end). */
struct LaunchCount {
    std::string kernel, where;
    unsigned long long blocks = 0, block_threads = 0;
    unsigned long long barriers = 0, barrier_warps = 0;
    unsigned long long branches = 0, divergent = 0;
    unsigned long long requests[2] = {}, wavefronts[2] = {}, ideal[2] = {};
    unsigned long long atomics = 0, ranges = 0;
    unsigned long long global[3] = {}; /* bytes loaded, bytes stored; atomics (count) */
    unsigned long long global_atomic_bytes = 0;
    std::map<unsigned long long, SiteTotal> sites;
    std::map<uintptr_t, SharedTotal> pcs;
};

/* The block a worker runs: its events until it ends. */
struct BlockCount {
    bool active = false;
    Grid *grid = nullptr;
    unsigned n = 0;
    uintptr_t dyn_lo = 0, dyn_hi = 0;
    std::unordered_map<unsigned long long, std::vector<unsigned>> seq; /* site -> k per thread */
    std::vector<Event> branches, shared;
    unsigned long long barriers = 0, atomics = 0, ranges = 0;
    unsigned long long global[3] = {}, global_atomic_bytes = 0;
    std::unordered_map<unsigned long long, std::pair<const char *, int>> where;
};

/* Process-wide state, never destroyed: the report runs at exit, after
 * static destructors may have run. */
struct State {
    std::mutex mu;
    std::map<Grid *, LaunchCount> running;
    std::vector<LaunchCount> done;
    std::vector<std::string> not_counted;
    std::map<unsigned long long, std::pair<const char *, int>> where;
};
State &state()
{
    static State *s = new State;
    return *s;
}

thread_local BlockCount tl_bc;
/* The static __shared__ arrays of this worker: [lo, hi) each. */
thread_local std::vector<std::pair<uintptr_t, uintptr_t>> tl_static;

/* Thread t's next execution number of site (0 first). */
unsigned next_k(BlockCount &b, unsigned long long site, unsigned t)
{
    std::vector<unsigned> &v = b.seq[site];
    if (v.size() < b.n)
        v.resize(b.n, 0);
    return v[t]++;
}

bool in_shared(const BlockCount &b, uintptr_t a)
{
    if (a >= b.dyn_lo && a < b.dyn_hi)
        return true;
    for (const auto &r : tl_static)
        if (a >= r.first && a < r.second)
            return true;
    return false;
}

/* Global memory traffic: bytes a device thread loaded from and stored to
 * device allocations, and its atomics on them (the traffic a design's
 * minimum is stated in; a thread's own stack is not global memory). */
void count_global(BlockCount &b, uintptr_t a, unsigned size, AccessKind kind)
{
    uintptr_t base;
    size_t bytes;
    if (kind == ACC_RANGE || !device_region_of(a, &base, &bytes))
        return;
    if (kind == ACC_ATOMIC) {
        b.global[2]++;
        b.global_atomic_bytes += size;
    } else {
        b.global[kind == ACC_STORE] += size;
    }
}

bool same_request(const Event &x, const Event &y)
{
    return x.site == y.site && x.warp == y.warp && x.k == y.k;
}

/* Branches: each (site, warp, k) group is one warp-level branch; divergent
 * when the lanes that made it did not all go the same way. */
void merge_branches(std::vector<Event> &ev, LaunchCount &lc)
{
    std::sort(ev.begin(), ev.end(), [](const Event &x, const Event &y) {
        return x.site != y.site ? x.site < y.site : x.warp != y.warp ? x.warp < y.warp : x.k < y.k;
    });
    for (size_t i = 0; i < ev.size();) {
        unsigned ran = 0, taken = 0;
        size_t j = i;
        for (; j < ev.size() && same_request(ev[i], ev[j]); j++) {
            ran |= 1u << ev[j].lane;
            taken |= (unsigned)ev[j].kind << ev[j].lane;
        }
        SiteTotal &s = lc.sites[ev[i].site];
        bool split = taken != 0 && taken != ran;
        s.execs++;
        s.divergent += split;
        lc.branches++;
        lc.divergent += split;
        i = j;
    }
}

/* One request's wavefronts: the most distinct 4-byte words in one bank. */
unsigned wavefronts_of(const Event *e, size_t n, unsigned *words_out)
{
    uintptr_t words[WARP_LANES * 4];
    size_t nw = 0;
    for (size_t i = 0; i < n; i++)
        for (uintptr_t w = e[i].addr / BANK_BYTES; w <= (e[i].addr + e[i].size - 1) / BANK_BYTES &&
                                                   nw < sizeof words / sizeof *words; w++)
            words[nw++] = w;
    std::sort(words, words + nw);
    nw = (size_t)(std::unique(words, words + nw) - words);
    unsigned per_bank[BANKS] = {}, most = 0;
    for (size_t i = 0; i < nw; i++)
        most = std::max(most, ++per_bank[words[i] % BANKS]);
    *words_out = (unsigned)nw;
    return most;
}

/* Shared accesses: each (instruction, warp, k) group is one request. */
void merge_shared(std::vector<Event> &ev, LaunchCount &lc)
{
    std::sort(ev.begin(), ev.end(), [](const Event &x, const Event &y) {
        return x.site != y.site ? x.site < y.site : x.warp != y.warp ? x.warp < y.warp : x.k < y.k;
    });
    for (size_t i = 0; i < ev.size();) {
        size_t j = i;
        while (j < ev.size() && same_request(ev[i], ev[j]))
            j++;
        unsigned words;
        unsigned waves = wavefronts_of(&ev[i], j - i, &words);
        unsigned ideal = (words * BANK_BYTES + WAVEFRONT_BYTES - 1) / WAVEFRONT_BYTES;
        int st = ev[i].kind == ACC_STORE;
        SharedTotal &s = lc.pcs[ev[i].site];
        s.kind = ev[i].kind;
        s.requests++;
        s.wavefronts += waves;
        s.ideal += ideal;
        lc.requests[st]++;
        lc.wavefronts[st] += waves;
        lc.ideal[st] += ideal;
        i = j;
    }
}

void add_to(LaunchCount &to, const LaunchCount &from)
{
    to.blocks += from.blocks;
    to.barriers += from.barriers;
    to.barrier_warps += from.barrier_warps;
    to.branches += from.branches;
    to.divergent += from.divergent;
    for (int i = 0; i < 2; i++) {
        to.requests[i] += from.requests[i];
        to.wavefronts[i] += from.wavefronts[i];
        to.ideal[i] += from.ideal[i];
    }
    to.atomics += from.atomics;
    to.ranges += from.ranges;
    for (int i = 0; i < 3; i++)
        to.global[i] += from.global[i];
    to.global_atomic_bytes += from.global_atomic_bytes;
    for (const auto &s : from.sites) {
        to.sites[s.first].execs += s.second.execs;
        to.sites[s.first].divergent += s.second.divergent;
    }
    for (const auto &p : from.pcs) {
        SharedTotal &t = to.pcs[p.first];
        t.kind = p.second.kind;
        t.requests += p.second.requests;
        t.wavefronts += p.second.wavefronts;
        t.ideal += p.second.ideal;
    }
}

} // namespace

/* ---- the scheduler's calls (fiber.h) ------------------------------------- */

/* A worker starts a block of grid g: its dynamic shared memory is
 * [base, base + bytes). */
void count_block_begin(Grid *g, const char *base, size_t bytes, unsigned n)
{
    BlockCount &b = tl_bc;
    b.active = true;
    b.grid = g;
    b.n = n;
    b.dyn_lo = (uintptr_t)base;
    b.dyn_hi = (uintptr_t)base + bytes;
}

/* A barrier of the running block opened. */
void count_barrier() { tl_bc.barriers++; }

/* The block has ended: its events become counts of its launch. */
void count_block_end()
{
    BlockCount &b = tl_bc;
    b.active = false;
    LaunchCount lc;
    lc.blocks = 1;
    lc.barriers = b.barriers;
    lc.barrier_warps = b.barriers * ((b.n + WARP_LANES - 1) / WARP_LANES);
    lc.atomics = b.atomics;
    lc.ranges = b.ranges;
    for (int i = 0; i < 3; i++)
        lc.global[i] = b.global[i];
    lc.global_atomic_bytes = b.global_atomic_bytes;
    merge_branches(b.branches, lc);
    merge_shared(b.shared, lc);
    {
        State &s = state();
        std::lock_guard<std::mutex> lk(s.mu);
        LaunchCount &to = s.running[b.grid];
        if (to.kernel.empty()) {
            to.kernel = b.grid->name;
            to.where = std::string(b.grid->file) + ":" + std::to_string(b.grid->line);
            to.block_threads = b.n;
        }
        add_to(to, lc);
        for (const auto &w : b.where)
            s.where.insert(w);
    }
    b.branches.clear();
    b.shared.clear();
    b.seq.clear();
    b.barriers = b.atomics = b.ranges = 0;
    b.global[0] = b.global[1] = b.global[2] = b.global_atomic_bytes = 0;
}

/* Grid g has finished: its counts are a launch of the report. */
void count_launch_end(Grid *g)
{
    State &s = state();
    std::lock_guard<std::mutex> lk(s.mu);
    auto it = s.running.find(g);
    if (it == s.running.end())
        return;
    s.done.push_back(std::move(it->second));
    s.running.erase(it);
}

namespace {

/* "reduce.cu:52": a branch site's line, or an instruction's (addr2line,
 * once per address). */
std::string site_name(State &s, unsigned long long site, bool branch)
{
    static std::map<unsigned long long, std::string> *lines = new std::map<unsigned long long, std::string>;
    if (branch) {
        auto it = s.where.find(site);
        return it == s.where.end() ? "?" : std::string(it->second.first) + ":" +
                                               std::to_string(it->second.second);
    }
    auto it = lines->find(site);
    if (it != lines->end())
        return it->second;
    char buf[1024];
    pc_line((uintptr_t)site, buf, sizeof buf);
    return (*lines)[site] = buf;
}

/* A line's totals, the worst first: (line, a, b, c). */
struct Line {
    std::string where;
    unsigned long long a = 0, b = 0, c = 0;
};

/* The lines of a launch where warps diverged, most divergent first. */
std::vector<Line> divergent_lines(State &s, const LaunchCount &lc)
{
    std::map<std::string, Line> by;
    for (const auto &t : lc.sites) {
        Line &l = by[site_name(s, t.first, true)];
        l.a += t.second.divergent;
        l.b += t.second.execs;
    }
    std::vector<Line> out;
    for (auto &l : by)
        if (l.second.a) {
            l.second.where = l.first;
            out.push_back(l.second);
        }
    std::sort(out.begin(), out.end(), [](const Line &x, const Line &y) { return x.a > y.a; });
    return out;
}

/* The lines of a launch whose shared accesses took more wavefronts than
 * their bytes need: (line, requests, wavefronts, ideal), worst first. */
std::vector<Line> conflict_lines(State &s, const LaunchCount &lc)
{
    std::map<std::string, Line> by;
    for (const auto &t : lc.pcs) {
        if (t.second.wavefronts == t.second.ideal)
            continue;
        Line &l = by[site_name(s, t.first, false)];
        l.a += t.second.requests;
        l.b += t.second.wavefronts;
        l.c += t.second.ideal;
    }
    std::vector<Line> out;
    for (auto &l : by) {
        l.second.where = l.first;
        out.push_back(l.second);
    }
    std::sort(out.begin(), out.end(),
              [](const Line &x, const Line &y) { return x.b - x.c > y.b - y.c; });
    return out;
}

void json_string(FILE *f, const std::string &v)
{
    fputc('"', f);
    for (char c : v) {
        if (c == '"' || c == '\\')
            fputc('\\', f);
        if ((unsigned char)c >= 0x20)
            fputc(c, f);
    }
    fputc('"', f);
}

/* Why an access may be missing from the shared-memory counts. */
std::vector<std::string> not_counted(const State &s, const LaunchCount &lc)
{
    std::vector<std::string> out = s.not_counted;
    if (lc.atomics)
        out.push_back(std::to_string(lc.atomics) + " atomics on shared memory (not requests)");
    if (lc.ranges)
        out.push_back(std::to_string(lc.ranges) + " block copies into or out of shared memory");
    return out;
}

/* One launch as a line of JSON (CUEMU_COUNT_OUT: make profile reads it). */
void json_launch(FILE *f, State &s, const LaunchCount &lc, size_t index)
{
    fprintf(f, "{\"launch\": %zu, \"kernel\": ", index + 1);
    json_string(f, lc.kernel);
    fprintf(f, ", \"launched_at\": ");
    json_string(f, lc.where);
    fprintf(f, ", \"blocks\": %llu, \"block_threads\": %llu, \"barriers\": %llu, "
               "\"barrier_warps\": %llu, \"branches\": %llu, \"divergent\": %llu, "
               "\"shared_loads\": %llu, \"shared_stores\": %llu, \"wavefronts_ld\": %llu, "
               "\"wavefronts_st\": %llu, \"conflicts_ld\": %llu, \"conflicts_st\": %llu",
            lc.blocks, lc.block_threads, lc.barriers, lc.barrier_warps, lc.branches,
            lc.divergent, lc.requests[0], lc.requests[1], lc.wavefronts[0], lc.wavefronts[1],
            lc.wavefronts[0] - lc.ideal[0], lc.wavefronts[1] - lc.ideal[1]);
    fprintf(f, ", \"global_load_bytes\": %llu, \"global_store_bytes\": %llu, "
               "\"global_atomics\": %llu, \"global_atomic_bytes\": %llu",
            lc.global[0], lc.global[1], lc.global[2], lc.global_atomic_bytes);
    fprintf(f, ", \"divergent_at\": [");
    std::vector<Line> d = divergent_lines(s, lc);
    for (size_t i = 0; i < d.size(); i++) {
        fprintf(f, "%s[", i ? ", " : "");
        json_string(f, d[i].where);
        fprintf(f, ", %llu, %llu]", d[i].a, d[i].b);
    }
    fprintf(f, "], \"conflicts_at\": [");
    std::vector<Line> c = conflict_lines(s, lc);
    for (size_t i = 0; i < c.size(); i++) {
        fprintf(f, "%s[", i ? ", " : "");
        json_string(f, c[i].where);
        fprintf(f, ", %llu, %llu, %llu]", c[i].a, c[i].b, c[i].c);
    }
    fprintf(f, "], \"not_counted\": [");
    std::vector<std::string> nc = not_counted(s, lc);
    for (size_t i = 0; i < nc.size(); i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_string(f, nc[i]);
    }
    fprintf(f, "]}\n");
}

/* One launch for a person, on stderr. */
void print_launch(FILE *f, State &s, const LaunchCount &lc, size_t index)
{
    fprintf(f, "cuemu counts: launch %zu, kernel '%s' (launched at %s), %llu block(s) of %llu "
               "threads\n", index + 1, lc.kernel.c_str(), lc.where.c_str(), lc.blocks,
            lc.block_threads);
    fprintf(f, "  barriers       %.1f per block (%llu in all, %llu warp arrivals)\n",
            (double)lc.barriers / (double)lc.blocks, lc.barriers, lc.barrier_warps);
    fprintf(f, "  branches       %llu warp-level, %llu divergent", lc.branches, lc.divergent);
    std::vector<Line> d = divergent_lines(s, lc);
    for (size_t i = 0; i < d.size() && i < SITES_SHOWN; i++)
        fprintf(f, "%s %s: %llu of %llu", i ? ";" : ":", d[i].where.c_str(), d[i].a, d[i].b);
    unsigned long long req = lc.requests[0] + lc.requests[1];
    unsigned long long waves = lc.wavefronts[0] + lc.wavefronts[1];
    fprintf(f, "\n  shared memory  %llu loads and %llu stores (warp requests), %llu wavefronts, "
               "%llu bank conflicts", lc.requests[0], lc.requests[1], waves,
            waves - lc.ideal[0] - lc.ideal[1]);
    std::vector<Line> c = conflict_lines(s, lc);
    for (size_t i = 0; i < c.size() && i < SITES_SHOWN; i++)
        fprintf(f, "%s %s: %.2f wavefronts per request", i ? ";" : ":", c[i].where.c_str(),
                (double)c[i].b / (double)c[i].a);
    (void)req;
    fprintf(f, "\n  global memory  %llu bytes loaded, %llu stored, %llu atomics (%llu bytes)\n",
            lc.global[0], lc.global[1], lc.global[2], lc.global_atomic_bytes);
    for (const std::string &n : not_counted(s, lc))
        fprintf(f, "  not counted:   %s\n", n.c_str());
}

} // namespace

/* At exit: every launch's counts, to CUEMU_COUNT_OUT as JSON lines when it
 * is set (make profile), else to stderr for a person. */
void count_report()
{
    State &s = state();
    std::lock_guard<std::mutex> lk(s.mu);
    const char *path = getenv("CUEMU_COUNT_OUT");
    FILE *f = path && *path ? fopen(path, "w") : nullptr;
    if (path && *path && !f)
        fprintf(stderr, "cuemu: cannot write the counts to CUEMU_COUNT_OUT=%s\n", path);
    for (size_t i = 0; i < s.done.size(); i++) {
        if (f)
            json_launch(f, s, s.done[i], i);
        else
            print_launch(stderr, s, s.done[i], i);
    }
    if (!f && s.done.empty())
        fprintf(stderr, "cuemu counts: no kernel was launched\n");
    if (f)
        fclose(f);
}

} // namespace detail

using detail::tl_bc;

/* An access hook in a counted build (memory.cpp): keep it if it is a
 * device thread's access of its block's shared memory. */
void count_access(uintptr_t a, unsigned size, AccessKind kind, uintptr_t pc)
{
    detail::BlockCount &b = tl_bc;
    detail::Fiber *f = detail::tl_fiber;
    if (!b.active || !f)
        return;
    if (!detail::in_shared(b, a)) {
        detail::count_global(b, a, size, kind);
        return;
    }
    if (kind == ACC_ATOMIC) {
        b.atomics++;
        return;
    }
    if (kind == ACC_RANGE) {
        b.ranges++;
        return;
    }
    detail::Event e;
    e.site = pc;
    e.warp = f->linear / detail::WARP_LANES;
    e.lane = (unsigned char)(f->linear % detail::WARP_LANES);
    e.k = detail::next_k(b, pc, f->linear);
    e.kind = (unsigned char)kind;
    e.size = (unsigned char)std::min(size, 16u);
    e.addr = a;
    b.shared.push_back(e);
}

/* cuemu::branch: a device thread's execution of a counted condition. */
bool branch_slow(bool c, unsigned long long site, const char *file, int line)
{
    detail::BlockCount &b = tl_bc;
    detail::Fiber *f = detail::tl_fiber;
    if (!b.active || !f)
        return c;
    if (b.where.find(site) == b.where.end())
        b.where[site] = {file, line};
    detail::Event e;
    e.site = site;
    e.warp = f->linear / detail::WARP_LANES;
    e.lane = (unsigned char)(f->linear % detail::WARP_LANES);
    e.k = detail::next_k(b, site, f->linear);
    e.kind = c;
    e.size = 0;
    e.addr = 0;
    b.branches.push_back(e);
    return c;
}

/* A thread declares a static __shared__ array: this worker's copy of it is
 * shared memory from now on. */
void count_shared(const volatile void *p, size_t bytes)
{
    uintptr_t lo = (uintptr_t)p;
    for (const auto &r : detail::tl_static)
        if (r.first == lo)
            return;
    detail::tl_static.push_back({lo, lo + bytes});
}

/* For the recorder: the static __shared__ array of this worker that holds
 * a (registered in counted builds only). */
bool detail::static_shared_of(uintptr_t a, uintptr_t *lo, int *index)
{
    for (size_t i = 0; i < detail::tl_static.size(); i++)
        if (a >= detail::tl_static[i].first && a < detail::tl_static[i].second) {
            *lo = detail::tl_static[i].first;
            *index = (int)i;
            return true;
        }
    return false;
}

/* The source pass met something whose accesses are not counted. */
bool count_not_counted(const char *what)
{
    detail::State &s = detail::state();
    std::lock_guard<std::mutex> lk(s.mu);
    s.not_counted.push_back(what);
    return true;
}

/* A counted translation unit is in the program: count, report at exit. */
bool count_enable()
{
    if (!g_counting) {
        g_counting = true;
        g_mem_hooks = true;
        atexit(detail::count_report);
    }
    return true;
}

} // namespace cuemu
