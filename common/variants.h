/*
 * variants.h - the lab's variants as the harness reads them (variants.cu).
 */
#ifndef VARIANTS_H
#define VARIANTS_H

#include <stdio.h>

#include "cli.h"
#include "kinds/kinds.h"
#include "lab.h"

/* The variants and their one-line summaries, for --list and --help. */
void list_variants(FILE *f);

/* The kind a variant names (lab.h: by name), or -1 (the reason in err)
 * when the lab's table names none, or leaves out what its kind needs to
 * know of the variant (a section scan's section size). */
int variant_kind(const lab_variant *v, kind_t *k, char *err, size_t len);

/* The kind's parameters for a case of variant v (kind k): the variant's
 * own (a section size) and the command line's. */
kind_params case_params(const cli_opts *o, const lab_variant *v, kind_t k);

/* The variant a command line asks for, or NULL (the reason printed on
 * stderr, after prog) when there is none of that name or it does not
 * define the combination. */
const lab_variant *variant_for(const cli_opts *o, const char *prog);

#endif /* VARIANTS_H */
