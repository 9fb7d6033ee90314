/*
 * judge.c - from how a case's run ended (launch.h) to its verdict.  Order
 * matters: how the process ended first (timeout, crash, CUDA error,
 * emulator diagnostic), then whether it left a well-formed result, then
 * the values themselves.
 */
#include "judge.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "diagnose.h"
#include "cuda_exit.h"
#include "json.h"
#include "perturb.h"
#include "prng.h"
#include "rawout.h"
#include "reference.h"
#include "regen.h"
#include "run.h"
#include "tunables.h"
#include "safefile.h"

/*
 * The last outputs that passed the full check, one per case, kept for the
 * next run of the same case: each speed test runs its case again in every
 * round at 2^26 elements, and a copy identical bit for bit to a checked one
 * needs no second check (the full check costs 0.3-0.6 s there on an H200's
 * host, a comparison a few milliseconds).  Up to VERIFIED_KEEP cases, the oldest replaced.
 * Only a timed run's output is kept (the plan's reps > 1: a speed round,
 * or a witness's, whose unit may be witnessed again case by case): a
 * correctness case is judged once, and keeping its 2^26 elements cost a
 * copy of 256 MB (0.15 s) for nothing.
 * A timed run's last call saw the input with set 0's changes (perturb.h),
 * whatever the run's number of calls: an output is kept with whether its
 * run was perturbed, part of what the case is.
 */
static struct {
    suite_case c;
    int perturbed;
    uint32_t *words;
    size_t len;
} verified[VERIFIED_KEEP];
static int verified_next; /* the slot to replace next */
/* Outputs of one witness unit are judged at once (witness.c), each on a
 * thread of its own: the kept outputs are theirs to share. */
static pthread_mutex_t verified_lock = PTHREAD_MUTEX_INITIALIZER;

static int same_case(const suite_case *a, const suite_case *b)
{
    return a->kind == b->kind && a->dtype == b->dtype && a->op == b->op &&
           a->exclusive == b->exclusive && a->section == b->section && a->n == b->n &&
           a->dist == b->dist && a->seed == b->seed && strcmp(a->tol, b->tol) == 0 &&
           a->order == b->order && a->tuple == b->tuple && a->pred == b->pred;
}

/* Copy `got` (len words) is already known right: the same words as a
 * verified output of this case. */
static int known_right_locked(const suite_case *c, int perturbed, const uint32_t *got, size_t len)
{
    for (int i = 0; i < VERIFIED_KEEP; i++)
        if (verified[i].words && verified[i].len == len && same_case(&verified[i].c, c) &&
            verified[i].perturbed == perturbed)
            return memcmp(verified[i].words, got, len * 4) == 0;
    return 0;
}

static void remember_verified_locked(const suite_case *c, int perturbed, const uint32_t *got,
                                     size_t len)
{
    if (len < VERIFIED_MIN_WORDS)
        return; /* small outputs are checked faster than they are kept */
    int slot = verified_next;
    for (int i = 0; i < VERIFIED_KEEP; i++)
        if (verified[i].words && same_case(&verified[i].c, c) && verified[i].perturbed == perturbed)
            slot = i; /* (a case kept once, never twice) */
    if (slot == verified_next)
        verified_next = (verified_next + 1) % VERIFIED_KEEP;
    free(verified[slot].words);
    verified[slot].words = (uint32_t *)malloc(len * 4);
    if (verified[slot].words)
        memcpy(verified[slot].words, got, len * 4);
    verified[slot].c = *c;
    verified[slot].perturbed = perturbed;
    verified[slot].len = len;
}

/* known_right and remember_verified, one thread at a time. */
static int known_right(const suite_case *c, int perturbed, const uint32_t *got, size_t len)
{
    pthread_mutex_lock(&verified_lock);
    int known = known_right_locked(c, perturbed, got, len);
    pthread_mutex_unlock(&verified_lock);
    return known;
}

