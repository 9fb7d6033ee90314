/*
 * suite.c - parser of the line-based suite format.  Each line is a
 * directive followed by key=value fields (values may be "quoted"); a
 * `cases` line expands into the cartesian product of its comma-separated
 * lists, so one line can describe a whole table of edge sizes.  Strict:
 * every key, list item and value must mean something (suite_keys.h), since
 * a silently ignored typo grades a different test than the one written.
 */
#include "suite.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "suite_keys.h"

#define MAX_FIELDS 24
#define MAX_LIST 64

typedef suite_field field;

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

/* Split "a,b,c" into items; -1 (why in err) for an empty or too long item
 * or too many: none is dropped or cut silently. */
static int split_list(const char *key, const char *s, char items[MAX_LIST][48], char *err,
                      size_t errlen)
{
    int n = 0;
    while (s) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (len == 0 || len >= 48 || n == MAX_LIST)
            return snprintf(err, errlen, "%s: %s", key,
                            n == MAX_LIST ? "more than 64 items" : len ? "an item over 47 characters"
                                                                      : "an empty item"), -1;
        memcpy(items[n], s, len);
        items[n++][len] = '\0';
        s = comma ? comma + 1 : NULL;
    }
    return n;
}

/* The list of key (or its default): its item count, -1 on error. */
static int list_of(const field *f, int nf, const char *key, const char *def,
                   char items[MAX_LIST][48], char *err, size_t errlen);

static int find_group(const suite *s, const char *id)
{
    for (int i = 0; i < s->ngroups; i++)
        if (strcmp(s->groups[i].id, id) == 0)
            return i;
    return -1;
}

/* 0 when the lab's variants (its lab line) include name. */
static int check_variant(const suite *s, const char *name, char *err, size_t errlen)
{
    char list[300] = "";
    for (int i = 0; i < s->nvariants; i++) {
        if (strcmp(s->variants[i], name) == 0)
            return 0;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", s->variants[i]);
    }
    snprintf(err, errlen, "unknown variant '%s' (the lab line declares: %s)", name, list);
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
    return (errno || end == s || *end || !isfinite(*out) || *out < 0) ? -1 : 0;
}

/* A seed: decimal digits only (strtoull would take "-1" and wrap it). */
static int parse_seed(const char *s, uint64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return errno || *end ? -1 : 0;
}

static int list_of(const field *f, int nf, const char *key, const char *def,
                   char items[MAX_LIST][48], char *err, size_t errlen)
{
    const char *v = get(f, nf, key);
    return split_list(key, v ? v : def, items, err, errlen);
}

