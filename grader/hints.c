/*
 * hints.c - the hint table (hints.h): parse it, find a failing group's
 * patterns, pick the first rule that matches.
 */
#include "hints.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"

static const char *const group_names[GPAT_NAMES] = {
    "schedule", "scheduled-only", "race",      "hang",       "barrier", "bounds",
    "float-only", "exclusive-only", "large-only", "crash",    "wrong",   "int-only",
    "emu-bounds", "nothing-stored"};

/* What each pattern means to a student, in the order of the bits. */
static const char *const element_phrases[PAT_NAMES] = {
    "every element wrong", "only the first element of each section wrong",
    "right up to a block boundary, wrong after it", "only the last, partial section wrong",
    "a sum lacks one input", "a sum counts one input twice", "an element is its own input, uncombined",
    "an element is the identity", "an element never written", "elements hold a neighbour's answer",
    "the result combines only a prefix of the input", "wrong within the first 1024 elements"};
static const char *const group_phrases[GPAT_NAMES] = {
    "passes under one emulator schedule, fails under another",
    "fails only under the emulator's adversarial schedules", "a second launch differs",
    "never finishes", "a barrier not reached by every thread", "a store past the end of out",
    "only float32 fails", "only exclusive scans fail", "fails only at the larger sizes",
    "the run crashed or gave no result", "wrong output", "only int32 fails",
    "the emulator stopped an access out of bounds", "no test stored anything"};

const char *hint_pattern_name(unsigned bit)
{
    for (int k = 0; k < PAT_NAMES; k++)
        if (bit == 1u << k)
            return pattern_names[k];
    for (int k = 0; k < GPAT_NAMES; k++)
        if (bit == 1u << (GPAT_FIRST_BIT + k))
            return group_names[k];
    return NULL;
}

const char *hint_pattern_phrase(unsigned bit)
{
    for (int k = 0; k < PAT_NAMES; k++)
        if (bit == 1u << k)
            return element_phrases[k];
    for (int k = 0; k < GPAT_NAMES; k++)
        if (bit == 1u << (GPAT_FIRST_BIT + k))
            return group_phrases[k];
    return NULL;
}

/* The bit a pattern name stands for, or 0. */
static unsigned pattern_bit(const char *name, size_t len)
{
    for (unsigned b = 1; b; b <<= 1) {
        const char *n = hint_pattern_name(b);
        if (n && strlen(n) == len && strncmp(n, name, len) == 0)
            return b;
    }
    return 0;
}

/* The next key=value (value maybe "quoted") of line p; 0 at its end. */
static int next_pair(const char **p, char *key, size_t klen, char *val, size_t vlen)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return 0;
    size_t k = strcspn(s, "= \t");
    if (s[k] != '=' || k == 0 || k >= klen)
        return -1;
    snprintf(key, klen, "%.*s", (int)k, s);
    s += k + 1;
    size_t v = *s == '"' ? strcspn(s + 1, "\"") : strcspn(s, " \t");
    const char *from = *s == '"' ? s + 1 : s;
    if (*s == '"' && from[v] != '"')
        return -1;
    if (v >= vlen)
        return -1;
    snprintf(val, vlen, "%.*s", (int)v, from);
    *p = from + v + (*s == '"');
    return 1;
}

/* when=a,!b,...: every named bit into need, every !-named into avoid. */
static int parse_when(const char *v, hint_rule *r)
{
    while (*v) {
        int neg = *v == '!';
        v += neg;
        size_t n = strcspn(v, ",");
        unsigned b = pattern_bit(v, n);
        if (!b)
            return -1;
        *(neg ? &r->avoid : &r->need) |= b;
        v += n + (v[n] == ',');
    }
    return 0;
}

/* One "hint key=value..." line into r. */
static int parse_rule(const char *p, hint_rule *r, char *err, size_t len)
{
    char key[16], val[HINTS_TEXT];
    int got;
    memset(r, 0, sizeof *r);
    r->todo = -1;
    while ((got = next_pair(&p, key, sizeof key, val, sizeof val)) == 1) {
        if (strcmp(key, "group") == 0 && strlen(val) < sizeof r->group)
            snprintf(r->group, sizeof r->group, "%s", val);
        else if (strcmp(key, "when") == 0 && parse_when(val, r) == 0)
            ;
        else if (strcmp(key, "passes") == 0 && strlen(val) < sizeof r->passes)
            snprintf(r->passes, sizeof r->passes, "%s", val);
        else if (strcmp(key, "todo") == 0 && isdigit((unsigned char)val[0]))
            r->todo = atoi(val);
        else if (strcmp(key, "text") == 0)
            snprintf(r->text, sizeof r->text, "%s", val);
        else {
            snprintf(err, len, "bad %s=%s (keys: group when passes todo text; patterns: "
                               "see grader/hints/README.md)", key, val);
            return -1;
        }
    }
    if (got < 0 || !r->group[0] || r->todo < 0 || !r->text[0]) {
        snprintf(err, len, "%s", got < 0 ? "malformed key=value (a quote not closed?)"
                                         : "a rule needs group=, todo= and text=");
        return -1;
    }
    return 0;
}

int hints_parse(const char *text, hint_table *t, char *err, size_t len)
{
    char line[1024], why[300];
    int no = 0;
    t->n = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (p[n] == '\n');
        no++;
        const char *s = line + strspn(line, " \t");
        if (!*s || *s == '#')
            continue;
        if (strncmp(s, "hint ", 5) != 0 || t->n == HINTS_MAX_RULES) {
            snprintf(err, len, "line %d: %s", no,
                     t->n == HINTS_MAX_RULES ? "too many rules" : "a line starts with `hint`");
            return -1;
        }
        if (parse_rule(s + 5, &t->rules[t->n], why, sizeof why) != 0) {
            snprintf(err, len, "line %d: %s", no, why);
            return -1;
        }
        t->rules[t->n++].line = no;
    }
    return 0;
}

int hints_load(const char *path, hint_table *t, char *err, size_t len)
{
    FILE *f = fopen(path, "r");
    t->n = 0;
    if (!f)
        return 1;
    static char text[65536];
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    char why[300];
    if (hints_parse(text, t, why, sizeof why) != 0) {
        snprintf(err, len, "%s: %s", path, why);
        return -1;
    }
    return 0;
}
