/*
 * harness.cu - main() of every lab binary.  It generates the input from a
 * seed, poisons the output and fences it with a guard band, runs the lab's
 * kernel once to check it and then many times to time it, and writes what
 * it saw for the grader.  Students never edit this file: their code is the
 * lab's .cu file, reached only through the LAB table (lab.h).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buffers.h"
#include "trace_run.h"
#include "caselist.h"
#include "witness_mark.h"
#include "witness_window.h"
#include "raw_out.h"
#include "check.h"
#include "cli.h"
#include "copy_count.h"
#include "cub_baseline.h"
#include "cuda_check.h"
#include "json.h"
#include "kinds/kinds.h"
#include "lab.h"
#include "perturb.h"
#include "prng.h"
#include "regen.h"
#include "reference.h"
#include "stats.h"
#include "timing.h"
#include "variants.h"
#include "emu_pace.h"
#ifdef __CUEMU__
#include "cuemu_watch.h"
#endif

/* Everything one run needs, passed to the timing loop as void *. */
typedef struct {
    const lab_variant *variant;
    kind_t kind;          /* what the variant computes (its row: kinds.h) */
    kind_params params;   /* the kind's parameters for this case */
    kind_args args;       /* the room problem.args points into */
    lab_problem problem;
    const cli_opts *opts; /* for the changes between timed calls */
    copy_counts copies;   /* the lab's host copies, on a GPU (copy_count.h) */
    int timed_calls;      /* warm-up and timed calls of the run (perturb.h) */
} job;

static const char *phase = "starting"; /* what the watchdog reports */
static double timeout_s;

/* A run that does not finish in time is reported and ended: the process
 * exit tears the GPU context down, so nothing is left hanging. */
static void on_alarm(int sig)
{
    (void)sig;
#ifdef __CUEMU__
    char msg[400]; /* the emulator is slow: a large n may simply need longer */
    int len = snprintf(msg, sizeof msg,
                       "TIMEOUT: still %s after %.0f s.  On the CPU emulator a large n may just "
                       "be slow: try a smaller n (-n 2^16) or a GPU.  If a small n times out "
                       "too: a kernel that never finishes (a barrier some threads never reach, "
                       "a loop that never ends?)\n",
                       phase, timeout_s);
#else
    char msg[256];
    int len = snprintf(msg, sizeof msg,
                       "TIMEOUT: still %s after %.0f s: a kernel that never finishes "
                       "(a barrier some threads never reach, a loop that never ends?)\n",
                       phase, timeout_s);
#endif
    if (write(STDERR_FILENO, msg, (size_t)len) < 0) { /* nothing more we can do */ }
    _exit(EXIT_TIMEOUT);
}

/* (Re)arm the watchdog for the next phase of the run. */
static void watch(const char *what)
{
    phase = what;
    alarm((unsigned)(timeout_s + 0.999));
}

/* One call of the variant's host code.  An error it returns (lab.h: lab
 * code returns errors, CUDA_TRY) ends the run here, the one place that
 * exits on a CUDA error. */
static void run_once(void *arg)
{
    job *j = (job *)arg;
    copy_count_begin();
    int err = j->variant->run(&j->problem);
    copy_count_end(&j->copies);
    if (err != 0) {
        fprintf(stderr, "%s: the lab's host code returned CUDA error %s (%s)\n",
                j->variant->name, cudaGetErrorName((cudaError_t)err),
                cudaGetErrorString((cudaError_t)err));
        exit(cuda_exit_code((cudaError_t)err));
    }
    cudaError_t launch = cudaGetLastError();
    if (launch != cudaSuccess) {
        fprintf(stderr, "%s: kernel launch failed: %s (%s)\n", j->variant->name,
                cudaGetErrorName(launch), cudaGetErrorString(launch));
        exit(cuda_exit_code(launch));
    }
}

