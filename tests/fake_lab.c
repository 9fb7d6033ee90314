/*
 * fake_lab.c - a stand-in for a lab binary, for testing the grader's
 * judgement without a GPU.  It accepts the harness's command line, computes
 * the right answer on the CPU and then misbehaves as FAKE_MODE says:
 *   ok | wrong | unwritten | guard | flaky | hang | crash | cuda | emu |
 *   hostmem (out of host memory, as the harness's host_alloc ends) |
 *   watchdog (hangs until --timeout, then ends as the harness's watchdog does) |
 *   liar (prints PASS, writes nothing) | short (truncated output file) |
 *   hostcopied / inread (the right answer, with a GPU's copy counts of a
 *   host answer: 4000 bytes into `out`, or the whole input read back) |
 *   cache (a timed run answers its first call's input, not the last's:
 *   an output cache, blind to the changes of perturb.h) |
 *   awaitjudged (in a list: waits up to a second for the grader to have
 *   judged the case before (the grader removes an output once judged),
 *   and is right only if it has) | cutbefore (in a list: cuts the case
 *   before's output file to nothing and back to its size, again and again
 *   for half a second, as the grader may be reading it; then is right)
 * With FAKE_SEED set, only the cases of that seed misbehave (the others are
 * right): a list of cases (--cases) with one bad case in the middle.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "caselist.h"
#include "check.h"
#include "cli.h"
#include "cuda_exit.h"
#include "perturb.h"
#include "prng.h"
#include "reference.h"

/* The reduce/scan answer as 32-bit words (floats rounded from double). */
static void answer(const cli_opts *o, kind_t kind, const void *in, uint32_t *out)
{
    size_t len = out_len_for(kind, o->n);
    if (o->dtype == DT_INT32) {
        if (kind == KIND_REDUCE)
            out[0] = (uint32_t)ref_reduce_i32((const int32_t *)in, o->n, o->op);
        else
            ref_scan_i32((const int32_t *)in, o->n, o->op, o->exclusive, 0, (int32_t *)out);
        return;
    }
    double *d = malloc((len ? len : 1) * sizeof *d);
    if (kind == KIND_REDUCE)
        d[0] = ref_reduce_f32((const float *)in, o->n, o->op, NULL);
    else
        ref_scan_f32((const float *)in, o->n, o->op, o->exclusive, 0, d);
    for (size_t i = 0; i < len; i++) {
        float f = (float)d[i];
        memcpy(&out[i], &f, 4);
    }
    free(d);
}

/* The output file of the case before this one in a list (--out
 * DIR/caseI: DIR/case(I-1).bin), into path; 0 when there is none. */
static int before_path(const char *prefix, char *path, size_t len)
{
    const char *digits = prefix + strlen(prefix);
    while (digits > prefix && digits[-1] >= '0' && digits[-1] <= '9')
        digits--;
    int i = atoi(digits);
    if (!*digits || i == 0)
        return 0;
    snprintf(path, len, "%.*s%d.bin", (int)(digits - prefix), prefix, i - 1);
    return 1;
}

/* Has the grader judged the case before (it removes an output once
 * judged)?  Waits up to a second for it. */
static int before_judged(const char *prefix)
{
    char path[4096];
    if (!before_path(prefix, path, sizeof path))
        return 0;
    for (int t = 0; t < 100 && access(path, F_OK) == 0; t++)
        usleep(10000);
    return access(path, F_OK) != 0;
}

/* Cut the case before's output to nothing and give it its size back, over
 * and over for half a second: a grader that mapped it would fault in the
 * middle of reading it. */
static void cut_before(const char *prefix)
{
    char path[4096];
    struct stat st;
    if (!before_path(prefix, path, sizeof path) || stat(path, &st) != 0)
        return;
    for (int t = 0; t < 1000; t++)
        if (truncate(path, t % 2 ? st.st_size : 0) != 0)
            break; /* judged and removed */
        else
            usleep(500);
}

