/*
 * launch.c - a lab binary started on suite cases (launch.h): the command
 * line of a case, the emulator's environment, one case to a process or a
 * unit of them with a progress file, and how a process that died part-way
 * is read back.  What came of each case goes back to the caller, who
 * judges it (judge.h).
 */
#define _GNU_SOURCE
#include "launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h" /* GUARD_ELEMS */
#include "kinds/kinds.h"
#include "logtext.h"
#include "safefile.h"
#include "sandbox.h"

/* The command line: the program (and a wrapper), then the case's options. */
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
    const unsigned params = kind_get(c->kind)->params; /* the options of those it reads */
    if (params & KP_ORDER_TUPLE) {
        snprintf(cmd->order, sizeof cmd->order, "%d", c->order);
        snprintf(cmd->tuple, sizeof cmd->tuple, "%d", c->tuple);
        cmd->argv[a++] = "--order"; cmd->argv[a++] = cmd->order;
        cmd->argv[a++] = "--tuple"; cmd->argv[a++] = cmd->tuple;
    }
    if (params & KP_PRED) {
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
    if (plan->traffic)
        cmd->argv[a++] = "--traffic";
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

/* Run case c alone: its results in the student's folder as PREFIX = box/case,
 * its log in the grader's (safefile.h). */
void launch_case(const run_plan *plan, const suite_case *c, case_run *run)
{
    char log[1300], json_path[1300], bin_path[1300];
    snprintf(run->prefix, sizeof run->prefix, "%s/case", plan->box);
    snprintf(log, sizeof log, "%s/case.log", plan->work);
    snprintf(json_path, sizeof json_path, "%s.json", run->prefix);
    snprintf(bin_path, sizeof bin_path, "%s.bin", run->prefix);
    safe_unlink(json_path);
    safe_unlink(bin_path);

    case_cmd cmd;
    case_command(plan, c, run->prefix, &cmd);
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
    run_watched(argv, log, plan->timeout_s + LIMIT_KILL_GRACE_S, NULL,
                plan->sandbox ? &sb : NULL, plan->gate, &run->st);
    emu_env_restore(&saved);
    if (plan->wrap && run->st.exited && run->st.code == SANITIZER_FOUND_EXIT)
        sanitizer_excerpt(log, run->excerpt, sizeof run->excerpt);
    else
        log_excerpt(log, run->excerpt, sizeof run->excerpt);
}

/* ---- several cases in one process (unit.h says why) ---- */

/* What the progress text says of cases 0..count-1, read in one pass (the
 * file is read again each time it grows): state[i] as unit_case_state
 * says, a case's first "end" line the one that counts. */
static void unit_states(const char *text, int count, int *state)
{
    unsigned char *ended = calloc((size_t)(count > 0 ? count : 1), 1);
    for (int i = 0; i < count; i++)
        state[i] = -1;
    for (const char *p = text; ended && p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        int id, rc;
        if (sscanf(p, "end k%d %d", &id, &rc) == 2 && id >= 0 && id < count && !ended[id]) {
            ended[id] = 1;
            state[id] = rc;
        } else if (sscanf(p, "begin k%d", &id) == 1 && id >= 0 && id < count && !ended[id]) {
            state[id] = -2;
        }
    }
    free(ended); /* (out of memory: every case as never begun, which is rerun) */
}

int unit_case_state(const char *text, int i)
{
    int *state = i >= 0 ? malloc(((size_t)i + 1) * sizeof *state) : NULL;
    if (!state)
        return -1;
    unit_states(text, i + 1, state);
    int s = state[i];
    free(state);
    return s;
}

/* The run of case i of a unit that ran to its end with exit code state. */
static void ended_run(const run_plan *plan, int i, int state, case_run *r)
{
    run_status ended = {1, state, 0, 0, 0, 0.0};
    snprintf(r->prefix, sizeof r->prefix, "%s/case%d", plan->box, i);
    r->st = ended;
    r->excerpt[0] = '\0';
}

/* launch_unit's watch of a unit's progress (run_progress, run.h): each
 * case that has ended with a result to judge (exit 0, or the harness's own
 * check failed) is told to the caller once, while the later cases run. */
typedef struct {
    const run_plan *plan;
    const char *progress;
    int count;
    case_run *runs;
    unsigned char told[LIMIT_CASES_PER_UNIT];
    case_ended_fn ended;
    void *ctx;
} unit_watch;

static void tell_ended(void *arg)
{
    unit_watch *w = arg;
    static char text[UNIT_PROGRESS_BYTES];
    int state[LIMIT_CASES_PER_UNIT];
    if (safe_slurp(w->progress, text, sizeof text) != 0)
        return;
    unit_states(text, w->count, state);
    for (int i = 0; i < w->count; i++)
        if (!w->told[i] && (state[i] == 0 || state[i] == EXIT_SELF_CHECK_FAILED)) {
            w->told[i] = 1;
            ended_run(w->plan, i, state[i], &w->runs[i]);
            w->ended(w->ctx, i, &w->runs[i]);
        }
}

/* The one-line excerpt of case i's part of the log (after its "@@ case"
 * line, up to the next one). */
static void case_excerpt(const char *log_text, int i, char *out, size_t len)
{
    static char part[LOG_HEAD_BYTES];
    char mark[32];
    snprintf(mark, sizeof mark, "@@ case k%d\n", i);
    const char *from = strstr(log_text, mark);
    from = from ? from + strlen(mark) : log_text;
    const char *to = strstr(from, "@@ case ");
    size_t n = to ? (size_t)(to - from) : strlen(from);
    if (n > sizeof part - 1)
        n = sizeof part - 1;
    memcpy(part, from, n);
    part[n] = '\0';
    log_excerpt_text(part, out, len);
}

/* Write the case list; -1 when a case's options cannot go on a line (a
 * word with white space in it: the list is split at white space).  It is
 * in the student's folder (the program reads it there): made afresh,
 * never written through what an earlier run left (safefile.h). */
static int write_cases(const run_plan *plan, const suite_case *const *cases, int count,
                       const char *path)
{
    int fd = safe_create(path, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int ok = 1;
    for (int i = 0; i < count && ok; i++) {
        char prefix[1200];
        case_cmd cmd;
        snprintf(prefix, sizeof prefix, "%s/case%d", plan->box, i);
        case_command(plan, cases[i], prefix, &cmd);
        fprintf(f, "k%d", i);
        for (int k = 0; k < cmd.argc; k++) {
            ok &= cmd.argv[k][0] && strpbrk(cmd.argv[k], " \t\r\n") == NULL;
            fprintf(f, " %s", cmd.argv[k]);
        }
        if (plan->witness && plan->witness_marks)
            fprintf(f, " --witness-mark %d", i);
        fputc('\n', f);
        snprintf(prefix, sizeof prefix, "%s/case%d.json", plan->box, i);
        safe_unlink(prefix); /* a result left by an earlier unit is not this one's */
    }
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* A process death worth a second look alone: a crash or an error could
 * come from what an earlier case left behind.  A timeout, a deadlock report
 * or a sanitizer's finding would only repeat at the same cost. */
static int worth_rerun(const run_plan *plan, const run_status *st)
{
    if (st->timed_out)
        return 0;
    if (st->signaled)
        return 1;
    return st->exited && st->code != 0 && st->code != EXIT_SELF_CHECK_FAILED &&
           st->code != EXIT_TIMEOUT && st->code != EMU_DIAGNOSTIC_EXIT &&
           !(plan->wrap && st->code == SANITIZER_FOUND_EXIT);
}

/* Start the process for the whole list, watched as w says; its fate in *st. */
static void run_list(const run_plan *plan, const suite_case *const *cases, int count,
                     const char *list, unit_watch *w, const char *log, run_status *st)
{
    const char *progress = w->progress;
    char *argv[PROGRAM_WRAP_MAX + 8];
    int a = program_argv(plan, cases[0], argv);
    argv[a++] = "--cases"; argv[a++] = (char *)list;
    argv[a++] = "--progress"; argv[a++] = (char *)progress;
    argv[a] = NULL;
    sandbox sb;
    if (plan->sandbox) {
        sb = *plan->sandbox;
        sb.max_file = 0;
        for (int i = 0; i < count; i++)
            if (case_max_file(cases[i]) > sb.max_file)
                sb.max_file = case_max_file(cases[i]);
    }
    emu_env saved;
    emu_env_set(cases[0], plan->timeout_s, &saved);
    double per_case = plan->timeout_s + LIMIT_KILL_GRACE_S;
    safe_unlink(progress);
    run_progress watch = {progress, per_case, w->ended ? tell_ended : NULL, w};
    run_watched(argv, log, per_case * count, &watch, plan->sandbox ? &sb : NULL, plan->gate, st);
    emu_env_restore(&saved);
}

int launch_unit(const run_plan *plan, const suite_case *const *cases, int count, case_run *runs,
                case_ended_fn ended, void *ctx)
{
    char list[1200], progress[1200], log[1200];
    static char text[UNIT_PROGRESS_BYTES], log_text[UNIT_LOG_TAIL_BYTES];
    snprintf(list, sizeof list, "%s/unit.cases", plan->box);
    snprintf(progress, sizeof progress, "%s/unit.progress", plan->box);
    snprintf(log, sizeof log, "%s/unit.log", plan->work);
    if (count == 1 || write_cases(plan, cases, count, list) != 0) {
        launch_case(plan, cases[0], &runs[0]);
        return 1;
    }
    run_status st;
    unit_watch w = {.plan = plan, .progress = progress, .count = count, .runs = runs,
                     .ended = count <= LIMIT_CASES_PER_UNIT ? ended : NULL, .ctx = ctx};
    run_list(plan, cases, count, list, &w, log, &st);
    if (safe_slurp(progress, text, sizeof text) != 0)
        text[0] = '\0'; /* no progress file (or not a plain one): no case finished */
    read_tail(log, log_text, sizeof log_text); /* where the case it died in wrote */

    int *state = malloc((size_t)count * sizeof *state), done = count;
    if (state)
        unit_states(text, count, state);
    for (int i = 0; i < count; i++) {
        case_run *r = &runs[i];
        int s = state ? state[i] : -1; /* (the grader out of memory: as if never begun) */
        snprintf(r->prefix, sizeof r->prefix, "%s/case%d", plan->box, i);
        r->excerpt[0] = '\0';
        if (s >= 0) { /* it ran to its end: read as a process that exited so */
            ended_run(plan, i, s, r);
            if (s != 0 && s != EXIT_SELF_CHECK_FAILED)
                case_excerpt(log_text, i, r->excerpt, sizeof r->excerpt);
            continue;
        }
        if (s == -1 && i > 0) {
            done = i; /* died between cases: the rest are for another process */
            break;
        }
        if (s == -2 && worth_rerun(plan, &st)) {
            launch_case(plan, cases[i], r);
        } else {
            r->st = st;
            case_excerpt(log_text, i, r->excerpt, sizeof r->excerpt);
        }
        done = i + 1;
        break;
    }
    free(state);
    return done;
}
