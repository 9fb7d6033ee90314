/*
 * main.c - `./grade labN`: build the submission and (for speed) the
 * reference, run every test of the lab's suite, judge each here, print
 * the table and optionally write Gradescope's results.json.
 *
 * Exit status: 0 when grading ran (whatever the score), 2 for a usage
 * error, 3 when the grader itself could not work (reference solution does
 * not build, no scratch space), 4 when the lab's suite is invalid (the
 * message names the file and line), 5 when --check-suite finds that the
 * reference solution does not get full marks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cuda_exit.h" /* GRADE_OK ... */
#include "grade.h"
#include "judge.h"
#include "run.h"
#include "boxfs.h"
#include "buildlog.h"
#include "forbid.h"
#include "gpulock.h"
#include "gpunodes.h"
#include "text.h"
#include "tunables.h"
#include "unit.h"
#include "sandbox.h"
#include "sandbox_exec.h"
#include "paths.h"
#include "isolation.h"
#include "sanitize.h"
#include "checksuite.h"
#include "correctness.h"
#include "speed.h"
#include "kitmake.h"
#include "rmtree.h"
#include "options.h"


static const char *top;
static char work[512]; /* the grader's own: logs, lists (0700, never handed over) */
static char box[600];  /* work/box: the student's, the only folder its code may write */
/* A binary's path: box plus its name ("/student-emu"). */
#define BIN_PATH_LEN (sizeof box + 100)


/* Look for forbidden shortcuts in every collected file; 1 (reason in why)
 * when one is found. */
static int scan_forbidden(const suite *s, char *why, size_t len)
{
    for (int f = 0; f < s->nfiles; f++) {
        char path[800];
        snprintf(path, sizeof path, "%s/src/%s", box, s->files[f]);
        FILE *in = fopen(path, "rb");
        if (!in)
            continue;
        static char text[SUBMISSION_FILE_MAX_BYTES + 2];
        size_t got = fread(text, 1, sizeof text - 1, in);
        fclose(in);
        text[got] = '\0';
        /* Never skipped: a file past the limit is refused unread. */
        if (got > SUBMISSION_FILE_MAX_BYTES)
            return snprintf(why, len, "%s is larger than the %d KiB a submitted file may be: "
                            "refused unread", s->files[f], SUBMISSION_FILE_MAX_BYTES >> 10), 1;
        if (forbid_scan(s->files[f], text, s->forbid, why, len))
            return 1;
    }
    return 0;
}

/*
 * The reference to time a student against: 1 when it must be built from
 * solutions/ (the instructor's tree); 0 when a student's copy of the kit
 * (make dist) has it prebuilt, its path in ref; 0 with speed switched off
 * (and why) when there is neither.
 */
static int pick_reference(grade_run *g, const char *lab, char *ref, size_t len)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/solutions/%s", top, g->s->dir);
    if (access(path, R_OK) == 0)
        return 1;
    snprintf(ref, len, "%s/refbin/%s", top, lab);
    if (access(ref, X_OK) == 0)
        return 0;
    g->speed_graded = 0;
    g->no_speed_why = "this copy of the kit has neither the reference solution nor refbin/";
    return 0;
}

/* One tool over group i: its largest case, then, if that was clean, its
 * smallest (sanitize_pick_small says why both). */
static void sanitize_group_tool(grade_run *g, int i, int t, const char *tool,
                                const run_plan *plan)
{
    test_result *r = &g->san[i][t];
    gpu_lock_shared();
    sanitize_case(tool, 1 << t, plan, SANITIZE_SLOWDOWN, &g->san_case[i], r);
    gpu_unlock();
    g->san_on_small[i][t] = 0;
    if (r->verdict != V_PASS || g->san_small[i].n == 0)
        return;
    test_result small;
    memset(&small, 0, sizeof small);
    gpu_lock_shared();
    sanitize_case(tool, 1 << t, plan, SANITIZE_SLOWDOWN, &g->san_small[i], &small);
    gpu_unlock();
    if (small.verdict != V_PASS) {
        *r = small;
        g->san_on_small[i][t] = 1;
    }
}

