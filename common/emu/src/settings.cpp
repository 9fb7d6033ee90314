/*
 * settings.cpp - the emulator's settings, read once from the environment:
 * CUEMU_SCHEDULE (the order fibers and blocks run in), CUEMU_THREADS (OS
 * worker threads), CUEMU_TIMEOUT (seconds without progress before a
 * deadlock report), CUEMU_STACK_KB (each fiber's stack), CUEMU_MEMORY
 * (strong, or the weak mode of memory.cpp), CUEMU_TRACE (the recorder,
 * trace.cpp: the file every access of every launch is written to),
 * CUEMU_INITCHECK and CUEMU_FRESH (reads of never-written device memory,
 * initcheck.cpp), CUEMU_SLOW_NOTE (progress.cpp: the note of a long
 * launch) and CUEMU_FASTMATH (fastmath.cpp: the note of a fast-math
 * intrinsic).  A diagnostic prints them (settings_text) so that a
 * failing run can be repeated exactly.  A value none of them can read
 * stops the run (bad_setting); an empty one means the default.
 */
#include "internal.h"
#include "fiber.h"

#include <chrono>
#include <errno.h>
#include <mutex>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace cuemu {
namespace detail {
Settings g_settings;
} // namespace detail
using namespace detail;

namespace {

char g_settings_text[160];
std::once_flag g_settings_once;

/* A setting the emulator cannot read stops the run at once (exit 2): a
 * run that silently ignored CUEMU_SLOW_NOTE=1O would not be the one asked
 * for.  stdout is flushed first so that nothing the program printed is
 * lost; _exit, since exit handlers may ask for the settings again. */
[[noreturn]] void bad_setting(const char *name, const char *value, const char *expected)
{
    fflush(stdout);
    fprintf(stderr, "cuemu: error: %s='%s' not understood (%s); see common/emu/README.md, "
                    "Run-time settings\n", name, value, expected);
    fflush(stderr);
    _exit(SETTING_EXIT);
}

/* A seed or a count as the user wrote it: decimal digits only (as the
 * settings line prints a seed and the grader's suites read one), no sign,
 * no space, nothing after, no overflow.  strtoull alone would take "-1",
 * " 7" or "7x" and go on. */
bool parse_whole(const char *e, unsigned long long &v)
{
    if (*e < '0' || *e > '9')
        return false;
    char *end;
    errno = 0;
    v = strtoull(e, &end, 10);
    return !*end && errno == 0;
}

/* The setting name's value as an index into names[count]: dflt when it is
 * unset or empty, and a value not among them stops the run (bad_setting,
 * with expected as the list it names). */
int choose_setting(const char *name, const char *const *names, int count, int dflt,
                   const char *expected)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    for (int i = 0; i < count; i++)
        if (!strcmp(e, names[i]))
            return i;
    bad_setting(name, e, expected);
}

/* Seconds as the user wrote them: a number above 0 (at most 1e9, past
 * which nothing ends), and nothing after it. */
bool parse_seconds(const char *e, double &v)
{
    char *end;
    v = strtod(e, &end);
    return end != e && !*end && v > 0 && v <= 1e9;
}

/* CUEMU_MEMORY=strong (default) | weak | weak:SEED (memory.cpp).  Without a
 * seed one is picked and printed with any diagnostic, as for the schedule. */
void load_memory_setting(Settings &s)
{
    s.weak_memory = false;
    s.memory_seed = 0;
    const char *e = getenv("CUEMU_MEMORY");
    if (!e || !*e || !strcmp(e, "strong"))
        return;
    if (strncmp(e, "weak", 4) || (e[4] != 0 && e[4] != ':') ||
        (e[4] == ':' && !parse_whole(e + 5, s.memory_seed)))
        bad_setting("CUEMU_MEMORY", e, "strong | weak | weak:SEED, SEED a whole number");
    s.weak_memory = true;
    if (!e[4])
        s.memory_seed = (unsigned long long)std::chrono::steady_clock::now()
                            .time_since_epoch().count() ^ ((unsigned long long)getpid() << 20);
    g_weak_memory = true;
    g_mem_hooks = true;
}

/* CUEMU_INITCHECK=warn (default) | stop | off and CUEMU_FRESH=zero
 * (default) | poison (initcheck.cpp): whether reads of device memory never
 * written are reported, and what they give. */
void load_initcheck_settings(Settings &s)
{
    static const char *const initcheck[] = {"off", "warn", "stop"}; /* INITCHECK_* */
    static const char *const fresh[] = {"poison", "zero"};
    s.initcheck = choose_setting("CUEMU_INITCHECK", initcheck, 3, INITCHECK_WARN,
                                 "warn | stop | off");
    s.fresh_zero = choose_setting("CUEMU_FRESH", fresh, 2, 1, "zero | poison") == 1;
}

/* CUEMU_SLOW_NOTE=SECONDS (default SLOW_NOTE_DEFAULT_S; 0: off) and
 * CUEMU_FASTMATH=note (default) | off | stop: the two notes that tell the
 * user why a run differs from a GPU's (a launch that takes minutes, a
 * fast-math intrinsic whose GPU bits the emulator cannot give). */
