/*
 * correctness.c - the correctness phase (correctness.h says what and why):
 * the cases of a set of groups run in order, and the groups spread over
 * forked lanes whose verdicts come back through a file each.
 */
#define _GNU_SOURCE
#include "safefile.h"
#include "correctness.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpulock.h"
#include "lanes.h"
#include "hidden.h"
#include "sandbox.h"
#include "tunables.h"
#include "run.h"
#include "unit.h"

/* On a GPU, a lane is a process feeding the GPU and checking on the host:
 * one per two cores.  On the emulator a lane is all CPU (one thread runs
 * every fiber), so one per core. */
int default_lanes(const char *backend)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long lanes = strcmp(backend, "gpu") == 0 ? (cores < 4 ? 1 : cores / 2) : cores;
    return lanes < 1 ? 1 : lanes < LANES_MAX ? (int)lanes : LANES_MAX;
}

/* How many tests before case c, of its group, hung (timed out or
 * deadlocked). */
static int hangs_before(const grade_run *g, int c)
{
    int count = 0;
    for (int i = 0; i < c; i++)
        count += test_hung(&g->tests[i]) && g->s->cases[i].group == g->s->cases[c].group;
    return count;
}

/* Settle case c without running it when there is nothing to run or no
 * point; 1 when settled. */
static int settle_unrun(grade_run *g, int c, int emu_unavailable)
{
    const suite_case *k = &g->s->cases[c];
    test_result *t = &g->tests[c];
    int is_emu = strcmp(g->backend, "emu") == 0;
    memset(t, 0, sizeof *t);
    t->ms = NAN;
    if (g->build_failed)
        t->verdict = g->forbidden[0] ? V_FORBIDDEN
                     : g->file_verdict != V_PASS ? g->file_verdict : V_BUILD_FAILED;
    else if (is_emu && k->emu_skip)
        t->verdict = V_SKIPPED,
        snprintf(t->detail, sizeof t->detail, "too large for the emulator; runs on a GPU");
    else if (hangs_before(g, c) >= LIMIT_HANGS_PER_GROUP)
        /* a group that hung twice would make every later test wait out its
         * limit too */
        t->verdict = V_TIMEOUT,
        snprintf(t->detail, sizeof t->detail, "not run: %d earlier tests of group %s hung "
                 "(timed out or deadlocked)", LIMIT_HANGS_PER_GROUP, g->s->groups[k->group].id);
    else if (k->schedule[0] && emu_unavailable) /* the emulator build failed (main.c) */
        t->verdict = V_BUILD_FAILED,
        snprintf(t->detail, sizeof t->detail, "your code did not build for the CPU emulator, "
                 "which runs the [emu] tests: see EMULATOR BUILD FAILED above");
    else
        return 0;
    return 1;
}

/* The cases from c on that run in one process: the same group, binary and
 * schedule, none settled without running.  Returns how many (>= 1). */
static int gather_unit(grade_run *g, int c, int emu_unavailable, const suite_case **unit)
{
    const suite *s = g->s;
    int count = 0;
    for (int d = c; d < s->ncases && count < LIMIT_CASES_PER_UNIT; d++) {
        const suite_case *k = &s->cases[d];
        if (k->group != s->cases[c].group || !unit_compatible(k, &s->cases[c]) ||
            (d > c && settle_unrun(g, d, emu_unavailable)))
            break; /* (a settled case is settled again, the same, when c reaches it) */
        unit[count++] = k;
    }
    return count;
}

/*
 * The cases of the groups marked in mine[], in suite order, each launched
 * twice (a second launch must give the same answer: state reset, no race).
 */
static void run_groups(grade_run *g, const run_plan *plan, const unsigned char *mine,
                       int emu_unavailable, int progress)
{
    const suite *s = g->s;
    static test_result got[LIMIT_CASES_PER_UNIT];
    const suite_case *unit[LIMIT_CASES_PER_UNIT];
    for (int c = 0; c < s->ncases;) {
        if (!(mine[s->cases[c].group] & lane_part(&s->cases[c])) ||
            settle_unrun(g, c, emu_unavailable)) {
            c++;
            continue;
        }
        int count = gather_unit(g, c, emu_unavailable, unit);
        run_plan p = *plan;
        p.gpu_hold = strcmp(g->backend, "gpu") == 0 && !s->cases[c].schedule[0]
                         ? GPU_HELD_SHARED : GPU_HELD_NONE;
        double t0 = now_s();
        int done = run_unit(&p, unit, count, got);
        if (getenv("GRADE_TRACE")) /* where grading time goes, for instructors */
            fprintf(stderr, "grade: trace: cases %d-%d (group %s%s%s): %d ran in %.2f s\n", c + 1,
                    c + count, s->groups[s->cases[c].group].id, s->cases[c].schedule[0] ? ", " : "",
                    s->cases[c].schedule, done, now_s() - t0);
        for (int i = 0; i < done; i++)
            g->tests[c + i] = got[i];
        c += done;
        if (progress)
            fprintf(stderr, "\rgrade: test %d/%d", c, s->ncases);
    }
    if (progress)
        fprintf(stderr, "\r%40s\r", "");
}

