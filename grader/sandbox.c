/*
 * sandbox.c - see sandbox.h.  Everything here runs in a forked child that
 * is about to exec, so it may change its own environment and identity
 * freely.  With a filesystem view (fsview.h) a failure to build it is an
 * error; without one, a failure to isolate the network is tolerated (not
 * every system permits it).  A failure to drop privileges never is.
 */
#define _GNU_SOURCE
#include "sandbox.h"
#include "tunables.h"
#include "fsview.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Variables a build or a run legitimately needs; everything else is dropped. */
static const char *const keep[] = {
    "PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "LD_LIBRARY_PATH",
    "CUEMU_SCHEDULE", "CUEMU_THREADS", "CUEMU_TIMEOUT", "CUEMU_MEMORY", "CUEMU_FRESH",
    "CUEMU_INITCHECK", "CUEMU_CXX", "CUEMU_CC",
    "NVCC",
};

void sandbox_defaults(sandbox *sb, const char *home)
{
    memset(sb, 0, sizeof *sb);
    sb->home = home;
    sb->max_file = SANDBOX_MAX_FILE_BYTES;
    sb->max_procs = SANDBOX_MAX_PROCS;
    sb->uid = sb->gid = -1;
    sb->isolate_net = 1;
}

/* Can uid:gid read the kit?  Ask a child that has become that user. */
int sandbox_user_can_read(int uid, int gid, const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (setgroups(0, NULL) || setgid(gid) || setuid(uid))
            _exit(2);
        _exit(access(path, R_OK) == 0 ? 0 : 1);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status) == 0 ? 0 : -1;
}

int sandbox_pick_user(const char *top, int *uid, int *gid, char *why, size_t len)
{
    struct passwd *pw = getpwnam("nobody");
    char makefile[4096];
    if (geteuid() != 0)
        return snprintf(why, len, "not running as root"), -1;
    if (!pw)
        return snprintf(why, len, "no 'nobody' account"), -1;
    snprintf(makefile, sizeof makefile, "%s/Makefile", top);
    /* A worker of a batch gets a user of its own (GRADE_SANDBOX_UID, set by
     * batch.c): RLIMIT_NPROC counts per user, so workers sharing nobody
     * would share one process budget, and one student's fork bomb would
     * fail another's build. */
    const char *own = getenv("GRADE_SANDBOX_UID");
    why[0] = '\0';
    if (own && *own) {
        char *end;
        long v = strtol(own, &end, 10);
        if (*end || v < 1 || v > 0x7ffffffe)
            snprintf(why, len, "ignored GRADE_SANDBOX_UID='%s' (not a uid)", own);
        else if (sandbox_user_can_read((int)v, (int)pw->pw_gid, makefile) != 0)
            snprintf(why, len, "uid %ld cannot be used or cannot read %s; nobody instead", v,
                     makefile);
        else {
            *uid = (int)v;
            *gid = (int)pw->pw_gid;
            return 0;
        }
    }
    if (sandbox_user_can_read((int)pw->pw_uid, (int)pw->pw_gid, makefile) != 0) {
        size_t used = strlen(why);
        snprintf(why + used, len - used, "%suser nobody cannot read %s", used ? "; " : "",
                 makefile);
        return -1;
    }
    *uid = (int)pw->pw_uid;
    *gid = (int)pw->pw_gid;
    return why[0] ? 1 : 0;
}

static int set_limit(int resource, unsigned long long value)
{
    struct rlimit r = {(rlim_t)value, (rlim_t)value};
    return setrlimit(resource, &r);
}

/* Only stdin, stdout and stderr go through: a descriptor the grader or
 * the batch driver had open (a gradebook, a lock, another student's log)
 * would be a way around the view. */
static void close_inherited(void)
{
    if (syscall(SYS_close_range, 3, ~0U, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
        close((int)fd);
}

/* No way back to more privilege: no setuid program may raise it (so no
 * `mount` or `su` inside), and a process still root (the grader found no
 * user to switch to) loses every capability, so it cannot undo its
 * view with umount or mknod a disk. */
static int drop_privileges(char *why, size_t len)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return snprintf(why, len, "no_new_privs: %s", strerror(errno)), -1;
    if (geteuid() != 0)
        return 0;
    for (int cap = 0; cap <= 63; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            return snprintf(why, len, "drop capability %d: %s", cap, strerror(errno)), -1;
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &head, none) != 0)
        return snprintf(why, len, "capset: %s", strerror(errno)), -1;
    return 0;
}

/* Inside a witness cell, the variables a profiler gave the program (its
 * injection libraries, its process tracking, its sockets): without them
 * the profiler waits for a process that never reports. */
static const char *const profiler_prefixes[] = {"NV_", "NVIDIA", "CUDA_INJECTION", "LD_PRELOAD",
                                                "NVTX_INJECTION"};

/* Environment: the allowlist (and in a cell the profiler's variables);
 * the rest is cleared. */
