/* test_cli.c - the lab binary's command line: defaults, every option, and
 * a clear error (never a silent default) for anything malformed. */
#include <criterion/criterion.h>
#include <string.h>

#include "cli.h"

static int parse(cli_opts *o, char *err, int argc, char **argv)
{
    cli_defaults(o);
    return cli_parse(argc, argv, o, err, 256);
}

#define PARSE(o, err, ...)                                               \
    ({                                                                   \
        char *argv_[] = {"lab", __VA_ARGS__};                            \
        parse(o, err, (int)(sizeof argv_ / sizeof argv_[0]), argv_);     \
    })

Test(cli, defaults)
{
    cli_opts o;
    char err[256];
    char *argv[] = {"lab"};
    cr_assert_eq(parse(&o, err, 1, argv), CLI_OK);
    cr_assert_eq(o.n, (size_t)1 << 20);
    cr_assert_eq(o.dtype, DT_INT32);
    cr_assert_eq(o.op, OP_SUM);
    cr_assert_eq(o.reps, 20);
    cr_assert_null(o.out);
}

Test(cli, every_option)
{
    cli_opts o;
    char err[256];
    int rc = PARSE(&o, err, "-n", "2^10+1", "--seed=9", "-t", "float32", "--op", "max", "-d",
                   "wide", "-v", "hierarchical", "-x", "-r", "0", "-w", "2", "--timeout", "1.5",
                   "--out", "/tmp/x", "-q", "--list", "--verify", "100");
    cr_assert_eq(rc, CLI_OK, "%s", err);
    cr_assert_eq(o.n, 1025);
    cr_assert_eq(o.seed, 9);
    cr_assert_eq(o.dtype, DT_FLOAT32);
    cr_assert_eq(o.op, OP_MAX);
    cr_assert_eq(o.dist, DIST_WIDE);
    cr_assert_str_eq(o.variant, "hierarchical");
    cr_assert(o.exclusive && o.quiet && o.list);
    cr_assert_eq(o.reps, 0);
    cr_assert_eq(o.warmup, 2);
    cr_assert_float_eq(o.timeout_s, 1.5, 1e-12);
    cr_assert_str_eq(o.out, "/tmp/x");
    cr_assert_eq(o.verify, 100);
}

Test(cli, help)
{
    cli_opts o;
    char err[256];
    cr_assert_eq(PARSE(&o, err, "--help"), CLI_HELP);
    cr_assert_eq(PARSE(&o, err, "-n", "5", "-h"), CLI_HELP);
}

Test(cli, errors_say_what_is_wrong)
{
    cli_opts o;
    char err[256];
    cr_assert_eq(PARSE(&o, err, "--frobnicate"), CLI_ERROR);
    cr_assert(strstr(err, "unknown option '--frobnicate'"), "%s", err);
    cr_assert_eq(PARSE(&o, err, "-n"), CLI_ERROR);
    cr_assert(strstr(err, "needs a value"), "%s", err);
    cr_assert_eq(PARSE(&o, err, "-n", "12abc"), CLI_ERROR);
    cr_assert(strstr(err, "bad size"), "%s", err);
    cr_assert_eq(PARSE(&o, err, "-n", "-5"), CLI_ERROR);
    cr_assert_eq(PARSE(&o, err, "-n", "2^31"), CLI_ERROR);
    cr_assert_eq(PARSE(&o, err, "-t", "double"), CLI_ERROR);
    cr_assert(strstr(err, "int32, float32 or int64"), "%s", err);
    cr_assert_eq(PARSE(&o, err, "--op", "prod"), CLI_ERROR);
    cr_assert_eq(PARSE(&o, err, "-r", "-1"), CLI_ERROR);
    cr_assert_eq(PARSE(&o, err, "--timeout", "0"), CLI_ERROR);
    cr_assert_eq(PARSE(&o, err, "--list=yes"), CLI_ERROR);
    cr_assert(strstr(err, "takes no value"), "%s", err);
    cr_assert_eq(PARSE(&o, err, "--seed", "-3"), CLI_ERROR);
    cr_assert_eq(PARSE(&o, err, "-n", "8", "extra"), CLI_ERROR, "a word that is no option");
    cr_assert(strstr(err, "unknown option 'extra'"), "%s", err);
    cr_assert_eq(PARSE(&o, err, "--order=9"), CLI_ERROR);
    cr_assert(strstr(err, "bad order"), "%s", err);
}

Test(cli, sizes)
{
    size_t n;
    cr_assert_eq(cli_parse_size("0", &n), 0);
    cr_assert_eq(n, 0);
    cr_assert_eq(cli_parse_size("2^30", &n), 0);
    cr_assert_eq(n, (size_t)1 << 30);
    cr_assert_eq(cli_parse_size("2^20-1", &n), 0);
    cr_assert_eq(n, ((size_t)1 << 20) - 1);
    cr_assert_eq(cli_parse_size("2^30+1", &n), -1, "over the limit");
    cr_assert_eq(cli_parse_size("2^3-9", &n), -1, "negative");
    cr_assert_eq(cli_parse_size("", &n), -1);
    cr_assert_eq(cli_parse_size("2^", &n), -1);
    cr_assert_eq(cli_parse_size("1e6", &n), -1);
}
