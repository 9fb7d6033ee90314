/*
 * json.h - just enough JSON for the kit: a streaming writer (results of a
 * lab run, Gradescope's results.json; common/json.c, no dependencies) and
 * the grader's lookup in a flat object (a lab run's result; grader/jval.c,
 * with cJSON).
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JSON_MAX_DEPTH 16

typedef struct {
    FILE *f;
    int depth;
    int has_items[JSON_MAX_DEPTH]; /* does the open container need a comma? */
} json_writer;

void jw_init(json_writer *w, FILE *f);
/* Open an object or array; key is NULL inside arrays and at the top. */
void jw_object(json_writer *w, const char *key);
void jw_array(json_writer *w, const char *key);
void jw_end(json_writer *w, char closer); /* '}' or ']' */
void jw_string(json_writer *w, const char *key, const char *value);
void jw_number(json_writer *w, const char *key, double value); /* non-finite -> null */
void jw_int(json_writer *w, const char *key, long long value);
void jw_bool(json_writer *w, const char *key, int value);

/* Write s as a JSON string literal (quotes included) with escapes. */
void json_write_escaped(FILE *f, const char *s);

/*
 * Look up a key of a flat object in `text`.  Return 0 when found (and the
 * value has the right type), -1 otherwise.  Strings are unescaped into out
 * and truncated to size - 1 bytes.  Only the grader reads JSON: these are
 * implemented in grader/jval.c with cJSON, and linked only there.
 */
int json_get_string(const char *text, const char *key, char *out, size_t size);
int json_get_number(const char *text, const char *key, double *out);

#ifdef __cplusplus
}
#endif
#endif /* JSON_H */
