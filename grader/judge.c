/*
 * judge.c - from exit status to verdict.  Order matters: how the process
 * ended first (timeout, crash, CUDA error, emulator diagnostic), then
 * whether it left a well-formed result, then the values themselves.
 */
#define _GNU_SOURCE /* MAP_POPULATE */
#include "judge.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diagnose.h"
#include "cuda_exit.h"
#include "json.h"
#include "perturb.h"
#include "prng.h"
#include "reference.h"
#include "regen.h"
#include "run.h"
#include "tunables.h"
#include "sandbox.h"
#include "safefile.h"

/* The first size - 1 bytes of a log of the grader's own folder,
 * NUL-terminated ("" when unreadable). */
static void read_head(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, size - 1, f) : 0;
    if (f)
        fclose(f);
    buf[got] = '\0';
}

/* What a student should read from a run's log text, on one line: from
 * the first diagnostic (the emulator's, CUDA's, the watchdog's) if there
 * is one, else the text's last lines. */
/*
 * text's lines into out (len bytes): the first line and every "hint:"
 * line always, the lines between them while there is room, and a count
 * of those left out.  A deadlock report lists one line per stuck block;
 * cutting it at len lost the hint at its end, the part a student needs.
 */
static void keep_first_and_hint(const char *text, char *out, size_t len)
{
    size_t must = 0, o = 0;
    int lines = 0, noted = 0;
    for (const char *p = text; *p; lines++) { /* room the must-keep lines take */
        size_t n = strcspn(p, "\n");
        if (lines == 0 || memmem(p, n, "hint:", 5))
            must += n + 1;
        p += n + (p[n] == '\n');
    }
    must += 48; /* the "(N more lines ...)" note */
    lines = 0;
    for (const char *p = text; *p; lines++) {
        size_t n = strcspn(p, "\n");
        int keep = lines == 0 || memmem(p, n, "hint:", 5);
        if (keep || o + n + 1 + must < len) {
            if (o + n + 2 > len)
                n = len > o + 2 ? len - o - 2 : 0;
            o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? "\n" : "", (int)n, p);
            if (keep)
                must -= must > n + 1 ? n + 1 : must;
        } else if (!noted++ && o + 48 < len) {
            o += (size_t)snprintf(out + o, len - o, "\n(more lines left out here)");
        }
        p += strcspn(p, "\n");
        p += *p == '\n';
    }
    while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\n'))
        o--;
    out[o] = '\0';
}

void log_excerpt_text(const char *head, char *out, size_t len)
{
    static const char *const markers[] = {"out of host memory", "cuemu: error", "CUDA error",
                                          "TIMEOUT:", "error:"};
    static char text[16384]; /* the log's head: read_head reads 16 KiB */
    const char *from = NULL;
    for (size_t m = 0; m < sizeof markers / sizeof markers[0] && !from; m++)
        from = strstr(head, markers[m]);
    while (from && from > head && from[-1] != '\n') /* the whole line: file:line first */
        from--;
    if (from) {
        snprintf(text, sizeof text, "%s", from);
    } else {
        size_t hl = strlen(head);
        snprintf(text, sizeof text, "%s", head + (hl > sizeof text - 1 ? hl - (sizeof text - 1) : 0));
    }
    /* Line breaks stay (an emulator report is laid out in lines: the
     * deadlock, then each waiting thread, then the hint); other control
     * characters become spaces. */
    for (char *p = text; *p; p++)
        if (*p != '\n' && (unsigned char)*p < 0x20)
            *p = ' ';
    keep_first_and_hint(text, out, len);
}