typedef struct {
    check_result check;
    long guard_hit;      /* first changed guard word after out, or -1 */
    int input_intact;
    int repeat_identical;
    int verified, verify_failed; /* --verify: launches checked, and how many were wrong */
    long long host_written; /* first output byte last written by host code, -1: none */
    copy_counts copies;     /* host copies into out and out of in (copy_count.h) */
    timing kernel, copy, cub;
    int have_cub;
    unsigned long long moved[3]; /* --traffic: global bytes loaded, stored; atomics */
    double bytes;
    char device[256];
} report;

static void write_json(const char *prefix, const cli_opts *o, const job *j, const report *r,
                       size_t out_len, int copies, int checked)
{
    const lab_variant *v = j->variant;
    const unsigned params = kind_get(j->kind)->params;
    char path[4096];
    FILE *f = result_open(prefix, "json", "w", path, sizeof path);
    json_writer w;
    jw_init(&w, f);
    jw_object(&w, NULL);
    jw_string(&w, "lab", LAB.name);
    jw_string(&w, "variant", v->name);
    jw_string(&w, "kind", kind_name(j->kind));
    jw_int(&w, "section", (long long)j->params.section);
    jw_int(&w, "n", (long long)o->n);
    jw_string(&w, "dtype", dtype_name(o->dtype));
    jw_string(&w, "op", op_name(o->op));
    jw_string(&w, "dist", dist_name(o->dist));
    jw_int(&w, "seed", (long long)o->seed);
    jw_bool(&w, "exclusive", o->exclusive);
    if (params & KP_ORDER_TUPLE) {
        jw_int(&w, "order", j->params.order);
        jw_int(&w, "tuple", j->params.tuple);
    }
    if (params & KP_PRED)
        jw_string(&w, "pred", pred_name(j->params.pred));
    jw_int(&w, "out_len", (long long)out_len);
    jw_int(&w, "guard", GUARD_ELEMS);
    jw_int(&w, "copies", copies);
    jw_int(&w, "perturbed_calls", perturb_calls(o->graded && o->out, o->warmup, r->kernel.reps));
    if (checked) { /* (a graded run leaves its own check to the grader) */
        jw_bool(&w, "self_check_ok", r->check.ok && r->guard_hit < 0);
        jw_bool(&w, "input_intact", r->input_intact);
    }
    jw_bool(&w, "repeat_identical", r->repeat_identical);
    jw_int(&w, "host_written", r->host_written);
    jw_int(&w, "host_to_out", r->copies.to_out), jw_int(&w, "in_to_host", r->copies.from_in);
    jw_int(&w, "host_fills_out", r->copies.fills);
    jw_int(&w, "verified", r->verified);
    jw_int(&w, "verify_failed", r->verify_failed);
    jw_int(&w, "reps", r->kernel.reps);
    jw_number(&w, "median_ms", r->kernel.median_ms);
    jw_number(&w, "min_ms", r->kernel.min_ms);
    jw_number(&w, "copy_median_ms", r->copy.median_ms);
    jw_number(&w, "cub_median_ms", r->have_cub ? r->cub.median_ms : NAN);
    jw_number(&w, "bytes", r->bytes);
    jw_number(&w, "gbps", stats_gbps(r->bytes, r->kernel.median_ms));
    jw_number(&w, "copy_gbps", stats_gbps(r->bytes, r->copy.median_ms));
    if (o->traffic) /* the emulator's count of the first run (trace_run.h) */
        jw_int(&w, "traffic_load_bytes", (long long)r->moved[0]), jw_int(&w, "traffic_store_bytes",
               (long long)r->moved[1]), jw_int(&w, "traffic_atomics", (long long)r->moved[2]);
    jw_number(&w, "cub_gbps", r->have_cub ? stats_gbps(r->bytes, r->cub.median_ms) : NAN);
    jw_string(&w, "device", r->device);
#ifdef __CUEMU__
    jw_bool(&w, "emulated", 1);
#else
    jw_bool(&w, "emulated", 0);
#endif
    jw_end(&w, '}');
    fclose(f);
}

