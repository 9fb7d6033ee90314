/* test_suite_emu_memory.c - the lab line's emu_memory= key (CUEMU_MEMORY of
 * every emulator run of a lab): handed to every case wherever the lab line
 * is, refused when malformed, and set in the environment of a case's run by
 * emu_env_set, which puts the caller's value back afterwards. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "suite.h"

static suite s;

Test(suite_emu_memory, every_case_gets_the_lab_value)
{
    char err[256];
    const char *text = "lab lab9 dir=lab9-x files=a.cu variants=v,w emu_memory=weak:17\n"
                       "group id=g points=10\n"
                       "cases group=g variant=v n=1,2\n"
                       "cases group=g variant=w n=3 schedule=reverse threads=2\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.ncases, 3);
    for (int i = 0; i < s.ncases; i++)
        cr_expect_str_eq(s.cases[i].emu_memory, "weak:17", "case %d", i);
}

Test(suite_emu_memory, absent_means_the_emulator_default)
{
    char err[256];
    const char *text = "lab lab9 dir=lab9-x files=a.cu variants=v\ngroup id=g points=1\n"
                       "cases group=g variant=v n=1\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(s.cases[0].emu_memory, "");
}

Test(suite_emu_memory, malformed_values_are_refused)
{
    const char *bad[] = {"weakest", "weak:", "weak:x", "weak:1x", "relaxed", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[256], err[256];
        snprintf(text, sizeof text, "lab lab9 dir=d files=a.cu variants=v emu_memory=%s\n"
                                    "group id=g points=1\ncases group=g variant=v n=1\n", bad[i]);
        cr_expect_eq(suite_parse(text, &s, err, sizeof err), -1, "'%s' accepted", bad[i]);
        cr_expect(strstr(err, "line 1:") != NULL && strstr(err, "emu_memory") != NULL,
                  "'%s': %s", bad[i], err);
    }
}

Test(suite_emu_memory, emu_env_sets_and_restores_cuemu_memory)
{
    suite_case c;
    emu_env saved;
    memset(&c, 0, sizeof c);
    snprintf(c.emu_memory, sizeof c.emu_memory, "weak:3");
    setenv("CUEMU_MEMORY", "strong", 1);
    emu_env_set(&c, 10, &saved);
    cr_expect_str_eq(getenv("CUEMU_MEMORY"), "weak:3");
    emu_env_restore(&saved);
    cr_expect_str_eq(getenv("CUEMU_MEMORY"), "strong");
    unsetenv("CUEMU_MEMORY");
    c.emu_memory[0] = '\0';
    emu_env_set(&c, 10, &saved);
    cr_expect_null(getenv("CUEMU_MEMORY"), "a case without the key leaves it unset");
    emu_env_restore(&saved);
    cr_expect_null(getenv("CUEMU_MEMORY"));
}

/* Graded emulator runs read never-written device memory as the emulator's
 * 0xcd bytes (CUEMU_FRESH=poison), as before initcheck.cpp existed; the
 * caller's own setting comes back afterwards. */
Test(suite_emu_memory, emu_env_sets_poison_fresh_memory_and_restores_it)
{
    suite_case c;
    emu_env saved;
    memset(&c, 0, sizeof c);
    unsetenv("CUEMU_FRESH");
    emu_env_set(&c, 10, &saved);
    cr_expect_str_eq(getenv("CUEMU_FRESH"), "poison");
    emu_env_restore(&saved);
    cr_expect_null(getenv("CUEMU_FRESH"));
    setenv("CUEMU_FRESH", "zero", 1);
    emu_env_set(&c, 10, &saved);
    cr_expect_str_eq(getenv("CUEMU_FRESH"), "poison");
    emu_env_restore(&saved);
    cr_expect_str_eq(getenv("CUEMU_FRESH"), "zero");
    unsetenv("CUEMU_FRESH");
}