/* One lane's verdicts, as the lane wrote them: (case index, result) pairs.
 * 0 when the file was whole. */
static int read_lane(grade_run *g, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int c, end = 0, bad = 0;
    while (!end && !bad && fread(&c, sizeof c, 1, f) == 1) {
        end = c == -1; /* the lane's last record says it finished */
        bad = !end && (c < 0 || c >= g->s->ncases ||
                       fread(&g->tests[c], sizeof g->tests[c], 1, f) != 1);
    }
    fclose(f);
    return !bad && end ? 0 : -1;
}

/* The lane's own process: its groups' cases in its own scratch folder,
 * then every verdict written for the parent, ended by an index of -1. */
static void lane_main(grade_run *g, const run_plan *plan, const unsigned char *mine,
                      int emu_unavailable, const char *dir, const char *box, const char *results)
{
    run_plan mine_plan = *plan;
    mine_plan.work = dir;
    mine_plan.box = box;
    run_groups(g, &mine_plan, mine, emu_unavailable, 0);
    FILE *f = fopen(results, "wb");
    int ok = f != NULL;
    for (int c = 0; ok && c < g->s->ncases; c++)
        if (mine[g->s->cases[c].group] & lane_part(&g->s->cases[c]))
            ok = fwrite(&c, sizeof c, 1, f) == 1 &&
                 fwrite(&g->tests[c], sizeof g->tests[c], 1, f) == 1;
    int end = -1;
    ok = ok && fwrite(&end, sizeof end, 1, f) == 1;
    ok = f && fclose(f) == 0 && ok;
    fflush(stderr);
    _exit(ok ? 0 : 1);
}

/* Start lane l in a child process; its pid, or -1 when it could not start
 * (its groups then run here).  Its logs and results in a folder of the
 * grader's (work/laneL), its program's outputs in one of the student's
 * (box/laneL, made with no link followed: safefile.h). */
static pid_t start_lane(grade_run *g, const run_plan *plan, const unsigned char *mine,
                        int emu_unavailable, int l, char *results, size_t len)
{
    char dir[1100], box[1100];
    snprintf(dir, sizeof dir, "%s/lane%d", plan->work, l);
    snprintf(box, sizeof box, "%s/lane%d", plan->box, l);
    snprintf(results, len, "%s/lane%d.results", plan->work, l);
    remove(results);
    if ((mkdir(dir, 0700) != 0 && errno != EEXIST) || safe_mkdir(box, 0700) != 0)
        return -1;
    if (plan->sandbox && plan->sandbox->uid >= 0)
        sandbox_hand_over(box, plan->sandbox->uid, plan->sandbox->gid);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        lane_main(g, plan, mine, emu_unavailable, dir, box, results);
    return pid;
}

/* The groups in lanes run at once (lanes.h); a lane that failed (it
 * could not start, or died: a grader bug, the machine out of memory) has
 * its groups run again here, one after another, after saying so, once
 * every lane ended.  Returns the count of lanes. */