static void remember_verified(const suite_case *c, int perturbed, const uint32_t *got,
                              size_t len)
{
    pthread_mutex_lock(&verified_lock);
    remember_verified_locked(c, perturbed, got, len);
    pthread_mutex_unlock(&verified_lock);
}

/* What case c computes, as the checker reads it. */
static void case_spec(const suite_case *c, check_spec *spec)
{
    check_spec s = {c->kind, c->dtype, c->op, c->exclusive, c->section, c->n,
                    tol_depth(c->tol, c->n), c->order, c->tuple, c->pred};
    *spec = s;
}

/* A wrong copy described for the student (diagnose.h): the inputs that
 * fed its first wrong element on a line of their own after the check's
 * detail, and the shape of the mistake in t->pattern for the hints. */
static void add_diagnosis(const suite_case *c, const void *in, const uint32_t *got,
                          const check_result *r, test_result *t)
{
    check_spec spec;
    diagnosis d;
    case_spec(c, &spec);
    diagnose(&spec, in, got, r, &d);
    t->pattern = d.bits;
    size_t used = strlen(t->detail);
    if (d.text[0] && used + 8 < sizeof t->detail)
        snprintf(t->detail + used, sizeof t->detail - used, "\n%s", d.text);
}

/* The input the last call of the run saw, into in: the case's, with set
 * 0's changes when the run was perturbed (perturb.h).  An encoded input's
 * changes were made to its encoded words (kinds.h), and the checker wants
 * the data they decode to: encoded, changed, decoded again (wrapping
 * integers: exact). */
static void case_input(const suite_case *c, int perturbed, void *in)
{
    kind_params kp = {c->section, c->order, c->tuple, c->pred};
    regen_input(in, c->n, c->dtype, c->dist, c->seed);
    if (!perturbed)
        return;
    kind_encode(c->kind, in, c->n, c->dtype, &kp);
    perturb_input p = {c->n, c->dtype, c->dist, c->seed, kind_perturb_keep(c->kind, &kp)};
    perturb_host(in, &p, perturbed);
    kind_decode(c->kind, in, c->n, c->dtype, &kp);
}

/* Check one copy of the output; the input is generated on first need.
 * keep: a right output is kept for the case's next run. */
static void check_copy(const suite_case *c, int perturbed, int keep, const uint32_t *got,
                       void **in, check_result *r)
{
    size_t out_len = out_words_for(c->kind, c->n, c->dtype);
    memset(r, 0, sizeof *r);
    r->ok = 1;
    if (known_right(c, perturbed, got, out_len))
        return;
    if (!*in) {
        *in = malloc((c->n ? c->n : 1) * dtype_size(c->dtype));
        if (!*in) {
            r->ok = 0;
            snprintf(r->detail, sizeof r->detail, "the grader is out of memory");
            return;
        }
        case_input(c, perturbed, *in);
    }
    check_spec spec;
    case_spec(c, &spec);
    check_output(&spec, *in, got, r);
    if (r->ok && keep)
        remember_verified(c, perturbed, got, out_len);
}

/* Judge the raw output file against the reference: the output of the
 * run's last call, whose input had set 0's changes when the run was
 * perturbed (perturb.h). */