static void clean_environment(int in_cell)
{
    static char *saved[256];
    size_t n = 0;
    extern char **environ;
    for (char **e = environ; *e && n < sizeof saved / sizeof saved[0]; e++) {
        int keep_it = 0;
        for (size_t i = 0; i < sizeof keep / sizeof keep[0] && !keep_it; i++)
            keep_it = !strncmp(*e, keep[i], strlen(keep[i])) && (*e)[strlen(keep[i])] == '=';
        for (size_t i = 0; in_cell && i < sizeof profiler_prefixes / sizeof *profiler_prefixes; i++)
            keep_it |= !strncmp(*e, profiler_prefixes[i], strlen(profiler_prefixes[i]));
        if (keep_it)
            saved[n++] = strdup(*e);
    }
    clearenv();
    for (size_t i = 0; i < n; i++)
        putenv(saved[i]);
}

/* Become the sandbox's user (when one is set): nothing done before can be
 * undone after. */
static int become_user(const sandbox *sb, char *why, size_t len)
{
    if (sb->uid < 0)
        return 0;
    if (setgroups(0, NULL) || setgid((gid_t)sb->gid) || setuid((uid_t)sb->uid))
        return snprintf(why, len, "cannot switch to uid %d: %s", sb->uid, strerror(errno)), -1;
    if (setuid(0) == 0)
        return snprintf(why, len, "privileges could be regained"), -1;
    setenv("USER", "nobody", 1);
    return 0;
}

/* With the other GPUs' nodes left out of the view (gpunodes.h), the
 * indices the remaining ones have, in the order nvidia-smi gave them. */
static void name_shown_gpus(const sandbox *sb)
{
    if (!sb->view || !sb->view->gpu.active)
        return;
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    setenv("CUDA_VISIBLE_DEVICES", sb->view->gpu.visible, 1);
}

/* The profiler's cell (witness.h): the profiler keeps the grader's
 * environment, but runs in the student's view and as the student's user
 * (a program it starts has no more rights than in an ordinary run). */
static int enter_cell(const sandbox *sb, char *why, size_t len)
{
    close_inherited();
    if (set_limit(RLIMIT_CORE, 0) ||
        (sb->max_procs && sb->uid >= 0 && set_limit(RLIMIT_NPROC, sb->max_procs)))
        return snprintf(why, len, "setrlimit: %s", strerror(errno)), -1;
    if (fsview_cell_enter(sb->view, why, len) != 0)
        return -1;
    name_shown_gpus(sb);
    setenv("TMPDIR", "/tmp", 1);
    if (sb->home) {
        setenv("HOME", sb->home, 1);
        if (chdir(sb->home) != 0)
            return snprintf(why, len, "chdir %s: %s", sb->home, strerror(errno)), -1;
    }
    return become_user(sb, why, len) || drop_privileges(why, len) ? -1 : 0;
}

int sandbox_enter(const sandbox *sb, char *why, size_t len)
{
    const char *sim = getenv("GRADE_SANDBOX_SIMULATE_FAILURE");
    if ((sb->view || sb->cell) && sim && *sim && strcmp(sim, "0") != 0)
        return snprintf(why, len, "unshare: Operation not permitted (simulated: "
                                  "GRADE_SANDBOX_SIMULATE_FAILURE is set)"), -1;
    if (sb->cell)
        return enter_cell(sb, why, len);
    /* 1. Environment: an allowlist, then HOME and TMPDIR in the scratch folder. */
    clean_environment(sb->profiled);
    if (!getenv("PATH"))
        setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
    setenv("LANG", "C", 1);
    if (sb->home) {
        setenv("HOME", sb->home, 1);
        setenv("TMPDIR", sb->home, 1);
    }

    /* 2. Limits: no core dumps, bounded files (stdout/stderr are files too)
     * and processes; a fork bomb stops at max_procs and is killed with its
     * process group at the time limit. */
    /* (RLIMIT_NPROC counts every process and thread of the user, so it is
     * only meaningful for the sandbox's own user: on a student's laptop
     * the desktop's threads would count against it.) */
    if (set_limit(RLIMIT_CORE, 0) ||
        (sb->max_file && set_limit(RLIMIT_FSIZE, sb->max_file)) ||
        (sb->max_procs && sb->uid >= 0 && set_limit(RLIMIT_NPROC, sb->max_procs)))
        return snprintf(why, len, "setrlimit: %s", strerror(errno)), -1;
    /* 3. The filesystem view and no network; without a view, no network
     * where permitted (root, or a kernel allowing it). */
    close_inherited();
    if (sb->view) {
        if (fsview_enter(sb->view, why, len) != 0)
            return -1;
        name_shown_gpus(sb);
    } else if (sb->isolate_net) {
        (void)unshare(CLONE_NEWNET);
    }
    if (sb->home && chdir(sb->home) != 0) /* files it writes land in the scratch folder */
        return snprintf(why, len, "chdir %s: %s", sb->home, strerror(errno)), -1;

    /* 4. Identity last: after it, nothing above could be undone. */
    if (become_user(sb, why, len))
        return -1;
    return sb->view ? drop_privileges(why, len) : 0;
}

static int hand_uid, hand_gid;
static int chown_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return lchown(path, (uid_t)hand_uid, (gid_t)hand_gid) ? -1 : 0;
}

int sandbox_hand_over(const char *dir, int uid, int gid)
{
    hand_uid = uid;
    hand_gid = gid;
    return nftw(dir, chown_one, TREE_WALK_FDS, FTW_PHYS);
}
