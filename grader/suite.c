/*
 * suite.c - parser of the line-based suite format.  Each line is a
 * directive followed by key=value fields (values may be "quoted"); a
 * `cases` line expands into the cartesian product of its comma-separated
 * lists, so one line can describe a whole table of edge sizes.
 */
#include "suite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"

#define MAX_FIELDS 24
#define MAX_LIST 64

typedef struct {
    char key[32];
    char value[SUITE_TEXT * 2];
} field;

/* Split a line into directive words and key=value fields. */
static int tokenize(const char *line, char words[2][32], int *nwords, field *f, int *nf,
                    char *err, size_t errlen)
{
    const char *p = line;
    *nwords = *nf = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '=')
            p++;
        size_t klen = (size_t)(p - start);
        if (*p != '=') { /* a bare word: the directive or the lab name */
            if (*nwords >= 2 || klen >= 32)
                return snprintf(err, errlen, "unexpected word '%.*s'", (int)klen, start), -1;
            memcpy(words[*nwords], start, klen);
            words[(*nwords)++][klen] = '\0';
            continue;
        }
        if (*nf >= MAX_FIELDS || klen == 0 || klen >= sizeof f->key)
            return snprintf(err, errlen, "bad field near '%.20s'", start), -1;
        memcpy(f[*nf].key, start, klen);
        f[*nf].key[klen] = '\0';
        p++; /* '=' */
        size_t o = 0;
        char quote = (*p == '"') ? *p++ : 0;
        while (*p && (quote ? *p != quote : (*p != ' ' && *p != '\t'))) {
            if (o + 1 >= sizeof f->value)
                return snprintf(err, errlen, "value of %s too long", f[*nf].key), -1;
            f[*nf].value[o++] = *p++;
        }
        if (quote) {
            if (*p != quote)
                return snprintf(err, errlen, "unterminated quote in %s", f[*nf].key), -1;
            p++;
        }
        f[*nf].value[o] = '\0';
        (*nf)++;
    }
    return 0;
}

static const char *get(const field *f, int nf, const char *key)
{
    for (int i = 0; i < nf; i++)
        if (strcmp(f[i].key, key) == 0)
            return f[i].value;
    return NULL;
}

/* Split "a,b,c" into items (in place copies). */
static int split_list(const char *s, char items[MAX_LIST][48])
{
    int n = 0;
    while (s && *s && n < MAX_LIST) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (len >= 48)
            len = 47;
        memcpy(items[n], s, len);
        items[n++][len] = '\0';
        s = comma ? comma + 1 : NULL;
    }
    return n;
}

static int find_group(const suite *s, const char *id)
{
    for (int i = 0; i < s->ngroups; i++)
        if (strcmp(s->groups[i].id, id) == 0)
            return i;
    return -1;
}

static int parse_visibility(const char *v, visibility_t *out)
{
    if (!v || strcmp(v, "visible") == 0) *out = VIS_VISIBLE;
    else if (strcmp(v, "hidden") == 0) *out = VIS_HIDDEN;
    else if (strcmp(v, "after_due_date") == 0) *out = VIS_AFTER_DUE;
    else return -1;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    if (!s) return -1;
    errno = 0;
    *out = strtod(s, &end);
    return (errno || end == s || *end || *out < 0) ? -1 : 0;
}

/* schedule=inorder|reverse|random[:SEED] and threads=N: an emulator run. */
static int parse_schedule(const field *f, int nf, suite_case *k, char *err, size_t errlen)
{
    const char *s = get(f, nf, "schedule"), *t = get(f, nf, "threads");
    if (s) {
        unsigned long seed;
        char tail;
        if (strcmp(s, "inorder") && strcmp(s, "reverse") && strcmp(s, "random") &&
            sscanf(s, "random:%lu%c", &seed, &tail) != 1)
            return snprintf(err, errlen, "schedule is inorder, reverse or random[:SEED]"), -1;
        if (strlen(s) >= sizeof k->schedule)
            return snprintf(err, errlen, "schedule too long"), -1;
        snprintf(k->schedule, sizeof k->schedule, "%s", s);
    }
    if (t) {
        char *end;
        long v = strtol(t, &end, 10);
        if (*end || v < 1 || v > 64 || !s)
            return snprintf(err, errlen, "threads=1..64, together with schedule="), -1;
        k->emu_threads = (int)v;
    }
    return 0;
}