static void judge_output(const suite_case *c, int perturbed, int keep, const char *bin_path,
                         test_result *t)
{
    size_t out_len = out_words_for(c->kind, c->n, c->dtype), words = out_len + GUARD_ELEMS;
    raw_out raw;
    long size;
    const double t0 = now_s();
    if (raw_read(bin_path, words, &raw, &size) != 0) {
        t->verdict = V_NO_RESULT;
        if (size < 0)
            snprintf(t->detail, sizeof t->detail, "the run wrote no output file");
        else
            snprintf(t->detail, sizeof t->detail, "output file has %ld bytes, expected %zu",
                     size, words * 4);
        return;
    }
    const uint32_t *got = raw.words;
    const int copies = raw.copies;
    void *in = NULL;
    check_result r;
    long guard = -1;
    check_copy(c, perturbed, keep, got, &in, &r);
    for (int k = 0; k < copies && guard < 0; k++)
        guard = first_changed_word(got + k * words + out_len, GUARD_ELEMS, GUARD_WORD);

    if (guard >= 0) {
        t->verdict = V_OUT_OF_BOUNDS;
        snprintf(t->detail, sizeof t->detail,
                 "wrote past the end of `out` (out has %zu elements; out[%zu] was changed)",
                 out_len_for(c->kind, c->n),
                 out_len_for(c->kind, c->n) + (size_t)guard / (dtype_size(c->dtype) / 4));
    } else if (!r.ok) {
        t->verdict = r.unwritten ? V_UNWRITTEN : V_WRONG;
        snprintf(t->detail, sizeof t->detail, "%s%s", r.detail,
                 r.unwritten ? " [unwritten = never stored by the kernel]" : "");
        add_diagnosis(c, in, got, &r, t);
    } else if (copies == 2 && memcmp(got, got + words, out_len * 4) != 0) {
        /* (a second copy word for word the first, right, one is right too) */
        check_result again;
        check_copy(c, perturbed, 0, got + words, &in, &again);
        if (!again.ok) {
            t->verdict = V_RACE;
            snprintf(t->detail, sizeof t->detail,
                     "first run correct, a repeated run wrong (state not reset between "
                     "launches, or a race): %s", again.detail);
            add_diagnosis(c, in, got + words, &again, t);
        }
    }
    raw_release(&raw);
    free(in);
    const double took = now_s() - t0;
    if (took > TRACE_SLOW_CHECK_S && getenv("GRADE_TRACE")) /* (tunables.h) */
        fprintf(stderr, "grade: trace: checking %s n=%zu took %.2f s\n", c->variant, c->n, took);
}

/* On a GPU, the lab's own copies in run() (common/copy_count.h): host
 * bytes copied into `out` beyond an accumulator's starting value, more
 * fills of it than a zeroing, or the input copied to the host in bulk
 * (tunables.h says why each).  Not at n = 0: an empty input's answer is
 * rightly set from the host. */
static int host_copied(const suite_case *c, const char *text, test_result *t)
{
    double to_out = -1, fills = -1, from_in = -1;
    json_get_number(text, "host_to_out", &to_out);
    json_get_number(text, "host_fills_out", &fills);
    json_get_number(text, "in_to_host", &from_in);
    double in_bytes = (double)c->n * (double)dtype_size(c->dtype);
    if (c->n == 0)
        return 0;
    if (to_out > HOST_OUT_INIT_BYTES || fills > HOST_OUT_FILLS_MAX)
        snprintf(t->detail, sizeof t->detail, "the output was written by host code, not by "
                 "your kernel (run() copied %.0f bytes from the host into `out`, in %.0f fills "
                 "besides): the kernels must write it", to_out > 0 ? to_out : 0,
                 fills > 0 ? fills : 0);
    else if (from_in > HOST_IN_READ_SHARE * in_bytes)
        snprintf(t->detail, sizeof t->detail, "run() copied %.0f bytes of the input `in` to "
                 "the host: the answer must be computed by your kernels, on the GPU", from_in);
    else
        return 0;
    t->verdict = V_HOST_WRITTEN;
    return 1;
}

/* Did the harness see host code write the output (the emulator's output
 * watch, or host copies into it counted on a GPU: harness.cu,
 * watch_output)?  Then the verdict is HOST-WRITTEN, whatever the values:
 * a test passes only when the lab's kernels wrote them. */
static int host_written(const suite_case *c, const char *text, test_result *t)
{
    double at = -1;
    if (json_get_number(text, "host_written", &at) != 0 || !(at >= 0))
        return host_copied(c, text, t);
    t->verdict = V_HOST_WRITTEN;
    snprintf(t->detail, sizeof t->detail,
             "the output was written by host code, not by your kernel (out[%.0f] was last "
             "written by a copy, a fill or a store of host code in run())",
             floor(at / (double)dtype_size(c->dtype)));
    return 1;
}