/* schedule=inorder|reverse|random[:SEED] and threads=N: an emulator run. */
static int parse_schedule(const field *f, int nf, suite_case *k, char *err, size_t errlen)
{
    const char *s = get(f, nf, "schedule"), *t = get(f, nf, "threads");
    if (s) {
        unsigned long seed;
        char tail;
        /* the seed in decimal digits only, as the emulator reads it */
        if (strcmp(s, "inorder") && strcmp(s, "reverse") && strcmp(s, "random") &&
            (strncmp(s, "random:", 7) || !isdigit((unsigned char)s[7]) ||
             sscanf(s, "random:%lu%c", &seed, &tail) != 1))
            return snprintf(err, errlen, "schedule is inorder, reverse or random[:SEED], "
                            "SEED in decimal digits"), -1;
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

/* kind=NAME (a row of common/kinds/kinds.c; default the first, reduce);
 * section=N for the kinds that read a section size. */
static int parse_kind(const field *f, int nf, kind_t *kind, size_t *section, char *err,
                      size_t errlen)
{
    const char *k = get(f, nf, "kind");
    char which[128];
    *section = 0;
    if (kind_parse(k ? k : kind_name((kind_t)0), kind))
        return snprintf(err, errlen, "kind is %s", kind_names_text()), -1;
    int sectioned = (kind_get(*kind)->params & KP_SECTION) != 0;
    if (sectioned && (cli_parse_size(get(f, nf, "section"), section) || *section == 0))
        return snprintf(err, errlen, "%s needs section=N", kind_name(*kind)), -1;
    kinds_with(KP_SECTION, 0, which, sizeof which);
    if (!sectioned && get(f, nf, "section"))
        return snprintf(err, errlen, "section= only goes with %s", which), -1;
    return 0;
}

/*
 * The other parameters' keys: order=K and tuple=D, pred=NAME, lists on a
 * cases line.  A key the kind does not read is an error, not ignored.
 */
static int param_keys_fit(const field *f, int nf, kind_t kind, char *err, size_t errlen)
{
    const unsigned takes = kind_get(kind)->params;
    char which[128];
    if ((get(f, nf, "order") || get(f, nf, "tuple")) && !(takes & KP_ORDER_TUPLE)) {
        kinds_with(KP_ORDER_TUPLE, 0, which, sizeof which);
        return snprintf(err, errlen, "order= and tuple= go with %s", which), -1;
    }
    if (get(f, nf, "pred") && !(takes & KP_PRED)) {
        kinds_with(KP_PRED, 0, which, sizeof which);
        return snprintf(err, errlen, "pred= goes with %s", which), -1;
    }
    return 0;
}

/* The case's dtype, operator and exclusiveness fit its kind (kinds.h). */
static int fits_kind(kind_t kind, dtype_t dtype, op_t op, int exclusive, char *err,
                     size_t errlen)
{
    const kind_def *def = kind_get(kind);
    char which[128];
    if (!((def->dtypes >> dtype) & 1)) {
        kinds_with(0, (int)dtype, which, sizeof which);
        return snprintf(err, errlen, "dtype=%s goes with %s, not kind=%s", dtype_name(dtype),
                        which, def->name), -1;
    }
    if (op != OP_SUM && !def->any_op)
        return snprintf(err, errlen, "kind=%s takes no op= (it sums)", def->name), -1;
    if (exclusive && !def->exclusive)
        return snprintf(err, errlen, "kind=%s takes no mode=exclusive", def->name), -1;
    return 0;
}

/* One order, tuple size and predicate from their names; -1 (err) if bad. */
static int param_values(const char *o, const char *t, const char *p, int *order, int *tuple,
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

#define HIDDEN_ONLY "hidden groups and cases go in grader/suites/" SUITE_HIDDEN_DIR \
                    "/LAB.suite (make dist leaves it out)"

/* What a parse is adding to: the lab's suite, or its hidden part. */
typedef struct {
    suite *s;
    int hidden;  /* parsing grader/suites/hidden/LAB.suite */
    int line;
} parse_ctx;

static int parse_group(parse_ctx *p, const field *f, int nf, char *err, size_t errlen)
{
    suite *s = p->s;
    const char *id = get(f, nf, "id"), *vis = get(f, nf, "visibility");
    if (s->ngroups >= SUITE_MAX_GROUPS) FAIL("too many groups");
    if (!id || !*id || strlen(id) >= 32) FAIL("group needs id=NAME (< 32 chars)");
    if (find_group(s, id) >= 0) FAIL("group '%s' defined twice", id);
    suite_group *g = &s->groups[s->ngroups];
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->title, sizeof g->title, "%s", get(f, nf, "title") ? get(f, nf, "title") : id);
    snprintf(g->hint, sizeof g->hint, "%s", get(f, nf, "hint") ? get(f, nf, "hint") : "");
    g->line = p->line;
    if (parse_double(get(f, nf, "points"), &g->points)) FAIL("group %s needs points=N", id);
    g->visibility = p->hidden ? VIS_AFTER_DUE : VIS_VISIBLE;
    if (vis && parse_visibility(vis, &g->visibility))
        FAIL("visibility must be visible, hidden or after_due_date");
    if (!p->hidden && g->visibility != VIS_VISIBLE) FAIL(HIDDEN_ONLY);
    if (p->hidden && g->visibility == VIS_VISIBLE)
        FAIL("a group of the hidden suite cannot be visible: put it in the lab's own suite");
    s->ngroups++;
    return 0;
}

/* The fields of a cases line that are one value, not a list. */
typedef struct {
    int g;
    const char *variant, *tol;
    size_t emu_max, emu_n;
    visibility_t vis;
} cases_common;

static int cases_head(parse_ctx *p, const field *f, int nf, cases_common *c, char *err,
                      size_t errlen)
{
    suite *s = p->s;
    const char *gid = get(f, nf, "group"), *vis = get(f, nf, "visibility");
    c->g = gid ? find_group(s, gid) : -1;
    c->variant = get(f, nf, "variant");
    c->tol = get(f, nf, "tol") ? get(f, nf, "tol") : "log2n";
    c->emu_max = c->emu_n = 0;
    if (c->g < 0) FAIL("cases need group=ID of a group defined above");
    if (p->hidden && c->g < s->hidden_from)
        FAIL("hidden cases belong to a group of the hidden suite, not '%s': a visible "
             "group's score must not depend on them", gid);
    if (!c->variant || strlen(c->variant) >= 32) FAIL("cases need variant=NAME");
    if (check_variant(s, c->variant, err, errlen)) return -1;
    c->vis = s->groups[c->g].visibility;
    if (vis && parse_visibility(vis, &c->vis))
        FAIL("visibility must be visible, hidden or after_due_date");
    if (!p->hidden && c->vis != VIS_VISIBLE) FAIL(HIDDEN_ONLY);
    if (p->hidden && c->vis == VIS_VISIBLE) FAIL("a case of the hidden suite cannot be visible");
    if (!get(f, nf, "n")) FAIL("cases need n=LIST");
    if (get(f, nf, "emu_max") && cli_parse_size(get(f, nf, "emu_max"), &c->emu_max))
        FAIL("bad emu_max");
    if (get(f, nf, "emu_n") && (cli_parse_size(get(f, nf, "emu_n"), &c->emu_n) || !c->emu_n ||
                                !c->emu_max || c->emu_n > c->emu_max || get(f, nf, "schedule")))
        FAIL("emu_n=SIZE needs emu_max=MAX, 0 < SIZE <= MAX, and no schedule= (those run "
             "on the emulator everywhere: give them its size)");
    if (strlen(c->tol) >= 32 || tol_depth(c->tol, 1) < 0) FAIL("bad tol '%s'", c->tol);
    return 0;
}

/* The lists of a cases line, one array per field. */
enum { L_DTYPE, L_OP, L_DIST, L_N, L_SEED, L_ORDER, L_TUPLE, L_PRED, L_MODE, L_COUNT };
typedef struct {
    char v[L_COUNT][MAX_LIST][48];
    int n[L_COUNT];
} cases_lists;

static int cases_lists_of(const field *f, int nf, cases_lists *l, char *err, size_t errlen)
{
    static const char *keys[L_COUNT] = {"dtype", "op",    "dist",  "n",   "seeds",
                                        "order", "tuple", "pred",  "mode"};
    static const char *defs[L_COUNT] = {"int32", "sum", "small",    "", "1",
                                        "1",     "1",   "positive", "inclusive"};
    for (int i = 0; i < L_COUNT; i++)
        if ((l->n[i] = list_of(f, nf, keys[i], defs[i], l->v[i], err, errlen)) < 0)
            return -1;
    return 0;
}

/* One case of the product: every item checked, none mapped to a default. */
static int one_case(suite *s, const cases_common *c, const cases_lists *l, const int *ix,
                    const field *f, int nf, char *err, size_t errlen)
{
    if (s->ncases >= SUITE_MAX_CASES) FAIL("too many cases (at most %d)", SUITE_MAX_CASES);
    suite_case *k = &s->cases[s->ncases];
    const char *mode = l->v[L_MODE][ix[L_MODE]];
    memset(k, 0, sizeof *k);
    k->group = c->g;
    snprintf(k->variant, sizeof k->variant, "%s", c->variant);
    snprintf(k->tol, sizeof k->tol, "%s", c->tol);
    k->visibility = c->vis;
    snprintf(k->emu_memory, sizeof k->emu_memory, "%s", s->emu_memory); /* the lab line's */
    if (dtype_parse(l->v[L_DTYPE][ix[L_DTYPE]], &k->dtype)) FAIL("bad dtype '%s'", l->v[L_DTYPE][ix[L_DTYPE]]);
    if (op_parse(l->v[L_OP][ix[L_OP]], &k->op)) FAIL("bad op '%s'", l->v[L_OP][ix[L_OP]]);
    if (dist_parse(l->v[L_DIST][ix[L_DIST]], &k->dist)) FAIL("bad dist '%s'", l->v[L_DIST][ix[L_DIST]]);
    if (cli_parse_size(l->v[L_N][ix[L_N]], &k->n)) FAIL("bad n '%s'", l->v[L_N][ix[L_N]]);
    if (parse_seed(l->v[L_SEED][ix[L_SEED]], &k->seed)) FAIL("bad seed '%s'", l->v[L_SEED][ix[L_SEED]]);
    if (strcmp(mode, "exclusive") == 0) k->exclusive = 1;
    else if (strcmp(mode, "inclusive") != 0) FAIL("mode is inclusive or exclusive, not '%s'", mode);
    k->emu_skip = c->emu_max && k->n > c->emu_max;
    k->emu_n = k->emu_skip ? c->emu_n : 0;
    if (parse_schedule(f, nf, k, err, errlen)) return -1;
    if (parse_kind(f, nf, &k->kind, &k->section, err, errlen)) return -1;
    if (fits_kind(k->kind, k->dtype, k->op, k->exclusive, err, errlen))
        return -1;
    if (param_keys_fit(f, nf, k->kind, err, errlen) ||
        param_values(l->v[L_ORDER][ix[L_ORDER]], l->v[L_TUPLE][ix[L_TUPLE]],
                    l->v[L_PRED][ix[L_PRED]], &k->order, &k->tuple, &k->pred, err, errlen))
        return -1;
    s->ncases++;
    return 0;
}

/* A cases line: the cartesian product of dtype x op x dist x n x seed x
 * order x tuple x pred x mode (mode innermost). */
static int parse_cases(parse_ctx *p, const field *f, int nf, char *err, size_t errlen)
{
    static cases_lists l;
    cases_common c;
    int ix[L_COUNT] = {0}, total = 1;
    if (cases_head(p, f, nf, &c, err, errlen) || cases_lists_of(f, nf, &l, err, errlen))
        return -1;
    for (int i = 0; i < L_COUNT; i++)
        total *= l.n[i];
    if (total > SUITE_MAX_CASES) FAIL("too many cases (at most %d)", SUITE_MAX_CASES);
    for (int done = 0; done < total; done++) {
        for (int i = L_COUNT - 1, rest = done; i >= 0; rest /= l.n[i], i--)
            ix[i] = rest % l.n[i];
        if (one_case(p->s, &c, &l, ix, f, nf, err, errlen))
            return -1;
    }
    return 0;
}

static int parse_speed(parse_ctx *p, const field *f, int nf, char *err, size_t errlen)
{
    suite *s = p->s;
    const char *gid = get(f, nf, "group"), *variant = get(f, nf, "variant");
    const char *mode = get(f, nf, "mode") ? get(f, nf, "mode") : "inclusive";
    int g = gid ? find_group(s, gid) : -1;
    if (s->nspeed >= SUITE_MAX_SPEED) FAIL("too many speed tests");
    if (g < 0) FAIL("speed needs group=ID: points only when that group passes");
    if (!variant || strlen(variant) >= 32) FAIL("speed needs variant=NAME");
    if (check_variant(s, variant, err, errlen)) return -1;
    suite_speed *k = &s->speed[s->nspeed];
    memset(k, 0, sizeof *k);
    k->group = g;
    snprintf(k->variant, sizeof k->variant, "%s", variant);
    if (dtype_parse(get(f, nf, "dtype") ? get(f, nf, "dtype") : "int32", &k->dtype)) FAIL("bad dtype");
    if (op_parse(get(f, nf, "op") ? get(f, nf, "op") : "sum", &k->op)) FAIL("bad op");
    if (cli_parse_size(get(f, nf, "n"), &k->n)) FAIL("speed needs n=SIZE");
    if (parse_double(get(f, nf, "points"), &k->points)) FAIL("speed needs points=N");
    if (strcmp(mode, "inclusive") && strcmp(mode, "exclusive"))
        FAIL("mode is inclusive or exclusive, not '%s'", mode);
    k->exclusive = strcmp(mode, "exclusive") == 0;
    if (parse_kind(f, nf, &k->kind, &k->section, err, errlen)) return -1;
    const char *order = get(f, nf, "order"), *tuple = get(f, nf, "tuple"), *pred = get(f, nf, "pred");
    if (fits_kind(k->kind, k->dtype, k->op, k->exclusive, err, errlen) ||
        param_keys_fit(f, nf, k->kind, err, errlen) ||
        param_values(order ? order : "1", tuple ? tuple : "1", pred ? pred : "positive", &k->order,
                    &k->tuple, &k->pred, err, errlen))
        return -1;
    s->nspeed++;
    return 0;
}

/* sanitize [tools=memcheck,racecheck,synccheck] [penalty=F] [max_n=SIZE] */
static int parse_sanitize(parse_ctx *p, const field *f, int nf, char *err, size_t errlen)
{
    static char items[MAX_LIST][48];
    suite *s = p->s;
    const char *tools = get(f, nf, "tools"), *penalty = get(f, nf, "penalty");
    const char *max_n = get(f, nf, "max_n");
    if (tools) {
        int n = split_list("tools", tools, items, err, errlen);
        if (n < 0) return -1;
        s->sanitize.tools = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(items[i], "memcheck") == 0) s->sanitize.tools |= SAN_MEMCHECK;
            else if (strcmp(items[i], "racecheck") == 0) s->sanitize.tools |= SAN_RACECHECK;
            else if (strcmp(items[i], "synccheck") == 0) s->sanitize.tools |= SAN_SYNCCHECK;
            else if (strcmp(items[i], "initcheck") == 0) s->sanitize.tools |= SAN_INITCHECK;
            else FAIL("sanitize tools are memcheck, racecheck, synccheck and initcheck, not '%s'",
                      items[i]);
        }
    }
    if (penalty && (parse_double(penalty, &s->sanitize.penalty) || s->sanitize.penalty > 1))
        FAIL("sanitize penalty is a fraction of the group's points, 0 to 1");
    if (max_n && (cli_parse_size(max_n, &s->sanitize.max_n) || s->sanitize.max_n == 0))
        FAIL("bad sanitize max_n '%s'", max_n);
    return 0;
}

