/*
 * json.c - writer with a container stack for commas; reader that scans a
 * flat object for "key": value.  The reader is for files the kit writes
 * itself, but it must never crash on garbage: a student binary could write
 * anything there.
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

/* Pointer to the first character of the value of "key", or NULL. */
static const char *find_value(const char *text, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = text; p && (p = strchr(p, '"')) != NULL; p++) {
        if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '"') {
            const char *q = p + 2 + klen;
            while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
                q++;
            if (*q == ':') {
                q++;
                while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
                    q++;
                return q;
            }
        }
    }
    return NULL;
}

int json_get_string(const char *text, const char *key, char *out, size_t size)
{
    const char *p = find_value(text, key);
    size_t o = 0;
    if (!p || *p != '"' || size == 0)
        return -1;
    for (p++; *p && *p != '"'; p++) {
        char c = *p;
        if (c == '\\') {
            p++;
            if (!*p)
                return -1;
            c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'u' ? '?' : *p;
            if (*p == 'u') /* \uXXXX: keep a placeholder, skip the digits */
                for (int k = 0; k < 4 && p[1]; k++)
                    p++;
        }
        if (o + 1 < size)
            out[o++] = c;
    }
    out[o] = '\0';
    return *p == '"' ? 0 : -1;
}

int json_get_number(const char *text, const char *key, double *out)
{
    const char *p = find_value(text, key);
    char *end;
    if (!p)
        return -1;
    double v = strtod(p, &end);
    if (end == p)
        return -1;
    *out = v;
    return 0;
}