static void print_report(const cli_opts *o, const job *j, const report *r)
{
    const lab_variant *v = j->variant;
    int pass = r->check.ok && r->guard_hit < 0 && r->verify_failed == 0 && r->host_written < 0;
    char what[64];
    kind_params_text(j->kind, &j->params, what, sizeof what);
    printf("%s %s %s %s n=%zu%s%s: self-check %s\n", LAB.name, v->name, dtype_name(o->dtype),
           op_name(o->op), o->n, o->exclusive ? " exclusive" : "", what, pass ? "PASS" : "FAIL");
    if (!r->check.ok)
        printf("  %s\n", r->check.detail);
    if (!r->check.ok && r->check.unwritten)
        printf("  (an unwritten element still holds the poison pattern: the kernel never "
               "stored it)\n");
    if (r->guard_hit >= 0)
        printf("  OUT OF BOUNDS: the kernel wrote past the end of `out` (out[%zu + %ld])\n",
               out_len_for(j->kind, o->n), r->guard_hit / (long)(dtype_size(o->dtype) / 4));
    if (r->host_written >= 0)
        printf("  HOST-WRITTEN: byte %lld of `out` was last written by host code (a copy, a "
               "fill or a store from run()), not by a kernel\n", r->host_written);
    if (!r->input_intact)
        printf("  note: the kernel modified its input array `in` (it should only read it)\n");
    if (!r->repeat_identical)
        printf("  note: the last timed run gave a different result than the first "
               "(a race?)\n");
    if (r->verified)
        printf("  %d more launches verified: %d wrong\n", r->verified, r->verify_failed);
#ifdef __CUEMU__
    if (r->kernel.reps > 0) /* CPU times: no GB/s, no fraction of a copy, no CUB */
        printf("  time: median %.4f ms, min %.4f ms over %d runs of CPU time on the emulator; "
               "GPU speed is not measured here (GB/s and the fraction of a device copy need "
               "a GPU)\n", r->kernel.median_ms, r->kernel.min_ms, r->kernel.reps);
#else
    if (r->kernel.reps > 0) {
        double gbps = stats_gbps(r->bytes, r->kernel.median_ms);
        double copy = stats_gbps(r->bytes, r->copy.median_ms);
        printf("  time: median %.4f ms, min %.4f ms over %d runs; %.1f GB/s = %.2f of a "
               "device copy (%.1f GB/s) on %s\n",
               r->kernel.median_ms, r->kernel.min_ms, r->kernel.reps, gbps, gbps / copy, copy,
               r->device);
        if (r->have_cub)
            printf("  CUB does the same in %.4f ms (%.1f GB/s): yours takes %.2fx CUB's time\n",
                   r->cub.median_ms, stats_gbps(r->bytes, r->cub.median_ms),
                   r->kernel.median_ms / r->cub.median_ms);
    }
#endif
    if (!pass)
        printf("  This is the harness's own check; `./grade` verifies independently.\n");
}

/* The device, named once per process (every case reports it). */
static char device_name[256];

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* With KIT_TRACE set, how long each step of a case took, on stderr: where
 * a graded case's second goes (process start aside) is otherwise a guess. */
static void trace_step(const char *done)
{
    static double mark;
    static int tracing = -1;
    if (tracing < 0)
        tracing = getenv("KIT_TRACE") != NULL;
    double now = wall_s();
    if (tracing && done && mark > 0)
        fprintf(stderr, "harness: trace: %s %.3f s\n", done, now - mark);
    mark = now;
}

/* The timed runs to do after a first launch that took first_s: all that
 * were asked for, except on the emulator by hand when they cannot finish
 * within --timeout (then none, and advice: the emulator's times say
 * nothing about a GPU, and a watchdog TIMEOUT would blame the kernel).
 * A graded run keeps its runs: the grader sizes its cases for the emulator. */
static int timed_runs(const cli_opts *o, double first_s)
{
#ifdef __CUEMU__
    double est = first_s * (o->warmup + o->reps + o->verify);
    if (o->graded || o->reps == 0 || est <= o->timeout_s)
        return o->reps;
    char msg[400], what[96];
    snprintf(what, sizeof what, "%d timed runs after a first launch of %.1f s",
             o->warmup + o->reps, first_s);
    emu_pace_advice(est, o->timeout_s, o->n, what, msg, sizeof msg);
    fprintf(stderr, "timing skipped: %s\n", msg);
    return 0;
#else
    (void)first_s;
    return o->reps;
#endif
}