/* emu_memory=strong|weak[:SEED] on the lab line (CUEMU_MEMORY, common/emu
 * README): the memory model of every emulator run of the lab.  Labs whose
 * blocks communicate through memory use weak, so that a missing
 * __threadfence() fails there.  Parsed here, handed to every case by
 * suite_parse. */
static int parse_emu_memory(suite *s, const field *f, int nf, char *err, size_t errlen)
{
    const char *m = get(f, nf, "emu_memory");
    unsigned long seed;
    char tail;
    if (!m)
        return 0;
    if (strcmp(m, "strong") && strcmp(m, "weak") && sscanf(m, "weak:%lu%c", &seed, &tail) != 1)
        FAIL("emu_memory is strong, weak or weak:SEED");
    if (strlen(m) >= sizeof s->emu_memory)
        FAIL("emu_memory too long");
    snprintf(s->emu_memory, sizeof s->emu_memory, "%s", m);
    return 0;
}

/* lab NAME dir=FOLDER files=A.cu,... variants=V,... [forbid=...] */
static int parse_lab(parse_ctx *p, const char *name, const field *f, int nf, char *err,
                     size_t errlen)
{
    static char items[MAX_LIST][48];
    suite *s = p->s;
    const char *dir = get(f, nf, "dir"), *files = get(f, nf, "files"), *forbid = get(f, nf, "forbid");
    const char *variants = get(f, nf, "variants");
    if (s->lab[0]) FAIL("a second lab line");
    if (forbid && strlen(forbid) >= sizeof s->forbid) FAIL("forbid list too long");
    snprintf(s->forbid, sizeof s->forbid, "%s", forbid ? forbid : "");
    if (!name || strlen(name) >= sizeof s->lab) FAIL("lab needs a name: lab lab1 dir=... files=...");
    if (!dir || !*dir || strlen(dir) >= sizeof s->dir) FAIL("lab needs dir=FOLDER");
    if (!files) FAIL("lab needs files=a.cu,b.cu");
    if (!variants) FAIL("lab needs variants=NAME,... (the variants its cases may name)");
    snprintf(s->lab, sizeof s->lab, "%s", name);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    if ((s->nfiles = split_list("files", files, items, err, errlen)) < 0) return -1;
    if (s->nfiles > 8) FAIL("at most 8 files");
    for (int i = 0; i < s->nfiles; i++) {
        if (strchr(items[i], '/') || items[i][0] == '.') FAIL("file names only: '%s'", items[i]);
        snprintf(s->files[i], sizeof s->files[i], "%s", items[i]);
    }
    if ((s->nvariants = split_list("variants", variants, items, err, errlen)) < 0) return -1;
    if (s->nvariants > SUITE_MAX_VARIANTS) FAIL("at most %d variants", SUITE_MAX_VARIANTS);
    for (int i = 0; i < s->nvariants; i++) {
        if (strlen(items[i]) >= sizeof s->variants[i]) FAIL("variant name too long");
        snprintf(s->variants[i], sizeof s->variants[i], "%s", items[i]);
    }
    return 0;
}

