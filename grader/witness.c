/*
 * witness.c - see witness.h: a speed case run under ncu outside the
 * student's sandbox, and ncu's kernel durations read back.
 */
#define _GNU_SOURCE
#include "witness.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsview.h"
#include "isolation.h"
#include "sandbox.h"
#include "safefile.h"
#include "tunables.h"
#include "witness_gate.h"
#include "witness_mark.h"

int witness_mode_get(witness_mode *mode, char *why, size_t len)
{
    const char *v = getenv("GRADE_WITNESS");
    if (!v || !*v || !strcmp(v, "auto"))
        *mode = WITNESS_AUTO;
    else if (!strcmp(v, "require"))
        *mode = WITNESS_REQUIRE;
    else if (!strcmp(v, "off"))
        *mode = WITNESS_OFF;
    else
        return snprintf(why, len, "GRADE_WITNESS='%s': auto, require or off", v), -1;
    return 0;
}

int witness_find_ncu(char *path, size_t len)
{
    if (getenv("NCU") && *getenv("NCU")) /* what was asked for, even if wrong */
        return access(getenv("NCU"), X_OK) == 0 ? snprintf(path, len, "%s", getenv("NCU")), 0 : -1;
    if (isolation_tool_path("ncu", path, len) == 0)
        return 0;
    glob_t g; /* NVIDIA's own folder, the newest version */
    int rc = -1;
    if (glob("/opt/nvidia/nsight-compute/*/ncu", 0, NULL, &g) == 0) {
        const char *last = g.gl_pathv[g.gl_pathc - 1];
        rc = access(last, X_OK) == 0 && snprintf(path, len, "%s", last) < (int)len ? 0 : -1;
        globfree(&g);
    }
    return rc;
}

/* The last quoted field of a CSV row, thousands separators dropped. */
static int last_field(const char *row, double *value)
{
    const char *end = strrchr(row, '"'), *start;
    if (!end || end == row)
        return -1;
    for (start = end - 1; start > row && *start != '"'; start--)
        ;
    if (*start != '"')
        return -1;
    char num[64];
    size_t n = 0;
    for (const char *p = start + 1; p < end && n + 1 < sizeof num; p++)
        if (*p != ',')
            num[n++] = *p;
    num[n] = '\0';
    char *stop;
    *value = strtod(num, &stop);
    return n && *stop == '\0' ? 0 : -1;
}

int witness_parse_csv(const char *path, double *ns, int *kernels)
{
    FILE *f = fopen(path, "r");
    char row[8192];
    int header = 0;
    *ns = 0;
    *kernels = 0;
    if (!f)
        return -1;
    while (fgets(row, sizeof row, f)) {
        double v;
        if (!strncmp(row, "\"ID\",", 5))
            header = 1;
        else if (row[0] == '"' && strstr(row, "\"gpu__time_duration.sum\"") &&
                 last_field(row, &v) == 0) {
            *ns += v;
            (*kernels)++;
        }
    }
    fclose(f);
    return header || *kernels ? 0 : -1;
}

/* Field k (from 0) of a CSV row of quoted fields into out (quotes
 * dropped); 0, or -1 when the row has fewer fields.  ncu quotes every
 * field, and a quoted one may hold commas: "(4, 1, 1)". */
static int csv_field(const char *row, int k, char *out, size_t len)
{
    const char *p = row;
    for (int f = 0;; f++) {
        if (*p != '"')
            return -1;
        const char *end = strchr(p + 1, '"');
        if (!end)
            return -1;
        if (f == k) {
            size_t n = (size_t)(end - p - 1) < len - 1 ? (size_t)(end - p - 1) : len - 1;
            memcpy(out, p + 1, n);
            out[n] = '\0';
            return 0;
        }
        p = end + 1;
        if (*p != ',')
            return -1;
        p++;
    }
}

/* The column named name in ncu's header row, or -1. */
static int csv_column(const char *header, const char *name)
{
    char cell[128];
    for (int k = 0; csv_field(header, k, cell, sizeof cell) == 0; k++)
        if (!strcmp(cell, name))
            return k;
    return -1;
}

/* One row's mark: its case number (from the grid, K + 1 blocks), -1 for
 * a kernel that is no mark, -2 for a mark in a table without a grid
 * column (taken in sequence), -3 for a mark whose grid cannot be read. */
