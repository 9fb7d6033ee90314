/*
 * suite_keys.h - which key=value fields each suite directive takes.  A
 * suite is strict: a misspelt key (visiblity=hidden, seed=6 for seeds=6)
 * would otherwise be ignored and the case graded with its defaults, so
 * an unknown or repeated key is an error naming the line.
 */
#ifndef SUITE_KEYS_H
#define SUITE_KEYS_H

#include <stddef.h>

/* A parsed field of a suite line. */
typedef struct {
    char key[32];
    char value[320];
} suite_field;

/* 0 when every field of the directive is one it takes, once; else -1 with
 * "unknown key 'x' for cases (did you mean 'y'?); it takes: ..." in err. */
int suite_check_keys(const char *directive, const suite_field *f, int nf, char *err,
                     size_t errlen);

#endif /* SUITE_KEYS_H */