/* kind=reduce|scan|section-scan (default reduce); section=N for section scans. */
static int parse_kind(const field *f, int nf, kind_t *kind, size_t *section, char *err,
                      size_t errlen)
{
    const char *k = get(f, nf, "kind");
    *section = 0;
    if (kind_parse(k ? k : "reduce", kind))
        return snprintf(err, errlen, "kind is reduce, scan or section-scan"), -1;
    if (*kind == KIND_SECTION_SCAN &&
        (cli_parse_size(get(f, nf, "section"), section) || *section == 0))
        return snprintf(err, errlen, "section-scan needs section=N"), -1;
    return 0;
}

/*
 * Lab 7's keys: order=K and tuple=D (decodes, 1..8 each) and pred=NAME
 * (compactions), each a list on a cases line.  Lists of the names and
 * numbers go to orders/tuples/preds; a key the kind does not take is an
 * error.  Returns the three list lengths through counts[].
 */
static int parse_lab7_keys(const field *f, int nf, kind_t kind, char orders[MAX_LIST][48],
                           char tuples[MAX_LIST][48], char preds[MAX_LIST][48], int counts[3],
                           char *err, size_t errlen)
{
    const char *o = get(f, nf, "order"), *t = get(f, nf, "tuple"), *p = get(f, nf, "pred");
    if ((o || t) && kind != KIND_DECODE)
        return snprintf(err, errlen, "order= and tuple= go with kind=decode"), -1;
    if (p && kind != KIND_COMPACT)
        return snprintf(err, errlen, "pred= goes with kind=compact"), -1;
    counts[0] = split_list(o ? o : "1", orders);
    counts[1] = split_list(t ? t : "1", tuples);
    counts[2] = split_list(p ? p : "positive", preds);
    return 0;
}

/* One order, tuple size and predicate from their names; -1 (err) if bad. */
static int lab7_values(const char *o, const char *t, const char *p, int *order, int *tuple,
                       pred_t *pred, char *err, size_t errlen)
{
    char *end;
    long k = strtol(o, &end, 10), d;
    if (*end || k < 1 || k > KIT_MAX_ORDER)
        return snprintf(err, errlen, "order is 1..%d, not '%s'", KIT_MAX_ORDER, o), -1;
    d = strtol(t, &end, 10);
    if (*end || d < 1 || d > KIT_MAX_TUPLE)
        return snprintf(err, errlen, "tuple is 1..%d, not '%s'", KIT_MAX_TUPLE, t), -1;
    if (pred_parse(p, pred))
        return snprintf(err, errlen, "pred is positive or mult4, not '%s'", p), -1;
    *order = (int)k, *tuple = (int)d;
    return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int parse_group(suite *s, const field *f, int nf, char *err, size_t errlen)
{
    const char *id = get(f, nf, "id");
    if (s->ngroups >= SUITE_MAX_GROUPS) FAIL("too many groups");
    if (!id || !*id || strlen(id) >= 32) FAIL("group needs id=NAME (< 32 chars)");
    if (find_group(s, id) >= 0) FAIL("group '%s' defined twice", id);
    suite_group *g = &s->groups[s->ngroups];
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->title, sizeof g->title, "%s", get(f, nf, "title") ? get(f, nf, "title") : id);
    snprintf(g->hint, sizeof g->hint, "%s", get(f, nf, "hint") ? get(f, nf, "hint") : "");
    if (parse_double(get(f, nf, "points"), &g->points)) FAIL("group %s needs points=N", id);
    if (parse_visibility(get(f, nf, "visibility"), &g->visibility))
        FAIL("visibility must be visible, hidden or after_due_date");
    s->ngroups++;
    return 0;
}

