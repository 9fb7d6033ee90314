/*
 * test_emu.c - Criterion tests of the CPU emulator (common/emu).
 *
 * The test programs in tests/emu/programs/ are built by `make test-emu`
 * with emu-nvcc; these tests run them under different schedules and worker
 * counts and check their output and exit status.  The driver tests call
 * emu-nvcc themselves on tests/emu/driver/.
 *
 * Environment (set by emu.mk): CUEMU_TEST_BIN (built programs),
 * CUEMU_TEST_SRC (tests/emu), EMU_NVCC (the driver).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/cuda_exit.h" /* EMU_DIAGNOSTIC_EXIT: the kit's exit codes */

enum { DIAG_EXIT = EMU_DIAGNOSTIC_EXIT };

struct result {
    int status; /* exit code, or 128 + signal */
    char out[65536];
    char err[65536];
};

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
    unlink(path);
}

/* Runs `env_assignments command` through the shell, capturing both streams. */
static void run(struct result *r, const char *env, const char *fmt, ...)
{
    char cmd[4096], tail[3000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tail, sizeof tail, fmt, ap);
    va_end(ap);
    char out_path[] = "/tmp/emu-test-out-XXXXXX", err_path[] = "/tmp/emu-test-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    close(fo);
    close(fe);
    snprintf(cmd, sizeof cmd, "cd %s && env %s %s >%s 2>%s", env_or("CUEMU_TEST_BIN", "build/emu/tests"),
             env ? env : "", tail, out_path, err_path);
    int st = system(cmd);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    slurp(out_path, r->out, sizeof r->out);
    slurp(err_path, r->err, sizeof r->err);
}

#define EXPECT_CONTAINS(hay, needle)                                                       \
    cr_expect(strstr((hay), (needle)) != NULL, "expected \"%s\" in:\n%s", (needle), (hay))

static const char *SCHEDULES[] = {
    "CUEMU_SCHEDULE=inorder CUEMU_THREADS=2",
    "CUEMU_SCHEDULE=reverse CUEMU_THREADS=2",
    "CUEMU_SCHEDULE=random:1 CUEMU_THREADS=2",
    "CUEMU_SCHEDULE=random:99 CUEMU_THREADS=1",
    "CUEMU_SCHEDULE=warps CUEMU_THREADS=2",
    "CUEMU_SCHEDULE=warps-reverse CUEMU_THREADS=1",
};

/* A self-checking program passes under every schedule. */
static void passes_everywhere(const char *prog, const char *args)
{
    static struct result r;
    char ok[128];
    snprintf(ok, sizeof ok, "%s: ok", prog);
    for (size_t i = 0; i < sizeof SCHEDULES / sizeof *SCHEDULES; i++) {
        run(&r, SCHEDULES[i], "./%s %s", prog, args);
        cr_expect_eq(r.status, 0, "%s under %s exited %d\nstdout:\n%s\nstderr:\n%s", prog,
                     SCHEDULES[i], r.status, r.out, r.err);
        cr_expect(strstr(r.out, ok) != NULL, "%s under %s:\n%s%s", prog, SCHEDULES[i], r.out, r.err);
        /* no program here reads memory it did not write (initcheck) */
        cr_expect(strstr(r.err, "never written") == NULL, "%s under %s:\n%s", prog, SCHEDULES[i], r.err);
    }
}

/* ---- the subset, feature by feature -------------------------------------- */

Test(subset, indexing_3d_and_warpsize) { passes_everywhere("indexing", ""); }
Test(subset, qualifiers_templates_constant_device_vars) { passes_everywhere("qualifiers", ""); }
Test(subset, static_and_dynamic_shared_memory) { passes_everywhere("shared", ""); }
Test(subset, syncthreads_variants_syncwarp_fences) { passes_everywhere("sync", ""); }
Test(subset, shuffles_votes_activemask_bits) { passes_everywhere("warp", ""); }
Test(subset, atomics_under_contention) { passes_everywhere("atomics", ""); }
Test(subset, vectors_ldg_minmax_volatile_printf) { passes_everywhere("misc", ""); }
Test(subset, runtime_api_and_its_errors) { passes_everywhere("runtime_api", ""); }
/* Rounding-mode intrinsics against the host FPU in each mode (one
 * schedule: the arithmetic does not depend on it). */
Test(subset, math_rounding_modes_are_exact)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2", "./math_rounding");
    cr_expect_eq(r.status, 0, "math_rounding exited %d\n%s%s", r.status, r.out, r.err);
    EXPECT_CONTAINS(r.out, "math rounding: 189120 checks, 0 mismatches");
}
/* Does this machine have fused multiply-add?  emu-nvcc contracts device
 * code only where it does (x86-64: the "fma" flag of /proc/cpuinfo;
 * aarch64: always). */
static int machine_has_fma(void)
{
#if defined(__aarch64__)
    return 1;
#else
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int has = 0;
    while (f && !has && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0)
            has = strstr(line, " fma ") != NULL || strstr(line, " fma\n") != NULL;
    if (f)
        fclose(f);
    return has;
#endif
}

/* Device code's a*b+c is one fused multiply-add, as under nvcc's default
 * --fmad=true, where the machine has FMA (else separate roundings, as
 * before); host code and the _rn intrinsics never are; -fmad=false turns
 * it off. */
Test(subset, device_code_contracts_like_nvcc_fmad)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2", "./fma_contract");
    cr_expect_eq(r.status, 0, "fma_contract exited %d\n%s%s", r.status, r.out, r.err);
    EXPECT_CONTAINS(r.out, "fma_contract: ok");
    if (machine_has_fma()) {
        EXPECT_CONTAINS(r.out, "float  a*a - c = 5.96046448e-08, __fmul_rn(a, a) - c = 0\n");
        EXPECT_CONTAINS(r.out, "double a*a - c = 5.5511151231257827e-17, __dmul_rn(a, a) - c = 0\n");
        EXPECT_CONTAINS(r.out, "host   a*a - c = 0\ncontracted\n");
    } else {
        EXPECT_CONTAINS(r.out, "separate\n");
    }
    const char *nvcc = env_or("EMU_NVCC", "common/emu/emu-nvcc");
    const char *src = env_or("CUEMU_TEST_SRC", "tests/emu");
    run(&r, "", "%s -O2 -fmad=false -o fma_contract_off %s/programs/fma_contract.cu", nvcc, src);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run(&r, "CUEMU_THREADS=2", "./fma_contract_off");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.out, "float  a*a - c = 0, __fmul_rn(a, a) - c = 0\n");
    EXPECT_CONTAINS(r.out, "separate\nfma_contract: ok\n");
}

