/*
 * batch.c - `./grade --batch DIR labN`: grade a whole class.
 *
 * DIR holds one folder, or one .zip / .tar.gz / .tgz / .tar, per student
 * (the student's name is the entry's name without its extension).  Each
 * student is graded by the single-submission grader (build/grader) run as a
 * child in its own session, so a crash or a hang of one student's grading
 * never stops the batch: past --limit seconds the child's process group and
 * everything left in its session are killed.  Archives are listed first and
 * refused if a member is absolute, contains "..", or is a link; then they
 * are unpacked with libarchive into a scratch folder (archive.c).
 *
 * Per student: <json-dir>/<student>.json (Gradescope's results.json, kept
 * only when the grader finished and the file parses) and <student>.txt (the
 * grader's report, stdout and stderr).  At the end the CSV gradebook.
 *
 * Workers: one per GPU by default (CUDA_VISIBLE_DEVICES=<index> for each);
 * with --jobs beyond that, workers share GPUs, and a speed test takes its
 * GPU exclusively (GRADE_GPU_LOCK, grader/gpulock.h) so that timings are
 * not disturbed by a neighbour.  Without a GPU (or with --emu) one worker
 * per CPU.  Resume: a student whose .json exists and parses, and whose
 * resume key (gradekey.c: suite, submission, kit, options) is unchanged,
 * is not graded again unless --redo.  The lab's suite is checked before
 * anyone is graded.
 *
 * Exit status: 0 when the batch ran (whatever the students' results), 2 for
 * a usage error, 3 when the batch itself could not work (no grader, cannot
 * write the results, a gradebook that would mix maxima), 4 when the lab's
 * suite is invalid (nobody graded), 130 when interrupted (re-run to resume).
 */
#define _GNU_SOURCE /* realpath, getopt_long */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "rmtree.h"
#include "cuda_exit.h"
#include "tunables.h"

/* Why the usage text: asked for (stdout), or a mistake (stderr). */
static void usage(FILE *f)
{
    fprintf(f,
            "usage: ./grade --batch DIR labN [options]\n"
            "Grades every submission in DIR: one folder, .zip, .tar.gz, .tgz or .tar per\n"
            "student (the name without its extension is the student's name).\n"
            "  --csv FILE       the gradebook (default: JSON-DIR/grades.csv)\n"
            "  --json-dir DIR   per student NAME.json (Gradescope results) and NAME.txt\n"
            "                   (the report); default: ./batch-labN\n"
            "  --jobs K         students graded at once (default: one per GPU, or one\n"
            "                   per CPU on the emulator)\n"
            "  --redo           grade again students that already have a NAME.json\n"
            "  --emu            use the CPU emulator even when a GPU is present\n"
            "  --no-speed       skip the speed tests\n"
            "  --sanitize       compute-sanitizer on each group (./grade --help)\n"
            "  --limit SEC      wall-clock limit per student (default %.0f)\n"
            "  -h, --help       this text\n"
            "Re-running the same command resumes an interrupted batch.\n"
            "On a Slurm cluster (the kit on its shared filesystem):\n"
            "  --slurm          submit a job array of the students left to grade and a\n"
            "                   merge job that writes the gradebook when the array ends\n"
            "  --slurm-dry-run  write and print the scripts and sbatch commands only\n"
            "  --partition P, --account A   sbatch's\n"
            "  --gres G         per task (default gpu:1; none with --emu); 'none': no gres\n"
            "  --per-task K     students graded one after another by each task (default %d)\n"
            "  -- OPTIONS       further sbatch options, for both jobs (--qos=..., --time=...)\n",
            BATCH_LIMIT_STUDENT_S, SLURM_PER_TASK);
}

/* A number option in [lo, hi]; 0, or -1 with the message printed. */
static int number_arg(const char *name, const char *text, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(text, &end);
    if (*text && !*end && x >= lo && x <= hi) {
        *out = x;
        return 0;
    }
    batch_say(stderr, "batch: bad %s '%s' (%g..%g)\n", name, text, lo, hi);
    return -1;
}

/* The Slurm options (slurm.h's); 1 when c was one, 0 when not, -1 on a
 * mistake (said).  --slurm-task, --slurm-merge and --key-gpu are the
 * scripts' own, on the command lines the submission writes. */
enum { O_SLURM = 300, O_DRY, O_PARTITION, O_GRES, O_PER_TASK, O_ACCOUNT, O_TASK, O_MERGE,
       O_KEY_GPU };