#ifdef __CUEMU__
/* A run by hand that cannot finish within --timeout even at the
 * emulator's fastest pace is refused at once, with advice, before it takes
 * minutes and gigabytes to end in a TIMEOUT that blames the kernel. */
static int emu_refused(const cli_opts *o, const char *prog)
{
    int launches = 1 + o->verify + (o->reps > 0 ? o->warmup + o->reps : 0);
    double est = emu_pace_floor_s(o->n, launches);
    if (o->graded || est <= o->timeout_s)
        return 0;
    char msg[400], what[64];
    snprintf(what, sizeof what, "%d launch%s", launches, launches == 1 ? "" : "es");
    emu_pace_advice(est, o->timeout_s, o->n, what, msg, sizeof msg);
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
}
#endif

/*
 * The output must be the lab's kernels' work.  On the emulator, which sees
 * every store, the output watch (common/emu/include/cuemu_watch.h) is armed
 * before the first launch and asked after each series of launches: the
 * first byte of the output last written by host code (a copy, a fill or a
 * store of the lab's host code into `out`) is reported in the result file,
 * and the grader gives HOST-WRITTEN.  -2 (the watch re-armed by lab code)
 * counts as byte 0.  arm: 1 to arm, 0 to ask, -1 to end the watch.  Not at n = 0: the answer to an empty input (a
 * reduction's identity, a compaction's count of 0) is a constant that the
 * labs rightly set from the host, with no kernel to launch.
 */
static void watch_output(job *j, size_t bytes, report *r, int arm)
{
#ifdef __CUEMU__
    static int serial; /* 0: not watched */
    if (arm > 0) {
        serial = j->problem.n > 0 ? cuemuWatchOutput(j->problem.out, bytes) : 0;
        return;
    }
    if (arm < 0) { /* the end of the case: its output is about to be freed */
        if (serial)
            cuemuWatchOutput(NULL, 0);
        serial = 0;
        return;
    }
    if (!serial)
        return;
    long long at = cuemuWatchHostWritten(j->problem.out, bytes, serial);
    if (at != -1 && r->host_written < 0)
        r->host_written = at < 0 ? 0 : at;
#else
    (void)j, (void)bytes, (void)r, (void)arm;
#endif
}

/* Before timed call `call`: the input's changes (perturb.h). */
static void perturb_next(void *arg, int call)
{
    job *j = (job *)arg;
    int keep = kind_perturb_keep(j->kind, &j->params);
    buffers_perturb((void *)j->problem.in, j->opts, keep, call, j->timed_calls);
}

/* The launches of one case: the checked one, the timed ones with the copy
 * and CUB beside them, and --verify's; copies[] gets the outputs kept, and
 * their count is returned (0 for the grader's timing of the reference). */