Test(subset, ordinary_cuda_program_shfl_reduce)
{
    static struct result first, r;
    run(&first, "CUEMU_SCHEDULE=inorder", "./shfl_reduce");
    cr_assert_eq(first.status, 0, "%s%s", first.out, first.err);
    EXPECT_CONTAINS(first.out, "PASS");
    /* Same output whatever the schedule or the number of workers. */
    for (size_t i = 0; i < sizeof SCHEDULES / sizeof *SCHEDULES; i++) {
        run(&r, SCHEDULES[i], "./shfl_reduce");
        cr_expect_str_eq(r.out, first.out, "under %s", SCHEDULES[i]);
    }
}

Test(subset, device_printf_once)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2", "./misc");
    const char *line = "hello from the device: 42 0.50\n";
    const char *at = strstr(r.out, line);
    cr_expect(at != NULL, "%s", r.out);
    cr_expect(at == NULL || strstr(at + 1, line) == NULL, "printed more than once:\n%s", r.out);
}

/* ---- real CUDA code (issue 12): each program prints the lines a GPU prints
 * (tests/gpu/device-emu-compare.sh compares them) and checks itself ---- */

/* A self-checking program that prints the same lines under every schedule
 * and worker count. */
static void same_output_everywhere(const char *prog)
{
    static struct result first, r;
    char ok[128];
    snprintf(ok, sizeof ok, "%s: ok", prog);
    run(&first, "CUEMU_SCHEDULE=inorder CUEMU_THREADS=1", "./%s", prog);
    cr_assert_eq(first.status, 0, "%s exited %d\n%s%s", prog, first.status, first.out, first.err);
    cr_expect(strstr(first.out, ok) != NULL, "%s:\n%s%s", prog, first.out, first.err);
    for (size_t i = 0; i < sizeof SCHEDULES / sizeof *SCHEDULES; i++) {
        run(&r, SCHEDULES[i], "./%s", prog);
        cr_expect_eq(r.status, 0, "%s under %s exited %d\n%s", prog, SCHEDULES[i], r.status, r.err);
        cr_expect_str_eq(r.out, first.out, "%s under %s", prog, SCHEDULES[i]);
    }
}

Test(cuda, cooperative_groups_tiles_reduce_scan) { same_output_everywhere("cg_tiles"); }
Test(cuda, cooperative_groups_coalesced_partitions_grid_sync) { same_output_everywhere("cg_coalesced"); }
Test(cuda, warp_atomic_bit_intrinsics_printf_clock) { same_output_everywhere("intrinsics"); }
Test(cuda, launch_forms_and_cudaLaunchKernel) { same_output_everywhere("launch_forms"); }
Test(cuda, runtime_api_breadth) { same_output_everywhere("runtime_breadth"); }

Test(cuda, tile_shuffle_skipped_by_a_lane_is_divergent)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=1", "./diag_cg tile");
    cr_expect_eq(r.status, DIAG_EXIT, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.err, "kernel 'tile_skip'");
    EXPECT_CONTAINS(r.err, "with mask 0x000000ff, but lane 5, thread (5,0,0), named in the mask, has exited");
    EXPECT_CONTAINS(r.err, "diag_cg.cu:20");
}
Test(cuda, lanes_naming_each_other_in_different_operations)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=1", "./diag_cg mixed");
    cr_expect_eq(r.status, DIAG_EXIT, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.err, "divergent warp operation: lane 3 calls __ballot/any/all_sync()");
}
Test(cuda, grid_sync_needs_a_cooperative_launch)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=1", "./diag_cg grid");
    cr_expect_eq(r.status, DIAG_EXIT, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.err, "not launched with cudaLaunchCooperativeKernel");
    run(&r, "CUEMU_THREADS=1", "./diag_cg grid-exit");
    cr_expect_eq(r.status, DIAG_EXIT, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.err, "divergent grid sync");
    EXPECT_CONTAINS(r.err, "1 block(s) of the grid have exited without it");
    for (size_t i = 0; i < sizeof SCHEDULES / sizeof *SCHEDULES; i++) {
        run(&r, SCHEDULES[i], "./diag_cg fine");
        cr_expect_eq(r.status, 0, "under %s: %s%s", SCHEDULES[i], r.out, r.err);
    }
}

/* ---- what a GPU prints (issue 12, the public corpus): each test fails on
 * the emulator as it was before the change its comment names ---- */

/* The device reports an H100 SXM's properties, whatever CUEMU_THREADS is:
 * the output is the one an H100 printed (tests/emu/expected/). */
Test(gpu_alike, device_properties_are_an_h100s)
{
    static struct result r;
    static char want[8192];
    char path[512];
    snprintf(path, sizeof path, "%s/expected/device_h100.txt", env_or("CUEMU_TEST_SRC", "tests/emu"));
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot read %s", path);
    size_t n = fread(want, 1, sizeof want - 1, f);
    want[n] = 0;
    fclose(f);
    const char *workers[] = {"CUEMU_THREADS=1", "CUEMU_THREADS=3"};
    for (int i = 0; i < 2; i++) {
        run(&r, workers[i], "./device_h100");
        cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
        cr_expect_str_eq(r.out, want, "under %s", workers[i]);
    }
}

/* A cooperative grid sized as SMs x the occupancy API's blocks per SM (132
 * x 2 blocks of 1024 threads, 132 x 32 of 32) runs, all blocks resident;
 * one block more is refused, as on a GPU. */
