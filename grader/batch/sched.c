/*
 * sched.c - the batch's workers: each student graded by the grader run as
 * a child in a session of its own (spawn.h), at most jobs at once, each
 * with a GPU of its own when there are enough; a child past the limit is
 * killed with everything left in its session; progress on stderr.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "spawn.h"

/* As root, worker k's students run as uid SANDBOX_UID_BASE + k (with nobody's
 * group): Debian leaves 65000-65533 unassigned, and the range fits the
 * 16-bit uid maps of containers. */
#define SANDBOX_UID_BASE 65100

typedef struct {
    pid_t pid; /* 0 = free */
    int who;
    int gpu;   /* -1: none */
    double start;
} slot;

/* The scheduler's state, for its phases. */
typedef struct {
    batch *b;
    slot *slots;
    int todo, next, finished, running, tty;
    double t0, last_draw;
} sched;

static volatile sig_atomic_t interrupted;

/* A monotonic clock in seconds, for limits and progress. */
double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* SIGINT, SIGTERM, SIGHUP: stop starting students, clean up, keep what ran. */
static void on_signal(int sig)
{
    interrupted = sig;
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

/* A duration as "1h02m" or "3m07s". */
static void fmt_dur(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

/* What prepare_student needs, in the child. */
typedef struct {
    const batch *b;
    const student *s;
    int index, worker, gpu;
    char sub[PATH_MAX];
} child_args;

/* The environment a student's grader runs in: its scratch, the kit, its GPU. */
static int child_env(const child_args *c, const char *tmp)
{
    setenv("TMPDIR", tmp, 1); /* the grader's scratch goes there: removed after */
    setenv("KIT_TOP", c->b->top, 1);
    if (c->gpu >= 0) {
        char gpus[16], lock[PATH_MAX];
        snprintf(gpus, sizeof gpus, "%d", c->gpu);
        setenv("CUDA_VISIBLE_DEVICES", gpus, 1);
        /* the index is nvidia-smi's (find_gpus): PCI bus order for CUDA too;
         * the worker's grader shows its code only this GPU's node (gpunodes.h) */
        setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
        /* Workers sharing this GPU time one at a time (grader/gpulock.h). */
        snprintf(lock, sizeof lock, "%s/gpu%d", c->b->scratch, c->gpu);
        setenv("GRADE_GPU_LOCK", lock, 1);
        /* ...and are held against one timed round of the reference, kept
         * there while it is recent (grader/ref_round.h). */
        snprintf(lock, sizeof lock, "%s/gpu%d.round", c->b->scratch, c->gpu);
        setenv("GRADE_REF_ROUND", lock, 1);
    }
    if (geteuid() == 0) {
        /* A user of its own per worker: the process limit (RLIMIT_NPROC)
         * counts per user, so a fork bomb in one student's code must not
         * starve the student graded beside it. */
        char uid[16];
        snprintf(uid, sizeof uid, "%d", SANDBOX_UID_BASE + c->b->uid_offset + c->worker);
        setenv("GRADE_SANDBOX_UID", uid, 1);
    }
    return 0;
}

/* spawn()'s prepare hook, in the student's child: its scratch folder, its
 * environment, its archive unpacked; 0 to exec the grader. */
static int prepare_student(void *arg)
{
    child_args *c = arg;
    char tmp[PATH_MAX];
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    snprintf(tmp, sizeof tmp, "%s/%d", c->b->scratch, c->index);
    /* 0711: when run as root the grader builds and runs as an unprivileged
     * user inside its own folder below this one, so it must be traversable */
    if ((mkdir(tmp, 0711) && errno != EEXIST) || chmod(tmp, 0711)) {
        batch_say(stdout, "batch: cannot make %s: %s\n", tmp, strerror(errno));
        return X_SETUP;
    }
    child_env(c, tmp);
    if (c->s->kind == K_DIR)
        return 0;
    batch_say(stdout, "batch: unpacking %s\n", c->s->path);
    return unpack(c->s->path, c->sub);
}

/* Start the grading of student `index` on worker k; its pid, or -1. */
static pid_t start_student(const batch *b, int index, int k, int gpu)
{
    const student *s = &b->st[index];
    char txt[PATH_MAX], part[PATH_MAX];
    child_args c = {b, s, index, k, gpu, ""};
    student_file(b, s, ".txt", txt, sizeof txt);
    student_file(b, s, ".json.part", part, sizeof part);
    if (s->kind == K_DIR)
        snprintf(c.sub, sizeof c.sub, "%s", s->path);
    else
        snprintf(c.sub, sizeof c.sub, "%s/%d/submission", b->scratch, index);
    char *argv[12];
    int a = 0;
    argv[a++] = (char *)b->grader;
    argv[a++] = (char *)b->lab;
    argv[a++] = "--submission";
    argv[a++] = c.sub;
    argv[a++] = "--json";
    argv[a++] = part;
    if (b->emu) argv[a++] = "--emu";
    if (b->no_speed) argv[a++] = "--no-speed";
    if (b->sanitize) argv[a++] = "--sanitize";
    /* the students graded at once already fill the cores: no lanes inside */
    if (b->jobs > 1) argv[a++] = "--lanes=1";
    argv[a] = NULL;
    spawn_opts o = {.out_path = txt, .new_session = 1, .prepare = prepare_student, .arg = &c,
                    .exec_failed_code = X_EXEC, .who = "batch"};
    return spawn(argv, &o);
}

/* Start students on the free slots. */
static void fill_slots(sched *q)
{
    batch *b = q->b;
    for (int k = 0; k < b->jobs && !interrupted; k++) {
        if (q->slots[k].pid)
            continue;
        while (q->next < b->nst && b->st[q->next].done)
            q->next++;
        if (q->next >= b->nst)
            break;
        int gpu = b->ngpu > 0 ? b->gpu_ids[k % b->ngpu] : -1;
        pid_t pid = start_student(b, q->next, k, gpu);
        if (pid < 0) {
            batch_say(stderr, "batch: fork: %s\n", strerror(errno));
            break;
        }
        q->slots[k] = (slot){pid, q->next, gpu, now_s()};
        b->st[q->next].gpu = gpu;
        b->st[q->next].done = 1; /* taken */
        q->next++;
        q->running++;
    }
}

/* Slot k's child has been waited for: record its student's result. */
static void slot_done(sched *q, int k, int ws, int timed_out)
{
    student *s = &q->b->st[q->slots[k].who];
    finish(q->b, s, q->slots[k].who, ws, timed_out, now_s() - q->slots[k].start);
    q->slots[k].pid = 0;
    q->running--;
    q->finished++;
    if (q->tty) fprintf(stderr, "\r\033[K");
    if (timed_out) {
        batch_say(stderr, "batch: [%d/%d] %s: timeout (%s)\n", q->finished, q->todo, s->name,
                s->note);
        return;
    }
    char tot[32] = "";
    double x;
    if (s->json && jv_num(s->json, "score", &x) == 0) {
        tot[0] = ' ';
        fmt_num(x, tot + 1, sizeof tot - 1);
    }
    batch_say(stderr, "batch: [%d/%d] %s: %s%s (%.1f s)%s%.200s\n", q->finished, q->todo,
            s->name, s->status, tot, s->seconds, s->note[0] ? ": " : "", s->note);
}

/* Reap ended children: waitid(WNOWAIT) first, so that the pid (and session
 * id) is not reused before the session's leftovers are killed. */
static void reap(sched *q)
{
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
            return;
        pid_t pid = si.si_pid;
        int slot_of = -1;
        for (int k = 0; k < q->b->jobs; k++)
            if (q->slots[k].pid == pid)
                slot_of = k;
        if (slot_of >= 0)
            kill_session(pid); /* anything it left behind */
        int ws = spawn_wait(pid);
        if (slot_of >= 0)
            slot_done(q, slot_of, ws, 0);
    }
}

/* Kill the children past the limit; their students time out. */
static void enforce_limits(sched *q)
{
    double now = now_s();
    for (int k = 0; k < q->b->jobs; k++)
        if (q->slots[k].pid && now - q->slots[k].start > q->b->limit) {
            kill_session(q->slots[k].pid);
            slot_done(q, k, spawn_wait(q->slots[k].pid), 1);
        }
}

/* On a terminal, one line redrawn: done, running, elapsed, ETA. */
static void draw_progress(sched *q)
{
    double now = now_s();
    if (!q->tty || now - q->last_draw <= 0.5)
        return;
    char el[32], eta[32] = "?";
    fmt_dur(now - q->t0, el, sizeof el);
    if (q->finished > 0)
        fmt_dur((now - q->t0) / q->finished * (q->todo - q->finished), eta, sizeof eta);
    fprintf(stderr, "\r\033[Kbatch: %d/%d done, %d running, %s elapsed, ETA %s", q->finished,
            q->todo, q->running, el, eta);
    q->last_draw = now;
}

/* Interrupted: kill what runs; its students stay to grade (a re-run resumes). */
static void abandon_running(sched *q)
{
    for (int k = 0; k < q->b->jobs; k++)
        if (q->slots[k].pid) {
            char part[PATH_MAX];
            student *s = &q->b->st[q->slots[k].who];
            kill_session(q->slots[k].pid);
            spawn_wait(q->slots[k].pid);
            student_file(q->b, s, ".json.part", part, sizeof part);
            unlink(part);
            s->done = 0;
        }
}

/* Catch the signals that stop a batch, so that it stops cleanly. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int schedule(batch *b, int todo)
{
    sched q = {.b = b, .todo = todo, .tty = isatty(STDERR_FILENO), .t0 = now_s()};
    q.slots = calloc((size_t)b->jobs, sizeof *q.slots);
    if (!q.slots)
        return batch_say(stderr, "batch: out of memory\n"), 1;
    catch_signals();
    while (!interrupted && (q.finished < todo || q.running > 0)) {
        fill_slots(&q);
        reap(&q);
        enforce_limits(&q);
        draw_progress(&q);
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (q.tty)
        fprintf(stderr, "\r\033[K");
    if (interrupted)
        abandon_running(&q);
    free(q.slots);
    return interrupted != 0;
}

/* GPU indices for CUDA_VISIBLE_DEVICES; returns how many (0: none). */
int find_gpus(int *ids, int max)
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
    int s = spawn_capture(argv, &out, 1 << 16, &trunc);
    if (s >= 0 && WIFEXITED(s) && WEXITSTATUS(s) == 0 && out)
        for (char *line = out; line && *line && n < max; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
            if (strncmp(line, "GPU ", 4) == 0) {
                ids[n] = n;
                n++;
            }
    free(out);
    return n;
}