static int measure(const cli_opts *o, job *j, const void *in_host, const check_spec *spec,
                   report *r, void **copies)
{
    const lab_variant *v = j->variant;
    size_t data_words = out_words_for(j->kind, o->n, o->dtype); /* without the band */
    const kind_def *def = kind_get(j->kind);
    /* A witnessed run holds the GPU alone from here to its timed
     * launches' end (witness_window.h); the wait for it is not the run's. */
    if (o->witness)
        witness_window_enter();
    watch("running the kernel");
    double began = wall_s();
    watch_output(j, data_words * 4, r, 1);
    trace_run(o, j->variant, &j->problem, 1, r->moved);
    run_once(j);
    CUDA_CHECK(cudaDeviceSynchronize());
    trace_run(o, j->variant, &j->problem, 0, r->moved);
    watch_output(j, data_words * 4, r, 0);
    trace_step("first launch");
    int reps = timed_runs(o, wall_s() - began);
    if (o->witness && reps == 0)
        witness_window_leave();
    /* The kit's reference timed by the grader (--graded --no-raw) shows
     * nothing of its output, so none comes back: the copy back cost 0.24 s
     * of its 0.63 s at 2^26 elements (H200). */
    const int keep = !(o->graded && o->out && o->no_raw && o->verify == 0 && reps > 0);
    /* A graded timed run changes its input before each call after the
     * first, and its last output is the one kept (perturb.h says why). */
    const int perturbed = reps > 0 && perturb_calls(o->graded && o->out, o->warmup, reps) > 0;
    int ncopies = 0;
    if (keep && !perturbed) {
        copies[ncopies++] = copy_back_output(j->kind, j->problem.out, o->n, o->dtype, data_words);
        trace_step("output copied back");
    }
    /* The first output stays on the device too, to hold the last against
     * (not with --exact: a compaction's unwritten tail would be read). */
    size_t dev_words = data_words + device_guard();
    void *first = NULL;
    if (keep && reps > 0 && !buffers_are_exact() && !o->witness && !perturbed) {
        CUDA_CHECK(cudaMalloc(&first, dev_words * 4));
        CUDA_CHECK(cudaMemcpy(first, j->problem.out, dev_words * 4, cudaMemcpyDeviceToDevice));
    }

    /* Timed runs, then the copy yardstick; the last result is kept too when
     * it differs from the first, so a result that changes between runs
     * shows up. */
    if (reps > 0) {
        watch("timing the kernel");
        j->timed_calls = o->warmup + reps;
        r->kernel = time_runs_prep(run_once, perturbed ? perturb_next : NULL, j, o->warmup, reps);
        if (o->witness)
            witness_window_leave();
        watch_output(j, data_words * 4, r, 0);
        trace_step("timed launches");
        perturb_input pin = {o->n, o->dtype, o->dist, o->seed,
                             kind_perturb_keep(j->kind, &j->params)};
        /* (--verify's floats; an encoded input's changes are to its code) */
        if (perturbed && in_host && def->input == INPUT_DATA)
            perturb_host((void *)in_host, &pin, o->warmup + reps);
        if (keep && perturbed) {
            copies[ncopies++] = copy_back_output(j->kind, j->problem.out, o->n, o->dtype,
                                                 data_words);
        } else if (keep) {
            r->repeat_identical = first && device_same(first, j->problem.out, dev_words);
            if (!r->repeat_identical) {
                copies[ncopies++] =
                    copy_back_output(j->kind, j->problem.out, o->n, o->dtype, data_words);
                r->repeat_identical = memcmp(copies[0], copies[1], data_words * 4) == 0;
            }
        }
        if (first)
            CUDA_CHECK(cudaFree(first));
        trace_step("last output compared");
        /* A witness run (--witness) is timed by a profiler outside this
         * process, which counts every kernel of it as the lab's: nothing of
         * the harness's own runs on the GPU then (the last output is
         * compared on the host above, the copy yardstick is left out). */
        if (!o->witness) {
            watch("timing the device copy");
            r->copy = time_copy((size_t)(r->bytes / 2), o->warmup, reps);
            trace_step("device copy timed");
        }
        /* The grader compares with the reference's time, never CUB's: a
         * graded run leaves CUB out (at 2^26, an order-8 decode's eight
         * CUB scans took 3.7 times as long as the kernel's timed runs). */
        if (!o->graded) {
            watch("timing CUB");
            r->have_cub =
                time_cub(def->cub, &j->problem, &j->params, o->warmup, reps, &r->cub) == 0;
        }
    }
    /* --verify: more launches, each output checked.  Integers must repeat
     * bit for bit; floats may legitimately differ (combination order), so
     * each is checked against the reference instead. */
    for (int rep = 0; rep < o->verify; rep++) {
        watch("verifying repeated launches");
        run_once(j);
        CUDA_CHECK(cudaDeviceSynchronize());
        watch_output(j, data_words * 4, r, 0);
        void *again = copy_back_output(j->kind, j->problem.out, o->n, o->dtype, data_words);
        check_result cr;
        int bad;
        if (o->dtype != DT_FLOAT32) {
            bad = memcmp(again, copies[0], data_words * 4) != 0;
        } else {
            check_output(spec, in_host, again, &cr);
            bad = !cr.ok;
        }
        r->verified++;
        r->verify_failed += bad;
        free(again);
    }
    watch_output(j, 0, r, -1);
    alarm(0);
    return ncopies;
}