static int slurm_option(int c, batch *b)
{
    double x;
    switch (c) {
    case O_SLURM: b->sl.mode = SL_SUBMIT; return 1;
    case O_DRY: b->sl.mode = SL_SUBMIT; b->sl.dry_run = 1; return 1;
    case O_PARTITION: b->sl.partition = optarg; return 1;
    case O_GRES: b->sl.gres = optarg; return 1;
    case O_ACCOUNT: b->sl.account = optarg; return 1;
    case O_PER_TASK:
        if (number_arg("--per-task", optarg, 1, 10000, &x)) return -1;
        b->sl.per_task = (int)x;
        return x == b->sl.per_task ? 1 : (batch_say(stderr, "batch: bad --per-task '%s'\n", optarg), -1);
    case O_TASK: b->sl.mode = SL_TASK; b->sl.state = optarg; return 1;
    case O_MERGE: b->sl.mode = SL_MERGE; b->sl.state = optarg; return 1;
    case O_KEY_GPU: b->sl.key_gpu = optarg[0] == '1'; return 1;
    default: return 0;
    }
}

/* The command line into b (and the folder into *dir): -1 to stop with
 * *rc (help: 0; a mistake: usage), 0 to go on. */
static int parse_args(int argc, char **argv, batch *b, const char **dir, const char **csv,
                      const char **jdir, int *rc)
{
    enum { O_BATCH = 256, O_CSV, O_JSON_DIR, O_JOBS, O_LIMIT, O_REDO, O_EMU, O_NO_SPEED,
           O_SANITIZE };
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},       {"batch", no_argument, NULL, O_BATCH},
        {"csv", required_argument, NULL, O_CSV}, {"json-dir", required_argument, NULL, O_JSON_DIR},
        {"jobs", required_argument, NULL, O_JOBS}, {"limit", required_argument, NULL, O_LIMIT},
        {"redo", no_argument, NULL, O_REDO},     {"emu", no_argument, NULL, O_EMU},
        {"no-speed", no_argument, NULL, O_NO_SPEED}, {"sanitize", no_argument, NULL, O_SANITIZE},
        {"slurm", no_argument, NULL, O_SLURM},   {"slurm-dry-run", no_argument, NULL, O_DRY},
        {"partition", required_argument, NULL, O_PARTITION}, {"gres", required_argument, NULL, O_GRES},
        {"per-task", required_argument, NULL, O_PER_TASK},
        {"account", required_argument, NULL, O_ACCOUNT},
        {"slurm-task", required_argument, NULL, O_TASK},
        {"slurm-merge", required_argument, NULL, O_MERGE},
        {"key-gpu", required_argument, NULL, O_KEY_GPU}, {NULL, 0, NULL, 0}};
    double x;
    int c, sl;
    *rc = BATCH_USAGE;
    opterr = 0; /* the messages below, in the batch's words */
    for (int i = 1; i < argc; i++) /* "-- sbatch options": Slurm's, not ours */
        if (strcmp(argv[i], "--") == 0) {
            b->sl.extra = argv + i + 1;
            b->sl.nextra = argc - i - 1;
            argc = i;
        }
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if ((sl = slurm_option(c, b)) != 0) {
            if (sl < 0) return -1;
            continue;
        }
        switch (c) {
        case 'h': usage(stdout); *rc = BATCH_OK; return -1;
        case O_BATCH: break; /* ./grade --batch ... passes its own argument on */
        case O_CSV: *csv = optarg; break;
        case O_JSON_DIR: *jdir = optarg; break;
        case O_JOBS:
            if (number_arg("--jobs", optarg, 1, 256, &x)) return -1;
            b->jobs = (int)x;
            if (b->jobs != x) return batch_say(stderr, "batch: bad --jobs '%s' (1..256)\n", optarg), -1;
            break;
        case O_LIMIT:
            if (number_arg("--limit", optarg, 1, 86400, &b->limit)) return -1;
            break;
        case O_REDO: b->redo = 1; break;
        case O_EMU: b->emu = 1; break;
        case O_NO_SPEED: b->no_speed = 1; break;
        case O_SANITIZE: b->sanitize = 1; break;
        default:
            batch_say(stderr, "batch: unknown or incomplete option '%s'\n", argv[optind - 1]);
            usage(stderr);
            return -1;
        }
    }
    if (optind + 2 != argc) {
        if (optind + 2 < argc)
            batch_say(stderr, "batch: unexpected argument '%s'\n", argv[optind + 2]);
        usage(stderr);
        return -1;
    }
    *dir = argv[optind];
    b->lab = argv[optind + 1];
    if (b->sl.nextra && b->sl.mode != SL_SUBMIT)
        return batch_say(stderr, "batch: options after '--' are sbatch's: only with --slurm\n"), -1;
    if (strncmp(b->lab, "lab", 3) != 0 || strlen(b->lab) > 8 || strchr(b->lab, '/'))
        return batch_say(stderr, "batch: '%s' is not a lab name (lab1, lab2, ...)\n", b->lab), -1;
    return 0;
}