static int row_mark(const char *row, int name_col, int grid_col)
{
    char name[512], grid[64];
    if (csv_field(row, name_col, name, sizeof name) != 0 ||
        !strstr(name, KIT_WITNESS_MARK_NAME))
        return -1;
    int blocks;
    if (grid_col < 0)
        return -2;
    if (csv_field(row, grid_col, grid, sizeof grid) != 0 ||
        sscanf(grid, " (%d", &blocks) != 1 || blocks < 1)
        return -3;
    return blocks - 1;
}

int witness_parse_marked(const char *path, int count, double *ns, int *kernels)
{
    FILE *f = fopen(path, "r");
    static char row[8192];
    int name_col = -1, grid_col = -1, marks = 0, bad = 0;
    if (!f)
        return -1;
    for (int i = 0; i < count; i++) {
        ns[i] = 0;
        kernels[i] = 0;
    }
    while (!bad && fgets(row, sizeof row, f)) {
        double v;
        if (!strncmp(row, "\"ID\",", 5)) {
            name_col = csv_column(row, "Kernel Name");
            grid_col = csv_column(row, "Grid Size");
            continue;
        }
        if (row[0] != '"' || !strstr(row, "\"gpu__time_duration.sum\"") ||
            last_field(row, &v) != 0)
            continue;
        if (name_col < 0) {
            bad = 1; /* no header: the rows cannot be told apart */
            break;
        }
        int mark = row_mark(row, name_col, grid_col);
        if (mark == -2)
            mark = marks;
        if (mark != -1)
            bad = mark != marks++; /* the next case's mark, and no other */
        else if (marks == 0)
            bad = 1; /* a kernel before the first case began */
        else {
            ns[marks - 1] += v;
            kernels[marks - 1]++;
        }
        bad |= marks > count;
    }
    fclose(f);
    return bad ? -1 : marks;
}

/* ncu's options, then `grade --sandbox-exec` with the program's own log
 * and the gate it waits at (witness_gate.h), into wrap (NULL-terminated);
 * the number of words, or -1.  No --log-file: ncu's report goes to its
 * standard output, the grader's own log, which the program (its output
 * sent elsewhere) cannot write. */
static int wrap_words(const char *ncu, const char *home, const char *run_log,
                      const char *gate, unsigned long long max_file, char **wrap)
{
    static char self[PATH_MAX], max_file_text[32];
    static const char *const ncu_opts[] = {
        "--target-processes", "all", "--metrics", "gpu__time_duration.sum", "--csv",
        "--print-units", "base", "--cache-control", "none", "--clock-control", "none"};
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    int a = 0;
    wrap[a++] = (char *)ncu;
    for (size_t i = 0; i < sizeof ncu_opts / sizeof *ncu_opts; i++)
        wrap[a++] = (char *)ncu_opts[i];
    wrap[a++] = self; wrap[a++] = "--sandbox-exec";
    wrap[a++] = "--home"; wrap[a++] = (char *)home;
    wrap[a++] = "--log"; wrap[a++] = (char *)run_log;
    wrap[a++] = "--gate"; wrap[a++] = (char *)gate;
    snprintf(max_file_text, sizeof max_file_text, "%llu", max_file);
    wrap[a++] = "--max-file"; wrap[a++] = max_file_text; /* the cell applies no limit itself */
    wrap[a++] = "--";
    wrap[a] = NULL;
    return a;
}

/* Add a folder to the cell's view, read-only, unless it is there or gone. */
static int cell_add(fsview *v, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 || fsview_covers(v, dir, FSV_RO))
        return 0;
    return fsview_add(v, dir, FSV_RO) < 0 ? -1 : 0;
}

/* The cell's view: the student's, plus what ncu needs to run in it and
 * this grader's executable, read-only.  The toolkit's bin/ncu is only a
 * launcher that looks for the real install beside the toolkit
 * (nsight-compute-*) or under /opt/nvidia, so those folders come too.
 * -1 when the view is full. */
