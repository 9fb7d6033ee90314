/*
 * cli.c - a lab binary's command line, read with getopt_long: "--name
 * value", "--name=value" and short forms; anything unknown is an error,
 * never ignored.  cli_parse may be called many times in one process (a
 * case list, the tests).
 */
#define _GNU_SOURCE /* optind = 0: getopt_long starts afresh */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "witness_mark.h"

void cli_defaults(cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->n = (size_t)1 << 20;
    o->seed = 1;
    o->dtype = DT_INT32;
    o->op = OP_SUM;
    o->dist = DIST_SMALL;
    o->reps = 20;
    o->warmup = 3;
    o->timeout_s = 20.0;
    o->order = 1;
    o->tuple = 1;
    o->pred = PRED_POSITIVE;
    o->witness_mark = -1;
}

void cli_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options]\n"
            "Runs this lab's kernel on generated input, checks it against a CPU reference\n"
            "and times it next to a device-to-device copy of the same bytes.\n"
            "  -n, --size N         input elements: digits, 2^k or 2^k+d (default 2^20, max 2^30)\n"
            "  -s, --seed S         input seed (default 1)\n"
            "  -t, --dtype T        int32 | float32 | int64 (default int32)\n"
            "  -p, --op OP          sum | min | max (default sum)\n"
            "  -d, --dist D         small | ones | wide (default small)\n"
            "  -v, --variant NAME   kernel variant (default: the lab's main one; see --list)\n"
            "  -x, --exclusive      exclusive scan (scan labs)\n"
            "      --order K        decode: order of the delta encoding, 1..8 (lab 7; default 1)\n"
            "      --tuple D        decode: components per record, 1..8 (lab 7; default 1)\n"
            "      --pred P         compaction keeps: positive (x > 0) | mult4 (x %% 4 == 0)\n"
            "  -r, --reps R         timed runs after warm-up (default 20; 0: check only)\n"
            "  -w, --warmup W       untimed runs before timing (default 3)\n"
            "      --timeout SEC    give up (exit 124) when a run takes longer (default 20)\n"
            "      --out PREFIX     write PREFIX.json (result) and PREFIX.bin (raw output)\n"
            "      --verify R       R extra launches, each output compared with the first\n"
            "      --list           list the variants of this lab\n"
            "      --cases FILE     run each line of FILE as a case: ID then options\n"
            "                       (the grader's way of running many cases in one process)\n"
            "      --progress FILE  with --cases: record \"begin ID\" and \"end ID RC\" there\n"
            "      --no-raw         with --out: write PREFIX.json only, no raw output\n"
            "      --graded         leave out this binary's own check (the grader judges)\n"
            "      --exact          buffers of exactly n elements: no guard band, no poison\n"
            "                       (for compute-sanitizer: memcheck sees every stray access)\n"
            "      --witness        launch no kernel but the lab's (timed by a profiler outside)\n"
            "      --witness-mark K with --witness, in a case list: first launch the kit's one\n"
            "                       marker kernel, grid K+1, so the profiler's table splits by case\n"
            "      --trace FILE     emulator only: record every access of the lab's first run\n"
            "                       into FILE (make draw draws it: common/tools/draw.py)\n"
            "      --traffic        emulator only: count the first run's global memory traffic\n"
            "  -q, --quiet          print only the summary line\n"
            "  -h, --help           this text\n",
            prog);
}

int cli_parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    if (s[0] == '2' && s[1] == '^') { /* 2^k, optionally +d or -d */
        errno = 0;
        unsigned long k = strtoul(s + 2, &end, 10);
        if (errno || end == s + 2 || k > 40)
            return -1;
        v = 1ULL << k;
        if (*end == '+' || *end == '-') {
            char sign = *end;
            const char *d = end + 1;
            unsigned long long delta = strtoull(d, &end, 10);
            if (end == d || *d == '-' || *d == '+' || (sign == '-' && delta > v))
                return -1;
            v = sign == '+' ? v + delta : v - delta;
        }
        if (*end)
            return -1;
    } else {
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno || end == s || *end)
            return -1;
    }
    if (v > CLI_MAX_N)
        return -1;
    *out = (size_t)v;
    return 0;
}