/*
 * --sanitize: each tool the suite names over two cases of each group.  Only
 * on a GPU: the emulator has its own checks, always on.  The tools slow a
 * kernel down 10-100x, hence the small case and the longer limit.
 */
static void run_sanitizers(grade_run *g, const run_plan *plan, int progress)
{
    const suite *s = g->s;
    char tool[1024];
    g->sanitize = 1;
    if (strcmp(g->backend, "gpu") != 0) {
        snprintf(g->sanitize_why, sizeof g->sanitize_why,
                 "compute-sanitizer needs an NVIDIA GPU; on the CPU emulator every run "
                 "already stops at out-of-bounds accesses, divergent barriers and deadlocks");
        return;
    }
    if (g->build_failed) {
        snprintf(g->sanitize_why, sizeof g->sanitize_why, "the submission did not build");
        return;
    }
    if (sanitize_locate(tool, sizeof tool) != 0) {
        snprintf(g->sanitize_why, sizeof g->sanitize_why,
                 "compute-sanitizer not found (set COMPUTE_SANITIZER or CUDA_HOME)");
        return;
    }
    int runs = 0, total = 0;
    for (int i = 0; i < s->ngroups; i++)
        for (int t = 0; t < SAN_TOOL_COUNT; t++)
            total += (s->sanitize.tools >> t) & 1;
    for (int i = 0; i < s->ngroups; i++) {
        int have = sanitize_pick_case(s, i, &g->san_case[i]) == 0, hangs = 0;
        if (!have || sanitize_pick_small(s, i, &g->san_case[i], &g->san_small[i]) != 0)
            g->san_small[i].n = 0;
        for (int c = 0; c < s->ncases; c++)
            hangs |= s->cases[c].group == i && g->tests[c].verdict == V_TIMEOUT;
        for (int t = 0; t < SAN_TOOL_COUNT; t++) {
            test_result *r = &g->san[i][t];
            memset(r, 0, sizeof *r);
            r->verdict = V_SKIPPED;
            r->ms = NAN;
            if (!((s->sanitize.tools >> t) & 1))
                continue;
            if (!have || hangs) {
                snprintf(r->detail, sizeof r->detail, "%s",
                         hangs ? "not run: the group's tests time out"
                               : "the group has no case to run it on");
                continue;
            }
            sanitize_group_tool(g, i, t, tool, plan);
            if (progress)
                fprintf(stderr, "\rgrade: sanitizer run %d/%d", ++runs, total);
        }
    }
    if (progress)
        fprintf(stderr, "\r%40s\r", "");
}

/* Every verdict's text names the student's files as labs/<dir>/<file>,
 * not as the scratch copy the tools saw (paths.h). */
static void show_paths(grade_run *g)
{
    const suite *s = g->s;
    for (int f = 0; f < s->nfiles; f++) {
        for (int c = 0; c < s->ncases; c++)
            show_student_paths(g->tests[c].detail, sizeof g->tests[c].detail, s->files[f], s->dir);
        for (int i = 0; i < s->ngroups; i++)
            for (int t = 0; t < SAN_TOOL_COUNT; t++)
                show_student_paths(g->san[i][t].detail, sizeof g->san[i][t].detail, s->files[f],
                                   s->dir);
    }
}

/* Where the scratch folder goes: $TMPDIR when set; else /dev/shm when it
 * has room, because the raw outputs of the large cases (2 GiB at 2^28)
 * are written and read back there, and on a disk that took seconds a
 * case; else /tmp. */
