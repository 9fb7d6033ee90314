/*
 * fsview.c - see fsview.h.  Runs in a forked child about to exec: three
 * processes after it, all in the child's process group (so the grader's
 * kill of the group at the time limit reaches them all):
 *
 *   waiter   the forked child itself, still in the grader's PID namespace;
 *            it waits and ends as the program ended
 *   init     PID 1 of the new PID namespace: builds the view, then reaps;
 *            when it ends, the kernel kills whatever the program left
 *   program  PID 2: returns from fsview_enter and execs the student's code
 *
 * (The program is not PID 1 itself because PID 1 ignores the signals it
 * has no handler for: abort(), a watchdog's SIGALRM or a kill from within
 * would do nothing.)
 */
#define _GNU_SOURCE
#include "fsview.h"
#include "tunables.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define OLD "/.oldroot" /* where the machine's root is while the view is built */

void fsview_init(fsview *v) { memset(v, 0, sizeof *v); }

/* The path with its folder resolved but its last part kept: /bin stays
 * /bin (a link to usr/bin, recreated as a link in the view) while a kit
 * path reached through a link is bound where it really is. */
int fsview_add(fsview *v, const char *path, fsview_kind kind)
{
    char dir[PATH_MAX], real[PATH_MAX], base[PATH_MAX];
    struct stat st;
    if (lstat(path, &st) != 0)
        return 1;
    if (v->n == FSVIEW_MAX || strlen(path) >= sizeof dir)
        return -1;
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : dir);
    if (slash && slash != dir)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, "%s", slash ? "/" : ".");
    if (!realpath(dir, real))
        return 1;
    int len;
    if (!base[0] || !strcmp(base, ".")) /* "/" or "dir/" */
        len = snprintf(v->path[v->n], FSVIEW_PATH, "%s", real);
    else
        len = snprintf(v->path[v->n], FSVIEW_PATH, "%s%s%s", real,
                       strcmp(real, "/") == 0 ? "" : "/", base);
    if (len < 0 || len >= FSVIEW_PATH)
        return -1;
    v->kind[v->n++] = kind;
    return 0;
}

int fsview_covers(const fsview *v, const char *path, fsview_kind kind)
{
    for (int i = 0; i < v->n; i++) {
        size_t k = strlen(v->path[i]);
        if (v->kind[i] == kind && strncmp(path, v->path[i], k) == 0 &&
            (path[k] == '\0' || path[k] == '/' || k == 1))
            return 1;
    }
    return 0;
}

/* mkdir -p inside the view being built. */
static int make_dirs(const char *path)
{
    char buf[FSVIEW_PATH];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The flags a read-only remount must keep: inside a user namespace the
 * kernel refuses to clear nosuid, nodev, noexec or the atime mode of a
 * mount it inherited. */
static unsigned long kept_flags(const char *path)
{
    struct statvfs s;
    unsigned long f = 0;
    if (statvfs(path, &s) != 0)
        return 0;
    f |= (s.f_flag & ST_NOSUID) ? MS_NOSUID : 0;
    f |= (s.f_flag & ST_NODEV) ? MS_NODEV : 0;
    f |= (s.f_flag & ST_NOEXEC) ? MS_NOEXEC : 0;
    f |= (s.f_flag & ST_NOATIME) ? MS_NOATIME : 0;
    f |= (s.f_flag & ST_NODIRATIME) ? MS_NODIRATIME : 0;
    f |= (s.f_flag & ST_RELATIME) ? MS_RELATIME : 0;
    return f;
}

static int fail(char *why, size_t len, const char *what, const char *path)
{
    snprintf(why, len, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

/* Make the bind at path read-only with every mount below it (/sys holds
 * the cgroup file system, whose files a process could otherwise write:
 * a remount reaches only the top mount).  mount_setattr with
 * AT_RECURSIVE (Linux 5.12); where it is missing, the top mount only. */
static int read_only_tree(const char *path, char *why, size_t len)
{
#ifdef SYS_mount_setattr
    struct { unsigned long long set, clr, prop, userns; } attr = {0x1 /* MOUNT_ATTR_RDONLY */, 0,
                                                                  0, 0};
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, 0x8000 /* AT_RECURSIVE */, &attr,
                sizeof attr) == 0)
        return 0;
    if (errno != ENOSYS)
        return fail(why, len, "read-only (recursive) of", path);
#endif
    if (mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | kept_flags(path), NULL))
        return fail(why, len, "read-only remount of", path);
    return 0;
}

