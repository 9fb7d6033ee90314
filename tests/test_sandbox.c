/* test_sandbox.c - what a student's process gets: a cleared environment,
 * its scratch folder as HOME and working directory, no core files, bounded
 * file size; as root, another user (a worker's own under a batch) whose
 * process limit does not touch another worker's.  The root-only tests
 * are skipped (and reported so) when not run as root; CI runs as root. */
#include <criterion/criterion.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"
#include "sandbox.h"

static char home[] = "/tmp/test_sandbox.XXXXXX";
static char log_path[300];

static void setup(void)
{
    cr_assert_not_null(mkdtemp(home));
    chmod(home, 0777);
    snprintf(log_path, sizeof log_path, "%s/log", home);
    /* a kit with a Makefile that anyone may read: what pick_user checks */
    char mk[300];
    snprintf(mk, sizeof mk, "%s/Makefile", home);
    FILE *f = fopen(mk, "w");
    cr_assert_not_null(f);
    fputs("all:\n", f);
    fclose(f);
    chmod(mk, 0644);
    unsetenv("GRADE_SANDBOX_UID");
}
static void teardown(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", home);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(sandbox, .init = setup, .fini = teardown);

/* Run a shell command in the sandbox; its output in out. */
static run_status sh(const sandbox *sb, const char *cmd, char *out, size_t len)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    run_status st;
    run_sandboxed(argv, log_path, 20, sb, &st);
    read_tail(log_path, out, len);
    return st;
}

Test(sandbox, environment_home_and_limits)
{
    sandbox sb;
    char out[2000];
    sandbox_defaults(&sb, home);
    sb.max_file = 4096;
    setenv("GRADER_SECRET", "hunter2", 1);
    setenv("CUEMU_SCHEDULE", "reverse", 1);
    run_status st = sh(&sb, "echo home=$HOME tmp=$TMPDIR pwd=$(pwd) secret=${GRADER_SECRET:-none} "
                            "sched=$CUEMU_SCHEDULE core=$(ulimit -c) fsize=$(ulimit -f)",
                       out, sizeof out);
    unsetenv("GRADER_SECRET");
    unsetenv("CUEMU_SCHEDULE");
    cr_assert(st.exited && st.code == 0, "%s", out);
    char want[600];
    snprintf(want, sizeof want, "home=%s tmp=%s pwd=%s secret=none sched=reverse core=0 fsize=8",
             home, home, home); /* ulimit -f counts 512-byte blocks */
    cr_assert(strstr(out, want), "expected '%s' in '%s'", want, out);
}

Test(sandbox, file_size_limit_stops_a_runaway_writer)
{
    sandbox sb;
    char out[2000];
    sandbox_defaults(&sb, home);
    sb.max_file = 1 << 20;
    run_status st = sh(&sb, "head -c 5000000 /dev/zero > big; echo rc=$?", out, sizeof out);
    struct stat s;
    char big[400];
    snprintf(big, sizeof big, "%s/big", home);
    cr_assert_eq(stat(big, &s), 0);
    cr_assert_leq(s.st_size, 1 << 20, "wrote %lld bytes", (long long)s.st_size);
    cr_assert(st.exited, "%s", out);
    cr_assert_null(strstr(out, "rc=0"), "%s", out);
}

static void need_root(void)
{
    if (geteuid() != 0)
        cr_skip_test("needs root (the grader drops to another user only as root)");
}

Test(sandbox, root_runs_students_as_nobody)
{
    need_root();
    sandbox sb;
    char why[300], out[2000];
    sandbox_defaults(&sb, home);
    cr_assert_eq(sandbox_pick_user(home, &sb.uid, &sb.gid, why, sizeof why), 0, "%s", why);
    cr_assert_eq(sb.uid, (int)getpwnam("nobody")->pw_uid);
    run_status st = sh(&sb, "id -u; cat /etc/shadow >/dev/null 2>&1 && echo READ-SHADOW; true", out,
                       sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    char want[32];
    snprintf(want, sizeof want, "%d", sb.uid);
    cr_assert(strstr(out, want), "%s", out);
    cr_assert_null(strstr(out, "READ-SHADOW"), "%s", out);
}

Test(sandbox, a_batch_worker_gets_its_own_user)
{
    need_root();
    sandbox sb;
    char why[300], out[2000];
    sandbox_defaults(&sb, home);
    setenv("GRADE_SANDBOX_UID", "65123", 1);
    cr_assert_eq(sandbox_pick_user(home, &sb.uid, &sb.gid, why, sizeof why), 0, "%s", why);
    cr_assert_eq(sb.uid, 65123);
    cr_assert_eq(sb.gid, (int)getpwnam("nobody")->pw_gid);
    sandbox_hand_over(home, sb.uid, sb.gid);
    run_status st = sh(&sb, "id -u; touch mine && echo wrote", out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert(strstr(out, "65123") && strstr(out, "wrote"), "%s", out);
    /* not a uid: nobody, with a warning */
    setenv("GRADE_SANDBOX_UID", "12abc", 1);
    cr_assert_eq(sandbox_pick_user(home, &sb.uid, &sb.gid, why, sizeof why), 1);
    cr_assert(strstr(why, "GRADE_SANDBOX_UID"), "%s", why);
    cr_assert_eq(sb.uid, (int)getpwnam("nobody")->pw_uid);
    unsetenv("GRADE_SANDBOX_UID");
}

/* Worker A's student fills its process budget; worker B, another user,
 * still forks.  Under one shared user B's fork would fail. */
Test(sandbox, one_workers_fork_bomb_does_not_starve_another)
{
    need_root();
    sandbox a, b;
    char out[2000];
    sandbox_defaults(&a, home);
    sandbox_defaults(&b, home);
    a.max_procs = b.max_procs = 16;
    a.gid = b.gid = (int)getpwnam("nobody")->pw_gid;
    a.uid = 65201;
    b.uid = 65202;
    chmod(home, 0777);
    char bomb_log[320];
    snprintf(bomb_log, sizeof bomb_log, "%s/bomb.log", home);
    pid_t pid = fork();
    if (pid == 0) { /* A: its shell and 15 sleepers, all 16 it may have, for 3 s (a
                       shell that failed to fork would exit, and its group be killed) */
        char *argv[] = {"sh", "-c", "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do sleep 3 & "
                                    "done; wait", NULL};
        run_status st;
        run_sandboxed(argv, bomb_log, 10, &a, &st);
        _exit(0);
    }
    sleep(1);
    run_status st = sh(&b, "sleep 0.1 & sleep 0.1 & wait && echo forked", out, sizeof out);
    cr_assert(st.exited && st.code == 0 && strstr(out, "forked"), "%s", out);
    /* and A really was at its limit: a third process of A's user fails */
    run_status sa = sh(&a, "sleep 0.1 & wait && echo forked", out, sizeof out);
    cr_assert(!(sa.exited && sa.code == 0 && strstr(out, "forked")),
              "user A was not at its limit: %s", out);
    int ws;
    waitpid(pid, &ws, 0);
}