static const char *scratch_parent(void)
{
    struct statvfs fs;
    if (getenv("TMPDIR"))
        return getenv("TMPDIR");
    if (access("/dev/shm", W_OK) == 0 && statvfs("/dev/shm", &fs) == 0 &&
        (double)fs.f_bavail * (double)fs.f_frsize >= SCRATCH_SHM_MIN_BYTES)
        return "/dev/shm";
    return "/tmp";
}

/* Phase 1: the command line, the suite and a scratch folder. */
static int setup(int argc, char **argv, grade_opts *o, suite *s)
{
    char path[1200], err[400];
    if (grade_parse_args(argc, argv, o)) {
        grade_usage(stderr);
        return GRADE_USAGE;
    }
    /* Absolute and resolved: students' code sees the kit through a view
     * (isolation.h) that binds each part at its real path. */
    static char top_real[PATH_MAX];
    if (!realpath(getenv("KIT_TOP") ? getenv("KIT_TOP") : ".", top_real)) {
        fprintf(stderr, "grade: the kit's folder: %s\n", strerror(errno));
        return GRADE_FAILURE;
    }
    top = top_real;
    char suites[1100];
    if (o->suites)
        snprintf(suites, sizeof suites, "%s", o->suites);
    else
        snprintf(suites, sizeof suites, "%s/grader/suites", top);
    snprintf(path, sizeof path, "%s/%s.suite", suites, o->lab);
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "grade: no test suite for %s (%s)\n", o->lab, path);
        return GRADE_USAGE;
    }
    snprintf(path, sizeof path, "%s", suites);
    int hidden;
    if (suite_load_lab(path, o->lab, s, &hidden, err, sizeof err)) {
        fprintf(stderr, "grade: invalid suite: %s\n", err);
        return GRADE_BAD_SUITE;
    }
    if (o->validate_suite) {
        printf("grade: %s: suite valid: %d groups (%d hidden), %d tests, %d speed tests%s\n",
               o->lab, s->ngroups, s->ngroups - s->hidden_from, s->ncases, s->nspeed,
               hidden ? "" : "; no hidden suite");
        exit(GRADE_OK);
    }
    if (o->check_suite) { /* the reference solution is the submission */
        if (check_suite_submission(top, s, &o->submissions[0]) != 0)
            return GRADE_USAGE;
        o->nsubmissions = 1;
    }
    /* As root, a mount namespace of the grader's own: the box's tmpfs
     * below is never in the host's mount table and ends with the grader. */
    int private_ns = boxfs_private(err, sizeof err);
    if (private_ns < 0)
        fprintf(stderr, "grade: warning: the box is not size-capped as a whole (%s)\n", err);
    snprintf(work, sizeof work, "%s/grade.XXXXXX", scratch_parent());
    char real[PATH_MAX];
    if (!mkdtemp(work) || !realpath(work, real) || strlen(real) >= sizeof work) {
        fprintf(stderr, "grade: cannot make a scratch folder: %s\n", strerror(errno));
        return GRADE_FAILURE;
    }
    snprintf(work, sizeof work, "%s", real);
    snprintf(box, sizeof box, "%s/box", work);
    if (mkdir(box, 0700) != 0) {
        fprintf(stderr, "grade: cannot make %s: %s\n", box, strerror(errno));
        return GRADE_FAILURE;
    }
    if (private_ns == 0 && boxfs_mount(box, boxfs_bytes(s), err, sizeof err) != 0)
        fprintf(stderr, "grade: warning: the box is not size-capped as a whole (%s)\n", err);
    kit_make_init(top, work);
    return GRADE_OK;
}

/* Some case names an emulator schedule: it runs on an emulator build even
 * on a GPU machine. */
static int names_schedules(const suite *s)
{
    for (int c = 0; c < s->ncases; c++)
        if (s->cases[c].schedule[0])
            return 1;
    return 0;
}

/*
 * The filesystem view students' code gets (after the kit's prebuilt parts,
 * which it shows), checked by a sandboxed probe before any of it runs.
 * Where it cannot be had, the policy decides: refuse (GRADE_FAILURE, and
 * why) or go on without it, said on stderr and in the report.
 */