/* Bind OLD+path at path (a link stays a link); read-only unless rw. */
static int bind_one(const char *path, int rw, char *why, size_t len)
{
    char src[FSVIEW_PATH + 16], target[PATH_MAX];
    struct stat st;
    snprintf(src, sizeof src, OLD "%s", path);
    if (lstat(src, &st) != 0)
        return 0; /* gone since it was listed: nothing to show */
    if (S_ISLNK(st.st_mode)) {
        ssize_t n = readlink(src, target, sizeof target - 1);
        if (n < 0)
            return fail(why, len, "readlink", src);
        target[n] = '\0';
        char parent[FSVIEW_PATH];
        snprintf(parent, sizeof parent, "%s", path);
        *strrchr(parent, '/') = '\0';
        if ((parent[0] && make_dirs(parent)) || (symlink(target, path) && errno != EEXIST))
            return fail(why, len, "symlink", path);
        return 0;
    }
    if (S_ISDIR(st.st_mode)) {
        if (make_dirs(path))
            return fail(why, len, "mkdir", path);
    } else {
        char parent[FSVIEW_PATH];
        snprintf(parent, sizeof parent, "%s", path);
        *strrchr(parent, '/') = '\0';
        int fd = (parent[0] && make_dirs(parent)) ? -1 : open(path, O_WRONLY | O_CREAT, 0644);
        if (fd < 0 && errno != EEXIST && errno != EISDIR)
            return fail(why, len, "create", path);
        if (fd >= 0)
            close(fd);
    }
    if (mount(src, path, NULL, MS_BIND | MS_REC, NULL) != 0)
        return fail(why, len, "bind", path);
    return rw ? 0 : read_only_tree(path, why, len);
}

/* A fresh tmpfs at path (made if missing). */
static int tmpfs_at(const char *path, const char *opts, char *why, size_t len)
{
    if (make_dirs(path) || mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, opts))
        return fail(why, len, "tmpfs at", path);
    return 0;
}

/* Is path /dev/nvidiaN of a GPU the grader was not given? */
static int other_gpu(const gpu_view *gpu, const char *path)
{
    const char *num = path + strlen("/dev/nvidia");
    if (!gpu->active || !*num || strspn(num, "0123456789") != strlen(num))
        return 0; /* nvidiactl, nvidia-uvm, nvidia-caps/: every GPU's */
    for (int i = 0; i < gpu->nhidden; i++)
        if (gpu->hidden_minor[i] == atoi(num))
            return 1;
    return 0;
}

/* The driver's /proc folder of each hidden GPU, emptied: what is left
 * there names only the GPUs shown.  Information only (the missing device
 * node is the defence), so a mount refused here is no failure. */
static void hide_gpu_proc(const gpu_view *gpu)
{
    char path[128];
    for (int i = 0; gpu->active && i < gpu->nhidden; i++) {
        snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s", gpu->hidden_bus[i]);
        if (access(path, F_OK) == 0)
            (void)mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "size=4k");
    }
}

/* /dev: a tmpfs with the ordinary devices and every NVIDIA one (the GPU,
 * nvidiactl, nvidia-uvm, MIG's nvidia-caps/), bound from the machine's;
 * /dev/shm private.  Nothing else: no disks, no other terminals. */