/* A cases line: the cartesian product of dtype x op x dist x n x seed x mode. */
static int parse_cases(suite *s, const field *f, int nf, char *err, size_t errlen)
{
    static char dtypes[MAX_LIST][48], ops[MAX_LIST][48], dists[MAX_LIST][48], ns[MAX_LIST][48],
        seeds[MAX_LIST][48], modes[MAX_LIST][48], orders[MAX_LIST][48], tuples[MAX_LIST][48],
        preds[MAX_LIST][48];
    int n7[3];
    kind_t line_kind;
    size_t line_section;
    const char *gid = get(f, nf, "group"), *variant = get(f, nf, "variant");
    int g = gid ? find_group(s, gid) : -1;
    if (g < 0) FAIL("cases need group=ID of a group defined above");
    if (!variant || strlen(variant) >= 32) FAIL("cases need variant=NAME");
    int nd = split_list(get(f, nf, "dtype") ? get(f, nf, "dtype") : "int32", dtypes);
    int no = split_list(get(f, nf, "op") ? get(f, nf, "op") : "sum", ops);
    int ndi = split_list(get(f, nf, "dist") ? get(f, nf, "dist") : "small", dists);
    int nn = split_list(get(f, nf, "n"), ns);
    int nsd = split_list(get(f, nf, "seeds") ? get(f, nf, "seeds") : "1", seeds);
    int nm = split_list(get(f, nf, "mode") ? get(f, nf, "mode") : "inclusive", modes);
    const char *tol = get(f, nf, "tol") ? get(f, nf, "tol") : "log2n";
    size_t emu_max = 0;
    visibility_t vis = s->groups[g].visibility;
    if (get(f, nf, "visibility") && parse_visibility(get(f, nf, "visibility"), &vis))
        FAIL("visibility must be visible, hidden or after_due_date");
    if (nn == 0) FAIL("cases need n=LIST");
    if (get(f, nf, "emu_max") && cli_parse_size(get(f, nf, "emu_max"), &emu_max))
        FAIL("bad emu_max");
    if (strlen(tol) >= 32 || tol_depth(tol, 1) < 0) FAIL("bad tol '%s'", tol);
    if (parse_kind(f, nf, &line_kind, &line_section, err, errlen) ||
        parse_lab7_keys(f, nf, line_kind, orders, tuples, preds, n7, err, errlen))
        return -1;

    for (int a = 0; a < nd; a++) for (int b = 0; b < no; b++) for (int c = 0; c < ndi; c++)
    for (int d = 0; d < nn; d++) for (int e = 0; e < nsd; e++) for (int m = 0; m < nm; m++)
    for (int o7 = 0; o7 < n7[0]; o7++) for (int t7 = 0; t7 < n7[1]; t7++)
    for (int p7 = 0; p7 < n7[2]; p7++) {
        if (s->ncases >= SUITE_MAX_CASES) FAIL("too many cases (at most %d)", SUITE_MAX_CASES);
        suite_case *k = &s->cases[s->ncases];
        memset(k, 0, sizeof *k);
        k->group = g;
        snprintf(k->variant, sizeof k->variant, "%s", variant);
        snprintf(k->tol, sizeof k->tol, "%s", tol);
        k->visibility = vis;
        if (dtype_parse(dtypes[a], &k->dtype)) FAIL("bad dtype '%s'", dtypes[a]);
        if (op_parse(ops[b], &k->op)) FAIL("bad op '%s'", ops[b]);
        if (dist_parse(dists[c], &k->dist)) FAIL("bad dist '%s'", dists[c]);
        if (cli_parse_size(ns[d], &k->n)) FAIL("bad n '%s'", ns[d]);
        char *end;
        k->seed = strtoull(seeds[e], &end, 10);
        if (*end || end == seeds[e]) FAIL("bad seed '%s'", seeds[e]);
        if (strcmp(modes[m], "exclusive") == 0) k->exclusive = 1;
        else if (strcmp(modes[m], "inclusive") != 0) FAIL("mode is inclusive or exclusive");
        k->emu_skip = emu_max && k->n > emu_max;
        if (parse_schedule(f, nf, k, err, errlen)) return -1;
        k->kind = line_kind;
        k->section = line_section;
        if (lab7_values(orders[o7], tuples[t7], preds[p7], &k->order, &k->tuple, &k->pred, err,
                        errlen))
            return -1;
        s->ncases++;
    }
    return 0;
}

