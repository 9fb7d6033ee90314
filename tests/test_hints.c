/* test_hints.c - hint tables (grader/hints.h): strict parsing, every lab's
 * table naming real groups and TODOs, and the rule picked from a failure's
 * pattern, with general advice when none matches. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "hints.h"

static hint_table table;

Test(hints, parses_rules_and_patterns)
{
    char err[300];
    const char *text = "# comment\n\n"
                       "hint group=* when=schedule,!race todo=2 text=\"a barrier\"\n"
                       "hint group=ex when=section-first passes=in todo=1 text=\"first\"\n"
                       "hint group=op todo=0 text=\"always\"\n";
    cr_assert_eq(hints_parse(text, &table, err, sizeof err), 0, "%s", err);
    cr_assert_eq(table.n, 3);
    cr_assert_eq(table.rules[0].need, GPAT_SCHEDULE);
    cr_assert_eq(table.rules[0].avoid, GPAT_RACE);
    cr_assert_eq(table.rules[0].line, 3);
    cr_assert_eq(table.rules[1].need, PAT_SECTION_FIRST);
    cr_assert_str_eq(table.rules[1].passes, "in");
    cr_assert_eq(table.rules[2].need, 0u);
    cr_assert_str_eq(table.rules[2].text, "always");
}

Test(hints, rejects_unknown_words_with_their_line)
{
    static const char *const bad[] = {
        "hint group=* when=sched todo=2 text=\"x\"\n",      /* unknown pattern */
        "hint group=* when=all todo=2 txt=\"x\"\n",         /* unknown key */
        "hint group=* when=all text=\"x\"\n",               /* no todo */
        "hint group=* when=all todo=2 text=\"x\n",          /* quote not closed */
        "rule group=* when=all todo=2 text=\"x\"\n",        /* not a hint line */
        "hint group=* when=all todo=two text=\"x\"\n",      /* todo not a number */
    };
    char err[300], text[300];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(text, sizeof text, "# ok\n%s", bad[k]);
        cr_assert_eq(hints_parse(text, &table, err, sizeof err), -1, "accepted: %s", bad[k]);
        cr_assert(strstr(err, "line 2"), "no line number for %s: %s", bad[k], err);
    }
}

/* Does solution file of lab `dir` have a TODO region k? */
static int has_todo(const char *dir, int k)
{
    char pattern[400], line[512], want[32];
    glob_t gl;
    snprintf(pattern, sizeof pattern, KIT_TOP "/solutions/%s/*.cu", dir);
    snprintf(want, sizeof want, "TODO BEGIN %d:", k);
    int found = 0;
    if (glob(pattern, 0, NULL, &gl) != 0)
        return 0;
    for (size_t f = 0; f < gl.gl_pathc && !found; f++) {
        FILE *in = fopen(gl.gl_pathv[f], "r");
        while (in && !found && fgets(line, sizeof line, in))
            found = strstr(line, want) != NULL;
        if (in)
            fclose(in);
    }
    globfree(&gl);
    return found;
}

Test(hints, every_lab_table_names_real_groups_and_todos)
{
    static suite s;
    char path[600], err[400], lab[8];
    for (int n = 1; n <= 6; n++) {
        snprintf(lab, sizeof lab, "lab%d", n);
        cr_assert_eq(suite_load_lab(KIT_TOP "/grader/suites", lab, &s, NULL, err, sizeof err), 0,
                     "%s", err);
        snprintf(path, sizeof path, KIT_TOP "/grader/hints/%s.hints", lab);
        cr_assert_eq(hints_load(path, &table, err, sizeof err), 0, "%s: %s", path, err);
        cr_assert_gt(table.n, 0, "%s has no rules", path);
        for (int r = 0; r < table.n; r++) {
            const hint_rule *h = &table.rules[r];
            int known = strcmp(h->group, "*") == 0;
            for (int i = 0; i < s.ngroups && !known; i++)
                known = strcmp(s.groups[i].id, h->group) == 0;
            cr_assert(known, "%s line %d: no group %s in the suite", path, h->line, h->group);
            cr_assert(h->todo == 0 || has_todo(s.dir, h->todo), "%s line %d: no TODO %d in %s",
                      path, h->line, h->todo, s.dir);
        }
    }
}

/* A run of a two-group suite: group "in" passes, group "ex" fails its
 * plain case and passes its [emu reverse] case of the same shape. */
static suite s2;
static grade_run g;

static void make_run(verdict_t scheduled)
{
    char err[256];
    const char *text =
        "lab labX dir=labX-x files=a.cu variants=v\n"
        "group id=in points=10 title=\"In\" hint=\"inclusive advice\"\n"
        "cases group=in variant=v kind=section-scan section=1024 n=33,1025 seeds=1\n"
        "group id=ex points=10 title=\"Ex\" hint=\"exclusive advice\"\n"
        "cases group=ex variant=v kind=section-scan section=1024 mode=exclusive n=33 seeds=1\n"
        "cases group=ex variant=v kind=section-scan section=1024 mode=exclusive n=5000 seeds=1 "
        "schedule=reverse\n";
    cr_assert_eq(suite_parse(text, &s2, err, sizeof err), 0, "%s", err);
    memset(&g, 0, sizeof g);
    g.s = &s2;
    g.backend = "emu";
    g.tests[0].verdict = g.tests[1].verdict = V_PASS;
    g.tests[2].verdict = V_WRONG;
    g.tests[2].pattern = PAT_SECTION_FIRST;
    g.tests[3].verdict = scheduled;
    tally(&g);
}

Test(hints, rule_from_the_pattern)
{
    char err[300];
    const char *text = "hint group=* when=schedule todo=2 text=\"barrier\"\n"
                       "hint group=ex when=section-first passes=in todo=1 text=\"identity first\"\n";
    cr_assert_eq(hints_parse(text, &table, err, sizeof err), 0, "%s", err);
    unsigned seen;
    make_run(V_PASS); /* fails plainly, passes reversed at a larger n: schedule */
    const hint_rule *h = hint_pick(&g, &table, 1, &seen);
    cr_assert(seen & GPAT_SCHEDULE, "seen %x", seen);
    cr_assert(h && h->todo == 2);
    make_run(V_WRONG); /* fails under both: the element pattern decides */
    h = hint_pick(&g, &table, 1, &seen);
    cr_assert(!(seen & GPAT_SCHEDULE), "seen %x", seen);
    cr_assert(h && h->todo == 1, "picked %s", h ? h->text : "none");
    cr_assert_null(hint_pick(&g, &table, 0, &seen)); /* group "in" passed */
}

Test(hints, general_advice_when_no_rule_matches)
{
    char line[600];
    setenv("KIT_TOP", "/nonexistent", 1); /* labX has no table: nothing matches */
    make_run(V_WRONG);
    hint_line(&g, 1, line, sizeof line);
    cr_assert(strstr(line, "general advice for this group"), "%s", line);
    cr_assert(strstr(line, "exclusive advice"), "%s", line);
    cr_assert(strstr(line, "only the first element of each section wrong"), "%s", line);
    hint_line(&g, 0, line, sizeof line);
    cr_assert_str_eq(line, "", "a group that passed got: %s", line);
}
