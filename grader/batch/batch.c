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
 * are unpacked (tar, or python3's zipfile) into a scratch folder.
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
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"

enum { B_OK = 0, B_USAGE = 2, B_FAILURE = 3, B_BAD_SUITE = 4 };
/* Exit codes of the forked child before it execs the grader. */
enum { X_REFUSED = 90, X_UNPACK = 91, X_EXEC = 92, X_SETUP = 93 };

typedef struct {
    pid_t pid; /* 0 = free */
    int who;
    int gpu;   /* -1: none */
    double start;
} slot;

static const char *top, *lab;
static char grader[PATH_MAX], json_dir[PATH_MAX], scratch[PATH_MAX];
static student *st;
static int nst;
static volatile sig_atomic_t interrupted;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void on_signal(int sig)
{
    interrupted = sig;
}

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
            "  --limit SEC      wall-clock limit per student (default 1800)\n"
            "  -h, --help       this text\n"
            "Re-running the same command resumes an interrupted batch.\n");
}

/* ---- small process helpers ----------------------------------------------- */

/* fork/exec argv with stdout into *out (malloc'ed, NUL-terminated, at most
 * cap bytes kept; *truncated set when more came); stderr to /dev/null.
 * Returns the wait status, or -1. */
static int capture(char *const argv[], char **out, size_t cap, int *truncated)
{
    int fd[2];
    *out = NULL;
    *truncated = 0;
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(fd[1], 1);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0, size = 4096;
    char *buf = malloc(size + 1);
    ssize_t got;
    char sink[4096];
    while (buf && (got = read(fd[0], len < cap ? buf + len : sink,
                              len < cap ? (size - len < cap - len ? size - len : cap - len)
                                        : sizeof sink)) != 0) {
        if (got < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (len >= cap) {
            *truncated = 1;
            continue;
        }
        len += (size_t)got;
        if (len == size && size < cap) {
            size_t bigger = size * 2 < cap ? size * 2 : cap;
            char *b = realloc(buf, bigger + 1);
            if (!b) break;
            buf = b;
            size = bigger;
        }
    }
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            free(buf);
            return -1;
        }
    if (buf)
        buf[len] = '\0';
    *out = buf;
    return status;
}

/* fork/exec and wait; stdout/stderr inherited. Returns the exit code, -1. */
static int run_wait(char *const argv[], rlim_t fsize_limit)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (fsize_limit) {
            struct rlimit r = {fsize_limit, fsize_limit};
            setrlimit(RLIMIT_FSIZE, &r);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "batch: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void remove_tree(const char *path)
{
    char *argv[] = {"rm", "-rf", "--", (char *)path, NULL};
    int null = open("/dev/null", O_WRONLY), saved = dup(2);
    if (null >= 0) dup2(null, 2);
    run_wait(argv, 0);
    if (saved >= 0) { dup2(saved, 2); close(saved); }
    if (null >= 0) close(null);
}

/*
 * Kill whatever is left of session sid: the grader runs each build and test
 * in a process group of its own, so killing the grader's group alone could
 * leave a student binary behind.  Linux: scan /proc; elsewhere only the
 * group is killed.
 */
static void kill_session(pid_t sid)
{
    kill(-sid, SIGKILL);
    kill(sid, SIGKILL); /* in case it has not called setsid() yet */
    DIR *d = opendir("/proc");
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char path[300], buf[1024];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = '\0';
        /* pid (comm) state ppid pgrp session ...; comm may hold spaces */
        char *rp = strrchr(buf, ')');
        char state;
        long ppid, pgrp, session;
        if (rp && sscanf(rp + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &session) == 4 &&
            session == (long)sid)
            kill((pid_t)atol(e->d_name), SIGKILL);
    }
    closedir(d);
}

/* ---- archives -------------------------------------------------------------- */

/* Is a member name safe to extract?  NULL when it is, else why not. */
static const char *bad_member(const char *name)
{
    if (name[0] == '/')
        return "an absolute path";
    for (const char *p = name; *p;) {
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.')
            return "a '..' component";
        p += len;
        while (*p == '/') p++;
    }
    return NULL;
}

static const char *zip_list_py =
    "import sys, zipfile\n"
    "for i in zipfile.ZipFile(sys.argv[1]).infolist():\n"
    "    t = (i.external_attr >> 16) & 0o170000\n"
    "    k = 'l' if t == 0o120000 else 'd' if i.filename.endswith('/') else '-'\n"
    "    print(k, i.filename.replace('\\n', '?'))\n";

