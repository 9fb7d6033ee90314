/*
 * jval.c - recursive-descent JSON reader (RFC 8259, depth-limited).
 */
#include "jval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JV_MAX_DEPTH 64

typedef struct {
    const char *p;
    int depth;
} cursor;

static jv *parse_value(cursor *c);

static void skip_ws(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

static jv *new_value(jv_type t)
{
    jv *v = calloc(1, sizeof *v);
    if (v)
        v->type = t;
    return v;
}

void jv_free(jv *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->n; i++) {
        jv_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        v <<= 4;
        if (ch >= '0' && ch <= '9') v |= (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') v |= (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F') v |= (unsigned)(ch - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string literal at c->p (on the opening quote); malloc'ed, NULL on error. */
static char *parse_string(cursor *c)
{
    if (*c->p != '"')
        return NULL;
    const char *s = ++c->p;
    size_t len = 0;
    while (s[len] && s[len] != '"') /* upper bound of the decoded size */
        len += s[len] == '\\' && s[len + 1] ? 2 : 1;
    char *out = malloc(len * 2 + 4), *o = out;
    if (!out)
        return NULL;
    while (*c->p != '"') {
        unsigned char ch = (unsigned char)*c->p;
        if (ch == '\0' || ch < 0x20)
            goto bad;
        if (ch != '\\') {
            *o++ = (char)ch;
            c->p++;
            continue;
        }
        c->p++;
        switch (*c->p) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(c->p + 1, &cp))
                goto bad;
            c->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && c->p[1] == '\\' && c->p[2] == 'u' &&
                hex4(c->p + 3, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                c->p += 6;
            }
            o += put_utf8(o, cp);
            break;
        }
        default:
            goto bad;
        }
        c->p++;
    }
    c->p++;
    *o = '\0';
    return out;
bad:
    free(out);
    return NULL;
}

static int push(jv *v, jv *item, char *key)
{
    jv **items = realloc(v->items, sizeof *items * (size_t)(v->n + 1));
    if (!items)
        return -1;
    v->items = items;
    if (v->type == JV_OBJECT) {
        char **keys = realloc(v->keys, sizeof *keys * (size_t)(v->n + 1));
        if (!keys)
            return -1;
        v->keys = keys;
        v->keys[v->n] = key;
    }
    v->items[v->n++] = item;
    return 0;
}

static jv *parse_container(cursor *c, char open)
{
    char close = open == '{' ? '}' : ']';
    jv *v = new_value(open == '{' ? JV_OBJECT : JV_ARRAY);
    if (!v || ++c->depth > JV_MAX_DEPTH)
        goto bad;
    c->p++;
    skip_ws(c);
    if (*c->p == close) {
        c->p++;
        c->depth--;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(c);
        if (open == '{') {
            if (!(key = parse_string(c)))
                goto bad;
            skip_ws(c);
            if (*c->p != ':') {
                free(key);
                goto bad;
            }
            c->p++;
        }
        jv *item = parse_value(c);
        if (!item || push(v, item, key)) {
            free(key);
            jv_free(item);
            goto bad;
        }
        skip_ws(c);
        if (*c->p == ',') {
            c->p++;
            continue;
        }
        if (*c->p == close) {
            c->p++;
            c->depth--;
            return v;
        }
        goto bad;
    }
bad:
    jv_free(v);
    return NULL;
}

static jv *parse_value(cursor *c)
{
    skip_ws(c);
    char ch = *c->p;
    if (ch == '{' || ch == '[')
        return parse_container(c, ch);
    if (ch == '"') {
        char *s = parse_string(c);
        jv *v = s ? new_value(JV_STRING) : NULL;
        if (v) v->str = s;
        else free(s);
        return v;
    }
    if (!strncmp(c->p, "true", 4) || !strncmp(c->p, "false", 5)) {
        jv *v = new_value(JV_BOOL);
        if (v) v->num = ch == 't';
        c->p += ch == 't' ? 4 : 5;
        return v;
    }
    if (!strncmp(c->p, "null", 4)) {
        c->p += 4;
        return new_value(JV_NULL);
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
        char *end;
        double d = strtod(c->p, &end);
        if (end == c->p)
            return NULL;
        c->p = end;
        jv *v = new_value(JV_NUMBER);
        if (v) v->num = d;
        return v;
    }
    return NULL;
}

jv *jv_parse(const char *text)
{
    cursor c = {text, 0};
    jv *v = parse_value(&c);
    skip_ws(&c);
    if (v && *c.p != '\0') {
        jv_free(v);
        return NULL;
    }
    return v;
}

jv *jv_parse_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            if (cap >= (64u << 20)) { /* no results.json is 64 MiB */
                free(buf);
                buf = NULL;
                break;
            }
            char *bigger = realloc(buf, cap * 2 + 1);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[len] = '\0';
    jv *v = strlen(buf) == len ? jv_parse(buf) : NULL; /* a NUL inside: garbage */
    free(buf);
    return v;
}

const jv *jv_get(const jv *obj, const char *key)
{
    if (!obj || obj->type != JV_OBJECT)
        return NULL;
    for (int i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

const char *jv_str(const jv *obj, const char *key)
{
    const jv *v = jv_get(obj, key);
    return v && v->type == JV_STRING ? v->str : NULL;
}

int jv_num(const jv *obj, const char *key, double *out)
{
    const jv *v = jv_get(obj, key);
    if (!v || v->type != JV_NUMBER)
        return -1;
    *out = v->num;
    return 0;
}