/* One case: right, or wrong in the way FAKE_MODE says. */
static int run_fake(const cli_opts *opts, void *ctx)
{
    (void)ctx;
    cli_opts o = *opts;
    const char *mode = getenv("FAKE_MODE") ? getenv("FAKE_MODE") : "ok";
    const char *only = getenv("FAKE_SEED");
    kind_t kind = getenv("FAKE_KIND") && strcmp(getenv("FAKE_KIND"), "scan") == 0 ? KIND_SCAN
                                                                                  : KIND_REDUCE;
    if (only && strtoull(only, NULL, 10) != o.seed)
        mode = "ok";
    if (!o.out) {
        fprintf(stderr, "fake_lab: --out is required\n");
        return EXIT_USAGE;
    }
    if (!strcmp(mode, "hang")) for (;;) pause();
    if (!strcmp(mode, "watchdog")) {
        sleep((unsigned)(o.timeout_s + 0.999));
        fprintf(stderr, "TIMEOUT: still running the kernel after %.0f s\n", o.timeout_s);
        exit(EXIT_TIMEOUT);
    }
    if (!strcmp(mode, "crash")) raise(SIGSEGV);
    if (!strcmp(mode, "cuda")) {
        fprintf(stderr, "harness.cu:1: CUDA error cudaErrorIllegalAddress (an illegal memory access)\n");
        exit(EXIT_CUDA_ERROR); /* as the harness does: the context is lost */
    }
    if (!strcmp(mode, "hostmem")) {
        fprintf(stderr, "out of host memory (4294967296 bytes): the host failed, not the GPU\n");
        exit(EXIT_HOST_ERROR);
    }
    if (!strcmp(mode, "emu")) {
        fprintf(stderr, "cuemu: out-of-bounds read in kernel k, block 3, thread 7\n");
        exit(86);
    }
    if (!strcmp(mode, "awaitjudged") && !before_judged(o.out))
        mode = "wrong";
    if (!strcmp(mode, "cutbefore"))
        cut_before(o.out);
    if (!strcmp(mode, "liar")) {
        printf("self-check PASS\nTOTAL 100 / 100\n");
        return 0;
    }

    size_t len = out_len_for(kind, o.n), words = len + GUARD_ELEMS;
    void *in = malloc((o.n ? o.n : 1) * 4);
    uint32_t *out = malloc(2 * words * 4);
    /* A timed graded run judges its last call, whose input had the
     * changes of every call before it (perturb.h); a cache ignores them. */
    int calls = perturb_calls(o.out != NULL && o.graded, o.warmup, o.reps);
    gen_input(in, o.n, o.dtype, o.dist, o.seed);
    if (strcmp(mode, "cache") != 0)
        perturb_host(in, &(perturb_input){o.n, o.dtype, o.dist, o.seed, -1}, calls);
    answer(&o, kind, in, out);
    fill_words(out + len, GUARD_ELEMS, GUARD_WORD);
    memcpy(out + words, out, words * 4);
    if (!strcmp(mode, "wrong")) out[len - 1] ^= 1;
    if (!strcmp(mode, "unwritten")) out[0] = POISON_WORD;
    if (!strcmp(mode, "guard")) out[len + 5] = 0;
    if (!strcmp(mode, "flaky")) out[words + len - 1] ^= 1;
    int copies = o.reps > 0 && calls == 0 ? 2 : 1;

    char path[4096];
    snprintf(path, sizeof path, "%s.bin", o.out);
    FILE *f = fopen(path, "wb");
    fwrite(out, 4, !strcmp(mode, "short") ? words / 2 : words * copies, f);
    fclose(f);
    snprintf(path, sizeof path, "%s.json", o.out);
    f = fopen(path, "w");
    fprintf(f, "{\"status\": \"ok\", \"median_ms\": 0.5, \"gbps\": 100, \"copy_gbps\": 400, "
               "\"device\": \"fake device\", \"host_written\": %d, \"host_to_out\": %d, "
               "\"in_to_host\": %lld, \"host_fills_out\": 0}\n",
            !strcmp(mode, "hostwritten") ? 8 : -1, /* (a right answer, copied by the host) */
            !strcmp(mode, "hostcopied") ? 4000 : 4, /* (4: an accumulator's start) */
            !strcmp(mode, "inread") ? (long long)o.n * 4 : 0);
    fclose(f);
    free(in);
    free(out);
    return 0;
}

int main(int argc, char **argv)
{
    cli_opts o;
    char err[256];
    cli_defaults(&o);
    if (cli_parse(argc, argv, &o, err, sizeof err) != CLI_OK) {
        fprintf(stderr, "fake_lab: %s\n", err);
        return EXIT_USAGE;
    }
    if (o.cases)
        return caselist_run(o.cases, o.progress, argv[0], run_fake, NULL);
    return run_fake(&o, NULL);
}
