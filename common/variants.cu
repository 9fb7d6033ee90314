/*
 * variants.cu - the lab's table of variants (lab.h) as the harness reads
 * it: a variant by name, its kind (named in the table, looked up in
 * common/kinds/), the kind's parameters for a case, and the command lines
 * the variant does not define, refused before the GPU is touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variants.h"

/* The variant of that name, or the lab's default for NULL; NULL when none. */
static const lab_variant *find_variant(const char *name)
{
    if (!name)
        return &LAB.variants[LAB.default_variant];
    for (int i = 0; i < LAB.count; i++)
        if (strcmp(LAB.variants[i].name, name) == 0)
            return &LAB.variants[i];
    return NULL;
}

/* One line a variant, the default marked: what --list and --help show. */
void list_variants(FILE *f)
{
    fprintf(f, "%s: %s\nvariants:\n", LAB.name, LAB.title);
    for (int i = 0; i < LAB.count; i++) {
        const lab_variant *v = &LAB.variants[i];
        fprintf(f, "  %-14s %s%s\n", v->name, v->summary, i == LAB.default_variant ? " (default)" : "");
    }
}

/* The kind a variant names (lab.h: by name), or -1 (the reason in err)
 * when the lab's table names none, or leaves out what its kind needs to
 * know of the variant (a section scan's section size). */
int variant_kind(const lab_variant *v, kind_t *k, char *err, size_t len)
{
    if (kind_parse(v->kind, k))
        return snprintf(err, len, "variant %s of %s names the kind '%s'; the kinds are %s",
                        v->name, LAB.name, v->kind ? v->kind : "(none)", kind_names_text()), -1;
    kind_params p = KP_DEFAULTS;
    const kind_def *d = kind_get(*k);
    if (d->variant_params && d->variant_params(v->args, &p))
        return snprintf(err, len, "variant %s of %s is a %s, and its args do not say what a %s "
                        "variant must (common/kinds/)", v->name, LAB.name, d->name, d->name), -1;
    return 0;
}

/* The kind's parameters for a case of variant v (kind k): the variant's
 * own (a section size) and the command line's. */
kind_params case_params(const cli_opts *o, const lab_variant *v, kind_t k)
{
    kind_params p = KP_DEFAULTS;
    const kind_def *d = kind_get(k);
    if (d->variant_params && d->variant_params(v->args, &p)) /* (checked: variant_kind) */
        abort();
    p.order = o->order;
    p.tuple = o->tuple;
    p.pred = o->pred;
    return p;
}

/* Refuse combinations the variant does not define, before touching the GPU. */
static int validate(const cli_opts *o, const lab_variant *v, char *err, size_t len)
{
    kind_t k;
    if (v->max_n && o->n > v->max_n)
        return snprintf(err, len, "variant %s handles at most %zu elements (asked for %zu)",
                        v->name, v->max_n, o->n), -1;
    if (variant_kind(v, &k, err, len))
        return -1;
#ifndef __CUEMU__
    if (o->trace || o->traffic)
        return snprintf(err, len, "--trace and --traffic count a run on the CPU emulator: "
                                  "build there (make draw LAB=... does)"), -1;
#endif
    kind_params p = case_params(o, v, k);
    char who[96];
    snprintf(who, sizeof who, "variant %s", v->name);
    return kind_accepts(k, who, o->dtype, o->op, o->exclusive, &p, err, len);
}

/* The variant a command line asks for, or NULL (the reason printed) when
 * there is none of that name or it does not define the combination. */
const lab_variant *variant_for(const cli_opts *o, const char *prog)
{
    char err[256];
    const lab_variant *v = find_variant(o->variant);
    if (!v) {
        fprintf(stderr, "%s: no variant named '%s'\n", prog, o->variant);
        list_variants(stderr);
        return NULL;
    }
    if (validate(o, v, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return NULL;
    }
    return v;
}
