/*
 * cli.c - a hand-written parser (no getopt state) so it can be called many
 * times in one test process.  Accepts "--name value", "--name=value" and
 * short forms; anything unknown is an error, never ignored.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

enum opt_id { O_HELP, O_SIZE, O_SEED, O_DTYPE, O_OP, O_DIST, O_VARIANT, O_EXCL, O_REPS,
              O_WARMUP, O_TIMEOUT, O_OUT, O_LIST, O_QUIET, O_VERIFY, O_CASES, O_PROGRESS,
              O_NO_RAW, O_GRADED, O_EXACT, O_ORDER, O_TUPLE, O_PRED };

static const struct {
    const char *lng, *shrt;
    int takes_value;
    enum opt_id id;
} options[] = {
    {"--help", "-h", 0, O_HELP},       {"--size", "-n", 1, O_SIZE},
    {"--seed", "-s", 1, O_SEED},       {"--dtype", "-t", 1, O_DTYPE},
    {"--op", "-p", 1, O_OP},           {"--dist", "-d", 1, O_DIST},
    {"--variant", "-v", 1, O_VARIANT}, {"--exclusive", "-x", 0, O_EXCL},
    {"--reps", "-r", 1, O_REPS},       {"--warmup", "-w", 1, O_WARMUP},
    {"--timeout", NULL, 1, O_TIMEOUT}, {"--out", NULL, 1, O_OUT},
    {"--list", NULL, 0, O_LIST},       {"--quiet", "-q", 0, O_QUIET},
    {"--verify", NULL, 1, O_VERIFY},   {"--cases", NULL, 1, O_CASES},
    {"--progress", NULL, 1, O_PROGRESS}, {"--no-raw", NULL, 0, O_NO_RAW},
    {"--graded", NULL, 0, O_GRADED},     {"--exact", NULL, 0, O_EXACT},
    {"--order", NULL, 1, O_ORDER},       {"--tuple", NULL, 1, O_TUPLE},
    {"--pred", NULL, 1, O_PRED},
};

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return CLI_ERROR; } while (0)

int cli_parse(int argc, char **argv, cli_opts *o, char *err, size_t errlen)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *eq = strchr(a, '=');
        size_t name_len = (eq && a[0] == '-' && a[1] == '-') ? (size_t)(eq - a) : strlen(a);
        int k, count = (int)(sizeof options / sizeof options[0]);

        for (k = 0; k < count; k++)
            if ((strlen(options[k].lng) == name_len && strncmp(a, options[k].lng, name_len) == 0) ||
                (options[k].shrt && strcmp(a, options[k].shrt) == 0))
                break;
        if (k == count)
            FAIL("unknown option '%s' (try --help)", a);
        if (options[k].takes_value) {
            if (a[name_len] == '=')
                v = a + name_len + 1;
            else if (i + 1 < argc)
                v = argv[++i];
            else
                FAIL("option %s needs a value", a);
        } else if (a[name_len] == '=') {
            FAIL("option %.*s takes no value", (int)name_len, a);
        }

        switch (options[k].id) {
        case O_HELP:
            return CLI_HELP;
        case O_SIZE:
            if (cli_parse_size(v, &o->n))
                FAIL("bad size '%s': give digits or 2^k, at most 2^30", v);
            break;
        case O_SEED: {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 10);
            if (errno || end == v || *end || *v == '-')
                FAIL("bad seed '%s': give a non-negative integer", v);
            break;
        }
        case O_DTYPE:
            if (dtype_parse(v, &o->dtype)) FAIL("bad dtype '%s': int32, float32 or int64", v);
            break;
        case O_OP:
            if (op_parse(v, &o->op)) FAIL("bad op '%s': sum, min or max", v);
            break;
        case O_DIST:
            if (dist_parse(v, &o->dist)) FAIL("bad dist '%s': small, ones or wide", v);
            break;
        case O_VARIANT:
            o->variant = v;
            break;
        case O_EXCL:
            o->exclusive = 1;
            break;
        case O_REPS:
            if (parse_int(v, 100000, &o->reps)) FAIL("bad reps '%s': 0..100000", v);
            break;
        case O_WARMUP:
            if (parse_int(v, 1000, &o->warmup)) FAIL("bad warmup '%s': 0..1000", v);
            break;
        case O_TIMEOUT: {
            char *end;
            o->timeout_s = strtod(v, &end);
            if (end == v || *end || !(o->timeout_s > 0 && o->timeout_s <= 3600))
                FAIL("bad timeout '%s': seconds in (0, 3600]", v);
            break;
        }
        case O_OUT:
            if (!*v) FAIL("--out needs a file prefix");
            o->out = v;
            break;
        case O_LIST:
            o->list = 1;
            break;
        case O_VERIFY:
            if (parse_int(v, 100000, &o->verify)) FAIL("bad verify count '%s': 0..100000", v);
            break;
        case O_QUIET:
            o->quiet = 1;
            break;
        case O_CASES:
            if (!*v) FAIL("--cases needs a file");
            o->cases = v;
            break;
        case O_EXACT:
            o->exact = 1;
            break;
        case O_GRADED:
            o->graded = 1;
            break;
        case O_NO_RAW:
            o->no_raw = 1;
            break;
        case O_ORDER:
            if (parse_int(v, KIT_MAX_ORDER, &o->order) || o->order < 1)
                FAIL("bad order '%s': 1..%d", v, KIT_MAX_ORDER);
            break;
        case O_TUPLE:
            if (parse_int(v, KIT_MAX_TUPLE, &o->tuple) || o->tuple < 1)
                FAIL("bad tuple size '%s': 1..%d", v, KIT_MAX_TUPLE);
            break;
        case O_PRED:
            if (pred_parse(v, &o->pred)) FAIL("bad predicate '%s': positive or mult4", v);
            break;
        case O_PROGRESS:
            if (!*v) FAIL("--progress needs a file");
            o->progress = v;
            break;
        }
    }
    return CLI_OK;
}
