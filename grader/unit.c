/*
 * unit.c - several cases in one process of a lab binary (unit.h says why),
 * and how a process that died part-way is read back.
 */
#define _GNU_SOURCE
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_exit.h"
#include "gpulock.h"
#include "tunables.h"
#include "sandbox.h"
#include "safefile.h"

int unit_compatible(const suite_case *a, const suite_case *b)
{
    return strcmp(a->schedule, b->schedule) == 0 && a->emu_threads == b->emu_threads;
}

int unit_case_state(const char *text, int i)
{
    int state = -1;
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        int id, rc;
        if (sscanf(p, "end k%d %d", &id, &rc) == 2 && id == i)
            return rc;
        if (sscanf(p, "begin k%d", &id) == 1 && id == i)
            state = -2;
    }
    return state;
}

/* The one-line excerpt of case i's part of the log (after its "@@ case"
 * line, up to the next one). */
static void case_excerpt(const char *log_text, int i, char *out, size_t len)
{
    static char part[16384];
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

/*
 * A case that ran out of GPU memory while the GPU was shared (correctness
 * lanes, or a batch's workers on one GPU) may have lost the memory to
 * another process: it is run again alone, the GPU held exclusive
 * (gpulock.h), and that run's verdict stands, so a student's own
 * out-of-memory, which repeats alone, keeps its verdict.  Under an
 * exclusive hold (the speed phase) or with no lock, the verdict is final.
 */
static void settle_oom(const run_plan *plan, const suite_case *c, test_result *t)
{
    if (!t->gpu_oom || gpu_lock_held() != GPU_HELD_SHARED)
        return;
    gpu_unlock();
    if (gpu_lock_exclusive() == 0) {
        judge_case(plan, c, t);
        gpu_unlock();
    }
    gpu_lock_shared();
}

/* Start the process for the whole list; its fate in *st. */
static void run_list(const run_plan *plan, const suite_case *const *cases, int count,
                     const char *list, const char *progress, const char *log, run_status *st)
{
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
    run_watched(argv, log, per_case * count, progress, per_case, plan->sandbox ? &sb : NULL, st);
    emu_env_restore(&saved);
}

int run_unit(const run_plan *plan, const suite_case *const *cases, int count, test_result *out)
{
    char list[1200], progress[1200], log[1200], prefix[1200], excerpt[700];
    static char text[1 << 16], log_text[1 << 20];
    snprintf(list, sizeof list, "%s/unit.cases", plan->box);
    snprintf(progress, sizeof progress, "%s/unit.progress", plan->box);
    snprintf(log, sizeof log, "%s/unit.log", plan->work);
    if (count == 1 || write_cases(plan, cases, count, list) != 0) {
        judge_case(plan, cases[0], &out[0]);
        settle_oom(plan, cases[0], &out[0]);
        return 1;
    }
    run_status st;
    run_list(plan, cases, count, list, progress, log, &st);
    if (safe_slurp(progress, text, sizeof text) != 0)
        text[0] = '\0'; /* no progress file (or not a plain one): no case finished */
    read_tail(log, log_text, sizeof log_text); /* where the case it died in wrote */

    for (int i = 0; i < count; i++) {
        int state = unit_case_state(text, i);
        snprintf(prefix, sizeof prefix, "%s/case%d", plan->box, i);
        if (state >= 0) { /* it ran to its end: judged as a process that exited so */
            run_status ended = {1, state, 0, 0, 0, 0.0};
            excerpt[0] = '\0';
            if (state != 0 && state != EXIT_SELF_CHECK_FAILED)
                case_excerpt(log_text, i, excerpt, sizeof excerpt);
            judge_ending(plan, cases[i], &ended, excerpt, prefix, &out[i]);
            settle_oom(plan, cases[i], &out[i]);
            continue;
        }
        if (state == -1 && i > 0)
            return i; /* died between cases: the rest are for another process */
        if (state == -2 && worth_rerun(plan, &st)) {
            judge_case(plan, cases[i], &out[i]);
        } else {
            case_excerpt(log_text, i, excerpt, sizeof excerpt);
            judge_ending(plan, cases[i], &st, excerpt, prefix, &out[i]);
        }
        settle_oom(plan, cases[i], &out[i]);
        return i + 1;
    }
    return count;
}
