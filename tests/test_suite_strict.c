/* test_suite_strict.c - issue 11: every suite mistake that used to pass
 * unnoticed (a misspelt key, seed= for seeds=, an unknown variant, a
 * silently defaulted value) is an error naming the file and line; hidden
 * groups live in grader/suites/hidden/LAB.suite, apart from the visible. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite.h"

static suite s;

#define HEAD "lab lab1 dir=d files=a.cu variants=single-block,hierarchical\n" \
             "group id=g points=10\n"                                          \
             "cases group=g variant=hierarchical n=1\n"

/* HEAD plus one line (line 4) must be refused with want in the message. */
static void refused(const char *line, const char *want)
{
    char text[1024], err[400];
    snprintf(text, sizeof text, HEAD "%s", line);
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), -1, "accepted: %s", line);
    cr_assert(strstr(err, "line 4: "), "'%s' does not name line 4 (%s)", err, line);
    cr_assert(strstr(err, want), "error '%s' should mention '%s'", err, want);
}

Test(strict, misspelt_keys_are_errors)
{
    refused("cases group=g variant=hierarchical n=1 visiblity=hidden\n",
            "unknown key 'visiblity' for cases (did you mean 'visibility'?)");
    refused("cases group=g variant=hierarchical n=1 seed=6\n",
            "unknown key 'seed' for cases (did you mean 'seeds'?)");
    refused("group id=h points=1 titel=x\n", "did you mean 'title'?");
    refused("speed group=g variant=hierarchical n=2^20 points=5 dtyp=float32\n", "'dtype'");
    refused("cases group=g variant=hierarchical n=1 n=2\n", "n= given twice");
}

Test(strict, unknown_variant_operator_type_value)
{
    refused("cases group=g variant=tree n=1\n",
            "unknown variant 'tree' (the lab line declares: single-block, hierarchical)");
    refused("speed group=g variant=tree n=2^20 points=5\n", "unknown variant 'tree'");
    refused("cases group=g variant=hierarchical n=1 op=sum,prod\n", "bad op 'prod'");
    refused("cases group=g variant=hierarchical n=1 dtype=int64\n", "int64 goes with kind=compact");
    refused("cases group=g variant=hierarchical n=1 dtype=int16\n", "bad dtype 'int16'");
    refused("cases group=g variant=hierarchical n=1 dist=gauss\n", "bad dist 'gauss'");
    refused("cases group=g variant=hierarchical n=1 seeds=-1\n", "bad seed '-1'");
    refused("cases group=g variant=hierarchical n=1 seeds=1,,2\n", "seeds: an empty item");
    refused("cases group=g variant=hierarchical n=1 mode=inclusiv\n", "not 'inclusiv'");
    refused("speed group=g variant=hierarchical n=2^20 points=5 mode=exclusiv\n",
            "not 'exclusiv'");
    refused("group id=h points=nan\n", "needs points");
    refused("group id=h points=inf\n", "needs points");
    refused("cases group=g variant=hierarchical n=1 section=1024\n",
            "section= only goes with kind=section-scan");
    refused("lab lab2 dir=e files=b.cu variants=x\n", "a second lab line");
    refused("cases group=g variant=hierarchical n=1 dtype="
            "int32_and_a_name_far_too_long_to_be_any_type_at_all\n", "over 47 characters");
}

Test(strict, group_without_cases_names_its_line)
{
    char err[400];
    const char *text = HEAD "group id=empty points=5\n# nothing for it\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), -1);
    cr_assert(strstr(err, "line 4: group 'empty' has no cases"), "%s", err);
}

Test(strict, lab_line_needs_its_variants)
{
    char err[400];
    cr_assert_eq(suite_parse("lab lab1 dir=d files=a.cu\n", &s, err, sizeof err), -1);
    cr_assert(strstr(err, "line 1: lab needs variants="), "%s", err);
}

