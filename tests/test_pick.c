/* test_pick.c - which file of a submission is graded (grader/pick.h):
 * issue 11 graded lab 2's reduce.cu for lab 1 because it came first in
 * directory order; now labs/<dir>/<file> wins, ties are refused naming
 * both, and a missing file says so. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pick.h"

static char root[] = "/tmp/test_pick.XXXXXX";

/* Create root/rel (and its folders) with one line in it. */
static void touch(const char *rel)
{
    char path[1200], cmd[1400];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && echo x >'%s'", path, path);
    cr_assert_eq(system(cmd), 0);
}

static void setup(void) { cr_assert_not_null(mkdtemp(root)); }

static void teardown(void)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    system(cmd);
}

static pick_result pick(char *out, char *why)
{
    return pick_file(root, "lab1-reduce-naive", "reduce.cu", out, 1024, why, 1024);
}

Test(pick, repository_prefers_the_labs_own_folder, .init = setup, .fini = teardown)
{
    char out[1024], why[1024];
    touch("alice/labs/lab2-reduce-convergent/reduce.cu"); /* created first: first in order */
    touch("alice/labs/lab1-reduce-naive/reduce.cu");
    touch("alice/notes/reduce.cu");
    cr_assert_eq(pick(out, why), PICK_FOUND, "%s", why);
    cr_assert(strstr(out, "alice/labs/lab1-reduce-naive/reduce.cu"), "%s", out);
}

Test(pick, a_single_file_anywhere, .init = setup, .fini = teardown)
{
    char out[1024], why[1024];
    touch("my-work/reduce.cu");
    touch(".git/reduce.cu"); /* not looked into */
    cr_assert_eq(pick(out, why), PICK_FOUND, "%s", why);
    cr_assert(strstr(out, "my-work/reduce.cu"), "%s", out);
}

Test(pick, ambiguous_names_every_candidate, .init = setup, .fini = teardown)
{
    char out[1024], why[1024];
    touch("reduce.cu");
    touch("old/reduce.cu");
    cr_assert_eq(pick(out, why), PICK_AMBIGUOUS);
    cr_assert(strstr(why, "reduce.cu") && strstr(why, "old/reduce.cu"), "%s", why);
    cr_assert(strstr(why, "will not guess"), "%s", why);
}

Test(pick, two_repositories_are_ambiguous, .init = setup, .fini = teardown)
{
    char out[1024], why[1024];
    touch("a/labs/lab1-reduce-naive/reduce.cu");
    touch("b/labs/lab1-reduce-naive/reduce.cu");
    touch("c/reduce.cu"); /* a weaker candidate is not listed */
    cr_assert_eq(pick(out, why), PICK_AMBIGUOUS);
    cr_assert(strstr(why, "a/labs/lab1-reduce-naive/reduce.cu"), "%s", why);
    cr_assert(strstr(why, "b/labs/lab1-reduce-naive/reduce.cu"), "%s", why);
    cr_assert_null(strstr(why, "c/reduce.cu"), "%s", why);
}

Test(pick, missing, .init = setup, .fini = teardown)
{
    char out[1024], why[1024];
    touch("labs/lab1-reduce-naive/README.md");
    cr_assert_eq(pick(out, why), PICK_MISSING);
    cr_assert(strstr(why, "the submission has no reduce.cu"), "%s", why);
}
