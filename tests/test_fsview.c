/* test_fsview.c - what a student's process sees through the grader's
 * filesystem view (fsview.h, isolation.h): the kit's Makefile and common's
 * headers (never its sources),
 * its own scratch folder, never solutions/, the suites, the reference
 * binaries or another scratch folder; its own PID namespace and no network;
 * the program's exit status and signal come back as if it ran directly;
 * what it leaves running dies with it.  Also the probe, the policy, and a
 * view that cannot be built (simulated), which must never run the program.
 * Needs namespaces: each test is skipped, and says so, where the machine
 * forbids them (the grader's policy then applies: tests/sandbox.sh). */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "isolation.h"
#include "run.h"
#include "sandbox.h"

static char home[] = "/tmp/test_fsview.XXXXXX";
static char other[] = "/tmp/test_fsview_other.XXXXXX";
static char log_path[300], top[4096];
static fsview view;

static void setup(void)
{
    cr_assert_not_null(mkdtemp(home));
    cr_assert_not_null(mkdtemp(other));
    chmod(home, 0777);
    snprintf(log_path, sizeof log_path, "%s/log", home);
    cr_assert_not_null(realpath(KIT_TOP, top));
    char why[300];
    cr_assert_eq(isolation_kit_view(&view, top, home, why, sizeof why), 0, "%s", why);
    unsetenv("GRADE_SANDBOX_SIMULATE_FAILURE");
}
static void teardown(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", home, other);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(fsview, .init = setup, .fini = teardown);

/* Run a shell command in a sandbox with the kit's view; output in out. */
static run_status sh_in(const sandbox *sb, const char *cmd, char *out, size_t len)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    run_status st;
    run_sandboxed(argv, log_path, 20, sb, &st);
    read_tail(log_path, out, len);
    return st;
}

static run_status sh(const char *cmd, char *out, size_t len)
{
    sandbox sb;
    sandbox_defaults(&sb, home);
    sb.view = &view;
    return sh_in(&sb, cmd, out, len);
}

/* The tests need a view to start at all; where namespaces are forbidden
 * that is the policy's business, tested elsewhere. */
static void need_namespaces(void)
{
    char out[2000];
    run_status st = sh("true", out, sizeof out);
    if (!(st.exited && st.code == 0))
        cr_skip_test("namespaces unavailable here: %s", out);
}