Test(strict, hidden_cases_not_in_the_visible_suite)
{
    refused("group id=h points=5 visibility=hidden\n", "grader/suites/hidden/LAB.suite");
    refused("cases group=g variant=hierarchical n=7 visibility=after_due_date\n",
            "grader/suites/hidden/LAB.suite");
}

/* A suites folder of its own: LAB.suite and hidden/LAB.suite. */
static void write_suites(char *dir, const char *visible, const char *hidden)
{
    char path[600];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/lab1.suite", dir);
    FILE *f = fopen(path, "w");
    fputs(visible, f);
    fclose(f);
    if (!hidden)
        return;
    snprintf(path, sizeof path, "%s/hidden", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/hidden/lab1.suite", dir);
    f = fopen(path, "w");
    fputs(hidden, f);
    fclose(f);
}

static void remove_suites(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(strict, hidden_suite_is_merged)
{
    char dir[] = "/tmp/test_suite_strict.XXXXXX", err[400];
    int has = -1;
    write_suites(dir, HEAD, "# hidden edge cases\n"
                            "group id=edge points=15 title=\"Hidden edges\"\n"
                            "cases group=edge variant=hierarchical n=3,5 seeds=9\n"
                            "group id=never points=5 visibility=hidden\n"
                            "cases group=never variant=single-block n=2\n");
    cr_assert_eq(suite_load_lab(dir, "lab1", &s, &has, err, sizeof err), 0, "%s", err);
    cr_assert_eq(has, 1);
    cr_assert_eq(s.ngroups, 3);
    cr_assert_eq(s.hidden_from, 1);
    cr_assert_eq(s.groups[1].visibility, VIS_AFTER_DUE, "hidden groups: after_due_date by default");
    cr_assert_eq(s.groups[2].visibility, VIS_HIDDEN);
    cr_assert_eq(s.ncases, 4);
    cr_assert_eq(s.cases[1].visibility, VIS_AFTER_DUE);
    cr_assert_eq(s.cases[1].seed, 9);
    remove_suites(dir);
}

Test(strict, hidden_suite_errors_name_its_file_and_line)
{
    struct { const char *hidden, *want; } bad[] = {
        {"cases group=g variant=hierarchical n=3\n",
         "hidden/lab1.suite: line 1: hidden cases belong to a group of the hidden suite"},
        {"group id=h points=1\ncases group=h variant=hierarchical n=3 visiblity=hidden\n",
         "hidden/lab1.suite: line 2: unknown key 'visiblity'"},
        {"\nspeed group=g variant=hierarchical n=2^20 points=5\n",
         "hidden/lab1.suite: line 2: the hidden suite holds only group and cases lines"},
        {"group id=h points=1 visibility=visible\ncases group=h variant=hierarchical n=3\n",
         "line 1: a group of the hidden suite cannot be visible"},
        {"group id=g points=1\n", "line 1: group 'g' defined twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char dir[] = "/tmp/test_suite_strict.XXXXXX", err[400];
        write_suites(dir, HEAD, bad[i].hidden);
        cr_assert_eq(suite_load_lab(dir, "lab1", &s, NULL, err, sizeof err), -1, "%s",
                     bad[i].hidden);
        cr_assert(strstr(err, bad[i].want), "error '%s' should mention '%s'", err, bad[i].want);
        cr_assert(strstr(err, dir), "error '%s' should name the file", err);
        remove_suites(dir);
    }
}

Test(strict, lab_line_must_match_the_file)
{
    char dir[] = "/tmp/test_suite_strict.XXXXXX", err[400];
    write_suites(dir, "lab lab2 dir=d files=a.cu variants=v\ngroup id=g points=1\n"
                      "cases group=g variant=v n=1\n", NULL);
    cr_assert_eq(suite_load_lab(dir, "lab1", &s, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "lab1.suite: line 1: the lab line names 'lab2'"), "%s", err);
    remove_suites(dir);
}
