/*
 * text.c - text_clean (text.h): a student's bytes made safe to print,
 * decided per character by what it is, never by what it says.
 */
#include "text.h"

#include <string.h>

/* The length of the valid UTF-8 character at p (1-4) that is allowed in a
 * report, or 0: invalid, overlong, a surrogate, beyond U+10FFFF, a C1
 * control, or a C0 control or DEL (the caller handles line breaks). */
static size_t printable_char(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f;
    size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    for (size_t k = 1; k < n; k++)
        if ((p[k] & 0xc0) != 0x80)
            return 0;
    if (n == 2 && c == 0xc2 && p[1] <= 0x9f)
        return 0; /* U+0080-U+009F: C1 controls (CSI, NEL, ...) */
    if (n == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (n == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
        return 0; /* overlong, or past U+10FFFF */
    return n;
}

/* Append n bytes when they fit whole (one byte kept for the end). */
static int put(char *out, size_t len, size_t *o, const char *s, size_t n)
{
    if (*o + n >= len)
        return -1;
    memcpy(out + *o, s, n);
    *o += n;
    return 0;
}

size_t text_clean(const char *in, char *out, size_t len, const char *indent)
{
    const unsigned char *p = (const unsigned char *)(in ? in : "");
    size_t o = 0, ilen = indent ? strlen(indent) : 0;
    if (len == 0)
        return 0;
    for (int ok = 0; *p && ok == 0;) {
        size_t n = printable_char(p);
        if (*p == '\n' && indent) {
            ok = put(out, len, &o, "\n", 1);
            if (ok == 0)
                ok = put(out, len, &o, indent, ilen);
            p++;
        } else if (*p == '\t' || *p == '\n') {
            ok = put(out, len, &o, indent ? "\t" : " ", 1);
            p++;
        } else if (n) {
            ok = put(out, len, &o, (const char *)p, n);
            p += n;
        } else {
            ok = put(out, len, &o, "?", 1);
            p++; /* one byte at a time: the rest of a bad sequence is judged anew */
        }
    }
    out[o] = '\0';
    return o;
}