/* One tokenized line: check its keys, then hand it to its directive. */
static int dispatch(parse_ctx *p, char words[2][32], int nw, const field *f, int nf, char *msg,
                    size_t len)
{
    if (nw == 0)
        return snprintf(msg, len, "a line starts with lab, group, cases, speed or sanitize"), -1;
    if (strcmp(words[0], "lab") && nw > 1)
        return snprintf(msg, len, "unexpected word '%s'", words[1]), -1;
    if (suite_check_keys(words[0], f, nf, msg, len))
        return -1;
    if (p->hidden && strcmp(words[0], "group") && strcmp(words[0], "cases"))
        return snprintf(msg, len, "the hidden suite holds only group and cases lines, "
                                  "not '%s'", words[0]), -1;
    if (strcmp(words[0], "lab") == 0)
        return parse_lab(p, nw > 1 ? words[1] : NULL, f, nf, msg, len) ||
               parse_emu_memory(p->s, f, nf, msg, len);
    if (!p->s->lab[0])
        return snprintf(msg, len, "the first line is the lab line"), -1;
    if (strcmp(words[0], "group") == 0)
        return parse_group(p, f, nf, msg, len);
    if (strcmp(words[0], "cases") == 0)
        return parse_cases(p, f, nf, msg, len);
    if (strcmp(words[0], "speed") == 0)
        return parse_speed(p, f, nf, msg, len);
    return parse_sanitize(p, f, nf, msg, len);
}

