/* test_report.c - Gradescope's results.json: valid JSON with the fields
 * the autograder spec requires, scores that add up, hidden tests hidden. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"

static suite s;
static grade_run g;

static void make_run(void)
{
    char err[256];
    const char *text = "lab lab1 dir=lab1-x files=a.cu variants=v,w\n"
                       "group id=a points=30 title=\"Stage one: a\\b\"\n"
                       "cases group=a variant=v n=1,2,3\n"
                       "speed group=a variant=v n=2^20 points=20\n";
    const char *hidden = "group id=b points=10 visibility=hidden title=\"SECRET-TITLE\" "
                         "hint=\"SECRET-HINT\"\n"
                         "cases group=b variant=v n=7\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(suite_parse_hidden(hidden, &s, err, sizeof err), 0, "%s", err);
    memset(&g, 0, sizeof g);
    g.s = &s;
    g.backend = "gpu";
    g.speed_graded = 1;
    g.tests[0].verdict = V_PASS;
    g.tests[1].verdict = V_WRONG;
    snprintf(g.tests[1].detail, sizeof g.tests[1].detail, "out[0] expected 1 got \"2\"");
    g.tests[2].verdict = V_PASS;
    g.tests[3].verdict = V_WRONG;
    snprintf(g.tests[3].detail, sizeof g.tests[3].detail, "SECRET-PARAMETERS");
    for (int i = 0; i < 4; i++)
        g.tests[i].ms = NAN;
    g.speed[0].verdict = V_PASS;
    g.speed[0].t_student = 2.4;
    g.speed[0].t_ref = 1.0;
    g.speed[0].points = 20 * speed_fraction(2.4);
    tally(&g);
}

Test(report, totals)
{
    make_run();
    cr_assert_float_eq(g.group_points[0], 20, 1e-9);
    cr_assert_eq(s.hidden_from, 1);
    cr_assert_float_eq(g.group_points[1], 0, 1e-9);
    cr_assert_float_eq(g.total, 30, 1e-9);
    cr_assert_float_eq(g.max_total, 60, 1e-9);
}

Test(report, gradescope_json)
{
    make_run();
    char path[] = "/tmp/test_report.XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write_results_json(&g, path), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "python3 - %s <<'PY'\n"
             "import json, sys\n"
             "r = json.load(open(sys.argv[1]))\n"
             "assert abs(r['score'] - 30) < 1e-9, r['score']\n"
             "assert len(r['tests']) == 3\n"
             "for t in r['tests']:\n"
             "    assert {'name', 'score', 'max_score', 'output'} <= set(t), t\n"
             "assert abs(sum(t['score'] for t in r['tests']) - r['score']) < 1e-9\n"
             "assert r['tests'][1]['visibility'] == 'hidden'\n"
             "assert 'SECRET-PARAMETERS' not in json.dumps(r)\n"
             "shown = [t for t in r['tests'] if t.get('visibility', 'visible') == 'visible']\n"
             "assert 'SECRET' not in r['output'] + json.dumps(shown), r['output']\n"
             "assert 'Hidden tests: 1 group(s) worth 10.0 points' in r['output'], r['output']\n"
             "assert r['extra_data']['status'] == 'graded', r['extra_data']\n"
             "assert r['tests'][0]['name'] == 'Stage one: a' + chr(92) + 'b', r['tests'][0]['name']\n"
             "PY",
             path);
    cr_assert_eq(system(cmd), 0, "results.json failed validation");
    close(fd);
    unlink(path);
}

Test(report, table_hides_hidden_parameters)
{
    make_run();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    print_report(&g, f);
    fclose(f);
    cr_assert(strstr(buf, "Hidden tests: 1 group(s) worth 10.0 points"), "%s", buf);
    cr_assert_null(strstr(buf, "SECRET"), "hidden title, hint or details leaked:\n%s", buf);
    cr_assert_null(strstr(buf, "hidden test #4"), "a hidden test listed:\n%s", buf);
    cr_assert(strstr(buf, "expected 1 got"), "visible details shown");
    cr_assert(strstr(buf, "TOTAL of the visible tests 30.0 / 50.0"), "%s", buf);
    free(buf);
}

/* What the batch reads: the grader's own status field, and its reason. */
Test(report, status_field)
{
    char reason[600];
    make_run();
    cr_assert_str_eq(grade_status(&g, reason, sizeof reason), "graded");
    g.build_failed = 1;
    snprintf(g.forbidden, sizeof g.forbidden, "reduce.cu:3: #include <cub/cub.cuh>: CUB");
    cr_assert_str_eq(grade_status(&g, reason, sizeof reason), "forbidden");
    cr_assert(strstr(reason, "CUB"), "%s", reason);
    g.forbidden[0] = '\0';
    g.file_verdict = V_MISSING_FILE;
    snprintf(g.build_log, sizeof g.build_log, "the submission has no a.cu");
    cr_assert_str_eq(grade_status(&g, reason, sizeof reason), "missing file");
    g.file_verdict = V_PASS;
    snprintf(g.build_log, sizeof g.build_log, "nvcc -c\n/tmp/grade.x/src/a.cu:32:18: error: "
             "expected ';'\nmore\n");
    cr_assert_str_eq(grade_status(&g, reason, sizeof reason), "build failed");
    cr_assert_str_eq(reason, "a.cu:32:18: error: expected ';'");
}