/* The same for a whole log file (its first 16 KiB). */
static void log_excerpt(const char *log, char *out, size_t len)
{
    static char head[16384];
    read_head(log, head, sizeof head);
    log_excerpt_text(head, out, len);
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

/*
 * The last outputs that passed the full check, one per case, kept for the
 * next run of the same case: each speed test runs its case again in every
 * round at 2^26 elements, and a copy identical bit for bit to a checked one
 * needs no second check (the full check costs a second there, a comparison
 * a few milliseconds).  Up to VERIFIED_KEEP cases, the oldest replaced.
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

static int same_case(const suite_case *a, const suite_case *b)
{
    return a->kind == b->kind && a->dtype == b->dtype && a->op == b->op &&
           a->exclusive == b->exclusive && a->section == b->section && a->n == b->n &&
           a->dist == b->dist && a->seed == b->seed && strcmp(a->tol, b->tol) == 0 &&
           a->order == b->order && a->tuple == b->tuple && a->pred == b->pred;
}

/* Copy `got` (len words) is already known right: the same words as a
 * verified output of this case. */
static int known_right(const suite_case *c, int perturbed, const uint32_t *got, size_t len)
{
    for (int i = 0; i < VERIFIED_KEEP; i++)
        if (verified[i].words && verified[i].len == len && same_case(&verified[i].c, c) &&
            verified[i].perturbed == perturbed)
            return memcmp(verified[i].words, got, len * 4) == 0;
    return 0;
}

static void remember_verified(const suite_case *c, int perturbed, const uint32_t *got,
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
 * 0's changes when the run was perturbed (perturb.h).  A decode's changes were
 * made to its encoded words, and the checker wants the data they decode
 * to: encoded, changed, decoded again (wrapping integers: exact). */
static void case_input(const suite_case *c, int perturbed, void *in)
{
    regen_input(in, c->n, c->dtype, c->dist, c->seed);
    if (!perturbed)
        return;
    if (c->kind == KIND_DECODE)
        ref_encode(in, c->n, c->dtype, c->order, c->tuple);
    perturb_input p = {c->n, c->dtype, c->dist, c->seed,
                       c->kind == KIND_COMPACT ? (int)c->pred : -1};
    perturb_host(in, &p, perturbed);
    if (c->kind == KIND_DECODE)
        ref_decode(in, c->n, c->dtype, c->order, c->tuple);
}

/* Check one copy of the output; the input is generated on first need. */
static void check_copy(const suite_case *c, int perturbed, const uint32_t *got, void **in,
                       check_result *r)
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
    if (r->ok)
        remember_verified(c, perturbed, got, out_len);
}

/* Map the raw output file read-only: its words and how many copies it
 * holds (0 when its size fits neither one nor two; *size -1 when there is
 * no file).  Mapped, not read: in /dev/shm the pages are already memory,
 * and at 2^28 elements copying them into a buffer cost a second.  Unmap
 * it with munmap(got, size). */
static uint32_t *map_raw(const char *bin_path, size_t words, int *copies, long *size)
{
    int fd = safe_open_read(bin_path, -1, NULL); /* the student's folder: safefile.h */
    struct stat st;
    *copies = 0;
    *size = -1;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return NULL;
    }
    *size = (long)st.st_size;
    int k = *size == (long)(words * 4) ? 1 : *size == (long)(2 * words * 4) ? 2 : 0;
    void *got = k ? mmap(NULL, (size_t)*size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)
                  : MAP_FAILED;
    close(fd);
    if (got == MAP_FAILED)
        return NULL;
    *copies = k;
    return (uint32_t *)got;
}

/* Judge the raw output file against the reference: the output of the
 * run's last call, whose input had set 0's changes when the run was
 * perturbed (perturb.h). */
static void judge_output(const suite_case *c, int perturbed, const char *bin_path,
                         test_result *t)
{
    size_t out_len = out_words_for(c->kind, c->n, c->dtype), words = out_len + GUARD_ELEMS;
    int copies;
    long size;
    const double t0 = now_s();
    uint32_t *got = map_raw(bin_path, words, &copies, &size);
    if (!got) {
        t->verdict = V_NO_RESULT;
        if (size < 0)
            snprintf(t->detail, sizeof t->detail, "the run wrote no output file");
        else
            snprintf(t->detail, sizeof t->detail, "output file has %ld bytes, expected %zu",
                     size, words * 4);
        return;
    }
    void *in = NULL;
    check_result r;
    long guard = -1;
    check_copy(c, perturbed, got, &in, &r);
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
    } else if (copies == 2) {
        check_result again;
        check_copy(c, perturbed, got + words, &in, &again);
        if (!again.ok) {
            t->verdict = V_RACE;
            snprintf(t->detail, sizeof t->detail,
                     "first run correct, a repeated run wrong (state not reset between "
                     "launches, or a race): %s", again.detail);
            add_diagnosis(c, in, got + words, &again, t);
        }
    }
    munmap(got, (size_t)size);
    free(in);
    const double took = now_s() - t0;
    if (took > 0.05 && getenv("GRADE_TRACE")) /* the slow checks only: hundreds are fast */
        fprintf(stderr, "grade: trace: checking %s n=%zu took %.2f s\n", c->variant, c->n, took);
}