/* Every line of text into p->s; then every group it defined must have a
 * case (a group without one scores 0 for everybody, the reference too). */
static int parse_text(parse_ctx *p, const char *text, char *err, size_t errlen)
{
    char line[1024], msg[300];
    int first_group = p->s->ngroups;
    for (const char *q = text; *q;) {
        const char *nl = strchr(q, '\n');
        size_t len = nl ? (size_t)(nl - q) : strlen(q);
        p->line++;
        if (len >= sizeof line)
            return snprintf(err, errlen, "line %d: too long", p->line), -1;
        memcpy(line, q, len);
        line[len] = '\0';
        q += len + (nl ? 1 : 0);
        char words[2][32];
        field f[MAX_FIELDS];
        int nw, nf;
        msg[0] = '\0';
        if (tokenize(line, words, &nw, f, &nf, msg, sizeof msg) == 0 && nw == 0 && nf == 0)
            continue;
        if (msg[0] || dispatch(p, words, nw, f, nf, msg, sizeof msg))
            return snprintf(err, errlen, "line %d: %s", p->line, msg), -1;
    }
    for (int g = first_group; g < p->s->ngroups; g++) {
        int n = 0;
        for (int c = 0; c < p->s->ncases; c++)
            n += p->s->cases[c].group == g;
        if (n == 0)
            return snprintf(err, errlen, "line %d: group '%s' has no cases", p->s->groups[g].line,
                            p->s->groups[g].id), -1;
    }
    return 0;
}