Test(gpu_alike, cooperative_grid_that_fills_the_h100, .timeout = 120)
{
    static struct result r;
    const char *sched[] = {"CUEMU_SCHEDULE=inorder CUEMU_THREADS=2",
                           "CUEMU_SCHEDULE=reverse CUEMU_THREADS=1"};
    for (int i = 0; i < 2; i++) {
        run(&r, sched[i], "./coop_full");
        cr_expect_eq(r.status, 0, "under %s: %s%s", sched[i], r.out, r.err);
        EXPECT_CONTAINS(r.out, "1024 threads per block: 264 blocks (2 per SM) met at grid.sync(): "
                               "every block saw every other");
        EXPECT_CONTAINS(r.out, "265 blocks: cudaErrorCooperativeLaunchTooLarge");
        EXPECT_CONTAINS(r.out, "32 threads per block: 4224 blocks (32 per SM) met at grid.sync()");
        EXPECT_CONTAINS(r.out, "4225 blocks: cudaErrorCooperativeLaunchTooLarge");
        EXPECT_CONTAINS(r.out, "coop_full: ok");
    }
}

/* The warp-synchronous last-warp idiom on volatile memory without
 * __syncwarp(): the warp's lanes take each volatile access together. */
Test(gpu_alike, warp_synchronous_volatile_idiom) { same_output_everywhere("warp_volatile"); }

/* Kernel arguments are bytes: one host copy per launch, none per thread,
 * no destructor on the device (CUDA by Example's Lock). */
Test(gpu_alike, kernel_arguments_are_bytes)
{
    static struct result r;
    same_output_everywhere("kernel_args");
    run(&r, "CUEMU_THREADS=2", "./kernel_args");
    EXPECT_CONTAINS(r.out, "<<<>>>: 1024 threads counted, host copies 1, destroyed 1, 1024 threads "
                           "saw only their own change");
    EXPECT_CONTAINS(r.out, "cudaLaunchKernel: 3072 threads counted, host copies 2, destroyed 2");
}

/* CUB and Thrust are refused at once, in one line (README: why). */
static void refused(const char *file, const char *lib)
{
    static struct result r;
    const char *nvcc = env_or("EMU_NVCC", "common/emu/emu-nvcc");
    const char *src = env_or("CUEMU_TEST_SRC", "tests/emu");
    run(&r, "", "%s -o drv_refused %s/driver/%s", nvcc, src, file);
    cr_expect_eq(r.status, 2, "%s exited %d: %s", file, r.status, r.err);
    char want[128];
    snprintf(want, sizeof want, "the emulator does not support %s", lib);
    EXPECT_CONTAINS(r.err, want);
    const char *nl = strchr(r.err, '\n');
    cr_expect(nl != NULL && nl[1] == 0, "one line, not g++'s errors:\n%s", r.err);
}
Test(cuda, thrust_is_refused_in_one_line) { refused("uses_thrust.cu", "Thrust"); }
Test(cuda, cub_is_refused_in_one_line) { refused("uses_cub.cu", "CUB"); }

/* ---- launch errors ----------------------------------------------------------- */

Test(launch, bad_configurations_fail_and_do_not_run)
{
    static struct result r;
    run(&r, "", "./launch_errors");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.out, "1025 threads: cudaErrorInvalidValue"); /* CUDA 13, H200 */
    EXPECT_CONTAINS(r.out, "64 KiB dynamic shared memory: cudaErrorInvalidValue");
    EXPECT_CONTAINS(r.out, "launch_errors: ok");
}

/* ---- schedules ------------------------------------------------------------------ */

Test(schedule, inorder)
{
    static struct result r;
    run(&r, "CUEMU_SCHEDULE=inorder CUEMU_THREADS=1", "./schedule_order");
    EXPECT_CONTAINS(r.out, "threads: 0 1 2 3 4 5 6 7\n");
    EXPECT_CONTAINS(r.out, "blocks: 0 1 2 3 4 5\n");
}

Test(schedule, default_is_inorder)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=1", "./schedule_order");
    EXPECT_CONTAINS(r.out, "threads: 0 1 2 3 4 5 6 7\n");
    EXPECT_CONTAINS(r.out, "blocks: 0 1 2 3 4 5\n");
}

Test(schedule, reverse)
{
    static struct result r;
    run(&r, "CUEMU_SCHEDULE=reverse CUEMU_THREADS=1", "./schedule_order");
    EXPECT_CONTAINS(r.out, "threads: 7 6 5 4 3 2 1 0\n");
    EXPECT_CONTAINS(r.out, "blocks: 5 4 3 2 1 0\n");
}

Test(schedule, random_is_seeded_and_shuffles)
{
    static struct result a, b, c;
    run(&a, "CUEMU_SCHEDULE=random:1 CUEMU_THREADS=1", "./schedule_order");
    run(&b, "CUEMU_SCHEDULE=random:1 CUEMU_THREADS=1", "./schedule_order");
    run(&c, "CUEMU_SCHEDULE=random:2 CUEMU_THREADS=1", "./schedule_order");
    cr_expect_str_eq(a.out, b.out, "same seed, same order");
    cr_expect_str_neq(a.out, c.out, "different seeds, different orders");
    cr_expect(strstr(a.out, "threads: 0 1 2 3 4 5 6 7\n") == NULL, "%s", a.out);
    cr_expect(strstr(a.out, "threads: 7 6 5 4 3 2 1 0\n") == NULL, "%s", a.out);
}

Test(schedule, unseeded_random_runs)
{
    static struct result r;
    run(&r, "CUEMU_SCHEDULE=random", "./atomics");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
}

Test(schedule, missing_barrier_in_kogge_stone_is_caught)
{
    static struct result r;
    int wrong = 0;
    for (size_t i = 0; i < sizeof SCHEDULES / sizeof *SCHEDULES; i++) {
        run(&r, SCHEDULES[i], "./kogge_stone good");
        EXPECT_CONTAINS(r.out, "scan ok");
        run(&r, SCHEDULES[i], "./kogge_stone bad");
        wrong += strstr(r.out, "scan WRONG") != NULL;
    }
    cr_expect(wrong > 0, "the racy scan gave right answers under every schedule");
}

/* Warps that meet their lanes at shuffles stay in step under the pass
 * schedules, so a barrier missing between one warp's store and another's
 * load goes unseen there; the warp-serial schedules run one warp through
 * the whole phase first and catch it. */