static int parse_speed(suite *s, const field *f, int nf, char *err, size_t errlen)
{
    const char *gid = get(f, nf, "group"), *variant = get(f, nf, "variant");
    int g = gid ? find_group(s, gid) : -1;
    if (s->nspeed >= SUITE_MAX_SPEED) FAIL("too many speed tests");
    if (g < 0) FAIL("speed needs group=ID: points only when that group passes");
    if (!variant || strlen(variant) >= 32) FAIL("speed needs variant=NAME");
    suite_speed *k = &s->speed[s->nspeed];
    memset(k, 0, sizeof *k);
    k->group = g;
    snprintf(k->variant, sizeof k->variant, "%s", variant);
    if (dtype_parse(get(f, nf, "dtype") ? get(f, nf, "dtype") : "int32", &k->dtype)) FAIL("bad dtype");
    if (op_parse(get(f, nf, "op") ? get(f, nf, "op") : "sum", &k->op)) FAIL("bad op");
    if (cli_parse_size(get(f, nf, "n"), &k->n)) FAIL("speed needs n=SIZE");
    if (parse_double(get(f, nf, "points"), &k->points)) FAIL("speed needs points=N");
    k->exclusive = get(f, nf, "mode") && strcmp(get(f, nf, "mode"), "exclusive") == 0;
    if (parse_kind(f, nf, &k->kind, &k->section, err, errlen)) return -1;
    {
        static char orders[MAX_LIST][48], tuples[MAX_LIST][48], preds[MAX_LIST][48];
        int n7[3];
        if (parse_lab7_keys(f, nf, k->kind, orders, tuples, preds, n7, err, errlen) ||
            lab7_values(orders[0], tuples[0], preds[0], &k->order, &k->tuple, &k->pred, err, errlen))
            return -1;
        if (n7[0] > 1 || n7[1] > 1 || n7[2] > 1)
            FAIL("a speed test takes one order, tuple and pred");
    }
    s->nspeed++;
    return 0;
}

/* sanitize [tools=memcheck,racecheck,synccheck] [penalty=F] [max_n=SIZE] */
static int parse_sanitize(suite *s, const field *f, int nf, char *err, size_t errlen)
{
    static char items[MAX_LIST][48];
    const char *tools = get(f, nf, "tools"), *penalty = get(f, nf, "penalty");
    const char *max_n = get(f, nf, "max_n");
    for (int i = 0; i < nf; i++)
        if (strcmp(f[i].key, "tools") && strcmp(f[i].key, "penalty") && strcmp(f[i].key, "max_n"))
            FAIL("sanitize takes tools=, penalty= and max_n=, not '%s'", f[i].key);
    if (tools) {
        int n = split_list(tools, items);
        s->sanitize.tools = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(items[i], "memcheck") == 0) s->sanitize.tools |= SAN_MEMCHECK;
            else if (strcmp(items[i], "racecheck") == 0) s->sanitize.tools |= SAN_RACECHECK;
            else if (strcmp(items[i], "synccheck") == 0) s->sanitize.tools |= SAN_SYNCCHECK;
            else FAIL("sanitize tools are memcheck, racecheck and synccheck, not '%s'", items[i]);
        }
    }
    if (penalty && (parse_double(penalty, &s->sanitize.penalty) || s->sanitize.penalty > 1))
        FAIL("sanitize penalty is a fraction of the group's points, 0 to 1");
    if (max_n && (cli_parse_size(max_n, &s->sanitize.max_n) || s->sanitize.max_n == 0))
        FAIL("bad sanitize max_n '%s'", max_n);
    return 0;
}