int program_argv(const run_plan *plan, const suite_case *c, char **argv)
{
    int a = 0;
    for (int w = 0; plan->wrap && plan->wrap[w] && a < PROGRAM_WRAP_MAX; w++)
        argv[a++] = plan->wrap[w];
    argv[a++] = (char *)(c->schedule[0] && plan->emu_binary ? plan->emu_binary : plan->binary);
    return a;
}

void case_command(const run_plan *plan, const suite_case *c, const char *prefix, case_cmd *cmd)
{
    int a = 0;
    snprintf(cmd->n, sizeof cmd->n, "%zu", c->n);
    snprintf(cmd->seed, sizeof cmd->seed, "%llu", (unsigned long long)c->seed);
    snprintf(cmd->reps, sizeof cmd->reps, "%d", plan->reps);
    snprintf(cmd->warmup, sizeof cmd->warmup, "%d", plan->warmup);
    snprintf(cmd->timeout, sizeof cmd->timeout, "%g", plan->timeout_s);
    snprintf(cmd->prefix, sizeof cmd->prefix, "%s", prefix);
    cmd->argv[a++] = "--variant"; cmd->argv[a++] = c->variant;
    cmd->argv[a++] = "--size"; cmd->argv[a++] = cmd->n;
    cmd->argv[a++] = "--seed"; cmd->argv[a++] = cmd->seed;
    cmd->argv[a++] = "--dtype"; cmd->argv[a++] = dtype_name(c->dtype);
    cmd->argv[a++] = "--op"; cmd->argv[a++] = op_name(c->op);
    cmd->argv[a++] = "--dist"; cmd->argv[a++] = dist_name(c->dist);
    if (c->exclusive) cmd->argv[a++] = "--exclusive";
    if (c->kind == KIND_DECODE) { /* (lab 7; other kinds keep their commands as they were) */
        snprintf(cmd->order, sizeof cmd->order, "%d", c->order);
        snprintf(cmd->tuple, sizeof cmd->tuple, "%d", c->tuple);
        cmd->argv[a++] = "--order"; cmd->argv[a++] = cmd->order;
        cmd->argv[a++] = "--tuple"; cmd->argv[a++] = cmd->tuple;
    }
    if (c->kind == KIND_COMPACT) {
        cmd->argv[a++] = "--pred"; cmd->argv[a++] = pred_name(c->pred);
    }
    cmd->argv[a++] = "--reps"; cmd->argv[a++] = cmd->reps;
    cmd->argv[a++] = "--warmup"; cmd->argv[a++] = cmd->warmup;
    cmd->argv[a++] = "--timeout"; cmd->argv[a++] = cmd->timeout;
    cmd->argv[a++] = "--out"; cmd->argv[a++] = cmd->prefix;
    cmd->argv[a++] = "--quiet";
    cmd->argv[a++] = "--graded";
    if (plan->exact)
        cmd->argv[a++] = "--exact";
    if (plan->no_raw)
        cmd->argv[a++] = "--no-raw";
    if (plan->witness)
        cmd->argv[a++] = "--witness";
    cmd->argv[a] = NULL;
    cmd->argc = a;
}