int suite_parse(const char *text, suite *s, char *err, size_t errlen)
{
    parse_ctx p = {s, 0, 0};
    memset(s, 0, sizeof *s);
    s->sanitize = (suite_sanitize){SAN_ALL, 0.25, (size_t)1 << 16};
    if (parse_text(&p, text, err, errlen))
        return -1;
    if (!s->lab[0])
        return snprintf(err, errlen, "no 'lab' line"), -1;
    s->hidden_from = s->ngroups;
    return 0;
}

int suite_parse_hidden(const char *text, suite *s, char *err, size_t errlen)
{
    parse_ctx p = {s, 1, 0};
    s->hidden_from = s->ngroups;
    return parse_text(&p, text, err, errlen);
}

/* A whole file into text (at most 64 KiB); -1 with why in err. */
static int read_text(const char *path, char *text, size_t size, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)), -1;
    size_t len = fread(text, 1, size - 1, f);
    int too_long = !feof(f);
    fclose(f);
    if (too_long)
        return snprintf(err, errlen, "%s: larger than %zu bytes", path, size - 1), -1;
    text[len] = '\0';
    return 0;
}

int suite_load(const char *path, suite *s, char *err, size_t errlen)
{
    static char text[1 << 16];
    char inner[400];
    if (read_text(path, text, sizeof text, err, errlen))
        return -1;
    if (suite_parse(text, s, inner, sizeof inner))
        return snprintf(err, errlen, "%s: %s", path, inner), -1;
    return 0;
}

