/*
 * slurm.c - `./grade --batch DIR labN --slurm`: the students left to grade
 * (the resume keys already ruled out the others) go to a Slurm cluster as
 * a job array, K students per task, and a merge job that runs after every
 * task ended (afterany) and writes the gradebook exactly as a local batch
 * does.  The kit, DIR and the JSON folder are on the cluster's shared
 * filesystem; each task runs this very driver, which grades its share one
 * student after another through build/grader, as a local worker does.
 *
 * Students' names never enter a script or a command line: the submission
 * writes them to STATE/roster (NUL-terminated), and task i reads entries
 * i*K .. i*K+K-1 (slurm_share.c).  The two scripts are fixed text; what
 * varies (paths, options) reaches them as sbatch's script arguments, which
 * Slurm hands to the script as "$@" without a shell in between.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "cuda_exit.h"
#include "spawn.h"
#include "tunables.h"

/* The array task: the driver's command line is "$@". */
static const char task_script[] =
    "#!/bin/sh\n"
    "# One task of a class's job array (./grade --batch ... --slurm): \"$@\" is\n"
    "# the batch driver's command line, from sbatch's arguments; it grades task\n"
    "# $SLURM_ARRAY_TASK_ID's share of the roster this folder holds.\n"
    "echo \"task ${SLURM_ARRAY_TASK_ID:-?} of job ${SLURM_ARRAY_JOB_ID:-?} on $(hostname)\"\n"
    "exec \"$@\"\n";

/* The merge job: the gradebook, then the plot where matplotlib is. */
static const char merge_script[] =
    "#!/bin/sh\n"
    "# After every task of the array (afterany): the gradebook from the JSON\n"
    "# folder.  $1: plot.py, $2: the CSV, $3: the plot; then the driver's command line.\n"
    "plot=$1 csv=$2 png=$3\n"
    "shift 3\n"
    "\"$@\"\n"
    "rc=$?\n"
    "if [ -f \"$csv\" ] && python3 -c 'import matplotlib' 2>/dev/null; then\n"
    "    python3 \"$plot\" \"$csv\" -o \"$png\" && echo \"batch: plot $png\"\n"
    "else\n"
    "    echo \"batch: no plot (no gradebook, or no matplotlib on this node)\"\n"
    "fi\n"
    "exit $rc\n";

/* A growing argv, freed never (the process ends soon after). */
typedef struct {
    char *v[96];
    int n;
} args;

