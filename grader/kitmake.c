/*
 * kitmake.c - what the grader asks of the kit's Makefile: which backend
 * and architecture it builds for, the objects every lab links (built
 * before any student's build), a submission's binary, the cached
 * reference.  Each is one `make` run through run.h, with a limit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kitmake.h"
#include "run.h"
#include "spawn.h"
#include "tunables.h"

static const char *top;  /* the kit's folder */
static const char *work; /* the grading's scratch folder (logs) */
static char arch[64];    /* the GPU architecture the kit's objects were built for */
/* What nvidia-smi told the first make ("HAVE_GPU=1", "GPU_CC=90"), said to
 * every later one so that none asks again (the Makefile's "finding the
 * GPU"); empty until kit_backend has run. */
static char have_gpu[32], gpu_cc[32];

/* Append what nvidia-smi said, once known, to a make command at argv[a];
 * the new count (argv stays NULL-terminated). */
static int add_gpu_vars(char **argv, int a)
{
    if (have_gpu[0]) {
        argv[a++] = have_gpu;
        argv[a++] = gpu_cc;
    }
    argv[a] = NULL;
    return a;
}

void kit_make_init(const char *kit_top, const char *scratch)
{
    top = kit_top;
    work = scratch;
}

/* make -C top bin SRC_DIR=dir BIN=bin, with a limit (and, for a student's
 * code, in the sandbox); 0 when it built.  The backend and the GPU
 * architecture are the ones the kit's objects were built for, said
 * explicitly: inside the sandbox make's own detection (nvidia-smi) must
 * not be what decides them. */
int kit_build(const char *src_dir, const char *bin, const char *log, int emu, double limit,
                 const sandbox *sb)
{
    char a_src[700], a_bin[700], a_arch[80];
    snprintf(a_src, sizeof a_src, "SRC_DIR=%s", src_dir);
    snprintf(a_bin, sizeof a_bin, "BIN=%s", bin);
    snprintf(a_arch, sizeof a_arch, "ARCH=%s", arch);
    char *argv[16] = {"make", "-s", "--no-print-directory", "-C", (char *)top, "bin", a_src,
                      a_bin, emu ? "EMU=1" : "EMU=0"};
    int a = add_gpu_vars(argv, 9);
    argv[a] = !emu && arch[0] ? a_arch : NULL;
    argv[a + 1] = NULL;
    run_status st;
    run_sandboxed(argv, log, limit, sb, &st);
    return st.exited && st.code == 0 ? 0 : -1;
}

/* The builds of a submission are independent makes into different
 * folders (build/gpu, build/emu): a fork runs one while the grader runs
 * the other, and the student waits for the longer instead of the sum. */
pid_t kit_build_start(const char *src_dir, const char *bin, const char *log, int emu,
                      double limit, const sandbox *sb)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(kit_build(src_dir, bin, log, emu, limit, sb) == 0 ? 0 : 1);
    return pid;
}

int kit_build_wait(pid_t pid)
{
    if (pid < 0)
        return -1;
    int status = spawn_wait(pid);
    return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Take the kit's build lock NAME (build/.NAME.lock): gradings that run at
 * once (a batch, parallel ./grade, the tasks of a Slurm array on a shared
 * filesystem) build the kit's shared parts in turn,
 * so none links a half-written object.  The descriptor (closing it lets go),
 * or -1 when no lock could be had (the build then goes on unguarded). */
static int build_lock(const char *name)
{
    char lock[1200];
    snprintf(lock, sizeof lock, "%s/build", top);
    mkdir(lock, 0755);
    snprintf(lock, sizeof lock, "%s/build/.%s.lock", top, name);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    while (fd >= 0 && flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
    return fd;
}

/* Build what every lab binary links (harness objects, the graded harness,
 * the emulator's runtime) as the grader's own user, before students'
 * builds run in the sandbox, which may not write into the kit. */
int kit_prebuild(int emu, char *why, size_t len)
{
    char log[600];
    snprintf(log, sizeof log, "%s/prebuild.log", work);
    char *argv[16] = {"make", "-s", "--no-print-directory", "-C", (char *)top, "prebuild",
                      "EMU=1"};
    add_gpu_vars(argv, emu ? 7 : 6);
    run_status st;
    int fd = build_lock("prebuild");
    run_command(argv, log, LIMIT_PREBUILD_S, &st);
    if (fd >= 0)
        close(fd);
    if (st.exited && st.code == 0)
        return 0;
    read_tail(log, why, len);
    return -1;
}

/* Ask the Makefile, in one make, which backend it picks (gpu or emu),
 * whether that backend can build at all, the GPU architecture, and what
 * nvidia-smi said (kept for every later make: print-config).  The
 * backend, or NULL (with the reason in why) when it cannot build. */
const char *kit_backend(int emu, char *why, size_t len)
{
    static char answer[64];
    char log[600], line[200], b[16], a[64], h[16], c[16];
    run_status st;
    snprintf(log, sizeof log, "%s/backend.txt", work);
    char *argv[] = {"make", "-s", "--no-print-directory", "-C", (char *)top, "print-config",
                    emu ? "EMU=1" : NULL, NULL};
    run_command(argv, log, LIMIT_MAKE_QUERY_S, &st);
    read_tail(log, line, sizeof line);
    char *last = strrchr(line, '\n');
    while (last && last[1] == '\0' && last > line) { /* the last non-empty line */
        *last = '\0';
        last = strrchr(line, '\n');
    }
    if (!st.exited || st.code != 0 ||
        sscanf(last ? last + 1 : line, "%15s %63s %15s %15s", b, a, h, c) != 4) {
        read_tail(log, why, len);
        return NULL;
    }
    snprintf(answer, sizeof answer, "%s", strcmp(b, "gpu") == 0 ? "gpu" : "emu");
    snprintf(have_gpu, sizeof have_gpu, "HAVE_GPU=%s", strcmp(h, "-") ? h : "");
    snprintf(gpu_cc, sizeof gpu_cc, "GPU_CC=%s", strcmp(c, "-") ? c : "");
    int arch_ok = strspn(a, "sm_0123456789abcdefgh") == strlen(a);
    snprintf(arch, sizeof arch, "%s", strcmp(answer, "gpu") == 0 && arch_ok ? a : "");
    return answer;
}

/* The reference binary, built by make into the kit's build folder and so
 * rebuilt only when its sources change; gradings that run at once (a batch)
 * take turns through a lock file, so no one runs a half-written binary.
 * 0 with its path in ref, or -1 with make's complaint in why. */
int kit_reference(const grade_run *g, char *ref, size_t len, char *why, size_t wlen)
{
    char target[300], log[700];
    snprintf(target, sizeof target, "build/%s/ref/%s", g->backend, g->s->lab);
    snprintf(ref, len, "%s/%s", top, target);
    snprintf(log, sizeof log, "%s/build-ref.log", work);
    int fd = build_lock("reference");
    char *argv[16] = {"make", "-s", "--no-print-directory", "-C", (char *)top, target,
                      strcmp(g->backend, "emu") == 0 ? "EMU=1" : "EMU=0"};
    add_gpu_vars(argv, 7);
    run_status st;
    run_command(argv, log, LIMIT_BUILD_S, &st);
    if (fd >= 0)
        close(fd); /* and with it the lock */
    if (st.exited && st.code == 0)
        return 0;
    read_tail(log, why, wlen);
    return -1;
}
