/* test_witness_gate.c - the witness's gate (grader/witness_gate.h, run.h's
 * run_gate, `grade --sandbox-exec --gate`, the harness's window): ncu
 * starts with the GPU shared, the program starts first in line, holds the
 * GPU alone from its 'r' to its last case's 'd' and shares it after; a
 * byte out of turn or a stale byte never gives the GPU back early; the
 * waits for the GPU are not counted against the run's limit; a gate
 * nobody opened, or a lock that cannot be taken, refuses. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpulock.h"
#include "run.h"
#include "witness_gate.h"

#define GRADER KIT_TOP "/build/grader"

static char dir[64], lock[96], log_path[96], prog_log[96];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_gate.XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(lock, sizeof lock, "%s/gpu0", dir);
    snprintf(log_path, sizeof log_path, "%s/run.log", dir);
    snprintf(prog_log, sizeof prog_log, "%s/program.log", dir);
    setenv("GRADE_GPU_LOCK", lock, 1);
    cr_assert_eq(access(GRADER, X_OK), 0, "build the grader first (make build/grader)");
}

static void teardown(void)
{
    char cmd[128];
    unsetenv("GRADE_GPU_LOCK");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(witness_gate, .init = setup, .fini = teardown);

/* Run `sh -c before; grade --sandbox-exec --gate ... -- sh -c program`
 * through the gate; its status. */
static run_status gated_cases(const char *before, const char *program, double limit, int cases)
{
    char script[2048], why[200];
    const char *gate = witness_gate_path(dir);
    snprintf(script, sizeof script, "%s; exec %s --sandbox-exec --log %s --gate %s -- sh -c '%s'",
             before, GRADER, prog_log, gate, program);
    char *argv[] = {"sh", "-c", script, NULL};
    const run_gate *g = witness_gate_arm(-1, -1, cases, why, sizeof why);
    cr_assert_not_null(g, "%s", why);
    run_status st;
    run_watched(argv, log_path, limit, NULL, NULL, g, &st);
    witness_gate_disarm();
    return st;
}

static run_status gated(const char *before, const char *program, double limit)
{
    return gated_cases(before, program, limit, 1);
}

static char text_of[4096];