static int isolate(grade_run *g, const grade_opts *o, sandbox *sb)
{
    static fsview view;
    char why[600];
    double took = 0;
    if (strcmp(g->backend, "gpu") == 0 && isolation_gpu_nodes(why, sizeof why) != 0)
        fprintf(stderr, "grade: warning: %s\n", why);
    int ok = isolation_kit_view(&view, top, box, why, sizeof why) == 0;
    /* Given one GPU (a batch worker's), the others' nodes are left out. */
    if (ok && gpunodes_here(&view.gpu, why, sizeof why) < 0)
        fprintf(stderr, "grade: warning: %s\n", why);
    if (ok) {
        sb->view = &view;
        if (sb->uid >= 0)
            sandbox_hand_over(box, sb->uid, sb->gid); /* the probe starts in it */
        ok = isolation_probe(sb, top, work, why, sizeof why, &took) == 0;
    }
    if (getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: sandbox probe %s in %.3f s\n", ok ? "passed" : "failed",
                took);
    if (ok)
        return GRADE_OK;
    sb->view = NULL;
    if (isolation_effective(o->policy, top) == POLICY_REFUSE) {
        /* (the last line says it all: a batch's gradebook quotes it) */
        fprintf(stderr,
                "grade: without isolation, a submission can read solutions/, the suites and the\n"
                "grade: reference binaries (e.g. #include of a solution through a macro), so\n"
                "grade: nothing is graded (sandbox policy: refuse%s).\n"
                "grade: refused: cannot isolate students' code here (%s); to grade anyway, "
                "without isolation: --sandbox unsandboxed or GRADE_SANDBOX=unsandboxed\n",
                o->policy == POLICY_DEFAULT ? ", the default where the kit has solutions/" : "", why);
        return GRADE_FAILURE;
    }
    /* No view hides the path to the box: the sandbox user must pass
     * through work to reach it (traversable, not listable or writable). */
    if (sb->uid >= 0)
        chmod(work, 0711);
    snprintf(g->isolation, sizeof g->isolation,
             "students' code ran WITHOUT filesystem isolation (%s; sandbox policy: unsandboxed%s)",
             why, o->policy == POLICY_DEFAULT ? ", the default in a kit without solutions/" : "");
    fprintf(stderr, "grade: warning: %s\n", g->isolation);
    return GRADE_OK;
}

/* Phase 2: the backend, the sandbox and the kit's own prebuilt parts. */
static int prepare(grade_run *g, const grade_opts *o, sandbox *sb)
{
    char why[400];
    const suite *s = g->s;
    g->backend = kit_backend(o->emu, why, sizeof why);
    if (!g->backend) {
        fprintf(stderr, "grade: cannot build labs on this machine:\n%s", why);
        return GRADE_FAILURE;
    }
    g->speed_graded = strcmp(g->backend, "gpu") == 0 && !o->no_speed;
    g->no_speed_why = o->no_speed ? "--no-speed" : "no GPU";
    if (o->nsubmissions == 0)
        snprintf(g->submission, sizeof g->submission, "labs/%s/", s->dir);
    for (int i = 0; i < o->nsubmissions; i++) {
        size_t used = strlen(g->submission);
        snprintf(g->submission + used, sizeof g->submission - used, "%s%s", i ? " " : "",
                 o->submissions[i]);
    }
    /* The sandbox students' builds and runs get; as root, also another user. */
    sandbox_defaults(sb, box);
    int picked = geteuid() == 0 ? sandbox_pick_user(top, &sb->uid, &sb->gid, why, sizeof why) : 0;
    if (picked < 0)
        fprintf(stderr, "grade: warning: students' code runs as root (%s)\n", why);
    else if (picked > 0)
        fprintf(stderr, "grade: warning: %s\n", why);
    if (kit_prebuild(o->emu, why, sizeof why) ||
        (names_schedules(s) && strcmp(g->backend, "gpu") == 0 && kit_prebuild(1, why, sizeof why))) {
        fprintf(stderr, "grade: the kit's own parts did not build:\n%s\n", why);
        return GRADE_FAILURE;
    }
    return isolate(g, o, sb);
}

