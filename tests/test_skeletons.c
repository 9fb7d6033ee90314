/*
 * test_skeletons.c - every skeleton in labs/ is its solution with the code
 * inside the TODO regions removed: identical elsewhere, regions numbered
 * 1, 2, 3 ... and empty in the skeleton, filled in the solution.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/*
 * Keep the text outside regions and each region's opening instruction
 * comment; count the non-blank code lines dropped from inside regions.
 * Records the region numbers seen, in order.
 */
static char *strip(const char *text, int *code_lines, int *numbers, int *count)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    int region = 0, in_comment = 0;
    *code_lines = *count = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), line);
        const char *b = strstr(buf, "TODO BEGIN "), *e = strstr(buf, "TODO END ");
        int keep = 1;
        if (!region && b) {
            region = atoi(b + 11);
            numbers[(*count)++] = region;
            in_comment = strstr(buf, "*/") == NULL;
        } else if (region && in_comment) {
            in_comment = strstr(buf, "*/") == NULL;
        } else if (region && e) {
            cr_assert_eq(atoi(e + 9), region, "TODO END %d closes TODO BEGIN %d", atoi(e + 9), region);
            region = 0;
        } else if (region) {
            keep = 0;
            if (strspn(buf, " \t\r\n") != strlen(buf))
                (*code_lines)++;
        }
        if (keep) {
            memcpy(o, line, len);
            o += len;
        }
        line += len;
    }
    *o = '\0';
    cr_assert_eq(region, 0, "TODO BEGIN %d never closed", region);
    return out;
}

Test(skeletons, identical_outside_todo_regions)
{
    glob_t g;
    cr_assert_eq(glob(KIT_TOP "/labs/*/*.cu", 0, NULL, &g), 0, "no skeletons found");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *skel_path = g.gl_pathv[i];
        char sol_path[1024];
        const char *rel = strstr(skel_path, "/labs/") + 6;
        snprintf(sol_path, sizeof sol_path, "%s/solutions/%s", KIT_TOP, rel);
        char *skel = slurp(skel_path), *sol = slurp(sol_path);
        int skel_code, sol_code, skel_nums[64], sol_nums[64], skel_n, sol_n;
        char *a = strip(skel, &skel_code, skel_nums, &skel_n);
        char *b = strip(sol, &sol_code, sol_nums, &sol_n);

        cr_assert_eq(skel_code, 0, "%s: code inside a TODO region of the skeleton", rel);
        cr_assert(sol_n > 0, "%s has no TODO regions", rel);
        cr_assert_eq(skel_n, sol_n, "%s: skeleton and solution have different TODO regions", rel);
        for (int k = 0; k < sol_n; k++) {
            cr_assert_eq(skel_nums[k], sol_nums[k]);
            cr_assert_eq(sol_nums[k], k == 0 ? sol_nums[0] : sol_nums[k - 1] + 1,
                         "%s: TODO regions must be numbered consecutively", rel);
        }
        cr_assert(sol_code >= sol_n, "%s: some TODO region of the solution is empty", rel);
        if (strcmp(a, b) != 0) {
            size_t k = 0;
            while (a[k] && a[k] == b[k])
                k++;
            cr_assert_fail("%s differs from its solution outside TODO regions near: %.60s", rel,
                           a + k);
        }
        free(a), free(b), free(skel), free(sol);
    }
    globfree(&g);
}

Test(skeletons, every_lab_has_a_solution_and_a_suite)
{
    glob_t g;
    cr_assert_eq(glob(KIT_TOP "/labs/lab*", GLOB_ONLYDIR, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *name = strrchr(g.gl_pathv[i], '/') + 1;
        char path[1024], lab[16];
        snprintf(path, sizeof path, "%s/solutions/%s", KIT_TOP, name);
        FILE *f = fopen(path, "r");
        cr_assert_not_null(f, "%s has no solutions/%s", name, name);
        fclose(f);
        snprintf(lab, sizeof lab, "%.*s", (int)strcspn(name, "-"), name);
        snprintf(path, sizeof path, "%s/grader/suites/%s.suite", KIT_TOP, lab);
        f = fopen(path, "r");
        cr_assert_not_null(f, "%s has no grader/suites/%s.suite", name, lab);
        fclose(f);
    }
    globfree(&g);
}
