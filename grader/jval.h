/*
 * jval.h - reading JSON, for the grader and the batch driver: a lab run's
 * result file (flat) and the grader's results.json (nested: "tests" is an
 * array of objects).  The parsing is cJSON's (Debian libcjson-dev); this
 * is the one file that uses it.  The input may be anything (a half-written
 * file, a killed grader, a forged result): reading never crashes, and
 * every accessor answers "absent" for a value of the wrong type.
 * (Writing is common/json.h's: the lab binaries write JSON and must build
 * on a student's machine with nothing but the CUDA toolkit.)
 */
#ifndef JVAL_H
#define JVAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

typedef cJSON jv;

jv *jv_parse(const char *text);      /* NULL on a syntax error */
jv *jv_parse_file(const char *path); /* NULL when unreadable, too large or not JSON */
void jv_free(jv *v);
const jv *jv_get(const jv *obj, const char *key); /* NULL if absent or obj is no object */
const char *jv_str(const jv *obj, const char *key);  /* NULL unless a string */
int jv_num(const jv *obj, const char *key, double *out); /* 0 when a number */
int jv_len(const jv *arr);               /* items of an array; -1 unless an array */
const jv *jv_at(const jv *arr, int i);   /* item i of an array, or NULL */

#endif