/* Phase 3: the submission's build (a failure is a score of 0, not an
 * error), its emulator build where cases name a schedule on a GPU machine
 * (*emu_unavailable when that fails), and the reference for speed. */
static int build_all(grade_run *g, const grade_opts *o, const sandbox *sb, char *student,
                     char *student_emu, int *emu_unavailable, char *ref)
{
    const suite *s = g->s;
    char src[600], log[700], err[600], shown[1100];
    text_clean(g->submission, shown, sizeof shown, NULL); /* a name in a batch: the student's */
    printf("grade: building %s for the %s...\n", shown,
           strcmp(g->backend, "gpu") == 0 ? "GPU" : "CPU emulator");
    fflush(stdout);
    snprintf(src, sizeof src, "%s/src", box);
    snprintf(student, BIN_PATH_LEN, "%s/student", box);
    snprintf(log, sizeof log, "%s/build.log", work);
    const char *paths[16];
    int npaths = o->nsubmissions;
    char defdir[1024];
    snprintf(defdir, sizeof defdir, "%s/labs/%s", top, s->dir);
    memcpy(paths, o->submissions, sizeof(char *) * (size_t)npaths);
    if (npaths == 0)
        paths[npaths++] = defdir;
    /* Cases that name an emulator schedule run on a CPU-emulator build even
     * on a GPU machine (a GPU's block order is not adversarial enough); that
     * build runs beside the GPU's. */
    pid_t emu_build = -1;
    const int want_emu = names_schedules(s) && strcmp(g->backend, "gpu") == 0;
    char emu_log[700];
    snprintf(emu_log, sizeof emu_log, "%s/build-emu.log", work);
    student_emu[0] = '\0';
    if (collect_submission(g, paths, npaths, src)) {
        g->build_failed = 1;
    } else if (scan_forbidden(s, g->forbidden, sizeof g->forbidden)) {
        g->build_failed = 1; /* nothing of it is built or run */
    } else {
        if (sb->uid >= 0)
            sandbox_hand_over(box, sb->uid, sb->gid); /* the student's folder and the sources */
        if (want_emu) {
            snprintf(student_emu, BIN_PATH_LEN, "%s/student-emu", box);
            emu_build = kit_build_start(src, student_emu, emu_log, 1, LIMIT_BUILD_S, sb);
        }
        if (kit_build(src, student, log, strcmp(g->backend, "emu") == 0, LIMIT_BUILD_S, sb)) {
            g->build_failed = 1;
            read_tail(log, g->build_log, sizeof g->build_log);
            /* CUB, Thrust or the harness's own functions: not there to
             * build with (buildlog.h); said as FORBIDDEN, in plain words. */
            char local[800];
            snprintf(local, sizeof local, "%s/build/%s/common/graded-harness.o.local", top,
                     g->backend);
            buildlog_forbidden(log, local, top, g->forbidden, sizeof g->forbidden);
        }
    }
    const int ref_failed = g->speed_graded && s->nspeed > 0 && !g->build_failed &&
                           pick_reference(g, s->lab, ref, BIN_PATH_LEN) &&
                           kit_reference(g, ref, BIN_PATH_LEN, err, sizeof err) != 0;
    const int emu_failed = emu_build >= 0 ? kit_build_wait(emu_build) : want_emu && student_emu[0];
    if (ref_failed) {
        fprintf(stderr, "grade: the reference solution did not build:\n%s\n", err);
        return GRADE_FAILURE;
    }
    if (g->build_failed) {
        student_emu[0] = '\0'; /* nothing runs */
    } else if (want_emu && emu_failed) {
        /* The submission's own doing (an #error under __CUEMU__, code the
         * emulator does not take): its [emu] tests fail, never skip, or a
         * block-order bug only they find would cost nothing.  A broken
         * emulator shows in --check-suite, where the reference fails too. */
        read_tail(emu_log, g->emu_build_log, sizeof g->emu_build_log);
        if (!g->emu_build_log[0])
            snprintf(g->emu_build_log, sizeof g->emu_build_log, "(no compiler output)");
        student_emu[0] = '\0';
        *emu_unavailable = 1;
    }
    return GRADE_OK;
}