Test(schedule, warps_runs_one_warp_through_a_phase_first)
{
    static struct result r;
    run(&r, "CUEMU_SCHEDULE=inorder CUEMU_THREADS=2", "./warp_totals bad");
    EXPECT_CONTAINS(r.out, "sums ok");
    run(&r, "CUEMU_SCHEDULE=warps CUEMU_THREADS=2", "./warp_totals bad");
    EXPECT_CONTAINS(r.out, "sums WRONG");
    for (size_t i = 0; i < sizeof SCHEDULES / sizeof *SCHEDULES; i++) {
        run(&r, SCHEDULES[i], "./warp_totals good");
        EXPECT_CONTAINS(r.out, "sums ok");
    }
}

Test(schedule, warps_keeps_the_block_order)
{
    static struct result r;
    run(&r, "CUEMU_SCHEDULE=warps CUEMU_THREADS=1", "./schedule_order");
    EXPECT_CONTAINS(r.out, "threads: 0 1 2 3 4 5 6 7\n");
    EXPECT_CONTAINS(r.out, "blocks: 0 1 2 3 4 5\n");
    run(&r, "CUEMU_SCHEDULE=warps-reverse CUEMU_THREADS=1", "./schedule_order");
    EXPECT_CONTAINS(r.out, "blocks: 5 4 3 2 1 0\n");
}

/* ---- concurrency between blocks --------------------------------------------------- */

Test(concurrency, block_spins_on_flag_of_other_block)
{
    static struct result r;
    const char *envs[] = {"CUEMU_THREADS=2 CUEMU_SCHEDULE=inorder CUEMU_TIMEOUT=10",
                          "CUEMU_THREADS=2 CUEMU_SCHEDULE=reverse CUEMU_TIMEOUT=10",
                          "CUEMU_THREADS=2 CUEMU_SCHEDULE=random:5 CUEMU_TIMEOUT=10"};
    for (int i = 0; i < 3; i++) {
        run(&r, envs[i], "./concurrent");
        cr_expect_eq(r.status, 0, "%s: %s%s", envs[i], r.out, r.err);
        EXPECT_CONTAINS(r.out, "handshake: ok");
    }
}

Test(concurrency, chained_blocks_in_order)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2 CUEMU_SCHEDULE=inorder CUEMU_TIMEOUT=10", "./concurrent chain");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.out, "chain: ok");
}

Test(concurrency, chained_blocks_deadlock_in_reverse)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=1 CUEMU_SCHEDULE=reverse CUEMU_TIMEOUT=1", "./concurrent chain");
    cr_expect_eq(r.status, DIAG_EXIT, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.err, "deadlock");
    EXPECT_CONTAINS(r.err, "kernel 'chain'");
    EXPECT_CONTAINS(r.err, "block (15,0,0)");
    EXPECT_CONTAINS(r.err, "thread (0,0,0)");
}

/* ---- memory ordering: CUEMU_MEMORY=weak ------------------------------------------ */

static const char *WEAK[] = {
    "CUEMU_MEMORY=weak:1 CUEMU_THREADS=2",
    "CUEMU_MEMORY=weak:2 CUEMU_THREADS=2 CUEMU_SCHEDULE=reverse",
    "CUEMU_MEMORY=weak:3 CUEMU_THREADS=3 CUEMU_SCHEDULE=random:4",
};

/* Fenced, atomic-published, packed and warp-published (each lane fenced)
 * hand-offs stay right in both modes, and draw no ordering warning. */
Test(memory, ordered_message_passing_is_right_in_weak_mode)
{
    static struct result r;
    const char *modes[] = {"fence", "atomic", "packed", "warp"};
    for (int m = 0; m < 4; m++)
        for (size_t i = 0; i < sizeof WEAK / sizeof *WEAK; i++) {
            run(&r, WEAK[i], "./message_passing %s", modes[m]);
            cr_expect_eq(r.status, 0, "%s under %s:\n%s%s", modes[m], WEAK[i], r.out, r.err);
            EXPECT_CONTAINS(r.out, "stale=0 of");
            cr_expect(strstr(r.err, "warning") == NULL, "%s under %s:\n%s", modes[m], WEAK[i],
                      r.err);
        }
}

/* The bug of issue 17: value and flag without a fence between them, on
 * the writer's side (nofence; relaxed: published by atomicExch;
 * warpnofence: lanes' stores, __syncwarp, atomicExch) or the reader's
 * (reader: flag, then value).  The default mode hides it (as a GPU usually
 * does); the weak mode must show it with every seed. */
Test(memory, missing_fence_is_caught_in_weak_mode_only)
{
    static struct result r;
    const char *modes[] = {"nofence", "relaxed", "warpnofence", "reader"};
    for (int m = 0; m < 4; m++) {
        run(&r, "CUEMU_THREADS=2", "./message_passing %s", modes[m]);
        cr_expect_eq(r.status, 0, "%s in the default mode:\n%s%s", modes[m], r.out, r.err);
        for (size_t i = 0; i < sizeof WEAK / sizeof *WEAK; i++) {
            run(&r, WEAK[i], "./message_passing %s", modes[m]);
            cr_expect_eq(r.status, 1, "%s under %s went unseen:\n%s%s", modes[m], WEAK[i],
                         r.out, r.err);
            cr_expect(strstr(r.out, "stale=0 of") == NULL, "%s", r.out);
        }
    }
}

/* A missing fence is explained: kernel, both blocks, the lines of the two
 * stores (writer's side) or of the four accesses (reader's side). */
Test(memory, missing_fence_is_named_with_blocks_and_lines)
{
    static struct result r;
    run(&r, WEAK[0], "./message_passing warpnofence");
    EXPECT_CONTAINS(r.err, "cuemu: warning: kernel 'pass': block (1,0,0) read at");
    EXPECT_CONTAINS(r.err, "the store that block (0,0,0) made at ");
    EXPECT_CONTAINS(r.err, "message_passing.cu:");
    EXPECT_CONTAINS(r.err, "before its earlier store at ");
    EXPECT_CONTAINS(r.err, "CUEMU_MEMORY=weak:1");
    run(&r, WEAK[0], "./message_passing reader");
    EXPECT_CONTAINS(r.err, "a value that block (0,0,0) stored at");
    EXPECT_CONTAINS(r.err, "the flag that block (0,0,0) stored at");
    EXPECT_CONTAINS(r.err, "with no __threadfence() between its two loads");
    cr_expect(strstr(r.err, "error") == NULL, "a warning, not an error:\n%s", r.err);
}