static int parse_lab(suite *s, const char *name, const field *f, int nf, char *err, size_t errlen)
{
    const char *dir = get(f, nf, "dir"), *files = get(f, nf, "files"), *forbid = get(f, nf, "forbid");
    if (forbid && strlen(forbid) >= sizeof s->forbid) FAIL("forbid list too long");
    snprintf(s->forbid, sizeof s->forbid, "%s", forbid ? forbid : "");
    static char items[MAX_LIST][48];
    if (!name || strlen(name) >= sizeof s->lab) FAIL("lab needs a name: lab lab1 dir=... files=...");
    if (!dir || !*dir || strlen(dir) >= sizeof s->dir) FAIL("lab needs dir=FOLDER");
    if (!files) FAIL("lab needs files=a.cu,b.cu");
    snprintf(s->lab, sizeof s->lab, "%s", name);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    s->nfiles = split_list(files, items);
    if (s->nfiles > 8) FAIL("at most 8 files");
    for (int i = 0; i < s->nfiles; i++) {
        if (strchr(items[i], '/') || items[i][0] == '.') FAIL("file names only: '%s'", items[i]);
        snprintf(s->files[i], sizeof s->files[i], "%s", items[i]);
    }
    return 0;
}

int suite_parse(const char *text, suite *s, char *err, size_t errlen)
{
    char line[1024], msg[200];
    int lineno = 0;
    memset(s, 0, sizeof *s);
    s->sanitize = (suite_sanitize){SAN_ALL, 0.25, (size_t)1 << 16};
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "line %d: too long", lineno);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (nl ? 1 : 0);

        char words[2][32];
        field f[MAX_FIELDS];
        int nw, nf, rc = 0;
        msg[0] = '\0';
        if (tokenize(line, words, &nw, f, &nf, msg, sizeof msg))
            rc = -1;
        else if (nw == 0 && nf == 0)
            continue;
        else if (nw == 0)
            rc = (snprintf(msg, sizeof msg,
                           "a line starts with lab, group, cases, speed or sanitize"), -1);
        else if (strcmp(words[0], "lab") == 0)
            rc = parse_lab(s, nw > 1 ? words[1] : NULL, f, nf, msg, sizeof msg);
        else if (nw > 1)
            rc = (snprintf(msg, sizeof msg, "unexpected word '%s'", words[1]), -1);
        else if (strcmp(words[0], "group") == 0)
            rc = parse_group(s, f, nf, msg, sizeof msg);
        else if (strcmp(words[0], "cases") == 0)
            rc = parse_cases(s, f, nf, msg, sizeof msg);
        else if (strcmp(words[0], "speed") == 0)
            rc = parse_speed(s, f, nf, msg, sizeof msg);
        else if (strcmp(words[0], "sanitize") == 0)
            rc = parse_sanitize(s, f, nf, msg, sizeof msg);
        else
            rc = (snprintf(msg, sizeof msg, "unknown directive '%s'", words[0]), -1);
        if (rc) {
            snprintf(err, errlen, "line %d: %s", lineno, msg);
            return -1;
        }
    }
    if (!s->lab[0]) {
        snprintf(err, errlen, "no 'lab' line");
        return -1;
    }
    return 0;
}

int suite_load(const char *path, suite *s, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    int too_long = !feof(f);
    fclose(f);
    if (too_long) {
        snprintf(err, errlen, "%s: larger than %zu bytes", path, sizeof text - 1);
        return -1;
    }
    text[len] = '\0';
    char inner[200];
    if (suite_parse(text, s, inner, sizeof inner)) {
        snprintf(err, errlen, "%s: %s", path, inner);
        return -1;
    }
    return 0;
}