int suite_load_lab(const char *dir, const char *lab, suite *s, int *has_hidden, char *err,
                   size_t errlen)
{
    static char text[1 << 16];
    char path[1200], inner[400];
    if (has_hidden)
        *has_hidden = 0;
    snprintf(path, sizeof path, "%s/%s.suite", dir, lab);
    if (suite_load(path, s, err, errlen))
        return -1;
    if (strcmp(s->lab, lab) != 0)
        return snprintf(err, errlen, "%s: line 1: the lab line names '%s', not %s", path, s->lab,
                        lab), -1;
    snprintf(path, sizeof path, "%s/%s/%s.suite", dir, SUITE_HIDDEN_DIR, lab);
    if (access(path, F_OK) != 0)
        return 0;
    if (read_text(path, text, sizeof text, err, errlen))
        return -1;
    if (suite_parse_hidden(text, s, inner, sizeof inner))
        return snprintf(err, errlen, "%s: %s", path, inner), -1;
    if (has_hidden)
        *has_hidden = 1;
    return 0;
}

/* On the emulator a case above emu_max with an emu_n stands in at that
 * size: what the large size catches there (a grid-stride loop that wraps,
 * a distribution, many tiles) is kept at a cost the emulator can pay. */
void suite_for_emulator(suite *s)
{
    for (int c = 0; c < s->ncases; c++)
        if (s->cases[c].emu_skip && s->cases[c].emu_n) {
            s->cases[c].n = s->cases[c].emu_n;
            s->cases[c].emu_skip = 0;
        }
}
