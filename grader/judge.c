/*
 * judge.c - from exit status to verdict.  Order matters: how the process
 * ended first (timeout, crash, CUDA error, emulator diagnostic), then
 * whether it left a well-formed result, then the values themselves.
 */
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuda_exit.h"
#include "json.h"
#include "prng.h"
#include "run.h"
#include "sandbox.h"

/* Read a whole small file (the JSON result) into buf; -1 if absent/too big. */
static int slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, size - 1, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    buf[got] = '\0';
    return more ? -1 : 0;
}

/* The first size - 1 bytes of a file, NUL-terminated ("" when unreadable). */
static void read_head(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, size - 1, f) : 0;
    if (f)
        fclose(f);
    buf[got] = '\0';
}

/* What a student should read from the run's log, on one line: from the
 * first diagnostic (the emulator's, CUDA's, the watchdog's) if there is
 * one, else the log's last lines. */
static void log_excerpt(const char *log, char *out, size_t len)
{
    static const char *const markers[] = {"cuemu: error", "CUDA error", "TIMEOUT:", "error:"};
    char text[600], head[16384];
    const char *from = NULL;
    read_head(log, head, sizeof head);
    for (size_t m = 0; m < sizeof markers / sizeof markers[0] && !from; m++)
        from = strstr(head, markers[m]);
    if (from)
        snprintf(text, sizeof text, "%s", from);
    else
        read_tail(log, text, sizeof text);
    size_t o = 0;
    for (char *p = text; *p && o + 4 < len; p++)
        out[o++] = (*p == '\n' || (unsigned char)*p < 0x20) ? ' ' : *p;
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
}

/* What compute-sanitizer found, on one line: its first report (the lines
 * from the first "========= " message up to the next blank report line,
 * banner and summaries left out) and its error count. */
void sanitizer_excerpt(const char *log, char *out, size_t len)
{
    static char text[65536];
    read_head(log, text, sizeof text);
    sanitizer_summary(text, out, len);
}

int sanitizer_summary(const char *text, char *out, size_t len)
{
    static const char *const skip[] = {"COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY",
                                       "LEAK SUMMARY", "Target application returned",
                                       "Saved host backtrace", "Host Frame"};
    const char *prefix = "========= ";
    size_t o = 0, plen = strlen(prefix);
    int errors = -1, in_report = 0, lines = 0;
    out[0] = '\0';
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (nl ? 1 : 0);
        const char *e;
        if ((e = strstr(line, "ERROR SUMMARY: ")) != NULL)
            errors = atoi(e + 15);
        else if ((e = strstr(line, "RACECHECK SUMMARY: ")) != NULL && strchr(e, '('))
            errors = atoi(strchr(e, '(') + 1); /* "(E errors, W warnings)" */
        if (strncmp(line, prefix, plen) != 0) {
            in_report = 0;
            continue;
        }
        const char *body = line + plen;
        int indented = *body == ' ';
        while (*body == ' ')
            body++;
        int boring = *body == '\0';
        for (size_t k = 0; k < sizeof skip / sizeof skip[0] && !boring; k++)
            boring = strstr(body, skip[k]) == body;
        if (boring) {
            in_report = 0;
            continue;
        }
        if (!indented && lines == 0)
            in_report = 1; /* the first report starts here */
        else if (!indented)
            in_report = 0; /* a second report: one is enough */
        if (in_report && lines < 4 && o + 2 < len) {
            o += (size_t)snprintf(out + o, len - o, "%s%s", lines ? " " : "", body);
            lines++;
        }
    }
    if (o >= len)
        o = len - 1;
    if (errors > 0)
        snprintf(out + o, len - o, "%s(compute-sanitizer: %d error%s)", o ? " " : "", errors,
                 errors == 1 ? "" : "s");
    else if (o == 0)
        snprintf(out, len, "compute-sanitizer reported errors (no message found in its output)");
    return errors;
}