static int make_dev(const gpu_view *gpu, char *why, size_t len)
{
    static const char *const plain[] = {"null", "zero", "full", "random", "urandom", "tty"};
    static const char *const links[][2] = {{"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"},
                                           {"stdout", "/proc/self/fd/1"},
                                           {"stderr", "/proc/self/fd/2"}};
    char path[FSVIEW_PATH];
    if (tmpfs_at("/dev", "mode=0755,size=64k", why, len))
        return -1;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        snprintf(path, sizeof path, "/dev/%s", plain[i]);
        if (bind_one(path, 1, why, len))
            return -1;
    }
    glob_t g;
    if (glob(OLD "/dev/nvidia*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (!other_gpu(gpu, g.gl_pathv[i] + strlen(OLD)) &&
                bind_one(g.gl_pathv[i] + strlen(OLD), 1, why, len)) {
                globfree(&g);
                return -1;
            }
        globfree(&g);
    }
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        snprintf(path, sizeof path, "/dev/%s", links[i][0]);
        if (symlink(links[i][1], path) != 0)
            return fail(why, len, "symlink", path);
    }
    return tmpfs_at("/dev/shm", "mode=1777,size=" SANDBOX_TMPFS_SIZE, why, len);
}

/* Build the view in this (new) mount namespace and make it the root. */
static int build_root(const fsview *v, char *why, size_t len)
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return fail(why, len, "make private:", "/");
    /* The new root is a tmpfs mounted over /tmp; pivot_root detaches it
     * from there, so OLD/tmp is the machine's /tmp again. */
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0)
        return fail(why, len, "tmpfs for the new root at", "/tmp");
    if (mkdir("/tmp" OLD, 0700) != 0 || syscall(SYS_pivot_root, "/tmp", "/tmp" OLD) != 0 ||
        chdir("/") != 0)
        return fail(why, len, "pivot_root to", "/tmp");
    if (make_dev(&v->gpu, why, len) ||
        tmpfs_at("/tmp", "mode=1777,size=" SANDBOX_TMPFS_SIZE, why, len))
        return -1;
    if (v->in_cell) { /* the cell's PID namespace: its /proc, as the profiler sees it */
        if (bind_one("/proc", 1, why, len))
            return -1;
    } else if (make_dirs("/proc") ||
               mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
        return fail(why, len, "mount", "/proc");
    }
    hide_gpu_proc(&v->gpu);
    if (bind_one("/sys", 0, why, len))
        return -1;
    for (int i = 0; i < v->n; i++) {
        int rc = v->kind[i] == FSV_MASK ? tmpfs_at(v->path[i], "mode=0755,size=64k", why, len)
                                        : bind_one(v->path[i], v->kind[i] == FSV_RW, why, len);
        if (rc)
            return -1;
    }
    if (umount2(OLD, MNT_DETACH) != 0 || rmdir(OLD) != 0)
        return fail(why, len, "detach", OLD);
    for (int i = 0; i < v->n; i++) /* masks were writable for the binds inside them */
        if (v->kind[i] == FSV_MASK &&
            mount(NULL, v->path[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                  NULL))
            return fail(why, len, "read-only remount of", v->path[i]);
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
        return fail(why, len, "read-only remount of", "/");
    return 0;
}

/* Map the caller's own uid and gid into the new user namespace (not 0:
 * then exec leaves the program no capabilities there). */
static int map_ids(uid_t uid, gid_t gid, char *why, size_t len)
{
    char line[64];
    const char *files[] = {"/proc/self/setgroups", "/proc/self/uid_map", "/proc/self/gid_map"};
    for (int i = 0; i < 3; i++) {
        if (i == 0)
            snprintf(line, sizeof line, "deny");
        else
            snprintf(line, sizeof line, "%u %u 1", i == 1 ? (unsigned)uid : (unsigned)gid,
                     i == 1 ? (unsigned)uid : (unsigned)gid);
        int fd = open(files[i], O_WRONLY);
        ssize_t n = fd >= 0 ? write(fd, line, strlen(line)) : -1;
        if (fd >= 0)
            close(fd);
        if (n != (ssize_t)strlen(line) && !(i == 0 && fd < 0)) /* old kernels: no setgroups */
            return fail(why, len, "write", files[i]);
    }
    return 0;
}