/* Parse a non-negative int no larger than max. */
static int parse_int(const char *s, int max, int *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : -1;
    if (!s || errno || end == s || *end || v < 0 || v > max)
        return -1;
    *out = (int)v;
    return 0;
}

/* The long options without a short form, numbered above any character. */
enum { O_TIMEOUT = 256, O_OUT, O_LIST, O_VERIFY, O_CASES, O_PROGRESS, O_NO_RAW, O_GRADED,
       O_EXACT, O_ORDER, O_TUPLE, O_PRED, O_WITNESS, O_TRACE, O_TRAFFIC, O_WITNESS_MARK };

static const struct option longs[] = {
    {"help", no_argument, NULL, 'h'},           {"size", required_argument, NULL, 'n'},
    {"seed", required_argument, NULL, 's'},     {"dtype", required_argument, NULL, 't'},
    {"op", required_argument, NULL, 'p'},       {"dist", required_argument, NULL, 'd'},
    {"variant", required_argument, NULL, 'v'},  {"exclusive", no_argument, NULL, 'x'},
    {"reps", required_argument, NULL, 'r'},     {"warmup", required_argument, NULL, 'w'},
    {"quiet", no_argument, NULL, 'q'},          {"timeout", required_argument, NULL, O_TIMEOUT},
    {"out", required_argument, NULL, O_OUT},    {"list", no_argument, NULL, O_LIST},
    {"verify", required_argument, NULL, O_VERIFY}, {"cases", required_argument, NULL, O_CASES},
    {"progress", required_argument, NULL, O_PROGRESS},
    {"no-raw", no_argument, NULL, O_NO_RAW},    {"graded", no_argument, NULL, O_GRADED},
    {"exact", no_argument, NULL, O_EXACT},      {"order", required_argument, NULL, O_ORDER},
    {"tuple", required_argument, NULL, O_TUPLE}, {"pred", required_argument, NULL, O_PRED},
    {"witness", no_argument, NULL, O_WITNESS}, {"trace", required_argument, NULL, O_TRACE},
    {"traffic", no_argument, NULL, O_TRAFFIC},
    {"witness-mark", required_argument, NULL, O_WITNESS_MARK},
    {NULL, 0, NULL, 0}};
/* '+': stop at the first word that is not an option (an error below);
 * ':': a missing value is told apart from an unknown option. */
static const char shorts[] = "+:hn:s:t:p:d:v:xr:w:q";

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* Values that are numbers, into o; 0, or -1 with the message in err. */
static int take_number(int c, const char *v, cli_opts *o, char *err, size_t errlen)
{
    char *end;
    switch (c) {
    case 'n':
        if (cli_parse_size(v, &o->n)) FAIL("bad size '%s': give digits or 2^k, at most 2^30", v);
        return 0;
    case 's':
        errno = 0;
        o->seed = strtoull(v, &end, 10);
        if (errno || end == v || *end || *v == '-')
            FAIL("bad seed '%s': give a non-negative integer", v);
        return 0;
    case 'r':
        if (parse_int(v, 100000, &o->reps)) FAIL("bad reps '%s': 0..100000", v);
        return 0;
    case 'w':
        if (parse_int(v, 1000, &o->warmup)) FAIL("bad warmup '%s': 0..1000", v);
        return 0;
    case O_TIMEOUT:
        o->timeout_s = strtod(v, &end);
        if (end == v || *end || !(o->timeout_s > 0 && o->timeout_s <= 3600))
            FAIL("bad timeout '%s': seconds in (0, 3600]", v);
        return 0;
    case O_VERIFY:
        if (parse_int(v, 100000, &o->verify)) FAIL("bad verify count '%s': 0..100000", v);
        return 0;
    case O_ORDER:
        if (parse_int(v, KIT_MAX_ORDER, &o->order) || o->order < 1)
            FAIL("bad order '%s': 1..%d", v, KIT_MAX_ORDER);
        return 0;
    case O_TUPLE:
        if (parse_int(v, KIT_MAX_TUPLE, &o->tuple) || o->tuple < 1)
            FAIL("bad tuple size '%s': 1..%d", v, KIT_MAX_TUPLE);
        return 0;
    case O_WITNESS_MARK:
        if (parse_int(v, KIT_WITNESS_MARK_MAX, &o->witness_mark))
            FAIL("bad witness mark '%s': 0..%d", v, KIT_WITNESS_MARK_MAX);
        return 0;
    }
    return 1; /* not a number option */
}