/* Append a copy of one argument (printf-style). */
static void add(args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(args *a, const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    if (s && a->n < (int)(sizeof a->v / sizeof a->v[0]) - 1)
        a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

int slurm_settle(batch *b)
{
    if (!b->sl.per_task)
        b->sl.per_task = SLURM_PER_TASK;
    if (!b->sl.gres)
        b->sl.gres = b->emu ? "none" : "gpu:1";
    if (strcmp(b->sl.gres, "none") == 0)
        b->sl.gres = NULL;
    /* the tasks have a GPU when one is asked for (the login node may have none) */
    b->sl.key_gpu = !b->emu && b->sl.gres != NULL;
    return 0;
}

/* The driver's command line for a task or the merge (mode's option
 * --slurm-task or --slurm-merge, with the state folder). */
static void driver_args(args *a, const batch *b, const char *dir, const char *csv,
                        const char *mode, const char *state)
{
    add(a, "%s/build/batch", b->top);
    add(a, "%s", dir);
    add(a, "%s", b->lab);
    add(a, "--json-dir");
    add(a, "%s", b->json_dir);
    add(a, "--csv");
    add(a, "%s", csv);
    add(a, "--limit");
    add(a, "%g", b->limit);
    add(a, "--per-task");
    add(a, "%d", b->sl.per_task);
    add(a, "--key-gpu");
    add(a, "%d", b->sl.key_gpu);
    if (b->emu) add(a, "--emu");
    if (b->no_speed) add(a, "--no-speed");
    if (b->sanitize) add(a, "--sanitize");
    add(a, "%s", mode);
    add(a, "%s", state);
}

/* sbatch's options common to both jobs, the instructor's last (they win). */
static void sbatch_common(args *a, const batch *b, const char *state, const char *name,
                          const char *out, int minutes)
{
    add(a, "sbatch");
    add(a, "--parsable");
    add(a, "--job-name=%s", name);
    add(a, "--chdir=%s", state);
    add(a, "--output=%s", out);
    add(a, "--time=%d", minutes);
    if (b->sl.partition) add(a, "--partition=%s", b->sl.partition);
    if (b->sl.account) add(a, "--account=%s", b->sl.account);
}

/* Write a file whole (text, or the roster's NUL-terminated names); 0 or -1. */
static int write_file(const char *path, const char *data, size_t len, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t put = fwrite(data, 1, len, f);
    if (fclose(f) != 0 || put != len || chmod(path, mode) != 0)
        return -1;
    return 0;
}

/* STATE/roster: the names left to grade, each ended by a NUL, in the
 * batch's order.  0, or -1. */
static int write_roster(const batch *b, const char *state)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/roster", state);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (int i = 0; i < b->nst; i++)
        if (!b->st[i].done)
            fwrite(b->st[i].name, 1, strlen(b->st[i].name) + 1, f);
    return fclose(f);
}

/* One argument as a POSIX shell would read it back, for the dry run's
 * listing: bare when plain, else in single quotes. */
static void print_quoted(FILE *f, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "_-+=/.,:%@") == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* A command line, quoted, on one line. */
static void print_command(FILE *f, const args *a)
{
    for (int i = 0; i < a->n; i++) {
        if (i) fputc(' ', f);
        print_quoted(f, a->v[i]);
    }
    fputc('\n', f);
}

/* Run sbatch (its output into log); the job id, or -1 with the log shown. */
static long run_sbatch(const args *a, const char *log)
{
    spawn_opts o = {.out_path = log, .who = "batch"};
    pid_t pid = spawn(a->v, &o);
    int ws = pid < 0 ? -1 : spawn_wait(pid);
    char line[256];
    long id = -1;
    FILE *f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f))
        if (line[0] >= '0' && line[0] <= '9' && id < 0)
            id = strtol(line, NULL, 10); /* --parsable: "ID" or "ID;cluster" */
    if (f) fclose(f);
    if (ws != -1 && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && id > 0)
        return id;
    batch_say(stderr, "batch: sbatch failed (%s%d); its words, from %s:\n",
              ws != -1 && WIFEXITED(ws) ? "exit " : "wait status ",
              ws != -1 && WIFEXITED(ws) ? WEXITSTATUS(ws) : ws, log);
    f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f))
        batch_say(stderr, "  %s", line);
    if (f) fclose(f);
    if (ws != -1 && WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
        batch_say(stderr, "batch: no sbatch on PATH: submit from a Slurm login node\n");
    return -1;
}

/* The state folder (JSON-DIR/slurm.XXXXXX) with its roster and scripts;
 * 0, or -1 (said). */
static int write_state(const batch *b, char *state, size_t len)
{
    char path[PATH_MAX];
    snprintf(state, len, "%s/slurm.XXXXXX", b->json_dir);
    if (!mkdtemp(state) || chmod(state, 0755) != 0)
        return batch_say(stderr, "batch: cannot make %s: %s\n", state, strerror(errno)), -1;
    snprintf(path, sizeof path, "%s/task.sh", state);
    int bad = write_file(path, task_script, strlen(task_script), 0755);
    snprintf(path, sizeof path, "%s/merge.sh", state);
    bad = bad || write_file(path, merge_script, strlen(merge_script), 0755);
    if (bad || write_roster(b, state) != 0)
        return batch_say(stderr, "batch: cannot write in %s: %s\n", state, strerror(errno)), -1;
    return 0;
}

/* The array job's sbatch command line. */
static void array_command(args *a, const batch *b, const char *dir, const char *csv,
                          const char *state, int ntasks)
{
    char name[32];
    int minutes = (int)ceil(b->sl.per_task * b->limit / 60.0) + SLURM_TASK_MARGIN_MIN;
    snprintf(name, sizeof name, "grade-%s", b->lab);
    sbatch_common(a, b, state, name, "task-%a.out", minutes);
    add(a, "--array=0-%d", ntasks - 1);
    if (b->sl.gres) add(a, "--gres=%s", b->sl.gres);
    for (int i = 0; i < b->sl.nextra; i++) add(a, "%s", b->sl.extra[i]);
    add(a, "%s/task.sh", state);
    driver_args(a, b, dir, csv, "--slurm-task", state);
}