/*
 * List, check and unpack an archive into dest.  Messages go to stdout (the
 * student's report).  0 when unpacked, X_REFUSED or X_UNPACK otherwise.
 */
static int unpack(const char *archive, int kind, const char *dest)
{
    const size_t cap = 8u << 20;
    const rlim_t fsize = (rlim_t)1 << 30; /* no lab file is a GiB */
    char *names = NULL, *types = NULL;
    int trunc1 = 0, trunc2 = 0, rc = 0, count = 0;
    char *zflag = kind == K_TGZ ? "-tzf" : "-tf";
    char *vflag = kind == K_TGZ ? "-tvzf" : "-tvf";

    if (kind == K_ZIP) {
        char *argv[] = {"python3", "-c", (char *)zip_list_py, (char *)archive, NULL};
        int s = capture(argv, &names, cap, &trunc1);
        if (s < 0 || !WIFEXITED(s) || WEXITSTATUS(s) != 0 || !names) {
            printf("batch: cannot list the zip archive %s (not a zip file, or python3 "
                   "missing)\n", archive);
            rc = X_UNPACK;
            goto out;
        }
    } else {
        char *argv1[] = {"tar", zflag, (char *)archive, NULL};
        char *argv2[] = {"tar", vflag, (char *)archive, NULL};
        int s1 = capture(argv1, &names, cap, &trunc1);
        int s2 = capture(argv2, &types, cap, &trunc2);
        if (s1 < 0 || s2 < 0 || !WIFEXITED(s1) || WEXITSTATUS(s1) != 0 || !WIFEXITED(s2) ||
            WEXITSTATUS(s2) != 0 || !names || !types) {
            printf("batch: cannot list the archive %s (corrupt, or not a tar file)\n", archive);
            rc = X_UNPACK;
            goto out;
        }
    }
    if (trunc1 || trunc2) {
        printf("batch: archive refused: its member list is over %zu bytes\n", cap);
        rc = X_REFUSED;
        goto out;
    }
    /* Check every member; for tar the types come from the verbose listing. */
    char *tl = types;
    for (char *line = names; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        char type = '-';
        const char *name = line;
        if (kind == K_ZIP) {
            type = line[0];
            name = line[0] && line[1] ? line + 2 : "";
        } else if (tl && *tl) {
            char *tnl = strchr(tl, '\n');
            if (tnl) *tnl = '\0';
            type = tl[0];
            if (type == '-' && strstr(tl, " link to "))
                type = 'h';
            tl = tnl ? tnl + 1 : tl + strlen(tl);
        }
        const char *why = bad_member(name);
        if (!why && type != '-' && type != 'd')
            why = type == 'l' ? "a symbolic link" : type == 'h' ? "a hard link"
                                                                : "not a plain file or folder";
        if (why) {
            printf("batch: archive refused, nothing extracted: member '%s' is %s\n", name, why);
            rc = X_REFUSED;
            goto out;
        }
        if (++count > 10000) {
            printf("batch: archive refused: more than 10000 members\n");
            rc = X_REFUSED;
            goto out;
        }
        line = nl ? nl + 1 : NULL;
    }
    if (mkdir(dest, 0700) && errno != EEXIST) {
        printf("batch: cannot make %s: %s\n", dest, strerror(errno));
        rc = X_UNPACK;
        goto out;
    }
    fflush(stdout);
    int code;
    if (kind == K_ZIP) {
        char *argv[] = {"python3", "-m", "zipfile", "-e", (char *)archive, (char *)dest, NULL};
        code = run_wait(argv, fsize);
    } else {
        char *argv[] = {"tar", kind == K_TGZ ? "-xzf" : "-xf", (char *)archive, "-C",
                        (char *)dest, "--no-same-owner", "--no-same-permissions", NULL};
        code = run_wait(argv, fsize);
    }
    if (code != 0) {
        printf("batch: unpacking %s failed (exit %d); see the messages above\n", archive, code);
        rc = X_UNPACK;
    }
out:
    free(names);
    free(types);
    fflush(stdout);
    return rc;
}

/* ---- students -------------------------------------------------------------- */

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a > b && strcmp(s + a - b, suf) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const student *)a)->name, ((const student *)b)->name);
}