/* The file at path (or "") into text_of. */
static const char *log_text(const char *path)
{
    text_of[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return text_of;
    size_t n = fread(text_of, 1, sizeof text_of - 1, f);
    text_of[n] = '\0';
    fclose(f);
    return text_of;
}

static int log_has(const char *path, const char *text)
{
    return strstr(log_text(path), text) != NULL;
}

/* The program's side of the window (common/witness_window.h), in sh. */
#define WINDOW "W=${KIT_WITNESS_WINDOW%%%%,*}; G=${KIT_WITNESS_WINDOW##*,}; "
#define SAY_R "printf r >&$W; dd bs=1 count=1 <&$G >/dev/null 2>&1; "
#define SAY_D "printf d >&$W; sleep 0.3; "

/* What the program sees of the hold at one point, into its log:
 * TAG-turn (no run or speed test can get in), TAG-shared (a run already
 * in may go on), TAG-alone (nothing beside it). */
static void probe(char *out, size_t len, const char *tag)
{
    snprintf(out, len, "flock -n %s.turn true || echo %s-turn; flock -n -s %s.rw true && echo "
             "%s-shared; flock -n -s %s.rw true || echo %s-alone; ", lock, tag, lock, tag, lock, tag);
}

Test(witness_gate, ncus_start_is_shared_the_timing_alone_and_the_rest_shared)
{
    char before[256], program[2048], start[400], timing[400], after[400];
    snprintf(before, sizeof before, "flock -n -s %s.rw true && echo shared-before; "
             "flock -n %s.rw true || echo not-alone-before", lock, lock);
    probe(start, sizeof start, "start");
    probe(timing, sizeof timing, "timing");
    probe(after, sizeof after, "after");
    snprintf(program, sizeof program, WINDOW "%s" SAY_R "%s" SAY_D "%s", start, timing, after);
    run_status st = gated(before, program, 20);
    cr_assert(st.exited && st.code == 0, "exit %d: %s", st.code, log_text(prog_log));
    cr_assert(log_has(log_path, "shared-before"), "the GPU was held alone before the gate");
    cr_assert(log_has(log_path, "not-alone-before"), "ncu started with the GPU not held shared");
    const char *want[] = {"start-turn", "start-shared", "timing-turn", "timing-alone"};
    for (int i = 0; i < 4; i++)
        cr_assert(log_has(prog_log, want[i]), "no %s: %s", want[i], log_text(prog_log));
    cr_assert(!log_has(prog_log, "start-alone"), "alone before the program said r");
    cr_assert(log_has(prog_log, "after-shared") && !log_has(prog_log, "after-turn") &&
              !log_has(prog_log, "after-alone"), "not shared after d: %s", log_text(prog_log));
    cr_assert_eq(gpu_lock_held(), GPU_HELD_NONE, "the hold outlived the run");
    char check[160];
    snprintf(check, sizeof check, "flock -n %s.rw true", lock);
    cr_assert_eq(system(check), 0, "the GPU was not given back");
}

/* A 'd' before 'r', a 'd' before the last case's, a byte of its own on
 * PATH.ready (by name): none gives the GPU back while the program runs. */
Test(witness_gate, bytes_out_of_turn_never_give_the_gpu_back_early)
{
    char program[2048], p1[400], p2[400], p3[400];
    const char *gate = witness_gate_path(dir);
    probe(p1, sizeof p1, "early");
    probe(p2, sizeof p2, "between");
    probe(p3, sizeof p3, "forged");
    snprintf(program, sizeof program, WINDOW SAY_D "%s" SAY_R SAY_D "%s"
             "printf x > %s.ready; printf xr >&$W; sleep 0.3; %s", p1, p2, gate, p3);
    run_status st = gated_cases("true", program, 20, 2);
    cr_assert(st.exited && st.code == 0, "exit %d: %s", st.code, log_text(prog_log));
    cr_assert(log_has(prog_log, "early-turn"), "a d before r gave the GPU back");
    cr_assert(log_has(prog_log, "between-alone"), "the first of two cases' d shared the GPU");
    cr_assert(log_has(prog_log, "forged-alone"), "a byte on PATH.ready or the window moved the hold");
}

/* The upgrade waits for a run already in (2 s); that wait is not the
 * program's time. */
Test(witness_gate, waiting_to_be_alone_is_not_counted_against_the_limit)
{
    char rw[128], program[512];
    snprintf(rw, sizeof rw, "%s.rw", lock);
    pid_t reader = fork();
    if (reader == 0) { /* a correctness run, in before the program starts */
        int r = open(rw, O_RDWR | O_CREAT, 0600);
        flock(r, LOCK_SH);
        sleep(2);
        _exit(0);
    }
    usleep(200 * 1000);
    snprintf(program, sizeof program, WINDOW SAY_R "echo timed");
    run_status st = gated("true", program, 1.5);
    waitpid(reader, NULL, 0);
    cr_assert(!st.timed_out, "the wait to be alone was counted as the run's time");
    cr_assert(st.exited && st.code == 0);
    cr_assert(log_has(prog_log, "timed"));
}

Test(witness_gate, a_stale_byte_does_not_let_the_program_through_unheld)
{
    char program[256], ready[128];
    const char *gate = witness_gate_path(dir);
    snprintf(program, sizeof program, "flock -n %s.rw true || echo held-during", lock);
    snprintf(ready, sizeof ready, "%s.ready", gate);
    /* a byte written before the run, as an earlier program of the
     * student's could have */
    char before[256];
    snprintf(before, sizeof before, "printf r > %s; sleep 0.2", ready);
    run_status st = gated(before, program, 20);
    cr_assert(st.exited && st.code == 0, "exit %d: %s", st.code, log_text(prog_log));
    cr_assert(log_has(prog_log, "held-during"), "the program ran without the GPU held alone");
}

Test(witness_gate, waiting_for_the_gpu_is_not_counted_against_the_limit)
{
    char turn[128], rw[128];
    snprintf(turn, sizeof turn, "%s.turn", lock);
    snprintf(rw, sizeof rw, "%s.rw", lock);
    pid_t holder = fork();
    if (holder == 0) { /* another worker's timing, asked for while ncu starts: 2 s alone */
        usleep(200 * 1000);
        int t = open(turn, O_RDWR | O_CREAT, 0600), r = open(rw, O_RDWR | O_CREAT, 0600);
        flock(t, LOCK_EX);
        flock(r, LOCK_EX); /* once the gate gives back ncu's shared hold */
        sleep(2);
        _exit(0);
    }
    run_status st = gated("sleep 0.6", "echo ran", 1.5);
    waitpid(holder, NULL, 0);
    cr_assert(!st.timed_out, "the wait for the GPU was counted as the run's time");
    cr_assert(st.exited && st.code == 0);
    cr_assert(log_has(prog_log, "ran"));
}

/* A batch's lock that cannot be taken (its folder gone): the program is
 * refused at the gate, never run without the GPU held. */
Test(witness_gate, a_lock_that_cannot_be_taken_runs_nothing)
{
    char gone[128];
    snprintf(gone, sizeof gone, "%s/no-such-folder/gpu0", dir);
    setenv("GRADE_GPU_LOCK", gone, 1);
    run_status st = gated("true", "echo ran", 20);
    cr_assert(st.exited && st.code == 126, "exit %d", st.code);
    cr_assert(!log_has(prog_log, "ran"), "the program ran without the GPU held");
}

Test(witness_gate, a_gate_nobody_holds_open_refuses_to_run_the_program)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --sandbox-exec --log %s --gate %s/none -- sh -c 'echo ran' "
             ">%s 2>&1", GRADER, prog_log, dir, log_path);
    int rc = system(cmd);
    cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 126, "status %d", rc);
    cr_assert(!log_has(prog_log, "ran"), "the program ran without the grader");
}

Test(witness_gate, names_planted_in_the_folder_are_replaced_not_followed)
{
    char target[128], go[128], ready[128], why[200];
    const char *gate = witness_gate_path(dir);
    snprintf(target, sizeof target, "%s/kit-file", dir);
    snprintf(go, sizeof go, "%s.go", gate);
    snprintf(ready, sizeof ready, "%s.ready", gate);
    FILE *f = fopen(target, "w");
    fputs("kit", f);
    fclose(f);
    /* what a student's earlier run could leave: a link and a plain file */
    cr_assert_eq(symlink(target, go), 0);
    f = fopen(ready, "w");
    fclose(f);
    const run_gate *g = witness_gate_arm(-1, -1, 1, why, sizeof why);
    cr_assert_not_null(g, "%s", why);
    struct stat st;
    cr_assert_eq(lstat(go, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode), "the link was kept");
    cr_assert_eq(lstat(ready, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode), "the plain file was kept");
    cr_assert_eq(g->open(g), 1);
    witness_gate_disarm();
    cr_assert_str_eq(log_text(target), "kit", "the grader wrote through the link");
}
