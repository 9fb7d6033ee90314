/* test_run.c - the grader's process runner: exit codes, signals, output
 * capture, and a hung child (and its children) killed at the limit. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "run.h"

static char log_path[] = "/tmp/test_run.XXXXXX";

static void setup(void)
{
    int fd = mkstemp(log_path);
    cr_assert(fd >= 0);
    close(fd);
}
static void teardown(void) { unlink(log_path); }

TestSuite(run, .init = setup, .fini = teardown);

Test(run, exit_code_and_output)
{
    char *argv[] = {"sh", "-c", "echo hello; echo oops >&2; exit 3", NULL};
    run_status st;
    char tail[64], how[64];
    cr_assert_eq(run_command(argv, log_path, 10, &st), 0);
    cr_assert(st.exited && st.code == 3 && !st.timed_out);
    read_tail(log_path, tail, sizeof tail);
    cr_assert(strstr(tail, "hello") && strstr(tail, "oops"), "log: %s", tail);
    describe_status(&st, how, sizeof how);
    cr_assert_str_eq(how, "exit status 3");
}

Test(run, signal)
{
    char *argv[] = {"sh", "-c", "kill -SEGV $$", NULL};
    run_status st;
    char how[64];
    run_command(argv, log_path, 10, &st);
    cr_assert(st.signaled && st.sig == 11);
    describe_status(&st, how, sizeof how);
    cr_assert(strstr(how, "signal 11"), "%s", how);
}

Test(run, hang_is_killed_with_its_children)
{
    char *argv[] = {"sh", "-c", "sleep 60 & sleep 60", NULL};
    run_status st;
    run_command(argv, log_path, 0.5, &st);
    cr_assert(st.timed_out);
    cr_assert(st.seconds < 5, "took %.1f s", st.seconds);
    /* the background sleep was in the same process group: gone too */
    cr_assert_neq(system("pgrep -f '^sleep 60$' >/dev/null"), 0, "a child survived");
}

Test(run, missing_program)
{
    char *argv[] = {"/nonexistent/program", NULL};
    run_status st;
    char tail[128];
    run_command(argv, log_path, 10, &st);
    cr_assert(st.exited && st.code == 127);
    read_tail(log_path, tail, sizeof tail);
    cr_assert(strstr(tail, "cannot run"), "%s", tail);
}

Test(run, tail_of_a_long_log)
{
    char *argv[] = {"sh", "-c", "seq 1 100000", NULL};
    run_status st;
    char tail[16];
    run_command(argv, log_path, 10, &st);
    read_tail(log_path, tail, sizeof tail);
    cr_assert(strstr(tail, "100000"), "%s", tail);
    cr_assert_eq(strlen(tail), sizeof tail - 1);
}