/* The weak mode and its seed appear in every diagnostic's settings line;
 * a setting it does not understand stops the run (exit 2), naming it. */
Test(memory, setting_named_in_diagnostics_and_checked)
{
    static struct result r;
    run(&r, "CUEMU_MEMORY=weak:7", "./diag_barrier exit");
    cr_expect_eq(r.status, DIAG_EXIT, "%s", r.err);
    EXPECT_CONTAINS(r.err, "CUEMU_MEMORY=weak:7");
    run(&r, "CUEMU_MEMORY=weakest", "./message_passing fence");
    cr_expect_eq(r.status, 2, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error: CUEMU_MEMORY='weakest' not understood "
                           "(strong | weak | weak:SEED, SEED a whole number)");
    run(&r, "CUEMU_MEMORY=weak:7x", "./message_passing fence");
    cr_expect_eq(r.status, 2, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error: CUEMU_MEMORY='weak:7x' not understood");
}

/* ---- diagnostics ------------------------------------------------------------------- */

static void diagnoses(const char *env, const char *cmd, const char *kernel, const char *block,
                      const char *thread, const char *what)
{
    /* One worker unless the case says otherwise: with two, either of two faulting blocks
     * may be caught first, and the test names the block it expects. */
    static struct result r;
    char envs[512];
    snprintf(envs, sizeof envs, "CUEMU_THREADS=1 %s", env);
    run(&r, envs, "%s", cmd);
    cr_expect_eq(r.status, DIAG_EXIT, "%s exited %d\n%s%s", cmd, r.status, r.out, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error:");
    if (kernel)
        EXPECT_CONTAINS(r.err, kernel);
    if (block)
        EXPECT_CONTAINS(r.err, block);
    if (thread)
        EXPECT_CONTAINS(r.err, thread);
    EXPECT_CONTAINS(r.err, what);
    cr_expect(strstr(r.out, "no error detected") == NULL, "%s", r.out);
}

Test(diagnostic, out_of_bounds_past_end)
{
    /* n = 1000: the thread with global index 1000 is block 3, thread 232. */
    diagnoses("", "./diag_oob global", "kernel 'read_past_end'", "block (3,0,0)",
              "thread (232,0,0)", "byte offset 4000 of a 4000-byte device allocation");
}
Test(diagnostic, out_of_bounds_before_start)
{
    diagnoses("", "./diag_oob before", "kernel 'read_before_start'", "block (0,0,0)",
              "thread (0,0,0)", "before its start");
}
Test(diagnostic, out_of_bounds_dynamic_shared)
{
    diagnoses("", "./diag_oob shared", "kernel 'shared_past_end'", "block (0,0,0)",
              "thread (63,0,0)", "dynamic shared memory");
}
Test(diagnostic, null_pointer_in_kernel)
{
    diagnoses("", "./diag_oob null", "kernel 'through_null'", "block (0,0,0)", "thread (0,0,0)",
              "invalid memory access");
}
Test(diagnostic, use_after_free)
{
    diagnoses("", "./diag_oob freed", "kernel 'use_after_free'", NULL, NULL, "after cudaFree");
}
Test(diagnostic, host_out_of_bounds)
{
    diagnoses("", "./diag_oob host", NULL, NULL, NULL, "host code: out-of-bounds access");
}
Test(diagnostic, divergent_barrier_after_early_exit)
{
    diagnoses("", "./diag_barrier exit", "kernel 'early_exit'", "block (0,0,0)",
              "thread (50,0,0)", "divergent barrier");
}
Test(diagnostic, divergent_barrier_two_sites)
{
    diagnoses("CUEMU_SCHEDULE=reverse", "./diag_barrier split", "kernel 'two_barriers'",
              "block (0,0,0)", "thread (16,0,0)", "divergent barrier");
}
Test(diagnostic, divergent_warp_operation)
{
    diagnoses("", "./diag_barrier warp", "kernel 'warp_exit'", "block (0,0,0)",
              "thread (5,0,0)", "divergent warp operation");
}
/* Issue 16: a shuffle mask that leaves out lanes running the shuffle
 * (synccheck misses it on a GPU), and one that names lanes that left. */
Test(diagnostic, shuffle_mask_leaves_out_executing_lane)
{
    diagnoses("", "./diag_barrier half-mask", "kernel 'half_mask'", "block (0,0,0)",
              "thread (16,0,0)", "mask that leaves out a lane executing it: lane 16 of warp 0 "
              "executes __shfl_down_sync() at ");
    diagnoses("", "./diag_barrier half-mask", NULL, NULL, NULL, "diag_barrier.cu:38 with mask 0x0000ffff");
}
Test(diagnostic, shuffle_mask_names_lanes_that_left)
{
    diagnoses("", "./diag_barrier absent-lanes", "kernel 'mask_names_absent_lanes'",
              "block (0,0,0)", "lane 16, thread (16,0,0), named in the mask, has exited",
              "divergent warp operation: in warp 0");
}
Test(diagnostic, exit_after_last_barrier_is_fine)
{
    static struct result r;
    run(&r, "", "./diag_barrier fine");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
}
Test(diagnostic, deadlock_after_timeout)
{
    diagnoses("CUEMU_TIMEOUT=1 CUEMU_THREADS=2", "./diag_deadlock", "kernel 'wait_forever'",
              "block (2,0,0)", "thread (3,0,0)", "deadlock: no progress for 1 s");
}
Test(diagnostic, device_assert)
{
    diagnoses("", "./device_assert", "kernel 'checked'", "block (0,0,0)", "thread (17,0,0)",
              "device assertion");
}

/* ---- reads of device memory never written (initcheck.cpp) ------------------------------ */

/* prog's default run prints the GPU's answer `gpu` and warns once with `where`
 * (file:line of the read), `what` and `site` (the allocation and the line
 * that allocated it) and, under the inorder
 * schedule, `first` (the offset its first such read has there); under
 * CUEMU_INITCHECK=stop it stops there (exit 86); CUEMU_FRESH=poison gives
 * another answer (the 0xcd bytes); CUEMU_INITCHECK=off warns of nothing. */
static void initcheck_case(const char *prog, const char *gpu, const char *where, const char *what,
                           const char *site, const char *first)
{
    static struct result r;
    for (size_t i = 0; i < 3; i++) {
        run(&r, SCHEDULES[i], "./%s", prog);
        cr_expect_eq(r.status, 0, "%s under %s: %d\n%s", prog, SCHEDULES[i], r.status, r.err);
        EXPECT_CONTAINS(r.out, gpu);
        EXPECT_CONTAINS(r.err, "cuemu: warning: in kernel '");
        EXPECT_CONTAINS(r.err, "read of device memory never written, at ");
        EXPECT_CONTAINS(r.err, where);
        EXPECT_CONTAINS(r.err, what);
        EXPECT_CONTAINS(r.err, site);
        if (i == 0)
            EXPECT_CONTAINS(r.err, first);
        EXPECT_CONTAINS(r.err, "the read gives 0, as a fresh allocation on a GPU usually does");
    }
    run(&r, "CUEMU_INITCHECK=stop", "./%s", prog);
    cr_expect_eq(r.status, DIAG_EXIT, "%s under stop: %d\n%s", prog, r.status, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error: in kernel '");
    EXPECT_CONTAINS(r.err, where);
    cr_expect(strstr(r.out, gpu) == NULL, "stop printed the answer:\n%s", r.out);
    run(&r, "CUEMU_FRESH=poison", "./%s", prog);
    cr_expect_eq(r.status, 0, "%s under poison: %d\n%s", prog, r.status, r.err);
    cr_expect(strstr(r.out, gpu) == NULL, "poison still printed the GPU's answer:\n%s", r.out);
    EXPECT_CONTAINS(r.err, "the read gives 0xcd bytes");
    run(&r, "CUEMU_INITCHECK=off", "./%s", prog);
    EXPECT_CONTAINS(r.out, gpu);
    cr_expect(strstr(r.err, "never written") == NULL, "off still warned:\n%s", r.err);
}

Test(initcheck, uninitialised_managed_accumulator)
{
    initcheck_case("initcheck_managed_accumulator", "sum = 500500", "initcheck_managed_accumulator.cu:11",
                   "of a 4-byte allocation (cudaMallocManaged at ", "initcheck_managed_accumulator.cu:19);",
                   "4 byte(s) at byte offset 0 of");
}
Test(initcheck, second_launch_reads_what_the_first_never_wrote)
{
    initcheck_case("initcheck_second_launch", "sum = 261632", "initcheck_second_launch.cu:19",
                   "of a 4096-byte allocation (cudaMalloc at ", "initcheck_second_launch.cu:28);",
                   "4 byte(s) at byte offset 4 of");
}
Test(initcheck, read_past_a_too_short_memset)
{
    initcheck_case("initcheck_short_memset", "all 16", "initcheck_short_memset.cu:12",
                   "of a 1024-byte allocation (cudaMalloc at ", "initcheck_short_memset.cu:24);",
                   "4 byte(s) at byte offset 64 of");
}

/* Every thread of 64 blocks reads never-written memory: one warning, and
 * done long before the emulator's 3 s without progress (a deadlock). */
Test(initcheck, every_thread_reads_never_written)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2 CUEMU_TIMEOUT=3", "./%s", "initcheck_every_thread");
    cr_expect_eq(r.status, 0, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.out, "sum = 0");
    EXPECT_CONTAINS(r.err, "initcheck_every_thread.cu:13");
    cr_expect(strstr(r.err, "deadlock") == NULL, "reported a deadlock:\n%s", r.err);
}

/* ---- notes that say why a run is not a GPU's (progress.cpp, fastmath.cpp) -------------- */

/* Occurrences of needle in hay. */
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* A launch of about 2 s (8 blocks of 0.5 s on 2 workers) under a 0.3 s
 * threshold: a note (another at 1.8 s on a slower clock), naming the kernel, its launch line, its grid and its
 * progress; stdout as without it.  (0.5 s a block: 1000 million ticks of a
 * time-stamp counter of at most 2 GHz.) */
Test(notes, slow_launch_says_how_far_it_is, .timeout = 60)
{
    static struct result r, quiet;
    run(&r, "CUEMU_THREADS=2 CUEMU_SLOW_NOTE=0.3", "./slow_launch 1000");
    cr_expect_eq(r.status, 0, "status %d\n%s%s", r.status, r.out, r.err);
    EXPECT_CONTAINS(r.out, "slow_launch: ok");
    EXPECT_CONTAINS(r.err, "cuemu: note: kernel 'spin_blocks' (launched at ");
    EXPECT_CONTAINS(r.err, "slow_launch.cu:33), grid (8,1,1) of blocks (32,1,1), has run ");
    EXPECT_CONTAINS(r.err, " on 2 worker thread(s) (CUEMU_THREADS): ");
    EXPECT_CONTAINS(r.err, " of 8 blocks done, ");
    int notes = count_of(r.err, "cuemu: note: kernel");
    cr_expect(notes == 1 || notes == 2, "%d notes (one at 0.3 s, another at 1.8 s if it runs so "
                                        "long):\n%s", notes, r.err);
    cr_expect(strstr(r.err, "'quick'") == NULL, "the fast launch got a note:\n%s", r.err);
    run(&quiet, "CUEMU_THREADS=2 CUEMU_SLOW_NOTE=0", "./slow_launch 1000");
    cr_expect_str_eq(quiet.out, r.out, "the note changed stdout");
    cr_expect(strstr(quiet.err, "cuemu: note") == NULL, "CUEMU_SLOW_NOTE=0 still noted:\n%s", quiet.err);
}

/* 20 launches of about 0.08 s (8 blocks of 0.02 s on 2 workers), each far
 * under a 0.5 s threshold: their total is noted once it passes it, naming
 * the latest launch.  (Whether a launch slowed past 0.5 s by a loaded
 * machine noted itself is not checked: it may.) */
Test(notes, many_short_launches_note_their_total, .timeout = 60)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2 CUEMU_SLOW_NOTE=0.5", "./slow_launch 50 20");
    cr_expect_eq(r.status, 0, "status %d\n%s%s", r.status, r.out, r.err);
    EXPECT_CONTAINS(r.out, "slow_launch: ok");
    EXPECT_CONTAINS(r.err, " kernel launches have taken ");
    EXPECT_CONTAINS(r.err, " in all (the latest: kernel '");
    EXPECT_CONTAINS(r.err, "slow_launch.cu:33, grid (8,1,1) of blocks (32,1,1), ");
}

/* Below the threshold (the default, 10 s, and an explicit 30 s) a launch
 * of about 0.4 s says nothing. */
Test(notes, launch_below_the_threshold_is_quiet, .timeout = 60)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=2", "./slow_launch 200");
    cr_expect_eq(r.status, 0, "status %d\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "cuemu: note") == NULL, "default threshold noted:\n%s", r.err);
    run(&r, "CUEMU_THREADS=2 CUEMU_SLOW_NOTE=30", "./slow_launch 200");
    cr_expect(strstr(r.err, "cuemu: note") == NULL, "30 s threshold noted:\n%s", r.err);
}

/* A value the emulator cannot read stops the run at once (exit 2), naming it. */
Test(notes, bad_settings_stop_the_run)
{
    static struct result r;
    run(&r, "CUEMU_SLOW_NOTE=1O", "./slow_launch 1");
    cr_expect_eq(r.status, 2, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error: CUEMU_SLOW_NOTE='1O' not understood");
    run(&r, "CUEMU_SLOW_NOTE=-1", "./slow_launch 1");
    cr_expect_eq(r.status, 2, "status %d\n%s", r.status, r.err);
    run(&r, "CUEMU_FASTMATH=loud", "./fastmath_note");
    cr_expect_eq(r.status, 2, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error: CUEMU_FASTMATH='loud' not understood (note | off | stop)");
}

/* ---- settings: a value the emulator cannot read stops the run --------------------- */

/* Under env, the program stops at its first CUDA call with exit 2 and
 * message on stderr, before it printed anything: a run that went on with
 * the default would not be the one asked for. */
static void stops_on(const char *env, const char *message)
{
    static struct result r;
    run(&r, env, "./slow_launch 1");
    cr_expect_eq(r.status, 2, "%s: status %d\n%s", env, r.status, r.err);
    EXPECT_CONTAINS(r.err, message);
    cr_expect(strstr(r.out, "slow_launch:") == NULL, "%s: the program ran on:\n%s", env, r.out);
}

Test(settings, bad_schedule_stops_the_run)
{
    const char *want = "(inorder | reverse | random | random:SEED | warps | warps-reverse, "
                       "SEED a whole number)";
    char msg[256];
    stops_on("CUEMU_SCHEDULE=backwards", "cuemu: error: CUEMU_SCHEDULE='backwards' not understood");
    snprintf(msg, sizeof msg, "CUEMU_SCHEDULE='random:x' not understood %s", want);
    stops_on("CUEMU_SCHEDULE=random:x", msg);
    stops_on("CUEMU_SCHEDULE=random:-1", "CUEMU_SCHEDULE='random:-1' not understood");
}
Test(settings, bad_initcheck_stops_the_run)
{
    stops_on("CUEMU_INITCHECK=loud",
             "cuemu: error: CUEMU_INITCHECK='loud' not understood (warn | stop | off)");
}
Test(settings, bad_fresh_stops_the_run)
{
    stops_on("CUEMU_FRESH=poisson",
             "cuemu: error: CUEMU_FRESH='poisson' not understood (zero | poison)");
}
Test(settings, bad_threads_stops_the_run)
{
    stops_on("CUEMU_THREADS=two", "cuemu: error: CUEMU_THREADS='two' not understood "
                                  "(a whole number of worker threads, 1 or more)");
    stops_on("CUEMU_THREADS=0", "cuemu: error: CUEMU_THREADS='0' not understood");
}
Test(settings, bad_timeout_stops_the_run)
{
    stops_on("CUEMU_TIMEOUT=10s",
             "cuemu: error: CUEMU_TIMEOUT='10s' not understood (seconds above 0, at most 1e9, e.g. 30)");
    stops_on("CUEMU_TIMEOUT=0", "cuemu: error: CUEMU_TIMEOUT='0' not understood");
}
Test(settings, bad_stack_kb_stops_the_run)
{
    stops_on("CUEMU_STACK_KB=8", "cuemu: error: CUEMU_STACK_KB='8' not understood (KiB per CUDA "
                                 "thread, a whole number from 16 to 1048576)");
    stops_on("CUEMU_STACK_KB=64k", "cuemu: error: CUEMU_STACK_KB='64k' not understood");
}
Test(settings, unwritable_trace_stops_the_run)
{
    stops_on("CUEMU_TRACE=/nonexistent-dir/t.jsonl",
             "cuemu: error: CUEMU_TRACE='/nonexistent-dir/t.jsonl' not understood (the path of a "
             "file the program can write)");
}
/* Empty values mean the default, and the values the kit's grader and
 * Makefile set (suites' schedule=random:SEED, emu_memory=weak:17, the
 * grader's CUEMU_TIMEOUT as %g) are read. */
Test(settings, empty_and_kit_values_run)
{
    static struct result r;
    run(&r, "CUEMU_SCHEDULE= CUEMU_THREADS= CUEMU_TIMEOUT= CUEMU_STACK_KB= CUEMU_MEMORY= "
            "CUEMU_INITCHECK= CUEMU_FRESH= CUEMU_TRACE=", "./slow_launch 1");
    cr_expect_eq(r.status, 0, "status %d\n%s", r.status, r.err);
    run(&r, "CUEMU_SCHEDULE=random:11 CUEMU_THREADS=3 CUEMU_TIMEOUT=1.5 CUEMU_MEMORY=weak:17 "
            "CUEMU_FRESH=poison CUEMU_STACK_KB=16", "./slow_launch 1");
    cr_expect_eq(r.status, 0, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.out, "slow_launch: ok");
}

/* Each call site of an approximation whose bits the emulator lacks is
 * noted once, by its line (__sinf runs 4096 times at line 17); __logf,
 * rsqrtf and __fdividef, whose bits it has (src/mufu.h), are not noted;
 * off prints nothing and the same stdout; stop ends the run at the first
 * noted call (exit 86). */
Test(notes, fastmath_intrinsic_noted_once_per_site)
{
    static struct result r, off;
    run(&r, "CUEMU_THREADS=2", "./fastmath_note");
    cr_expect_eq(r.status, 0, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.out, "fastmath_note: ok");
    cr_expect_eq(count_of(r.err, "cuemu: note: "), 2, "two sites, two notes:\n%s", r.err);
    cr_expect_eq(count_of(r.err, "cuemu: note: __sinf at "), 1, "%s", r.err);
    EXPECT_CONTAINS(r.err, "fastmath_note.cu:17 is an approximation: a GPU computes it with its "
                           "special-function unit, whose bits the emulator does not have; "
                           "the emulator returns the C library's full-precision sinf instead");
    EXPECT_CONTAINS(r.err, "cuemu: note: __sincosf at ");
    EXPECT_CONTAINS(r.err, "fastmath_note.cu:25 is an approximation");
    cr_expect(strstr(r.err, "__logf") == NULL && strstr(r.err, "__fdividef") == NULL &&
                  strstr(r.err, "rsqrtf") == NULL,
              "a GPU's bits, noted all the same:\n%s", r.err);
    run(&off, "CUEMU_THREADS=2 CUEMU_FASTMATH=off", "./fastmath_note");
    cr_expect_eq(off.status, 0, "status %d\n%s", off.status, off.err);
    cr_expect_str_eq(off.out, r.out, "the note changed stdout");
    cr_expect(strstr(off.err, "cuemu: note") == NULL, "off still noted:\n%s", off.err);
    run(&r, "CUEMU_THREADS=2 CUEMU_FASTMATH=stop", "./fastmath_note");
    cr_expect_eq(r.status, DIAG_EXIT, "status %d\n%s", r.status, r.err);
    EXPECT_CONTAINS(r.err, "cuemu: error: in kernel 'logs' (launched at ");
    EXPECT_CONTAINS(r.err, "fastmath_note.cu:17 is an approximation");
    cr_expect(strstr(r.out, "fastmath_note: ok") == NULL, "stop let the run finish:\n%s", r.out);
}

/* A launch with a tracked allocation whose threads touch mostly shared
 * memory (NVIDIA's scan sample beside its partly written buffer):
 * initcheck's hooks skip accesses outside the tracked span, which must not
 * change what the program computes or what initcheck reports.  (What it
 * saves, 1.25x against 3.4x the CPU time of CUEMU_INITCHECK=off, is the
 * README's figure, not a timed test.) */
Test(initcheck, untracked_accesses_skip_the_hook)
{
    static struct result on, off;
    run(&on, "CUEMU_THREADS=2", "./initcheck_untracked_cost");
    run(&off, "CUEMU_THREADS=2 CUEMU_INITCHECK=off", "./initcheck_untracked_cost");
    cr_assert_eq(on.status, 0, "%s\n%s", on.out, on.err);
    cr_assert_eq(off.status, 0, "%s\n%s", off.out, off.err);
    EXPECT_CONTAINS(on.out, "result 679617");
    EXPECT_CONTAINS(off.out, "result 679617");
}

/* ---- the driver ----------------------------------------------------------------------- */

Test(driver, separate_compilation_of_cu_c_cpp_with_flags)
{
    static struct result r;
    const char *nvcc = env_or("EMU_NVCC", "common/emu/emu-nvcc");
    const char *src = env_or("CUEMU_TEST_SRC", "tests/emu");
    run(&r, "", "%s -O2 -arch=sm_90 -lineinfo -std=c++17 -I %s/driver -D EXTRA=5 -c -o drv_kernels.o "
                "%s/driver/kernels.cu",
        nvcc, src, src);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "ignoring") == NULL, "known nvcc flags are taken silently: %s", r.err);
    run(&r, "", "%s -O2 --made-up-flag -o drv_prog drv_kernels.o %s/driver/main.cpp %s/driver/prng.c",
        nvcc, src, src);
    cr_assert_eq(r.status, 0, "%s", r.err);
    EXPECT_CONTAINS(r.err, "ignoring unknown option --made-up-flag");
    run(&r, "", "./drv_prog");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.out, "last = ");
}