/* End the way `status` (a wait status) says: the same exit code, or the
 * same signal (raised on ourselves, which the waiter may: it is not a
 * PID 1). */
static void end_as(int status)
{
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        sigset_t all;
        signal(sig, SIG_DFL);
        sigemptyset(&all);
        sigaddset(&all, sig);
        sigprocmask(SIG_UNBLOCK, &all, NULL);
        raise(sig);
        _exit(128 + sig);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 125);
}

/* Wait for child pid; its wait status. */
static int wait_for(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 125 << 8;
    return status;
}

/* PID 1: reap every process of the namespace until the program ends, then
 * pass its wait status to the waiter through the pipe. */
static void init_reap(pid_t program, int to_waiter)
{
    int status = 0;
    for (;;) {
        int s;
        pid_t r = wait(&s);
        if (r == program) {
            status = s;
            break;
        }
        if (r < 0 && errno != EINTR) {
            status = 125 << 8;
            break;
        }
    }
    if (write(to_waiter, &status, sizeof status) != (ssize_t)sizeof status)
        _exit(125);
    _exit(0); /* and the kernel ends what the program left running */
}

/* The witness cell's mounts, in PID 1 of its new namespaces: a /proc of
 * them (ncu follows its target through it), then the student's view
 * around both ncu and the program (the view lists ncu's folder), so that
 * neither reaches more of the machine than the program alone would (a
 * process of the same user could reach ncu's root through /proc).  With
 * no view (policy unsandboxed) the machine's filesystem stays, but /tmp
 * is still a private one: ncu's lock and tracking folders there belong
 * to the cell's user, not to an earlier root run. */
static int cell_mounts(const fsview *v, char *why, size_t len)
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        return fail(why, len, "mount", "/proc of the witness cell");
    if (v)
        return build_root(v, why, len);
    return tmpfs_at("/tmp", "mode=1777,size=" SANDBOX_TMPFS_SIZE, why, len);
}

/* New mount, PID, network and IPC namespaces (and a user namespace when
 * not root); the caller's process stays outside as the waiter, a PID 1
 * runs setup() and reaps, and its child returns 0 to exec the program. */
static int split_namespaces(const fsview *v, int (*setup)(const fsview *, char *, size_t),
                            char *why, size_t len)
{
    uid_t uid = geteuid();
    gid_t gid = getegid();
    int flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC;
    if (uid != 0)
        flags |= CLONE_NEWUSER;
    if (unshare(flags) != 0) {
        snprintf(why, len, "unshare(%s): %s", uid ? "user, mount, PID, network, IPC namespaces"
                                                  : "mount, PID, network, IPC namespaces",
                 strerror(errno));
        return -1;
    }
    /* (/proc/self/uid_map belongs to root in a process that changed its
     * ids earlier, unless it is marked dumpable again) */
    if (uid != 0 && (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), map_ids(uid, gid, why, len)))
        return -1;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return fail(why, len, "pipe", "");
    pid_t init = fork();
    if (init < 0)
        return fail(why, len, "fork", "PID 1");
    if (init > 0) { /* the waiter */
        close(pipefd[1]);
        int status = wait_for(init), program;
        if (read(pipefd[0], &program, sizeof program) == (ssize_t)sizeof program)
            status = program; /* else init itself died (view failed, killed): its status */
        end_as(status);
    }
    close(pipefd[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (setup(v, why, len))
        return -1; /* the caller reports it and exits: so does PID 1, and the waiter */
    pid_t program = fork();
    if (program < 0)
        return fail(why, len, "fork", "the program");
    if (program > 0)
        init_reap(program, pipefd[1]);
    close(pipefd[1]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return 0;
}

int fsview_cell_enter(const fsview *v, char *why, size_t len)
{
    return split_namespaces(v, cell_mounts, why, len);
}

int fsview_enter(const fsview *v, char *why, size_t len)
{
    return split_namespaces(v, build_root, why, len);
}