/* Fill st[] from DIR; -1 when DIR cannot be read. */
static int list_students(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int cap = 0;
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        char path[PATH_MAX];
        struct stat sb;
        const char *n = e->d_name;
        static const struct { const char *suf; int kind; } sufs[] = {
            {".zip", K_ZIP}, {".tar.gz", K_TGZ}, {".tgz", K_TGZ}, {".tar", K_TAR}};
        if (n[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (stat(path, &sb))
            continue;
        int kind = -1;
        size_t keep = strlen(n);
        if (S_ISDIR(sb.st_mode)) {
            kind = K_DIR;
        } else if (S_ISREG(sb.st_mode)) {
            for (size_t k = 0; k < sizeof sufs / sizeof sufs[0] && kind < 0; k++)
                if (has_suffix(n, sufs[k].suf)) {
                    kind = sufs[k].kind;
                    keep -= strlen(sufs[k].suf);
                }
        }
        if (kind < 0) {
            fprintf(stderr, "batch: ignoring %s: not a folder or a .zip/.tar.gz/.tgz/.tar\n",
                    path);
            continue;
        }
        char *name = strndup(n, keep);
        int dup = -1;
        for (int i = 0; i < nst && dup < 0; i++)
            dup = strcmp(st[i].name, name) == 0 ? i : -1;
        if (dup >= 0) {
            note_duplicate(&st[dup], strdup(path), kind);
            free(name);
            continue;
        }
        if (nst == cap) {
            cap = cap ? cap * 2 : 64;
            st = realloc(st, sizeof *st * (size_t)cap);
            if (!st) { closedir(d); return -1; }
        }
        memset(&st[nst], 0, sizeof st[nst]);
        st[nst].name = name;
        st[nst].path = strdup(path);
        st[nst].kind = kind;
        st[nst].seconds = NAN;
        nst++;
    }
    closedir(d);
    if (nst)
        qsort(st, (size_t)nst, sizeof *st, by_name);
    return 0;
}

static void student_file(const student *s, const char *ext, char *out, size_t len)
{
    snprintf(out, len, "%s/%s%s", json_dir, s->name, ext);
}

/* Is s's earlier result still its grade: valid, and graded under the
 * current resume key (suite, submission, kit, options)?  1, with it
 * loaded, when it is. */
static int resume_one(student *s, int redo, const char *options)
{
    char json[PATH_MAX], keyfile[PATH_MAX], changed[120];
    grade_key(top, lab, s, options, s->key, sizeof s->key);
    student_file(s, ".json", json, sizeof json);
    student_file(s, ".key", keyfile, sizeof keyfile);
    jv *j = redo ? NULL : jv_parse_file(json);
    if (!valid_results(j) || !key_is_current(keyfile, s->key, changed, sizeof changed)) {
        if (valid_results(j))
            fprintf(stderr, "batch: %s: graded again: %s changed\n", s->name, changed);
        jv_free(j);
        return 0;
    }
    s->json = j;
    s->done = 1;
    jv_num(j, "execution_time", &s->seconds);
    classify(s);
    return 1;
}

/* Last non-empty line of a file (a grader's error). */
static void last_line(const char *path, char *out, size_t len)
{
    char buf[4096];
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET);
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    while (got && (buf[got - 1] == '\n' || buf[got - 1] == '\r' || buf[got - 1] == ' '))
        buf[--got] = '\0';
    char *nl = strrchr(buf, '\n');
    snprintf(out, len, "%s", nl ? nl + 1 : buf);
}

/* ---- one child per student --------------------------------------------------- */

/* As root, worker k's students run as uid SANDBOX_UID_BASE + k (with nobody's
 * group): Debian leaves 65000-65533 unassigned, and the range fits the
 * 16-bit uid maps of containers. */
#define SANDBOX_UID_BASE 65100

typedef struct {
    int emu, no_speed, sanitize;
} child_opts;