/* Phases: set-up, preparation, builds, correctness, sanitizers, speed,
 * report.  Builds and grading are timed apart: the first is nvcc's. */
int main(int argc, char **argv)
{
    grade_opts o;
    static suite s;
    static grade_run g;
    static sandbox sb;
    char student[BIN_PATH_LEN], student_emu[BIN_PATH_LEN], ref[BIN_PATH_LEN];
    int emu_unavailable = 0, rc;
    double start = now_s();

    if (argc > 1 && !strcmp(argv[1], "--sandbox-exec")) /* a witness's inner step */
        return sandbox_exec_main(argc, argv);
    if ((rc = setup(argc, argv, &o, &s)) != GRADE_OK)
        return rc;
    memset(&g, 0, sizeof g);
    g.s = &s;
    /* the emulator grades a case above emu_max at its emu_n (suite.h) */
    if ((rc = prepare(&g, &o, &sb)) == GRADE_OK && strcmp(g.backend, "emu") == 0)
        suite_for_emulator(&s);
    if (rc != GRADE_OK ||
        (rc = build_all(&g, &o, &sb, student, student_emu, &emu_unavailable, ref)) != GRADE_OK) {
        boxfs_release(box, o.keep);
        if (!o.keep)
            remove_tree(work);
        return rc;
    }
    g.build_seconds = now_s() - start;
    double timeout = o.timeout > 0 ? o.timeout
                     : strcmp(g.backend, "gpu") == 0 ? LIMIT_RUN_GPU_S : LIMIT_RUN_EMU_S;
    int progress = isatty(STDERR_FILENO); /* a live counter, only on a terminal */

    run_plan plan = {.binary = student, .work = work, .box = box, .reps = 1, .warmup = 0,
                     .timeout_s = timeout, .emu_binary = student_emu[0] ? student_emu : NULL,
                     .sandbox = &sb};
    correctness_opts co = {o.lanes > 0 ? o.lanes : default_lanes(g.backend), emu_unavailable,
                           progress};
    double t0 = now_s();
    run_correctness(&g, &plan, &co);
    tally(&g);
    g.t_correctness = now_s() - t0;
    if (o.sanitize) {
        run_plan san = {.binary = student, .work = work, .box = box, .reps = 0, .warmup = 0,
                        .timeout_s = timeout, .sandbox = &sb};
        t0 = now_s();
        run_sanitizers(&g, &san, progress);
        tally(&g);
        g.t_sanitize = now_s() - t0;
    }
    run_speed_tests(&g, student, ref, work, box, timeout, &sb);
    tally(&g);
    gpu_lock_times(&g.t_gpu_wait, &g.t_gpu_alone, &g.t_gpu_kept);
    g.seconds = now_s() - start - g.build_seconds;
    show_paths(&g);

    print_report(&g, stdout);
    if (o.json && write_results_json(&g, o.json) != 0)
        fprintf(stderr, "grade: could not write %s: %s\n", o.json, strerror(errno));
    boxfs_release(box, o.keep);
    if (o.keep)
        printf("scratch folder kept: %s\n", work);
    else
        remove_tree(work);
    return o.check_suite && check_suite_verdict(&g, stdout) != 0 ? GRADE_CHECK_FAILED : GRADE_OK;
}