/* The kit (KIT_TOP, set by ./grade, else two levels above this binary),
 * its grader, and the lab's suite checked by it before anyone is graded.
 * 0, or the exit code. */
static int find_kit(batch *b, const char *argv0)
{
    static char self[PATH_MAX];
    char suite[PATH_MAX];
    b->top = getenv("KIT_TOP");
    if (!b->top || !*b->top) {
        char *slash;
        if (!realpath(argv0, self) || !(slash = strrchr(self, '/')))
            return batch_say(stderr, "batch: set KIT_TOP to the kit's folder\n"), BATCH_FAILURE;
        *slash = '\0';
        if ((slash = strrchr(self, '/'))) *slash = '\0';
        b->top = self;
    }
    snprintf(b->grader, sizeof b->grader, "%s/build/grader", b->top);
    if (access(b->grader, X_OK) != 0)
        return batch_say(stderr, "batch: no grader at %s (make grader)\n", b->grader), BATCH_FAILURE;
    snprintf(suite, sizeof suite, "%s/grader/suites/%s.suite", b->top, b->lab);
    if (access(suite, R_OK) != 0)
        return batch_say(stderr, "batch: no test suite for %s (%s)\n", b->lab, suite), BATCH_USAGE;
    int bad = check_suite_first(b->grader, b->lab);
    if (bad)
        return batch_say(stderr, "batch: the %s suite is not valid (exit %d, above): nobody "
                               "was graded\n", b->lab, bad),
               bad == GRADE_BAD_SUITE ? BATCH_BAD_SUITE : BATCH_FAILURE;
    return 0;
}

/* The JSON folder (made), the gradebook's path, and a scratch folder.
 * 0, or the exit code. */
static int make_folders(batch *b, const char *jdir, const char **csv)
{
    static char csvbuf[PATH_MAX];
    char defjdir[64];
    if (!jdir) {
        snprintf(defjdir, sizeof defjdir, "batch-%s", b->lab);
        jdir = defjdir;
    }
    if (mkdir(jdir, 0755) && errno != EEXIST)
        return batch_say(stderr, "batch: cannot make %s: %s\n", jdir, strerror(errno)), BATCH_FAILURE;
    if (!realpath(jdir, b->json_dir))
        return batch_say(stderr, "batch: %s: %s\n", jdir, strerror(errno)), BATCH_FAILURE;
    if (!*csv) {
        snprintf(csvbuf, sizeof csvbuf, "%s/grades.csv", b->json_dir);
        *csv = csvbuf;
    }
    const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(b->scratch, sizeof b->scratch, "%s/grade-batch.XXXXXX", tmpdir);
    /* 0711: each student's grader may run as a user of its own below it */
    if (!mkdtemp(b->scratch) || chmod(b->scratch, 0711))
        return batch_say(stderr, "batch: no scratch folder: %s\n", strerror(errno)), BATCH_FAILURE;
    return 0;
}

/* Workers: one per GPU, or one per CPU, unless --jobs said. */
static void pick_workers(batch *b)
{
    b->ngpu = b->emu ? 0 : find_gpus(b->gpu_ids, 64);
    if (!b->jobs) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        b->jobs = b->ngpu > 0 ? b->ngpu : cpus > 0 ? (int)cpus : 1;
    } else if (b->ngpu > 0 && b->jobs > b->ngpu) {
        batch_say(stderr, "batch: %d jobs on %d GPU(s): builds and correctness runs overlap; "
                        "speed tests take their GPU one at a time\n", b->jobs, b->ngpu);
    }
}

/* Resume: students with a valid results.json under the current key are
 * done.  How many are left to grade. */