static int run_lanes(grade_run *g, const run_plan *plan, const correctness_opts *o,
                     const unsigned char *want)
{
    const suite *s = g->s;
    static unsigned char mine[LANE_PROCESSES_MAX][SUITE_MAX_GROUPS];
    static char results[LANE_PROCESSES_MAX][1200];
    pid_t pid[LANE_PROCESSES_MAX];
    const int lanes = lanes_assign(s, o->lanes, strcmp(g->backend, "emu") == 0, want, mine);
    if (o->progress)
        fprintf(stderr, "\rgrade: %d tests in %d lanes...", s->ncases, lanes);
    /* Emulated lanes share the cores: each run gets its share of threads
     * (a case that names its own threads, or CUEMU_THREADS set by the
     * caller, keeps them), not all of them, or fibers spin on busy cores. */
    int share = strcmp(g->backend, "emu") == 0 && !getenv("CUEMU_THREADS");
    if (share) {
        char threads[16];
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(threads, sizeof threads, "%ld", cores / o->lanes > 1 ? cores / o->lanes : 1);
        setenv("CUEMU_THREADS", threads, 1);
    }
    for (int l = 0; l < lanes; l++)
        pid[l] = start_lane(g, plan, mine[l], o->emu_unavailable, l, results[l],
                            sizeof results[l]);
    int failed[LANE_PROCESSES_MAX];
    for (int l = 0; l < lanes; l++) {
        int status = 0;
        if (pid[l] > 0)
            while (waitpid(pid[l], &status, 0) < 0 && errno == EINTR)
                ;
        failed[l] = !(pid[l] > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                      read_lane(g, results[l]) == 0);
    }
    if (share)
        unsetenv("CUEMU_THREADS");
    /* Only now, with every lane ended, one program at a time: a lane that
     * failed may have been made to by another lane's program (results are
     * read into copies, rawout.h, so cutting a file short no longer can:
     * attack paths-truncate-lanes), and with the others ended none can
     * disturb its groups' second run. */
    for (int l = 0; l < lanes; l++) {
        if (!failed[l])
            continue;
        fprintf(stderr, "grade: warning: lane %d of the correctness tests %s; its groups run "
                        "again one after another\n", l, pid[l] < 0 ? "did not start" : "failed");
        run_groups(g, plan, mine[l], o->emu_unavailable, 0);
    }
    if (o->progress)
        fprintf(stderr, "\r%40s\r", "");
    return lanes;
}

/* Lanes on one GPU share it like a batch's workers: without the batch's
 * GRADE_GPU_LOCK, a lock of this grader's own (a fresh folder only it can
 * write), so that a case out of GPU memory can be run again with the GPU
 * to itself (unit.c settle_oom).  The folder's name, or "" when none was
 * made (the batch's lock, the emulator, or mkdtemp failed). */
static void own_gpu_lock(const grade_run *g, char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    char path[1200];
    dir[0] = '\0';
    if (getenv("GRADE_GPU_LOCK") || strcmp(g->backend, "gpu") != 0)
        return;
    snprintf(dir, len, "%s/grade-gpulock.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        dir[0] = '\0';
        return;
    }
    snprintf(path, sizeof path, "%s/gpu", dir);
    setenv("GRADE_GPU_LOCK", path, 1);
}

/* Remove own_gpu_lock's folder and forget it. */
static void drop_gpu_lock(const char *dir)
{
    char path[1200];
    if (!dir[0])
        return;
    unsetenv("GRADE_GPU_LOCK");
    snprintf(path, sizeof path, "%s/gpu.turn", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/gpu.rw", dir);
    unlink(path);
    rmdir(dir);
}

/* The groups of one phase: the visible ones (hidden = 0) or the hidden. */
static int phase_groups(const suite *s, int hidden, unsigned char *want)
{
    int count = 0;
    for (int i = 0; i < s->ngroups; i++)
        count += (want[i] = (group_hidden(s, i) != 0) == hidden ? PART_ALL : 0) != 0;
    return count;
}

/* Visible groups first, hidden groups after every visible run has ended:
 * the student's process can keep what a hidden case showed it (its size,
 * in a file of its box) and repeat it in a later run's output, so no run
 * whose text a student reads may start after a hidden one (hidden.h; the
 * text of runs after the hidden ones, speed and sanitizers, is withheld).
 * Within a phase, lanes as before. */
void run_correctness(grade_run *g, const run_plan *plan, const correctness_opts *o)
{
    static unsigned char want[SUITE_MAX_GROUPS];
    double t0 = now_s();
    int lanes_used = 1;
    for (int hidden = 0; hidden <= 1; hidden++) {
        int groups = phase_groups(g->s, hidden, want);
        int lanes = o->lanes < groups ? o->lanes : groups;
        if (groups == 0)
            continue;
        if (lanes > 1 && !g->build_failed) {
            correctness_opts capped = *o;
            capped.lanes = lanes;
            char lock_dir[1100];
            own_gpu_lock(g, lock_dir, sizeof lock_dir);
            int used = run_lanes(g, plan, &capped, want);
            drop_gpu_lock(lock_dir);
            lanes_used = used > lanes_used ? used : lanes_used;
        } else {
            run_groups(g, plan, want, o->emu_unavailable, o->progress);
        }
    }
    for (int c = 0; c < g->s->ncases && !g->device[0]; c++)
        snprintf(g->device, sizeof g->device, "%s", g->tests[c].device);
    if (getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: correctness: %d tests in %d lane%s, %.2f s\n",
                g->s->ncases, lanes_used, lanes_used > 1 ? "s" : "", now_s() - t0);
}