Test(fsview, a_child_cannot_stat_the_kits_private_parts)
{
    need_namespaces();
    char cmd[3000], out[4000];
    snprintf(cmd, sizeof cmd,
             "for p in %s/solutions %s/solutions/lab3-scan-kogge-stone/scan.cu %s/grader/suites "
             "%s/grader %s/tests %s/build/emu/ref %s/build/gpu/ref %s/labs %s; do "
             "test -e $p && echo SEES $p; done; "
             "test -r %s/Makefile && echo MAKEFILE-OK; test -r %s/common/lab.h && echo LAB-H-OK; "
             "test -d %s/build/host && echo HOST-OBJS-OK; echo done",
             top, top, top, top, top, top, top, top, other, top, top, top);
    run_status st = sh(cmd, out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert_null(strstr(out, "SEES"), "%s", out);
    cr_assert(strstr(out, "MAKEFILE-OK") && strstr(out, "LAB-H-OK") && strstr(out, "HOST-OBJS-OK"),
              "%s", out);
    /* and the grader itself still sees them: the test is not vacuous */
    char sol[4200];
    snprintf(sol, sizeof sol, "%s/solutions", top);
    cr_assert_eq(access(sol, F_OK), 0, "the kit has no solutions/ to hide");
}

/* The harness's own sources and tools are absent inside (isolation.c):
 * `#include "reference.c"` in any spelling finds nothing, while every
 * header, the emulator, the script `make bin` runs and the symbol list of
 * its GPU link are there. */
Test(fsview, the_kits_sources_are_not_there_but_its_headers_are)
{
    need_namespaces();
    char cmd[3000], out[4000];
    snprintf(cmd, sizeof cmd,
             "cd %s/common || exit 3; "
             "for p in *.c *.cu kinds/*.c tools/graded_harness.sh tools/bench.py graded/*.cu; do "
             "test -e \"$p\" && echo SEES $p; done; "
             "for h in lab.h kit.h reference.h ops.cuh kinds/kinds.h kinds/compact.h emu/emu-nvcc "
             "emu/include/cuda_runtime.h "
             "tools/no_algorithms.sh graded/copy_count.syms; do test -r $h || echo MISSING $h; done; "
             "ls | grep -v '[.]h$' | grep -v '[.]cuh$' | grep -v '^emu$' | grep -v '^tools$' "
             "| grep -v '^graded$' | grep -v '^kinds$' "
             "| sed 's/^/SEES /'; echo done",
             top);
    run_status st = sh(cmd, out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert_null(strstr(out, "SEES"), "%s", out);
    cr_assert_null(strstr(out, "MISSING"), "%s", out);
    char src[4200];
    snprintf(src, sizeof src, "%s/common/reference.c", top);
    cr_assert_eq(access(src, F_OK), 0, "the kit has no reference.c to hide");
}

/* CUB and Thrust are absent inside (cccl.h): every folder of theirs that
 * the view masks is empty there, while libcu++ beside it stays. */
Test(fsview, cub_and_thrust_are_not_there_but_libcuxx_is)
{
    need_namespaces();
    char cmd[4096] = "", out[2000];
    int masks = 0;
    for (int i = 0; i < view.n; i++) {
        const char *name = strrchr(view.path[i], '/');
        if (view.kind[i] != FSV_MASK || (strcmp(name, "/cub") && strcmp(name, "/thrust")))
            continue;
        masks++;
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd),
                 "test -z \"$(ls -A %s)\" || echo 'VISIBLE %s'; "
                 "test -d %.*s/cuda && echo LIBCUXX-OK; ",
                 view.path[i], view.path[i], (int)(name - view.path[i]), view.path[i]);
    }
    if (!masks)
        cr_skip_test("no CUDA toolkit with CUB or Thrust here");
    run_status st = sh(cmd, out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert_null(strstr(out, "VISIBLE"), "%s", out);
    cr_assert_not_null(strstr(out, "LIBCUXX-OK"), "%s", out);
}

Test(fsview, the_scratch_folder_is_writable_and_nothing_else)
{
    need_namespaces();
    char cmd[2000], out[4000];
    snprintf(cmd, sizeof cmd,
             "touch %s/common/x 2>/dev/null && echo WROTE-KIT; touch /usr/x 2>/dev/null && "
             "echo WROTE-USR; touch /x 2>/dev/null && echo WROTE-ROOT; "
             "echo mine > $HOME/mine && echo WROTE-HOME; echo t > /tmp/t && echo WROTE-TMP; "
             "echo hi > /dev/null && echo DEVNULL-OK",
             top);
    run_status st = sh(cmd, out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert_null(strstr(out, "WROTE-KIT"), "%s", out);
    cr_assert_null(strstr(out, "WROTE-USR"), "%s", out);
    cr_assert_null(strstr(out, "WROTE-ROOT"), "%s", out);
    cr_assert(strstr(out, "WROTE-HOME") && strstr(out, "WROTE-TMP") && strstr(out, "DEVNULL-OK"),
              "%s", out);
    char mine[400];
    snprintf(mine, sizeof mine, "%s/mine", home);
    cr_assert_eq(access(mine, F_OK), 0, "a file written inside is not in the scratch folder");
}

Test(fsview, its_own_processes_and_no_network)
{
    need_namespaces();
    char out[4000];
    run_status st = sh("echo pid=$$; echo procs=$(ls /proc | grep -c '^[0-9]'); "
                       "echo ifaces=$(tail -n +3 /proc/net/dev | grep -vc '^ *lo:')",
                       out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert(strstr(out, "pid=2\n"), "the program is not PID 2 of its namespace: %s", out);
    int procs = -1;
    const char *p = strstr(out, "procs=");
    cr_assert(p && sscanf(p, "procs=%d", &procs) == 1 && procs < 10, "sees %d processes: %s",
              procs, out);
    cr_assert(strstr(out, "ifaces=0"), "a network interface is visible: %s", out);
}

Test(fsview, no_descriptor_of_the_grader_goes_through)
{
    need_namespaces();
    char out[2000], path[400];
    snprintf(path, sizeof path, "%s/gradebook.csv", other);
    int fd = open(path, O_WRONLY | O_CREAT, 0644); /* inheritable, as a careless caller's */
    cr_assert_geq(fd, 3);
    run_status st = sh("ls /proc/self/fd | tr '\\n' ' '", out, sizeof out);
    close(fd);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert_str_eq(out, "0 1 2 3 ", "open descriptors inside: %s (3 is ls's own)", out);
}

Test(fsview, exit_status_and_signals_come_back_unchanged)
{
    need_namespaces();
    char out[2000];
    run_status st = sh("exit 7", out, sizeof out);
    cr_assert(st.exited && st.code == 7, "%s", out);
    st = sh("kill -SEGV $$", out, sizeof out);
    cr_assert(st.signaled && st.sig == SIGSEGV, "exited=%d code=%d sig=%d: %s", st.exited,
              st.code, st.sig, out);
    st = sh("kill -ABRT $$", out, sizeof out); /* abort(): the program is not a PID 1 */
    cr_assert(st.signaled && st.sig == SIGABRT, "exited=%d code=%d sig=%d: %s", st.exited,
              st.code, st.sig, out);
}

Test(fsview, what_the_program_leaves_running_dies_with_it)
{
    need_namespaces();
    char out[2000];
    time_t t0 = time(NULL);
    run_status st = sh("sleep 41 & sleep 42 & echo started", out, sizeof out);
    cr_assert(st.exited && st.code == 0 && strstr(out, "started"), "%s", out);
    cr_assert_lt(time(NULL) - t0, 10);
    /* The namespace's end kills them; a busy machine may take a moment to
     * reap them, so look for up to 3 s (they would live 41 s). */
    int alive = 1;
    for (int tries = 0; alive && tries < 30; tries++) {
        usleep(100 * 1000);
        alive = system("pgrep -x sleep -a | grep -qE ' sleep 4[12]$'") == 0; /* (not 'sleep 420') */
    }
    cr_assert(!alive, "a background process outlived its sandbox");
}

Test(fsview, gpu_device_nodes_are_there_when_the_machine_has_them)
{
    need_namespaces();
    char out[4000];
    FILE *f = popen("ls -d /dev/nvidia* 2>/dev/null | wc -l", "r");
    int outside = 0;
    cr_assert(f && fscanf(f, "%d", &outside) == 1);
    pclose(f);
    run_status st = sh("echo nodes=$(ls -d /dev/nvidia* 2>/dev/null | wc -l)", out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    char want[40];
    snprintf(want, sizeof want, "nodes=%d", outside);
    cr_assert(strstr(out, want), "outside %d NVIDIA nodes, inside: %s", outside, out);
}

/* On a GPU machine (tests/gpu/device-isolation.sh runs this there): the
 * driver answers inside the view as outside, as root's nobody and in a
 * user namespace alike (the latter in the test below). */
Test(fsview, the_gpu_answers_inside_the_view)
{
    need_namespaces();
    char outside[4000] = "", out[4000];
    FILE *f = popen("nvidia-smi -L 2>/dev/null", "r");
    size_t got = f ? fread(outside, 1, sizeof outside - 1, f) : 0;
    int rc = f ? pclose(f) : -1;
    outside[got] = '\0';
    if (rc != 0 || !strstr(outside, "GPU "))
        cr_skip_test("no NVIDIA GPU here (nvidia-smi -L fails outside the view)");
    run_status st = sh("nvidia-smi -L", out, sizeof out);
    cr_assert(st.exited && st.code == 0, "nvidia-smi inside: %s", out);
    cr_assert_str_eq(out, outside, "inside: %s, outside: %s", out, outside);
}

/* Can nobody read the kit at all?  Not when it lies below a folder only
 * root may enter (a fresh clone in a mktemp -d folder, mode 0700): then the
 * grader stays root and says why, and the tests of the switch to nobody
 * cannot run here (SKIPPED, not passed). */
static int nobody_reads_kit(void)
{
    struct passwd *pw = getpwnam("nobody");
    char makefile[1200];
    snprintf(makefile, sizeof makefile, "%s/Makefile", top);
    return pw && sandbox_user_can_read((int)pw->pw_uid, (int)pw->pw_gid, makefile) == 0;
}

Test(fsview, as_root_the_program_runs_as_nobody_inside_the_view)
{
    if (geteuid() != 0)
        cr_skip_test("needs root (the grader drops to another user only as root)");
    need_namespaces();
    if (!nobody_reads_kit())
        cr_skip_test("user nobody cannot read the kit here (a parent folder is closed to it)");
    sandbox sb;
    char why[300], out[2000], cmd[1000];
    sandbox_defaults(&sb, home);
    sb.view = &view;
    cr_assert_eq(sandbox_pick_user(top, &sb.uid, &sb.gid, why, sizeof why) >= 0, 1, "%s", why);
    sandbox_hand_over(home, sb.uid, sb.gid);
    snprintf(cmd, sizeof cmd, "id -u; test -e %s/solutions && echo SEES; grep Cap[EP][fr][fm] "
             "/proc/self/status", top);
    run_status st = sh_in(&sb, cmd, out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    char want[32];
    snprintf(want, sizeof want, "%d\n", sb.uid);
    cr_assert(strstr(out, want), "%s", out);
    cr_assert_null(strstr(out, "SEES"), "%s", out);
    cr_assert(strstr(out, "CapEff:\t0000000000000000"), "capabilities left: %s", out);
}

/* Not root: the same view through a user namespace (a student's laptop, an
 * instructor's workstation).  Run as nobody from a root test process. */
Test(fsview, without_root_a_user_namespace_gives_the_same_view)
{
    if (geteuid() != 0)
        cr_skip_test("run as root, it becomes nobody to test the unprivileged path");
    need_namespaces();
    if (!nobody_reads_kit())
        cr_skip_test("user nobody cannot read the kit here (a parent folder is closed to it)");
    struct passwd *pw = getpwnam("nobody");
    cr_assert_not_null(pw);
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(pw->pw_gid) || setuid(pw->pw_uid))
            _exit(3);
        unlink(log_path); /* root's, from need_namespaces() */
        if (system("unshare -Urm true 2>/dev/null") != 0)
            _exit(4); /* unprivileged user namespaces forbidden here */
        char cmd[2000], out[4000];
        int gpu = system("nvidia-smi -L 2>/dev/null | grep -q '^GPU '") == 0; /* outside */
        snprintf(cmd, sizeof cmd, "id -u; test -e %s/solutions && echo SEES; "
                 "test -r %s/Makefile && echo MAKEFILE-OK; echo x > $HOME/y && echo WROTE; %s",
                 top, top, gpu ? "nvidia-smi -L | grep -q '^GPU ' || echo NO-GPU-INSIDE" : "");
        run_status st = sh(cmd, out, sizeof out);
        char want[32];
        snprintf(want, sizeof want, "%d\n", (int)pw->pw_uid);
        int ok = st.exited && st.code == 0 && strstr(out, want) && !strstr(out, "SEES") &&
                 strstr(out, "MAKEFILE-OK") && strstr(out, "WROTE") && !strstr(out, "NO-GPU-INSIDE");
        if (!ok)
            fprintf(stderr, "unprivileged view: exited %d code %d sig %d timed out %d: [%s]\n", st.exited, st.code, st.sig, st.timed_out, out);
        _exit(ok ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
        cr_skip_test("unprivileged user namespaces are forbidden on this machine");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
}

Test(fsview, a_view_that_cannot_be_built_runs_nothing)
{
    char out[2000], flag[400];
    snprintf(flag, sizeof flag, "%s/ran", home);
    setenv("GRADE_SANDBOX_SIMULATE_FAILURE", "1", 1);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "touch %s", flag);
    run_status st = sh(cmd, out, sizeof out);
    unsetenv("GRADE_SANDBOX_SIMULATE_FAILURE");
    cr_assert(st.exited && st.code == 126, "code %d: %s", st.code, out);
    cr_assert(strstr(out, "grader sandbox: unshare"), "%s", out);
    cr_assert_neq(access(flag, F_OK), 0, "the program ran without its view");
}

Test(fsview, the_probe_passes_and_fails_when_a_private_part_shows)
{
    need_namespaces();
    sandbox sb;
    char why[600];
    double took;
    sandbox_defaults(&sb, home);
    sb.view = &view;
    cr_assert_eq(isolation_probe(&sb, top, home, why, sizeof why, &took), 0, "%s", why);
    cr_assert_lt(took, 5.0);
    static fsview leaky;
    char sol[4200];
    leaky = view;
    snprintf(sol, sizeof sol, "%s/solutions", top);
    cr_assert_eq(fsview_add(&leaky, sol, FSV_RO), 0);
    sb.view = &leaky;
    cr_assert_eq(isolation_probe(&sb, top, home, why, sizeof why, &took), -1);
    cr_assert(strstr(why, "private part of the kit is visible") && strstr(why, "solutions"), "%s",
              why);
    setenv("GRADE_SANDBOX_SIMULATE_FAILURE", "1", 1);
    sb.view = &view;
    cr_assert_eq(isolation_probe(&sb, top, home, why, sizeof why, &took), -1);
    unsetenv("GRADE_SANDBOX_SIMULATE_FAILURE");
    cr_assert(strstr(why, "unshare"), "%s", why);
}

Test(fsview, policy_names_and_defaults)
{
    sandbox_policy p;
    cr_assert_eq(isolation_parse_policy("refuse", &p), 0);
    cr_assert_eq(p, POLICY_REFUSE);
    cr_assert_eq(isolation_parse_policy("unsandboxed", &p), 0);
    cr_assert_eq(p, POLICY_UNSANDBOXED);
    cr_assert_eq(isolation_parse_policy(NULL, &p), 0);
    cr_assert_eq(p, POLICY_DEFAULT);
    cr_assert_eq(isolation_parse_policy("off", &p), -1);
    /* the instructor's tree refuses by default; a student's copy does not */
    cr_assert_eq(isolation_effective(POLICY_DEFAULT, top), POLICY_REFUSE);
    cr_assert_eq(isolation_effective(POLICY_DEFAULT, other), POLICY_UNSANDBOXED);
    cr_assert_eq(isolation_effective(POLICY_UNSANDBOXED, top), POLICY_UNSANDBOXED);
    cr_assert_eq(isolation_effective(POLICY_REFUSE, other), POLICY_REFUSE);
}

/* A kit inside a folder the view shows whole (/usr/local/src/kit, or one
 * an instructor adds) is hidden, then its public parts shown again. */
Test(fsview, a_kit_inside_a_shown_folder_is_masked)
{
    need_namespaces();
    char kit[400], path[600], why[300], out[2000], cmd[2000];
    snprintf(kit, sizeof kit, "%s/kit", other);
    const char *make[] = {"", "/common", "/solutions", "/build", "/build/host"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s%s", kit, make[i]);
        cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
    }
    snprintf(path, sizeof path, "%s/Makefile", kit);
    fclose(fopen(path, "w"));
    snprintf(path, sizeof path, "%s/common/kit.h", kit);
    fclose(fopen(path, "w"));
    chmod(other, 0755);
    setenv("GRADE_SANDBOX_BIND", other, 1);
    static fsview v;
    int rc = isolation_kit_view(&v, kit, home, why, sizeof why);
    unsetenv("GRADE_SANDBOX_BIND");
    cr_assert_eq(rc, 0, "%s", why);
    sandbox sb;
    sandbox_defaults(&sb, home);
    sb.view = &v;
    snprintf(cmd, sizeof cmd, "test -e %s/solutions && echo SEES; test -r %s/Makefile && "
             "test -r %s/common/kit.h && echo PUBLIC-OK; test -d %s && echo BIND-OK", kit, kit, kit, other);
    run_status st = sh_in(&sb, cmd, out, sizeof out);
    cr_assert(st.exited && st.code == 0, "%s", out);
    cr_assert_null(strstr(out, "SEES"), "%s", out);
    cr_assert(strstr(out, "PUBLIC-OK") && strstr(out, "BIND-OK"), "%s", out);
}