/* In the forked child: unpack if needed, then exec the grader. Never returns. */
static void child(const student *s, int index, int worker, int gpu, const child_opts *co)
{
    char txt[PATH_MAX], part[PATH_MAX], tmp[PATH_MAX], sub[PATH_MAX], gpus[16];
    setsid();
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    student_file(s, ".txt", txt, sizeof txt);
    student_file(s, ".json.part", part, sizeof part);
    int fd = open(txt, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (fd < 0)
        _exit(X_SETUP);
    dup2(fd, 1);
    dup2(fd, 2);
    if (null >= 0) dup2(null, 0);
    close(fd);
    snprintf(tmp, sizeof tmp, "%s/%d", scratch, index);
    /* 0711: when run as root the grader builds and runs as an unprivileged
     * user inside its own folder below this one, so it must be traversable */
    if ((mkdir(tmp, 0711) && errno != EEXIST) || chmod(tmp, 0711)) {
        printf("batch: cannot make %s: %s\n", tmp, strerror(errno));
        _exit(X_SETUP);
    }
    setenv("TMPDIR", tmp, 1); /* the grader's scratch goes there: removed after */
    setenv("KIT_TOP", top, 1);
    if (gpu >= 0) {
        snprintf(gpus, sizeof gpus, "%d", gpu);
        setenv("CUDA_VISIBLE_DEVICES", gpus, 1);
        /* Workers sharing this GPU time one at a time (grader/gpulock.h). */
        char lock[PATH_MAX];
        snprintf(lock, sizeof lock, "%s/gpu%d", scratch, gpu);
        setenv("GRADE_GPU_LOCK", lock, 1);
    }
    if (geteuid() == 0) {
        /* A user of its own per worker: the process limit (RLIMIT_NPROC)
         * counts per user, so a fork bomb in one student's code must not
         * starve the student graded beside it. */
        char uid[16];
        snprintf(uid, sizeof uid, "%d", SANDBOX_UID_BASE + worker);
        setenv("GRADE_SANDBOX_UID", uid, 1);
    }
    if (s->kind == K_DIR) {
        snprintf(sub, sizeof sub, "%s", s->path);
    } else {
        snprintf(sub, sizeof sub, "%s/submission", tmp);
        printf("batch: unpacking %s\n", s->path);
        int rc = unpack(s->path, s->kind, sub);
        if (rc)
            _exit(rc);
    }
    char *argv[12];
    int a = 0;
    argv[a++] = grader;
    argv[a++] = (char *)lab;
    argv[a++] = "--submission";
    argv[a++] = sub;
    argv[a++] = "--json";
    argv[a++] = part;
    if (co->emu) argv[a++] = "--emu";
    if (co->no_speed) argv[a++] = "--no-speed";
    if (co->sanitize) argv[a++] = "--sanitize";
    argv[a] = NULL;
    fflush(stdout);
    execv(grader, argv);
    printf("batch: cannot run %s: %s\n", grader, strerror(errno));
    _exit(X_EXEC);
}

/* The child of slot sl ended with wait status ws (timed_out: we killed it). */
static void finish(student *s, int index, int ws, int timed_out, double seconds)
{
    char txt[PATH_MAX], part[PATH_MAX], json[PATH_MAX], tmp[PATH_MAX], why[300];
    student_file(s, ".txt", txt, sizeof txt);
    student_file(s, ".json.part", part, sizeof part);
    student_file(s, ".json", json, sizeof json);
    snprintf(tmp, sizeof tmp, "%s/%d", scratch, index);
    remove_tree(tmp);
    s->done = 1;
    s->ran = 1;
    s->seconds = seconds;
    s->note[0] = '\0';
    if (timed_out) {
        snprintf(s->status, sizeof s->status, "timeout");
        snprintf(s->note, sizeof s->note, "grading killed after %.0f s", seconds);
        FILE *f = fopen(txt, "a");
        if (f) {
            fprintf(f, "\nbatch: %s\n", s->note);
            fclose(f);
        }
        unlink(part);
        return;
    }
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    if (code == 0) {
        jv *j = jv_parse_file(part);
        if (valid_results(j) && rename(part, json) == 0) {
            s->json = j;
            classify(s);
            char keyfile[PATH_MAX];
            student_file(s, ".key", keyfile, sizeof keyfile);
            if (key_save(keyfile, s->key) != 0)
                fprintf(stderr, "batch: cannot write %s: it will be graded again\n", keyfile);
            return;
        }
        jv_free(j);
        snprintf(s->status, sizeof s->status, "grader error");
        snprintf(s->note, sizeof s->note, "the grader wrote no valid results.json");
        unlink(part);
        return;
    }
    unlink(part);
    last_line(txt, why, sizeof why);
    if (code == X_REFUSED || code == X_UNPACK) {
        snprintf(s->status, sizeof s->status, "unpack failed");
        snprintf(s->note, sizeof s->note, "%s", why);
    } else if (code < 0) {
        snprintf(s->status, sizeof s->status, "grader error");
        snprintf(s->note, sizeof s->note, "grader killed by signal %d", WTERMSIG(ws));
    } else {
        snprintf(s->status, sizeof s->status, "grader error");
        snprintf(s->note, sizeof s->note, "exit %d: %s", code, why);
    }
}

/* "batch: 10 student(s): 7 graded, 1 forbidden, ...; 42 s": each status seen. */
static void print_counts(int n, double seconds)
{
    const char *seen[32];
    int count[32], kinds = 0;
    for (int i = 0; i < n; i++) {
        const char *s = st[i].done ? st[i].status : "not graded";
        int k = 0;
        while (k < kinds && strcmp(seen[k], s)) k++;
        if (k == kinds && kinds < 32) seen[kinds] = s, count[kinds++] = 0;
        if (k < kinds) count[k]++;
    }
    fprintf(stderr, "batch: %d student(s)", n);
    for (int k = 0; k < kinds; k++)
        fprintf(stderr, "%s%d %s", k ? ", " : ": ", count[k], seen[k]);
    fprintf(stderr, "; %.0f s\n", seconds);
}

static void fmt_dur(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

/* ---- GPUs -------------------------------------------------------------------- */

/* GPU indices for CUDA_VISIBLE_DEVICES; returns how many (0: none). */
static int find_gpus(int *ids, int max)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    int n = 0;
    if (vis && *vis) { /* the instructor restricted the batch to these */
        char buf[256];
        snprintf(buf, sizeof buf, "%s", vis);
        for (char *tok = strtok(buf, ","); tok && n < max; tok = strtok(NULL, ","))
            if (*tok >= '0' && *tok <= '9')
                ids[n++] = atoi(tok);
        return n;
    }
    char *out = NULL;
    int trunc;
    char *argv[] = {"nvidia-smi", "-L", NULL};
    int s = capture(argv, &out, 1 << 16, &trunc);
    if (s >= 0 && WIFEXITED(s) && WEXITSTATUS(s) == 0 && out)
        for (char *line = out; line && *line && n < max; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
            if (strncmp(line, "GPU ", 4) == 0) {
                ids[n] = n;
                n++;
            }
    free(out);
    return n;
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *dir = NULL, *csv = NULL, *jdir = NULL;
    int jobs = 0, redo = 0;
    double limit = 1800;
    child_opts co = {0, 0, 0};
    char self[PATH_MAX], csvbuf[PATH_MAX], defjdir[64];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return B_OK;
        } else if (!strcmp(a, "--batch") && i == 1) {
            continue; /* ./grade --batch ... passes its own argument on */
        } else if (!strcmp(a, "--csv") && i + 1 < argc) {
            csv = argv[++i];
        } else if (!strcmp(a, "--json-dir") && i + 1 < argc) {
            jdir = argv[++i];
        } else if (!strcmp(a, "--jobs") && i + 1 < argc) {
            char *end;
            long k = strtol(argv[++i], &end, 10);
            if (*end || k < 1 || k > 256)
                return fprintf(stderr, "batch: bad --jobs '%s' (1..256)\n", argv[i]), B_USAGE;
            jobs = (int)k;
        } else if (!strcmp(a, "--limit") && i + 1 < argc) {
            char *end;
            limit = strtod(argv[++i], &end);
            if (*end || !(limit >= 1 && limit <= 86400))
                return fprintf(stderr, "batch: bad --limit '%s'\n", argv[i]), B_USAGE;
        } else if (!strcmp(a, "--redo")) {
            redo = 1;
        } else if (!strcmp(a, "--emu")) {
            co.emu = 1;
        } else if (!strcmp(a, "--no-speed")) {
            co.no_speed = 1;
        } else if (!strcmp(a, "--sanitize")) {
            co.sanitize = 1;
        } else if (a[0] != '-' && !dir) {
            dir = a;
        } else if (a[0] != '-' && !lab) {
            lab = a;
        } else {
            fprintf(stderr, "batch: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return B_USAGE;
        }
    }
    if (!dir || !lab) {
        usage(stderr);
        return B_USAGE;
    }
    if (strncmp(lab, "lab", 3) != 0 || strlen(lab) > 8 || strchr(lab, '/'))
        return fprintf(stderr, "batch: '%s' is not a lab name (lab1, lab2, ...)\n", lab), B_USAGE;

    /* The kit: KIT_TOP (set by ./grade), else two levels above this binary. */
    top = getenv("KIT_TOP");
    if (!top || !*top) {
        char *slash;
        if (!realpath(argv[0], self) || !(slash = strrchr(self, '/')))
            return fprintf(stderr, "batch: set KIT_TOP to the kit's folder\n"), B_FAILURE;
        *slash = '\0';
        if ((slash = strrchr(self, '/'))) *slash = '\0';
        top = self;
    }
    snprintf(grader, sizeof grader, "%s/build/grader", top);
    if (access(grader, X_OK) != 0)
        return fprintf(stderr, "batch: no grader at %s (make grader)\n", grader), B_FAILURE;
    {
        char suite[PATH_MAX];
        snprintf(suite, sizeof suite, "%s/grader/suites/%s.suite", top, lab);
        if (access(suite, R_OK) != 0)
            return fprintf(stderr, "batch: no test suite for %s (%s)\n", lab, suite), B_USAGE;
    }
    int bad = check_suite_first(grader, lab);
    if (bad)
        return fprintf(stderr, "batch: the %s suite is not valid (exit %d, above): nobody "
                               "was graded\n", lab, bad), bad == 4 ? B_BAD_SUITE : B_FAILURE;
    char dirabs[PATH_MAX];
    if (!realpath(dir, dirabs) || list_students(dirabs) != 0)
        return fprintf(stderr, "batch: cannot read %s: %s\n", dir, strerror(errno)), B_USAGE;
    if (!jdir) {
        snprintf(defjdir, sizeof defjdir, "batch-%s", lab);
        jdir = defjdir;
    }
    if (mkdir(jdir, 0755) && errno != EEXIST)
        return fprintf(stderr, "batch: cannot make %s: %s\n", jdir, strerror(errno)), B_FAILURE;
    if (!realpath(jdir, json_dir))
        return fprintf(stderr, "batch: %s: %s\n", jdir, strerror(errno)), B_FAILURE;
    if (!csv) {
        snprintf(csvbuf, sizeof csvbuf, "%s/grades.csv", json_dir);
        csv = csvbuf;
    }
    snprintf(scratch, sizeof scratch, "%s/grade-batch.XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(scratch) || chmod(scratch, 0711)) /* 0711: see child() */
        return fprintf(stderr, "batch: no scratch folder: %s\n", strerror(errno)), B_FAILURE;

    /* Workers: one per GPU, or one per CPU. */
    int gpu_ids[64], ngpu = co.emu ? 0 : find_gpus(gpu_ids, 64);
    if (!jobs) {
        long cpus = 1;
#ifdef _SC_NPROCESSORS_ONLN
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
        jobs = ngpu > 0 ? ngpu : cpus > 0 ? (int)cpus : 1;
    } else if (ngpu > 0 && jobs > ngpu) {
        fprintf(stderr, "batch: %d jobs on %d GPU(s): builds and correctness runs overlap; "
                        "speed tests take their GPU one at a time\n", jobs, ngpu);
    }

    /* Resume: students with a valid results.json under the current key are done. */
    char options[64];
    /* gpu: a batch graded without a GPU (speed pending) is graded again on one */
    snprintf(options, sizeof options, "emu%d,nospeed%d,sanitize%d,gpu%d", co.emu, co.no_speed,
             co.sanitize, ngpu > 0);
    int todo = 0;
    for (int i = 0; i < nst; i++)
        todo += !resume_one(&st[i], redo, options);
    if (jobs > todo && todo > 0)
        jobs = todo;
    fprintf(stderr, "batch: %s, %d submission(s) in %s; %d to grade, %d already graded%s; "
                    "%d at a time%s\n", lab, nst, dirabs, todo, nst - todo,
            redo ? "" : " (--redo grades them again)", jobs,
            ngpu ? " (one per GPU)" : " (CPU emulator or no GPU)");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    slot *slots = calloc((size_t)jobs, sizeof *slots);
    int next = 0, finished = 0, running = 0, tty = isatty(STDERR_FILENO);
    double t0 = now_s(), last_draw = 0;
    while (!interrupted && (finished < todo || running > 0)) {
        /* start students on free slots */
        for (int k = 0; k < jobs && !interrupted; k++) {
            if (slots[k].pid)
                continue;
            while (next < nst && st[next].done)
                next++;
            if (next >= nst)
                break;
            int gpu = ngpu > 0 ? gpu_ids[k % ngpu] : -1;
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid < 0) {
                fprintf(stderr, "batch: fork: %s\n", strerror(errno));
                break;
            }
            if (pid == 0)
                child(&st[next], next, k, gpu, &co);
            slots[k] = (slot){pid, next, gpu, now_s()};
            st[next].done = 1; /* taken */
            next++;
            running++;
        }
        /* reap */
        /* reap: waitid(WNOWAIT) first, so that the pid (and session id) is
         * not reused before the session's leftovers are killed */
        int ws;
        for (;;) {
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
                break;
            pid_t pid = si.si_pid;
            int mine = 0;
            for (int k = 0; k < jobs; k++)
                mine |= slots[k].pid == pid;
            if (mine)
                kill_session(pid); /* anything it left behind */
            while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
            for (int k = 0; k < jobs; k++) {
                if (slots[k].pid != pid)
                    continue;
                student *s = &st[slots[k].who];
                finish(s, slots[k].who, ws, 0, now_s() - slots[k].start);
                slots[k].pid = 0;
                running--;
                finished++;
                char tot[32] = "";
                double x;
                if (s->json && jv_num(s->json, "score", &x) == 0) {
                    tot[0] = ' ';
                    fmt_num(x, tot + 1, sizeof tot - 1);
                }
                if (tty) fprintf(stderr, "\r\033[K");
                fprintf(stderr, "batch: [%d/%d] %s: %s%s (%.1f s)%s%.200s\n", finished, todo,
                        s->name, s->status, tot, s->seconds, s->note[0] ? ": " : "", s->note);
            }
        }
        /* time limits */
        double now = now_s();
        for (int k = 0; k < jobs; k++)
            if (slots[k].pid && now - slots[k].start > limit) {
                kill_session(slots[k].pid);
                while (waitpid(slots[k].pid, &ws, 0) < 0 && errno == EINTR) {}
                student *s = &st[slots[k].who];
                finish(s, slots[k].who, ws, 1, now - slots[k].start);
                slots[k].pid = 0;
                running--;
                finished++;
                if (tty) fprintf(stderr, "\r\033[K");
                fprintf(stderr, "batch: [%d/%d] %s: timeout (%s)\n", finished, todo, s->name,
                        s->note);
            }
        if (tty && now - last_draw > 0.5) {
            char el[32], eta[32] = "?";
            fmt_dur(now - t0, el, sizeof el);
            if (finished > 0)
                fmt_dur((now - t0) / finished * (todo - finished), eta, sizeof eta);
            fprintf(stderr, "\r\033[Kbatch: %d/%d done, %d running, %s elapsed, ETA %s",
                    finished, todo, running, el, eta);
            last_draw = now;
        }
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (tty)
        fprintf(stderr, "\r\033[K");
    if (interrupted) {
        for (int k = 0; k < jobs; k++)
            if (slots[k].pid) {
                int ws;
                kill_session(slots[k].pid);
                waitpid(slots[k].pid, &ws, 0);
                char part[PATH_MAX];
                student_file(&st[slots[k].who], ".json.part", part, sizeof part);
                unlink(part);
                st[slots[k].who].done = 0;
            }
    }
    remove_tree(scratch);
    for (int i = 0; i < nst; i++) /* "done" meant "taken"; keep it for graded ones */
        if (!st[i].json && !st[i].ran)
            st[i].done = 0;

    int rc = write_csv(csv, st, nst);
    if (rc == -1)
        fprintf(stderr, "batch: cannot write %s: %s\n", csv, strerror(errno));
    else if (rc == -2)
        fprintf(stderr, "batch: %s mixes maxima (above)\n", csv);
    print_counts(nst, now_s() - t0);
    fprintf(stderr, "batch: gradebook %s, reports in %s\n", csv, json_dir);
    if (interrupted) {
        fprintf(stderr, "batch: interrupted; run the same command again to resume\n");
        return 130;
    }
    return rc ? B_FAILURE : B_OK;
}
