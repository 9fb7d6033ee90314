/*
 * json.c - a streaming writer with a container stack for commas.  It stays
 * hand-written, small and without dependencies because the lab binaries
 * link it, and they must build on a student's machine (nvcc or the
 * emulator) with nothing installed beyond the toolkit.  Reading is the
 * grader's, with cJSON (grader/jval.c).
 */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void jw_init(json_writer *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->f = f;
}

/* Comma, indentation and "key": before a new item of the open container. */
static void item_prefix(json_writer *w, const char *key)
{
    if (w->depth > 0) {
        if (w->has_items[w->depth])
            fputc(',', w->f);
        w->has_items[w->depth] = 1;
        fprintf(w->f, "\n%*s", 2 * w->depth, "");
    }
    if (key) {
        json_write_escaped(w->f, key);
        fputs(": ", w->f);
    }
}

static void open_container(json_writer *w, const char *key, char opener)
{
    item_prefix(w, key);
    fputc(opener, w->f);
    if (w->depth + 1 < JSON_MAX_DEPTH)
        w->depth++;
    w->has_items[w->depth] = 0;
}

void jw_object(json_writer *w, const char *key) { open_container(w, key, '{'); }
void jw_array(json_writer *w, const char *key) { open_container(w, key, '['); }

void jw_end(json_writer *w, char closer)
{
    int had = w->has_items[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (had)
        fprintf(w->f, "\n%*s", 2 * w->depth, "");
    fputc(closer, w->f);
    if (w->depth == 0)
        fputc('\n', w->f);
}

void jw_string(json_writer *w, const char *key, const char *value)
{
    item_prefix(w, key);
    json_write_escaped(w->f, value ? value : "");
}

void jw_number(json_writer *w, const char *key, double value)
{
    item_prefix(w, key);
    if (isfinite(value))
        fprintf(w->f, "%.10g", value);
    else
        fputs("null", w->f);
}

void jw_int(json_writer *w, const char *key, long long value)
{
    item_prefix(w, key);
    fprintf(w->f, "%lld", value);
}

void jw_bool(json_writer *w, const char *key, int value)
{
    item_prefix(w, key);
    fputs(value ? "true" : "false", w->f);
}

void json_write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}