void load_note_settings(Settings &s)
{
    s.slow_note = SLOW_NOTE_DEFAULT_S;
    const char *e = getenv("CUEMU_SLOW_NOTE");
    if (e && *e) {
        char *end;
        double v = strtod(e, &end);
        if (*end || !(v >= 0) || v > 1e9)
            bad_setting("CUEMU_SLOW_NOTE", e, "seconds, e.g. 10; 0 turns the note off");
        s.slow_note = v;
    }
    static const char *const fastmath[] = {"off", "note", "stop"}; /* FASTMATH_* */
    s.fastmath = choose_setting("CUEMU_FASTMATH", fastmath, 3, FASTMATH_NOTE, "note | off | stop");
}

/* CUEMU_SCHEDULE=inorder (default) | reverse | random | random:SEED | warps
 * | warps-reverse: the order fibers and blocks run in.  Without a seed one
 * is picked and printed with any diagnostic.  Returns the name for the
 * settings line. */
const char *load_schedule_setting(Settings &s)
{
    s.schedule = SCHED_INORDER;
    s.warp_serial = false;
    s.seed = 0;
    const char *e = getenv("CUEMU_SCHEDULE");
    if (!e || !*e || !strcmp(e, "inorder"))
        return "inorder";
    if (!strcmp(e, "reverse")) {
        s.schedule = SCHED_REVERSE;
        return "reverse";
    }
    if (!strcmp(e, "warps")) {
        s.warp_serial = true;
        return "warps";
    }
    if (!strcmp(e, "warps-reverse")) {
        s.schedule = SCHED_REVERSE;
        s.warp_serial = true;
        return "warps-reverse";
    }
    if (strncmp(e, "random", 6) || (e[6] != 0 && e[6] != ':') ||
        (e[6] == ':' && !parse_whole(e + 7, s.seed)))
        bad_setting("CUEMU_SCHEDULE", e,
                    "inorder | reverse | random | random:SEED | warps | warps-reverse, "
                    "SEED a whole number");
    s.schedule = SCHED_RANDOM;
    if (!e[6])
        s.seed = (unsigned long long)std::chrono::steady_clock::now()
                     .time_since_epoch().count() ^ ((unsigned long long)getpid() << 32);
    return "random";
}

/* CUEMU_THREADS=N (default: the CPUs this process may use; more than 256
 * run 256), CUEMU_TIMEOUT=SECONDS (default 30) and CUEMU_STACK_KB=KIB
 * (default 64, at least 16).  Each stops the run on a value it cannot
 * read. */
void load_worker_settings(Settings &s)
{
    unsigned long long v;
    const char *e = getenv("CUEMU_THREADS");
    s.threads = 0;
    if (e && *e) {
        if (!parse_whole(e, v) || v < 1)
            bad_setting("CUEMU_THREADS", e, "a whole number of worker threads, 1 or more");
        s.threads = v > 256 ? 256 : (int)v;
    } else {
        cpu_set_t set;
        s.threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
        if (s.threads <= 0)
            s.threads = 1;
        if (s.threads > 256)
            s.threads = 256;
    }
    s.timeout = 30;
    if ((e = getenv("CUEMU_TIMEOUT")) && *e && !parse_seconds(e, s.timeout))
        bad_setting("CUEMU_TIMEOUT", e, "seconds above 0, at most 1e9, e.g. 30");
    v = 64;
    if ((e = getenv("CUEMU_STACK_KB")) && *e &&
        (!parse_whole(e, v) || v < 16 || v > 1024 * 1024))
        bad_setting("CUEMU_STACK_KB", e, "KiB per CUDA thread, a whole number from 16 to 1048576");
    s.stack_bytes = (size_t)v * 1024;
}

/* Every setting, in the order their errors are reported, and the settings
 * line a diagnostic prints. */
void load_settings()
{
    Settings &s = g_settings;
    const char *sched_name = load_schedule_setting(s);
    load_worker_settings(s);
    load_memory_setting(s);
    const char *e = getenv("CUEMU_TRACE"); /* the recorder (trace.cpp) */
    if (e && *e && !trace_start(e))
        bad_setting("CUEMU_TRACE", e, "the path of a file the program can write");
    load_initcheck_settings(s);
    load_note_settings(s);
    int len;
    if (s.schedule == SCHED_RANDOM)
        len = snprintf(g_settings_text, sizeof g_settings_text,
                       "CUEMU_SCHEDULE=random:%llu CUEMU_THREADS=%d", s.seed, s.threads);
    else
        len = snprintf(g_settings_text, sizeof g_settings_text,
                       "CUEMU_SCHEDULE=%s CUEMU_THREADS=%d", sched_name, s.threads);
    if (s.weak_memory)
        snprintf(g_settings_text + len, sizeof g_settings_text - len, " CUEMU_MEMORY=weak:%llu",
                 s.memory_seed);
}

} // namespace

const Settings &settings()
{
    std::call_once(g_settings_once, load_settings);
    return g_settings;
}

const char *settings_text()
{
    settings();
    return g_settings_text;
}

} // namespace cuemu