/* One case, start to end: input, launches, the harness's own check, the
 * result files and the printed report.  Returns the case's exit code. */
static int run_case(const cli_opts *o, void *prog)
{
    if (o->cases) {
        fprintf(stderr, "%s: --cases inside a case list\n", (const char *)prog);
        return EXIT_USAGE;
    }
    const lab_variant *v = variant_for(o, (const char *)prog);
    if (!v)
        return EXIT_USAGE;
    job j;
    j.variant = v;
    j.opts = o;
    char err[256];
    if (variant_kind(v, &j.kind, err, sizeof err)) /* (validated: variant_for) */
        return EXIT_USAGE;
    j.params = case_params(o, v, j.kind);
    timeout_s = o->timeout_s;
    buffers_exact(o->exact);
#ifdef __CUEMU__
    if (emu_refused(o, (const char *)prog))
        return EXIT_USAGE;
#endif
    /* A witnessed case list: this case's kernels follow its mark in the
     * profiler's table (witness_mark.h). */
    if (o->witness && o->witness_mark >= 0)
        CUDA_CHECK((cudaError_t)witness_mark_launch(o->witness_mark));
    report r;
    memset(&r, 0, sizeof r);
    r.guard_hit = -1;
    r.host_written = -1;
    r.input_intact = r.repeat_identical = 1;
    r.bytes = bytes_moved(j.kind, o->n, o->dtype);
    snprintf(r.device, sizeof r.device, "%s", device_name);

    /* Input, fenced; output, poisoned and fenced. */
    size_t esize = dtype_size(o->dtype), in_words = o->n * (esize / 4);
    size_t out_len = out_len_for(j.kind, o->n);
    size_t out_data_words = out_words_for(j.kind, o->n, o->dtype);
    size_t out_words = out_data_words + GUARD_ELEMS;
    /* The host keeps a copy of the input only where it is used: for the
     * harness's own check, and on the emulator, where the host makes it. */
    int graded = o->graded && o->out;
#ifdef __CUEMU__
    int host_input = 1;
#else
    int host_input = !graded || o->verify > 0 || o->witness;
#endif
    void *in_host = host_input ? host_alloc(o->n * esize) : NULL;
    if (in_host)
        regen_input(in_host, o->n, o->dtype, o->dist, o->seed); /* every core: regen.h */
    trace_step("since the last step (device opened, or the case before)");
    buffers_make(o, j.kind, &j.params, out_data_words, in_host, (void **)&j.problem.in,
                 &j.problem.out);
    trace_step("input and buffers");
    j.problem.n = o->n;
    j.problem.dtype = o->dtype;
    j.problem.op = o->op;
    j.problem.exclusive = o->exclusive;
    const kind_def *def = kind_get(j.kind);
    j.problem.args = def->lab_args ? def->lab_args(&j.params, j.problem.out, o->n, o->dtype,
                                                   &j.args) : NULL;

    check_spec spec = {j.kind, o->dtype, o->op, o->exclusive, j.params.section, o->n,
                       tol_depth(v->tol, o->n), j.params.order, j.params.tuple, j.params.pred};
    void *copies[2] = {NULL, NULL};
    memset(&j.copies, 0, sizeof j.copies); /* (the counts of a GPU's graded binary) */
    copy_count_watch(j.problem.in, in_words * 4, j.problem.out, out_data_words * 4);
    int ncopies = measure(o, &j, in_host, &spec, &r, copies);
    copy_count_watch(NULL, 0, NULL, 0);
    r.copies = j.copies;

    /* The harness's own check, for a person at the terminal.  A graded run
     * (--graded, with --out) leaves it out: the grader judges the raw output
     * itself, and at 2^28 elements this check alone took seconds. */
    void *in_after = NULL;
    if (!graded) {
        in_after = copy_back(j.problem.in, in_words);
        r.input_intact = input_unchanged(j.kind, &j.params, o, in_host, in_after, in_words);
        check_output(&spec, in_host, copies[0], &r.check);
        r.guard_hit = first_changed_word((uint32_t *)copies[0] + out_data_words, GUARD_ELEMS,
                                         GUARD_WORD);
    } else {
        r.check.ok = 1;
    }

    if (o->out) {
        /* Two copies identical word for word, guard bands included, are
         * written once: the grader reads one copy or two, and at 2^28 the
         * second GiB cost a second or more to write and to read again. */
        int kept = ncopies == 2 && memcmp(copies[0], copies[1], out_words * 4) == 0 ? 1 : ncopies;
        kept = kept ? kept : 1; /* (none kept: --no-raw, and the file says one as before) */
        /* each copy is out_len elements + guard band; a witnessed list's
         * after its last case (raw_out.h) */
        if (!o->no_raw && o->witness && o->witness_mark >= 0)
            raw_write_later(o->out, copies, kept, out_words);
        else if (!o->no_raw)
            raw_write(o->out, copies, kept, out_words);
        write_json(o->out, o, &j, &r, out_len, kept, !graded);
        trace_step("result files written");
    }
    if (!o->quiet || !(r.check.ok && r.guard_hit < 0))
        print_report(o, &j, &r);

    CUDA_CHECK(cudaFree((void *)j.problem.in));
    CUDA_CHECK(cudaFree(j.problem.out));
    for (int i = 0; i < ncopies; i++)
        free(copies[i]);
    free(in_after);
    free(in_host);
    trace_step("buffers freed");
    return r.check.ok && r.guard_hit < 0 && r.verify_failed == 0 ? 0 : EXIT_SELF_CHECK_FAILED;
}