static int cell_view(const fsview *student, const char *ncu, fsview *v)
{
    char real[PATH_MAX], self[PATH_MAX], pattern[PATH_MAX + 32];
    *v = *student;
    v->in_cell = 1;
    if (!realpath(ncu, real) || !realpath("/proc/self/exe", self))
        return -1;
    *strrchr(real, '/') = '\0';
    int rc = cell_add(v, real) | cell_add(v, self) | cell_add(v, "/opt/nvidia");
    glob_t g;
    snprintf(pattern, sizeof pattern, "%s/../nsight-compute*", real);
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (realpath(g.gl_pathv[i], self))
                rc |= cell_add(v, self);
        globfree(&g);
    }
    return rc;
}

/* The plan of a witnessed run: plan's, under ncu in a cell as the
 * sandbox's user, its files in fresh folders (box/witness for the
 * program's, work/witness, the grader's, for ncu's report).  The storage
 * is static: one witness runs at a time.  0, or -1 with why. */
static int witness_plan(const run_plan *plan, const char *ncu, unsigned long long max_file,
                        run_plan *p, char *why, size_t len)
{
    static char box[PATH_MAX], priv[PATH_MAX], run_log[PATH_MAX + 16];
    static char *wrap[PROGRAM_WRAP_MAX + 1];
    static fsview view;
    static sandbox cell;
    const sandbox *sb = plan->sandbox;
    snprintf(box, sizeof box, "%s/witness", plan->box);
    snprintf(priv, sizeof priv, "%s/witness", plan->work);
    snprintf(run_log, sizeof run_log, "%s/run.log", box);
    if (safe_mkdir(box, 0700) != 0 || (mkdir(priv, 0700) != 0 && errno != EEXIST))
        return snprintf(why, len, "cannot make the witness's folders: %s", strerror(errno)), -1;
    if (sb && sb->uid >= 0)
        sandbox_hand_over(box, sb->uid, sb->gid);
    if (wrap_words(ncu, box, run_log, witness_gate_path(box), max_file, wrap) < 0)
        return snprintf(why, len, "cannot name the grader's executable for ncu"), -1;
    /* ncu runs in a cell as the sandbox's user, in the student's view: a
     * program it starts has no more rights than in any other run. */
    sandbox_defaults(&cell, box);
    cell.uid = sb ? sb->uid : -1;
    cell.gid = sb ? sb->gid : -1;
    cell.cell = 1;
    if (sb && sb->view) {
        if (cell_view(sb->view, ncu, &view) != 0)
            return snprintf(why, len, "the sandbox view has no room for ncu"), -1;
        cell.view = &view;
    }
    *p = *plan;
    p->work = priv;
    p->box = box;
    p->wrap = wrap;
    p->sandbox = &cell;
    p->witness = 1;
    /* The student's witnessed output is judged like any run (its plan has
     * no_raw 0); the reference's is the kit's own, trusted, and not
     * checked again (at 2^26 a host check costs about a second). */
    p->no_raw = plan->no_raw;
    p->reps = WITNESS_REPS;
    p->warmup = WITNESS_WARMUP;
    p->timeout_s = WITNESS_TIMEOUT_S;
    return 0;
}

/* Kernel time per call of the lab's run(): every call of the run, warm-up
 * included, is profiled. */
static double per_call_ms(double ns)
{
    return ns / 1e6 / (1 + WITNESS_WARMUP + WITNESS_REPS);
}

/* The witness's gate (witness_gate.h) made for the cell's user (the
 * grader's own when there is no sandbox user) and set in p; 0, or -1 with
 * why. */
static int arm_gate(run_plan *p, int cases, char *why, size_t len)
{
    const sandbox *sb = p->sandbox;
    p->gate = witness_gate_arm(sb ? sb->uid : -1, sb ? sb->gid : -1, cases, why, len);
    return p->gate ? 0 : -1;
}

/*
 * The outputs of a witnessed process are judged after the GPU is given
 * back (witness_gate_disarm): checking 2^26 elements on the host (half a
 * second and more) needs no GPU, and in a batch every other worker of
 * this GPU waits for the hold.
 */
static void trace_took(const run_plan *plan, const char *what, double t0)
{
    if (getenv("GRADE_TRACE"))
        fprintf(stderr, "grade: trace: witness (%s%s): %.2f s\n",
                plan->no_raw ? "reference" : "submission", what, now_s() - t0);
}

/* One run of a unit to judge (judge_at_once). */
typedef struct {
    const run_plan *plan;
    const suite_case *c;
    const case_run *run;
    test_result *t;
} judge_job;