void emu_env_set(const suite_case *c, double timeout_s, emu_env *saved)
{
    static const char *const vars[EMU_ENV_VARS] = {"CUEMU_SCHEDULE", "CUEMU_THREADS",
                                                   "CUEMU_TIMEOUT", "CUEMU_MEMORY", "CUEMU_FRESH"};
    char threads[16], stall[32];
    for (int k = 0; k < EMU_ENV_VARS; k++) {
        saved->name[k] = vars[k];
        saved->value[k] = getenv(vars[k]) ? strdup(getenv(vars[k])) : NULL;
    }
    /* the emulator's deadlock report (which names the blocks and where they
     * wait) must come before the binary's own watchdog; a GPU binary
     * ignores the variable */
    double limit = timeout_s / 2 < LIMIT_EMU_STALL_S ? timeout_s / 2 : LIMIT_EMU_STALL_S;
    snprintf(stall, sizeof stall, "%g", limit);
    setenv("CUEMU_TIMEOUT", stall, 1);
    /* a read of device memory nothing wrote gives the emulator's 0xcd bytes
     * (and a warning naming the line), not the 0 a GPU's fresh memory
     * happens to hold: a lab that reads what it never wrote fails here as
     * it may on a GPU (buffers the harness fills are written either way) */
    setenv("CUEMU_FRESH", "poison", 1);
    if (c->schedule[0]) {
        setenv("CUEMU_SCHEDULE", c->schedule, 1);
        snprintf(threads, sizeof threads, "%d", c->emu_threads);
        if (c->emu_threads)
            setenv("CUEMU_THREADS", threads, 1);
    }
    /* the lab's memory model (suite emu_memory=); a GPU binary ignores it */
    if (c->emu_memory[0])
        setenv("CUEMU_MEMORY", c->emu_memory, 1);
}

void emu_env_restore(emu_env *saved)
{
    for (int k = 0; k < EMU_ENV_VARS; k++) {
        if (saved->value[k])
            setenv(saved->name[k], saved->value[k], 1);
        else
            unsetenv(saved->name[k]);
        free(saved->value[k]);
        saved->value[k] = NULL;
    }
}

size_t case_max_file(const suite_case *c)
{
    /* The run may write its result (two copies of the output) and a log:
     * a little more than that, and no more. */
    return 3ULL * (out_words_for(c->kind, c->n, c->dtype) + GUARD_ELEMS) * 4 + CASE_FILE_SLACK_BYTES;
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

void judge_ending(const run_plan *plan, const suite_case *c, const run_status *st,
                  const char *excerpt, const char *prefix, test_result *t)
{
    char how[128], json_path[1300], bin_path[1300];
    static char text[8192];
    describe_status(st, how, sizeof how);
    memset(t, 0, sizeof *t);
    t->ms = t->gbps = t->copy_gbps = NAN;
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
        json_get_string(text, "device", t->device, sizeof t->device);
        t->verdict = V_PASS;
        if (!plan->no_raw && !host_written(c, text, t))
            /* (any number of changed calls judges one input: perturb.h) */
            judge_output(c, perturb_calls(1, plan->warmup, plan->reps) > 0, bin_path, t);
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
    char prefix[1200], log[1300], json_path[1300], bin_path[1300], excerpt[700];
    /* outputs in the student's folder, the log in the grader's (safefile.h) */
    snprintf(prefix, sizeof prefix, "%s/case", plan->box);
    snprintf(log, sizeof log, "%s/case.log", plan->work);
    snprintf(json_path, sizeof json_path, "%s.json", prefix);
    snprintf(bin_path, sizeof bin_path, "%s.bin", prefix);
    safe_unlink(json_path);
    safe_unlink(bin_path);

    case_cmd cmd;
    case_command(plan, c, prefix, &cmd);
    char *argv[PROGRAM_WRAP_MAX + 48];
    int a = program_argv(plan, c, argv);
    for (int k = 0; k <= cmd.argc; k++)
        argv[a++] = (char *)cmd.argv[k];

    emu_env saved;
    emu_env_set(c, plan->timeout_s, &saved); /* this child's only: one runs at a time */
    sandbox sb;
    if (plan->sandbox) {
        sb = *plan->sandbox;
        sb.max_file = case_max_file(c);
    }
    run_status st;
    run_sandboxed(argv, log, plan->timeout_s + LIMIT_KILL_GRACE_S, plan->sandbox ? &sb : NULL,
                  &st);
    emu_env_restore(&saved);
    if (plan->wrap && st.exited && st.code == SANITIZER_FOUND_EXIT)
        sanitizer_excerpt(log, excerpt, sizeof excerpt);
    else
        log_excerpt(log, excerpt, sizeof excerpt);
    judge_ending(plan, c, &st, excerpt, prefix, t);
}
