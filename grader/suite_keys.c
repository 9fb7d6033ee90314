/*
 * suite_keys.c - the keys of each suite directive (suite_keys.h), and a
 * suggestion for a misspelt one.
 */
#include "suite_keys.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *directive;
    const char *keys[24]; /* NULL-terminated: room for the longest list (cases) */
} directive_keys;

static const directive_keys table[] = {
    {"lab", {"dir", "files", "variants", "forbid", "emu_memory"}},
    {"group", {"id", "points", "title", "hint", "visibility"}},
    {"cases", {"group", "variant", "kind", "section", "dtype", "op", "dist", "n", "seeds",
               "mode", "tol", "emu_max", "emu_n", "visibility", "schedule", "threads", "order", "tuple",
               "pred"}},
    {"speed", {"group", "variant", "kind", "section", "dtype", "op", "n", "mode", "points",
               "order", "tuple", "pred"}},
    {"sanitize", {"tools", "penalty", "max_n"}},
};

/* Edit distance of two short keys (at most 31 characters each): a typo is
 * one or two edits away from the key meant. */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), row[32], prev[32];
    if (la > 31 || lb > 31)
        return 99;
    for (int j = 0; j <= lb; j++)
        prev[j] = j;
    for (int i = 1; i <= la; i++) {
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, row, sizeof(int) * (size_t)(lb + 1));
    }
    return prev[lb];
}

/* "unknown key" with the nearest valid key and the whole list. */
static void unknown_key(const directive_keys *d, const char *key, char *err, size_t errlen)
{
    const char *best = NULL;
    int best_d = 3;
    char list[256] = "";
    for (int k = 0; d->keys[k]; k++) {
        int dist = distance(key, d->keys[k]);
        if (dist < best_d)
            best = d->keys[k], best_d = dist;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", d->keys[k]);
    }
    if (best)
        snprintf(err, errlen, "unknown key '%s' for %s (did you mean '%s'?); it takes: %s", key,
                 d->directive, best, list);
    else
        snprintf(err, errlen, "unknown key '%s' for %s; it takes: %s", key, d->directive, list);
}

int suite_check_keys(const char *directive, const suite_field *f, int nf, char *err,
                     size_t errlen)
{
    const directive_keys *d = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0] && !d; i++)
        if (strcmp(table[i].directive, directive) == 0)
            d = &table[i];
    if (!d)
        return snprintf(err, errlen, "unknown directive '%s'", directive), -1;
    for (int i = 0; i < nf; i++) {
        int known = 0;
        for (int k = 0; d->keys[k] && !known; k++)
            known = strcmp(d->keys[k], f[i].key) == 0;
        if (!known)
            return unknown_key(d, f[i].key, err, errlen), -1;
        for (int j = 0; j < i; j++)
            if (strcmp(f[j].key, f[i].key) == 0)
                return snprintf(err, errlen, "%s= given twice", f[i].key), -1;
    }
    return 0;
}