static void *judge_job_run(void *arg)
{
    const judge_job *j = (const judge_job *)arg;
    judge_run(j->plan, j->c, j->run, j->t);
    return NULL;
}

/*
 * The runs of a unit judged at once, a thread each: every check of 2^26
 * elements is independent of the others, and one after another three of
 * them took 3.3 s of a lab 7 grading (H200).  A thread that cannot be
 * started has its run judged here.
 */
static void judge_at_once(const run_plan *plan, const suite_case *const *cases,
                          const case_run *runs, witness_result *w, int count)
{
    pthread_t tid[WITNESS_UNIT_MAX];
    judge_job job[WITNESS_UNIT_MAX];
    int started[WITNESS_UNIT_MAX] = {0};
    for (int i = 0; i < count; i++) {
        job[i] = (judge_job){plan, cases[i], &runs[i], &w[i].run};
        started[i] = pthread_create(&tid[i], NULL, judge_job_run, &job[i]) == 0;
        if (!started[i])
            judge_job_run(&job[i]);
    }
    for (int i = 0; i < count; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
}

int witness_case(const run_plan *plan, const suite_case *c, const char *ncu, witness_result *w,
                 char *why, size_t len)
{
    char log[PATH_MAX + 16];
    run_plan p;
    memset(w, 0, sizeof *w);
    if (witness_plan(plan, ncu, case_max_file(c), &p, why, len) != 0)
        return -1;
    snprintf(log, sizeof log, "%s/case.log", p.work);
    case_run run;
    double t0 = now_s();
    if (arm_gate(&p, 1, why, len) != 0)
        return -1;
    launch_case(&p, c, &run);
    witness_gate_disarm();
    trace_took(plan, "", t0);
    judge_run(&p, c, &run, &w->run);
    double ns;
    int parsed = witness_parse_csv(log, &ns, &w->kernels);
    remove(log);
    if (parsed != 0) {
        snprintf(why, len, "ncu wrote no kernel table (the run: %s %.300s)",
                 verdict_name(w->run.verdict), w->run.detail);
        return -1;
    }
    w->ms_per_call = per_call_ms(ns);
    return 0;
}

int witness_unit(const run_plan *plan, const suite_case *const *cases, int count, const char *ncu,
                 witness_result *w, char *why, size_t len)
{
    char log[PATH_MAX + 16], alone_log[PATH_MAX + 16];
    double ns[WITNESS_UNIT_MAX];
    int kernels[WITNESS_UNIT_MAX];
    unsigned long long max_file = 0;
    run_plan p;
    if (count < 2 || count > WITNESS_UNIT_MAX)
        return snprintf(why, len, "a witness unit holds 2 to %d cases", WITNESS_UNIT_MAX), -1;
    for (int i = 0; i < count; i++)
        if (case_max_file(cases[i]) > max_file)
            max_file = case_max_file(cases[i]);
    if (witness_plan(plan, ncu, max_file, &p, why, len) != 0)
        return -1;
    p.witness_marks = 1;
    snprintf(log, sizeof log, "%s/unit.log", p.work);
    snprintf(alone_log, sizeof alone_log, "%s/case.log", p.work);
    remove(log);
    remove(alone_log);
    case_run runs[WITNESS_UNIT_MAX];
    double t0 = now_s();
    if (arm_gate(&p, count, why, len) != 0)
        return -1;
    int done = launch_unit(&p, cases, count, runs, NULL, NULL);
    witness_gate_disarm();
    trace_took(plan, ", all cases in one process", t0);
    /* A case run again alone (launch.h: a crash is confirmed so) left its
     * kernels in another table: the unit's cannot be split, so the caller
     * witnesses each case on its own. */
    int alone = access(alone_log, F_OK) == 0;
    int marks = done == count && !alone ? witness_parse_marked(log, count, ns, kernels) : -1;
    remove(log);
    remove(alone_log);
    if (marks != count)
        return snprintf(why, len, done < count || alone ? "the process ended before its last "
                        "case" : "ncu's table has no kernel marks, or marks out of order"), -1;
    for (int i = 0; i < count; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].kernels = kernels[i];
        w[i].ms_per_call = per_call_ms(ns[i]);
    }
    judge_at_once(&p, cases, runs, w, count);
    return 0;
}