/* Judge the raw output file against the reference. */
static void judge_output(const suite_case *c, const char *bin_path, test_result *t)
{
    size_t out_len = out_len_for(c->kind, c->n), words = out_len + GUARD_ELEMS;
    FILE *f = fopen(bin_path, "rb");
    if (!f) {
        t->verdict = V_NO_RESULT;
        snprintf(t->detail, sizeof t->detail, "the run wrote no output file");
        return;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    int copies = size == (long)(words * 4) ? 1 : size == (long)(2 * words * 4) ? 2 : 0;
    uint32_t *got = copies ? (uint32_t *)malloc((size_t)size) : NULL;
    void *in = malloc((c->n ? c->n : 1) * 4);
    if (!copies || !got || !in || fread(got, 4, words * copies, f) != words * copies) {
        fclose(f);
        free(got);
        free(in);
        t->verdict = V_NO_RESULT;
        snprintf(t->detail, sizeof t->detail, "output file has %ld bytes, expected %zu", size,
                 words * 4);
        return;
    }
    fclose(f);
    gen_input(in, c->n, c->dtype, c->dist, c->seed);
    check_spec spec = {c->kind, c->dtype, c->op, c->exclusive, c->section, c->n,
                       tol_depth(c->tol, c->n)};
    check_result r;
    long guard = -1;
    check_output(&spec, in, got, &r);
    for (int k = 0; k < copies && guard < 0; k++)
        guard = first_changed_word(got + k * words + out_len, GUARD_ELEMS, GUARD_WORD);

    if (guard >= 0) {
        t->verdict = V_OUT_OF_BOUNDS;
        snprintf(t->detail, sizeof t->detail,
                 "wrote past the end of `out` (out has %zu elements; out[%zu] was changed)",
                 out_len, out_len + (size_t)guard);
    } else if (!r.ok) {
        t->verdict = r.unwritten ? V_UNWRITTEN : V_WRONG;
        snprintf(t->detail, sizeof t->detail, "%s%s", r.detail,
                 r.unwritten ? " [unwritten = never stored by the kernel]" : "");
    } else if (copies == 2) {
        check_result again;
        check_output(&spec, in, got + words, &again);
        if (!again.ok) {
            t->verdict = V_RACE;
            snprintf(t->detail, sizeof t->detail,
                     "first run correct, a repeated run wrong (state not reset between "
                     "launches, or a race): %s", again.detail);
        }
    }
    free(got);
    free(in);
}

void judge_case(const run_plan *plan, const suite_case *c, test_result *t)
{
    char prefix[1200], log[1300], json_path[1300], bin_path[1300], text[8192];
    char n[32], seed[32], reps[16], warmup[16], timeout[32];
    snprintf(prefix, sizeof prefix, "%s/case", plan->work);
    snprintf(log, sizeof log, "%s.log", prefix);
    snprintf(json_path, sizeof json_path, "%s.json", prefix);
    snprintf(bin_path, sizeof bin_path, "%s.bin", prefix);
    remove(json_path);
    remove(bin_path);
    snprintf(n, sizeof n, "%zu", c->n);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->seed);
    snprintf(reps, sizeof reps, "%d", plan->reps);
    snprintf(warmup, sizeof warmup, "%d", plan->warmup);
    snprintf(timeout, sizeof timeout, "%g", plan->timeout_s);

    char *argv[48];
    int a = 0;
    for (int w = 0; plan->wrap && plan->wrap[w] && a < 16; w++)
        argv[a++] = plan->wrap[w];
    argv[a++] = (char *)(c->schedule[0] && plan->emu_binary ? plan->emu_binary : plan->binary);
    argv[a++] = "--variant"; argv[a++] = (char *)c->variant;
    argv[a++] = "--size"; argv[a++] = n;
    argv[a++] = "--seed"; argv[a++] = seed;
    argv[a++] = "--dtype"; argv[a++] = (char *)dtype_name(c->dtype);
    argv[a++] = "--op"; argv[a++] = (char *)op_name(c->op);
    argv[a++] = "--dist"; argv[a++] = (char *)dist_name(c->dist);
    if (c->exclusive) argv[a++] = "--exclusive";
    argv[a++] = "--reps"; argv[a++] = reps;
    argv[a++] = "--warmup"; argv[a++] = warmup;
    argv[a++] = "--timeout"; argv[a++] = timeout;
    argv[a++] = "--out"; argv[a++] = prefix;
    argv[a++] = "--quiet";
    argv[a] = NULL;

    run_status st;
    char how[128], excerpt[700];
    memset(t, 0, sizeof *t);
    t->ms = t->gbps = t->copy_gbps = NAN;
    /* An emulator schedule for this case only (the grader runs one child at
     * a time, so setting its own environment is safe). */
    char threads[16], stall[32];
    snprintf(threads, sizeof threads, "%d", c->emu_threads);
    /* the emulator's deadlock report (which names the blocks and where they
     * wait) must come before the binary's own watchdog */
    snprintf(stall, sizeof stall, "%g", plan->timeout_s / 2);
    static const char *const emu_vars[] = {"CUEMU_SCHEDULE", "CUEMU_THREADS", "CUEMU_TIMEOUT"};
    char *saved[3] = {NULL, NULL, NULL}; /* the caller's own settings, restored below */
    if (c->schedule[0]) {
        for (int k = 0; k < 3; k++)
            saved[k] = getenv(emu_vars[k]) ? strdup(getenv(emu_vars[k])) : NULL;
        setenv("CUEMU_SCHEDULE", c->schedule, 1);
        if (c->emu_threads)
            setenv("CUEMU_THREADS", threads, 1);
        setenv("CUEMU_TIMEOUT", stall, 1);
    }
    /* The run may write its result (two copies of the output) and a log:
     * a little more than that, and no more. */
    sandbox sb;
    if (plan->sandbox) {
        sb = *plan->sandbox;
        sb.max_file = 3ULL * (out_len_for(c->kind, c->n) + GUARD_ELEMS) * 4 + (16ULL << 20);
    }
    run_sandboxed(argv, log, plan->timeout_s + 10.0, plan->sandbox ? &sb : NULL, &st);
    if (c->schedule[0])
        for (int k = 0; k < 3; k++) {
            if (saved[k])
                setenv(emu_vars[k], saved[k], 1);
            else
                unsetenv(emu_vars[k]);
            free(saved[k]);
        }
    describe_status(&st, how, sizeof how);
    log_excerpt(log, excerpt, sizeof excerpt);

    if (st.timed_out || (st.exited && st.code == EXIT_TIMEOUT)) {
        t->verdict = V_TIMEOUT;
        snprintf(t->detail, sizeof t->detail, "no result within %.0f s (%s): %s",
                 plan->timeout_s, how, excerpt);
    } else if (st.signaled) {
        t->verdict = V_CRASH;
        snprintf(t->detail, sizeof t->detail, "%s: %s", how, excerpt);
    } else if (plan->wrap && st.exited && st.code == SANITIZER_FOUND_EXIT) {
        t->verdict = V_SANITIZER;
        sanitizer_excerpt(log, t->detail, sizeof t->detail);
    } else if (st.exited && st.code == EMU_DIAGNOSTIC_EXIT) {
        t->verdict = V_EMU_ERROR;
        snprintf(t->detail, sizeof t->detail, "emulator: %s", excerpt);
    } else if (st.exited && st.code == EXIT_CUDA_ERROR) {
        t->verdict = V_CUDA_ERROR;
        snprintf(t->detail, sizeof t->detail, "%s", excerpt);
    } else if (!st.exited || (st.code != 0 && st.code != EXIT_SELF_CHECK_FAILED)) {
        t->verdict = V_NO_RESULT;
        snprintf(t->detail, sizeof t->detail, "%s: %s", how, excerpt);
    } else if (slurp(json_path, text, sizeof text) != 0) {
        t->verdict = V_NO_RESULT;
        snprintf(t->detail, sizeof t->detail, "no readable result file (%s)", how);
    } else {
        json_get_number(text, "median_ms", &t->ms);
        json_get_number(text, "gbps", &t->gbps);
        json_get_number(text, "copy_gbps", &t->copy_gbps);
        json_get_string(text, "device", t->device, sizeof t->device);
        t->verdict = V_PASS;
        judge_output(c, bin_path, t);
    }
}