/* The merge job's sbatch command line, after job `after` ("ID" text). */
static void merge_command(args *a, const batch *b, const char *dir, const char *csv,
                          const char *state, const char *after)
{
    char name[40];
    snprintf(name, sizeof name, "grade-%s-merge", b->lab);
    sbatch_common(a, b, state, name, "merge.out", SLURM_MERGE_TIME_MIN);
    add(a, "--dependency=afterany:%s", after);
    for (int i = 0; i < b->sl.nextra; i++) add(a, "%s", b->sl.extra[i]);
    add(a, "%s/merge.sh", state);
    add(a, "%s/grader/batch/plot.py", b->top);
    add(a, "%s", csv);
    add(a, "%s/grades.png", b->json_dir);
    driver_args(a, b, dir, csv, "--slurm-merge", state);
}

/* --slurm-dry-run: the scripts and the two commands, nothing submitted. */
static int dry_run(const batch *b, const char *dir, const char *csv, const char *state,
                   int ntasks)
{
    args arr = {0}, mer = {0};
    array_command(&arr, b, dir, csv, state, ntasks);
    merge_command(&mer, b, dir, csv, state, "JOBID");
    printf("# %s/task.sh\n%s\n# %s/merge.sh\n%s\n", state, task_script, state, merge_script);
    printf("# the job array (nothing was submitted); it prints its JOBID:\n");
    print_command(stdout, &arr);
    printf("# the merge job, after it:\n");
    print_command(stdout, &mer);
    batch_say(stderr, "batch: dry run: %d task(s) written to %s, nothing submitted\n", ntasks,
              state);
    return BATCH_OK;
}

int slurm_submit(batch *b, const char *dir, const char *csv_in, int todo)
{
    char state[PATH_MAX], csv[PATH_MAX], log[PATH_MAX + 16], id[32];
    if (csv_in[0] == '/' || !getcwd(csv, sizeof csv))
        snprintf(csv, sizeof csv, "%s", csv_in);
    else /* the jobs run in the state folder */
        snprintf(csv + strlen(csv), sizeof csv - strlen(csv), "/%s", csv_in);
    int ntasks = (todo + b->sl.per_task - 1) / b->sl.per_task;
    if (write_state(b, state, sizeof state) != 0)
        return BATCH_FAILURE;
    if (b->sl.dry_run)
        return dry_run(b, dir, csv, state, ntasks);
    args arr = {0}, mer = {0};
    array_command(&arr, b, dir, csv, state, ntasks);
    snprintf(log, sizeof log, "%s/sbatch.log", state);
    long job = run_sbatch(&arr, log);
    if (job < 0)
        return BATCH_FAILURE;
    snprintf(id, sizeof id, "%ld", job);
    merge_command(&mer, b, dir, csv, state, id);
    snprintf(log, sizeof log, "%s/sbatch-merge.log", state);
    long merge = run_sbatch(&mer, log);
    if (merge < 0)
        return batch_say(stderr, "batch: the array %ld runs without its merge: run the same "
                                 "command after it ends to write the gradebook\n", job),
               BATCH_FAILURE;
    batch_say(stderr, "batch: submitted job array %ld (%d task(s), %d student(s) each%s%s) "
                      "and merge job %ld (after the array)\n", job, ntasks, b->sl.per_task,
              b->sl.gres ? ", --gres=" : "", b->sl.gres ? b->sl.gres : "", merge);
    batch_say(stderr, "batch: watch: squeue -j %ld,%ld   (the tasks' logs: %s/task-*.out)\n",
              job, merge, state);
    batch_say(stderr, "batch: when job %ld ends: gradebook %s, reports in %s, plot %s/grades.png\n",
              merge, csv, b->json_dir, b->json_dir);
    batch_say(stderr, "batch: the same command again grades only what changed since\n");
    return BATCH_OK;
}