void judge_run(const run_plan *plan, const suite_case *c, const case_run *run, test_result *t)
{
    const run_status *st = &run->st;
    const char *excerpt = run->excerpt, *prefix = run->prefix;
    char how[128], json_path[1300], bin_path[1300];
    char text[8192]; /* (not static: witness units are judged on threads) */
    describe_status(st, how, sizeof how);
    memset(t, 0, sizeof *t);
    t->ms = t->gbps = t->copy_gbps = NAN;
    t->moved[0] = t->moved[1] = t->moved[2] = NAN;
    snprintf(json_path, sizeof json_path, "%s.json", prefix);
    snprintf(bin_path, sizeof bin_path, "%s.bin", prefix);
    if (st->timed_out || (st->exited && st->code == EXIT_TIMEOUT)) {
        t->verdict = V_TIMEOUT;
        snprintf(t->detail, sizeof t->detail, "no result within %.0f s (%s): %s",
                 plan->timeout_s, how, excerpt);
    } else if (st->signaled) {
        t->verdict = V_CRASH;
        snprintf(t->detail, sizeof t->detail, "%s: %s", how, excerpt);
    } else if (plan->wrap && st->exited && st->code == SANITIZER_FOUND_EXIT) {
        t->verdict = V_SANITIZER;
        snprintf(t->detail, sizeof t->detail, "%s", excerpt);
    } else if (st->exited && st->code == EMU_DIAGNOSTIC_EXIT) {
        t->verdict = V_EMU_ERROR;
        snprintf(t->detail, sizeof t->detail, "emulator: %s", excerpt);
    } else if (st->exited && st->code == EXIT_CUDA_ERROR) {
        t->verdict = V_CUDA_ERROR;
        snprintf(t->detail, sizeof t->detail, "%s", excerpt);
    } else if (st->exited && st->code == EXIT_CUDA_OOM) {
        t->verdict = V_CUDA_ERROR;
        t->gpu_oom = 1; /* unit.c runs it again with the GPU to itself */
        snprintf(t->detail, sizeof t->detail, "out of GPU memory: %s", excerpt);
    } else if (st->exited && st->code == EXIT_HOST_ERROR) {
        t->verdict = V_HOST_ERROR;
        snprintf(t->detail, sizeof t->detail,
                 "the machine could not run the case, no fault of the kernel: %s", excerpt);
    } else if (!st->exited || (st->code != 0 && st->code != EXIT_SELF_CHECK_FAILED)) {
        t->verdict = V_NO_RESULT;
        snprintf(t->detail, sizeof t->detail, "%s: %s", how, excerpt);
    } else if (safe_slurp(json_path, text, sizeof text) != 0) {
        t->verdict = V_NO_RESULT;
        snprintf(t->detail, sizeof t->detail, "no readable result file (%s)", how);
    } else {
        json_get_number(text, "median_ms", &t->ms);
        json_get_number(text, "gbps", &t->gbps);
        json_get_number(text, "copy_gbps", &t->copy_gbps);
        json_get_number(text, "traffic_load_bytes", &t->moved[0]);
        json_get_number(text, "traffic_store_bytes", &t->moved[1]);
        json_get_number(text, "traffic_atomics", &t->moved[2]);
        json_get_string(text, "device", t->device, sizeof t->device);
        t->verdict = V_PASS;
        if (!plan->no_raw && !host_written(c, text, t))
            /* (any number of changed calls judges one input: perturb.h) */
            judge_output(c, perturb_calls(1, plan->warmup, plan->reps) > 0, plan->reps > 1,
                         bin_path, t);
    }
    safe_unlink(bin_path); /* judged: raw outputs can be large */
}

int test_hung(const test_result *t)
{
    return t->verdict == V_TIMEOUT ||
           (t->verdict == V_EMU_ERROR && strstr(t->detail, "deadlock") != NULL);
}

void judge_case(const run_plan *plan, const suite_case *c, test_result *t)
{
    case_run run;
    launch_case(plan, c, &run);
    judge_run(plan, c, &run, t);
}