/* Every other option into o; 0, or -1 with the message in err. */
static int take_option(int c, const char *v, cli_opts *o, char *err, size_t errlen)
{
    int rc = take_number(c, v, o, err, errlen);
    if (rc <= 0)
        return rc;
    switch (c) {
    case 't': if (dtype_parse(v, &o->dtype)) FAIL("bad dtype '%s': int32, float32 or int64", v); break;
    case 'p': if (op_parse(v, &o->op)) FAIL("bad op '%s': sum, min or max", v); break;
    case 'd': if (dist_parse(v, &o->dist)) FAIL("bad dist '%s': small, ones or wide", v); break;
    case O_PRED: if (pred_parse(v, &o->pred)) FAIL("bad predicate '%s': positive or mult4", v); break;
    case 'v': o->variant = v; break;
    case 'x': o->exclusive = 1; break;
    case 'q': o->quiet = 1; break;
    case O_LIST: o->list = 1; break;
    case O_EXACT: o->exact = 1; break;
    case O_WITNESS: o->witness = 1; break;
    case O_GRADED: o->graded = 1; break;
    case O_NO_RAW: o->no_raw = 1; break;
    case O_OUT: if (!*v) FAIL("--out needs a file prefix"); o->out = v; break;
    case O_CASES: if (!*v) FAIL("--cases needs a file"); o->cases = v; break;
    case O_PROGRESS: if (!*v) FAIL("--progress needs a file"); o->progress = v; break;
    case O_TRACE: if (!*v) FAIL("--trace needs a file"); o->trace = v; break;
    case O_TRAFFIC: o->traffic = 1; break;
    }
    return 0;
}

/* What was wrong with word `a`, which getopt_long refused ('?') or found
 * without its value (':'), in the kit's words. */
static void refused(int c, const char *a, char *err, size_t errlen)
{
    size_t len = strcspn(a, "=");
    if (c == ':') {
        snprintf(err, errlen, "option %s needs a value", a);
        return;
    }
    for (int k = 0; a[0] == '-' && a[1] == '-' && longs[k].name; k++)
        if (strlen(longs[k].name) == len - 2 && strncmp(a + 2, longs[k].name, len - 2) == 0 &&
            longs[k].has_arg == no_argument && a[len] == '=') {
            snprintf(err, errlen, "option %.*s takes no value", (int)len, a);
            return;
        }
    snprintf(err, errlen, "unknown option '%s' (try --help)", a);
}

/* getopt_long's state is global; optind = 0 starts it afresh, so a case
 * list (caselist.c) can parse one line after another in one process. */
int cli_parse(int argc, char **argv, cli_opts *o, char *err, size_t errlen)
{
    int c;
    optind = 0;
    opterr = 0; /* the messages are refused()'s */
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == 'h')
            return CLI_HELP;
        if (c == '?' || c == ':') {
            refused(c, argv[optind - 1], err, errlen);
            return CLI_ERROR;
        }
        if (take_option(c, optarg, o, err, errlen))
            return CLI_ERROR;
    }
    if (optind < argc) {
        snprintf(err, errlen, "unknown option '%s' (try --help)", argv[optind]);
        return CLI_ERROR;
    }
    return CLI_OK;
}