static int resume_all(batch *b, const char *dirabs)
{
    char options[64];
    key_options(b, options, sizeof options);
    int todo = 0;
    for (int i = 0; i < b->nst; i++)
        todo += !resume_one(b, &b->st[i], options);
    if (b->jobs > todo && todo > 0)
        b->jobs = todo;
    char how[80] = "";
    if (b->sl.mode == SL_NONE)
        snprintf(how, sizeof how, "; %d at a time%s", b->jobs,
                 b->ngpu ? " (one per GPU)" : " (CPU emulator or no GPU)");
    if (!b->quiet_resume)
        batch_say(stderr, "batch: %s, %d submission(s) in %s; %d to grade, %d already graded%s%s\n",
                  b->lab, b->nst, dirabs, todo, b->nst - todo,
                  b->redo ? "" : " (--redo grades them again)", how);
    return todo;
}

/* "batch: 10 student(s): 7 graded, 1 forbidden, ...; 42 s": each status seen. */
static void print_counts(const batch *b, double seconds)
{
    const char *seen[32];
    int count[32], kinds = 0;
    for (int i = 0; i < b->nst; i++) {
        const char *s = b->st[i].done ? b->st[i].status : "not graded";
        int k = 0;
        while (k < kinds && strcmp(seen[k], s)) k++;
        if (k == kinds && kinds < 32) seen[kinds] = s, count[kinds++] = 0;
        if (k < kinds) count[k]++;
    }
    char line[1200];
    size_t used = (size_t)snprintf(line, sizeof line, "batch: %d student(s)", b->nst);
    for (int k = 0; k < kinds && used < sizeof line; k++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%d %s", k ? ", " : ": ",
                                 count[k], seen[k]);
    batch_say(stderr, "%s; %.0f s\n", line, seconds);
}

/* The gradebook and the summary; the batch's exit code. */
static int wrap_up(batch *b, const char *csv, double t0, int interrupted)
{
    remove_tree(b->scratch);
    for (int i = 0; i < b->nst; i++) /* "done" meant "taken"; keep it for graded ones */
        if (!b->st[i].json && !b->st[i].ran)
            b->st[i].done = 0;
    int rc = write_csv(csv, b->st, b->nst);
    if (rc == -1)
        batch_say(stderr, "batch: cannot write %s: %s\n", csv, strerror(errno));
    else if (rc == -2)
        batch_say(stderr, "batch: %s mixes maxima (above)\n", csv);
    print_counts(b, now_s() - t0);
    print_timing(b, now_s() - t0);
    batch_say(stderr, "batch: gradebook %s, reports in %s\n", csv, b->json_dir);
    if (interrupted) {
        batch_say(stderr, "batch: interrupted; run the same command again to resume\n");
        return BATCH_INTERRUPTED;
    }
    return rc ? BATCH_FAILURE : BATCH_OK;
}

int main(int argc, char **argv)
{
    static batch b = {.limit = BATCH_LIMIT_STUDENT_S, .sl = {.key_gpu = -1}};
    const char *dir = NULL, *csv = NULL, *jdir = NULL;
    char dirabs[PATH_MAX];
    int rc;
    if (parse_args(argc, argv, &b, &dir, &csv, &jdir, &rc))
        return rc;
    if ((rc = find_kit(&b, argv[0])))
        return rc;
    if (!realpath(dir, dirabs) || list_students(&b, dirabs) != 0)
        return batch_say(stderr, "batch: cannot read %s: %s\n", dir, strerror(errno)), BATCH_USAGE;
    if ((rc = make_folders(&b, jdir, &csv)))
        return rc;
    pick_workers(&b);
    if (b.sl.mode == SL_SUBMIT && slurm_settle(&b) != 0)
        return BATCH_USAGE;
    b.quiet_resume = b.sl.mode == SL_MERGE;
    int todo = b.sl.mode == SL_TASK ? slurm_take_share(&b) : resume_all(&b, dirabs);
    if (todo < 0)
        return remove_tree(b.scratch), BATCH_FAILURE;
    if (b.sl.mode == SL_SUBMIT && todo > 0)
        return remove_tree(b.scratch), slurm_submit(&b, dirabs, csv, todo);
    double t0 = now_s();
    int interrupted = 0;
    if (b.sl.mode == SL_MERGE)
        slurm_merge_load(&b);
    else
        interrupted = schedule(&b, todo);
    if (b.sl.mode == SL_TASK) { /* the merge job writes the gradebook */
        slurm_record(&b);
        remove_tree(b.scratch);
        return interrupted ? BATCH_INTERRUPTED : BATCH_OK;
    }
    return wrap_up(&b, csv, t0, interrupted);
}