/* The GPU (or the emulator) is there, and its name is known; a machine
 * without one gets the way out. */
static int open_device(const char *prog)
{
    watch("initialising the GPU");
    int devices = 0;
    cudaError_t dev_err = cudaGetDeviceCount(&devices);
    if (dev_err != cudaSuccess || devices == 0) {
        fprintf(stderr, "%s: no CUDA device available (%s). Without an NVIDIA GPU, build with "
                        "the CPU emulator: make <lab> EMU=1\n",
                prog, dev_err != cudaSuccess ? cudaGetErrorString(dev_err) : "0 devices");
        return dev_err != cudaSuccess ? cuda_exit_code(dev_err) : EXIT_CUDA_ERROR;
    }
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    snprintf(device_name, sizeof device_name, "%s", prop.name);
    alarm(0);
    return 0;
}

/* Phases: the command line, the device, then one case or a list of them. */
int main(int argc, char **argv)
{
    cli_opts o;
    char err[256];
    cli_defaults(&o);
    int rc = cli_parse(argc, argv, &o, err, sizeof err);
    if (rc == CLI_HELP) {
        cli_usage(stdout, argv[0]);
        list_variants(stdout);
        return 0;
    }
    if (rc == CLI_ERROR) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        cli_usage(stderr, argv[0]);
        return EXIT_USAGE;
    }
    for (int i = 0; i < LAB.count; i++) { /* every variant names a kind, before anything */
        kind_t k;
        if (variant_kind(&LAB.variants[i], &k, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", argv[0], err);
            return EXIT_USAGE;
        }
    }
    if (o.list) {
        list_variants(stdout);
        return 0;
    }
    if (!o.cases && !variant_for(&o, argv[0])) /* before touching the GPU */
        return EXIT_USAGE;

    timeout_s = o.timeout_s;
    signal(SIGALRM, on_alarm);
    setvbuf(stdout, NULL, _IOLBF, 0);
    trace_step(NULL);
    if ((rc = open_device(argv[0])) != 0)
        return rc;
    trace_step("device opened");
    rc = o.cases ? caselist_run(o.cases, o.progress, argv[0], run_case, argv[0])
                 : run_case(&o, argv[0]);
    raw_flush(); /* (outputs a witnessed list kept: raw_out.h) */
    return rc;
}