Test(driver, compile_errors_point_at_the_source)
{
    static struct result r;
    const char *nvcc = env_or("EMU_NVCC", "common/emu/emu-nvcc");
    const char *src = env_or("CUEMU_TEST_SRC", "tests/emu");
    run(&r, "", "%s -o drv_broken %s/driver/syntax_error.cu", nvcc, src);
    cr_expect_neq(r.status, 0);
    EXPECT_CONTAINS(r.err, "syntax_error.cu:4");
    EXPECT_CONTAINS(r.err, "undeclared_name");
}

/* threadIdx and friends are const, as in CUDA: a kernel cannot assign
 * them, and reads of threadIdx and blockIdx call no access hook. */
Test(driver, index_variables_are_read_only)
{
    static struct result r;
    const char *nvcc = env_or("EMU_NVCC", "common/emu/emu-nvcc");
    const char *src = env_or("CUEMU_TEST_SRC", "tests/emu");
    run(&r, "", "%s -c -o drv_index_write.o %s/driver/index_write.cu", nvcc, src);
    cr_expect_neq(r.status, 0, "assigning threadIdx.x compiled");
    EXPECT_CONTAINS(r.err, "index_write.cu:6");
    EXPECT_CONTAINS(r.err, "read-only");
}

/* ---- speed (a loose bound here; docs/perf-emu.md has the measured figures) ---- */

Test(speed, reduction_of_2_22_on_one_core, .timeout = 60)
{
    static struct result r;
    run(&r, "CUEMU_THREADS=1", "./perf_reduce");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    EXPECT_CONTAINS(r.out, "perf_reduce: ok");
    double ms = 1e9;
    const char *at = strstr(r.out, "256 threads/block: ");
    if (at)
        ms = atof(at + strlen("256 threads/block: "));
    cr_log_info("%s", r.out);
    cr_expect(ms < 10000, "2^22 reduction took %.0f ms on one worker", ms);
}
