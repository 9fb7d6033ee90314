/* test_safefile.c - the grader's only way into a folder a student's
 * process wrote (safefile.h): no link followed at the end or in the
 * middle of a path, no FIFO opened for a read that never returns, no file
 * larger than asked for, no existing file written through. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefile.h"

static char dir[] = "/tmp/test_safefile.XXXXXX";
static char path[512], outside[512];

/* A scratch folder holding an "outside" file the student must not reach. */
static void setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(outside, sizeof outside, "%s/outside", dir);
    FILE *f = fopen(outside, "w");
    cr_assert_not_null(f);
    fputs("secret", f);
    fclose(f);
}
static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(safefile, .init = setup, .fini = teardown, .timeout = 10);

static const char *at(const char *name)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

Test(safefile, reads_a_plain_file)
{
    char buf[64];
    cr_assert_eq(safe_slurp(outside, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "secret");
}

Test(safefile, refuses_a_link_as_the_last_part)
{
    char buf[64];
    cr_assert_eq(symlink(outside, at("case.json")), 0);
    cr_assert_eq(safe_slurp(path, buf, sizeof buf), -1);
    cr_assert_str_eq(buf, "");
    cr_assert_eq(safe_open_read(path, -1, NULL), -1);
}

Test(safefile, refuses_a_link_in_the_middle)
{
    char buf[64];
    cr_assert_eq(mkdir(at("real"), 0700), 0);
    cr_assert_eq(symlink(path, at("lane0")), 0);
    FILE *f = fopen(at("real/case.json"), "w");
    fputs("x", f);
    fclose(f);
    cr_assert_eq(safe_slurp(at("lane0/case.json"), buf, sizeof buf), -1);
    cr_assert_eq(errno, ELOOP);
    cr_assert_eq(safe_slurp(at("real/case.json"), buf, sizeof buf), 0);
}

Test(safefile, refuses_a_fifo_without_waiting)
{
    cr_assert_eq(mkfifo(at("case.bin"), 0600), 0);
    cr_assert_eq(safe_open_read(path, -1, NULL), -1); /* and returned: no writer needed */
    cr_assert_eq(errno, EINVAL);
}

Test(safefile, refuses_a_file_too_large)
{
    char buf[4];
    cr_assert_eq(safe_open_read(outside, 5, NULL), -1);
    cr_assert_eq(errno, EFBIG);
    cr_assert_eq(safe_slurp(outside, buf, sizeof buf), -1);
    long long size = 0;
    int fd = safe_open_read(outside, 6, &size);
    cr_assert_geq(fd, 0);
    cr_assert_eq(size, 6);
    close(fd);
}

Test(safefile, creates_afresh_instead_of_writing_through_a_link)
{
    char buf[64];
    cr_assert_eq(symlink(outside, at("unit.cases")), 0);
    int fd = safe_create(path, 0644);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "mine", 4), 4);
    close(fd);
    cr_assert_eq(safe_slurp(path, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "mine");
    cr_assert_eq(safe_slurp(outside, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "secret"); /* the link's target untouched */
}

Test(safefile, unlinks_the_name_not_the_target_and_not_through_a_folder_link)
{
    cr_assert_eq(mkdir(at("sub"), 0700), 0);
    cr_assert_eq(symlink(dir, at("sub/up")), 0);
    cr_assert_eq(safe_unlink(at("sub/up/outside")), -1); /* would remove dir/outside */
    cr_assert_eq(access(outside, F_OK), 0);
    cr_assert_eq(symlink(outside, at("case.bin")), 0);
    cr_assert_eq(safe_unlink(path), 0);
    cr_assert_eq(access(outside, F_OK), 0);
    cr_assert_eq(safe_unlink(at("never-there")), 0);
}

Test(safefile, mkdir_refuses_a_link_in_place_of_a_folder)
{
    cr_assert_eq(symlink("/etc", at("witness")), 0);
    cr_assert_eq(safe_mkdir(path, 0700), -1);
    cr_assert_eq(safe_mkdir(at("lane1"), 0700), 0);
    cr_assert_eq(safe_mkdir(path, 0700), 0); /* already a folder: fine */
}

Test(safefile, a_fifo_is_made_afresh_and_opened_only_as_a_fifo_reached_with_no_link)
{
    char fifo[512], linked[512], sub[512];
    snprintf(fifo, sizeof fifo, "%s", at("gate.go"));
    cr_assert_eq(symlink(outside, fifo), 0); /* planted where the FIFO goes */
    cr_assert_eq(safe_mkfifo(fifo, 0600), 0);
    struct stat st;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode), "the planted link was kept");
    int fd = safe_open_fifo(fifo, O_RDWR | O_NONBLOCK);
    cr_assert_geq(fd, 0);
    close(fd);
    errno = 0;
    cr_assert_eq(safe_open_fifo(outside, O_RDONLY | O_NONBLOCK), -1, "a plain file");
    cr_assert_eq(errno, EINVAL);
    snprintf(sub, sizeof sub, "%s", at("sub"));
    cr_assert_eq(symlink(dir, sub), 0); /* a folder link on the way to the FIFO */
    snprintf(linked, sizeof linked, "%s/gate.go", sub);
    cr_assert_eq(safe_open_fifo(linked, O_RDWR | O_NONBLOCK), -1, "reached through a link");
    cr_assert_eq(safe_mkfifo(linked, 0600), -1, "made through a link");
}
