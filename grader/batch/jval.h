/*
 * jval.h - a small JSON reader that builds a tree, for the batch driver:
 * it reads the single grader's results.json (nested: "tests" is an array
 * of objects), which common/json.c's flat-object reader cannot.  The input
 * may be anything (a half-written file, a killed grader): parsing never
 * crashes and returns NULL on any error.
 */
#ifndef JVAL_H
#define JVAL_H

#include <stddef.h>

typedef enum { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_type;

typedef struct jv {
    jv_type type;
    double num;        /* JV_NUMBER; JV_BOOL as 0/1 */
    char *str;         /* JV_STRING */
    int n;             /* items of an array or object */
    struct jv **items; /* values */
    char **keys;       /* JV_OBJECT: the key of each item */
} jv;

jv *jv_parse(const char *text);  /* NULL on a syntax error */
jv *jv_parse_file(const char *path);
void jv_free(jv *v);
const jv *jv_get(const jv *obj, const char *key); /* NULL if absent or obj is no object */
const char *jv_str(const jv *obj, const char *key);  /* NULL unless a string */
int jv_num(const jv *obj, const char *key, double *out); /* 0 when a number */

#endif
