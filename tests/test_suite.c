/* test_suite.c - suite files: the shipped ones parse, the expansion is a
 * cartesian product, and every malformed line is refused with its number. */
#include <criterion/criterion.h>
#include <glob.h>
#include <string.h>

#include <stdio.h>

#include "suite.h"

static suite s;

Test(suite, shipped_suites_parse)
{
    glob_t g;
    char err[256];
    cr_assert_eq(glob(KIT_TOP "/grader/suites/*.suite", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char lab[32];
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        snprintf(lab, sizeof lab, "%.*s", (int)(strlen(base) - 6), base);
        /* with its hidden part, when the instructor's tree has one */
        cr_assert_eq(suite_load_lab(KIT_TOP "/grader/suites", lab, &s, NULL, err, sizeof err), 0,
                     "%s", err);
        cr_assert(s.ngroups > 0 && s.ncases > 0, "%s has tests", g.gl_pathv[i]);
        for (int c = 0; c < s.ncases; c++)
            cr_assert(s.cases[c].group >= 0 && s.cases[c].group < s.ngroups);
    }
    globfree(&g);
}

Test(suite, expansion)
{
    char err[256];
    const char *text = "lab lab9 dir=lab9-x files=a.cu,b.cu variants=v,w\n"
                       "# a comment\n\n"
                       "group id=g points=10 title=\"Some title\" hint=\"see TODO 1\"\n"
                       "cases group=g variant=v dtype=int32,float32 op=sum,max n=1,2^4+1,9 "
                       "seeds=1,2 kind=section-scan section=2^10 mode=inclusive,exclusive\n"
                       "speed group=g variant=v n=2^24 points=20 kind=scan mode=exclusive\n";
    const char *hidden = "group id=h points=5 visibility=hidden\n"
                         "cases group=h variant=w n=2^20 emu_max=2^16 tol=chain:64 "
                         "schedule=reverse threads=2\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(suite_parse_hidden(hidden, &s, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(s.lab, "lab9");
    cr_assert_str_eq(s.dir, "lab9-x");
    cr_assert_eq(s.nfiles, 2);
    cr_assert_str_eq(s.files[1], "b.cu");
    cr_assert_eq(s.ngroups, 2);
    cr_assert_str_eq(s.groups[0].title, "Some title");
    cr_assert_eq(s.ncases, 2 * 2 * 3 * 2 * 2 + 1);
    cr_assert_eq(s.cases[0].kind, KIND_SECTION_SCAN);
    cr_assert_eq(s.cases[0].section, 1024);
    cr_assert_eq(s.cases[4].n, 17, "order: dtype, op, dist, n, seed, mode (innermost)");
    cr_assert_eq(s.cases[1].exclusive, 1);
    const suite_case *last = &s.cases[s.ncases - 1];
    cr_assert_eq(last->group, 1);
    cr_assert_eq(last->visibility, VIS_HIDDEN, "cases inherit the group's visibility");
    cr_assert(last->emu_skip);
    cr_assert_str_eq(last->tol, "chain:64");
    cr_assert_str_eq(last->schedule, "reverse");
    cr_assert_eq(last->emu_threads, 2);
    cr_assert_str_eq(s.cases[0].schedule, "", "no schedule: the machine's own backend");
    cr_assert_eq(s.nspeed, 1);
    cr_assert(s.speed[0].exclusive && s.speed[0].kind == KIND_SCAN);
    cr_assert_float_eq(s.speed[0].points, 20, 1e-12);
}

Test(suite, errors_name_the_line)
{
    char err[256];
    struct { const char *text, *want; } bad[] = {
        {"group id=g points=1\n", "line 1: the first line is the lab line"},
        {"# nothing\n", "no 'lab' line"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ncases group=nope variant=v n=1\n", "line 2: cases need group"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=x\n", "needs points"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 dtype=int8\n",
         "bad dtype"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v\n", "need n="},
        {"lab lab1 dir=d files=a.cu variants=v,w\nfrobnicate x=1\n", "unknown directive"},
        {"lab lab1 dir=d files=../evil.cu variants=v,w\n", "file names only"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1 title=\"open\n", "unterminated"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ngroup id=g points=2\n", "twice"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 tol=x\n",
         "bad tol"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 "
         "kind=section-scan\n", "section="},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\nspeed group=g variant=v points=1\n",
         "speed needs n"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 "
         "schedule=backwards\n", "schedule is"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 "
         "schedule=random:-1\n", "SEED in decimal"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 "
         "schedule=random:+5\n", "SEED in decimal"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=1 threads=2\n",
         "together with schedule"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=9 emu_n=4\n",
         "emu_n=SIZE needs emu_max"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=9 emu_max=4 "
         "emu_n=5\n", "emu_n=SIZE needs emu_max"},
        {"lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\ncases group=g variant=v n=9 emu_max=4 "
         "emu_n=3 schedule=reverse\n", "no schedule="},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(suite_parse(bad[i].text, &s, err, sizeof err), -1, "accepted: %s", bad[i].text);
        cr_assert(strstr(err, bad[i].want), "error '%s' should mention '%s'", err, bad[i].want);
    }
}

/* emu_n: on the emulator, the sizes above emu_max stand in at emu_n; the
 * others, and every case on a GPU (suite_for_emulator not called), keep n. */
Test(suite, emu_n_stands_in_on_the_emulator)
{
    char err[256];
    const char *text = "lab lab1 dir=d files=a.cu variants=v,w\ngroup id=g points=1\n"
                       "cases group=g variant=v n=100,2^22+1 emu_max=2^21 emu_n=2^20+1\n"
                       "cases group=g variant=v n=2^26 emu_max=2^23\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.ncases, 3);
    cr_assert(!s.cases[0].emu_skip && s.cases[0].emu_n == 0, "n under emu_max: no stand-in");
    cr_assert(s.cases[1].emu_skip && s.cases[1].n == (1u << 22) + 1, "a GPU runs n itself");
    suite_for_emulator(&s);
    cr_assert_eq(s.cases[0].n, 100);
    cr_assert(!s.cases[1].emu_skip, "the stand-in runs on the emulator");
    cr_assert_eq(s.cases[1].n, (1u << 20) + 1);
    cr_assert(s.cases[2].emu_skip && s.cases[2].n == 1u << 26, "no emu_n: still skipped");
}
