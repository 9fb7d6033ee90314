/*
 * forbid.c - a small lexer blanks comments, string and character literals
 * (keeping newlines, so line numbers stay right), then a word search.
 */
#include "forbid.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy of text with comments and literals replaced by spaces. */
static char *code_only(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } state = CODE;
    for (size_t i = 0; i < n; i++) {
        char c = text[i], next = i + 1 < n ? text[i + 1] : '\0';
        char keep = c == '\n' ? '\n' : ' ';
        switch (state) {
        case CODE:
            if (c == '/' && next == '/') state = LINE_COMMENT;
            else if (c == '/' && next == '*') { state = BLOCK_COMMENT; out[i++] = ' '; keep = ' '; }
            else if (c == '"') state = STRING;
            else if (c == '\'') state = CHAR;
            else keep = c;
            break;
        case LINE_COMMENT:
            if (c == '\n') state = CODE;
            break;
        case BLOCK_COMMENT:
            if (c == '*' && next == '/') { state = CODE; out[i++] = ' '; }
            break;
        case STRING:
        case CHAR:
            if (c == '\\' && next) { out[i++] = ' '; keep = next == '\n' ? '\n' : ' '; }
            else if ((state == STRING && c == '"') || (state == CHAR && c == '\'')) state = CODE;
            else if (c == '\n') state = CODE; /* unterminated: stop at the line's end */
            break;
        }
        if (i < n)
            out[i] = keep;
    }
    out[n] = '\0';
    return out;
}

static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Find `word` as a whole identifier-ish token (or a prefix like "cub::"). */
static const char *find_word(const char *code, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = strstr(code, word); p; p = strstr(p + 1, word)) {
        int left_ok = p == code || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int right_ok = !(isalnum((unsigned char)word[len - 1]) || word[len - 1] == '_') ||
                       !(isalnum((unsigned char)p[len]) || p[len] == '_');
        if (left_ok && right_ok)
            return p;
    }
    return NULL;
}

int forbid_scan(const char *name, const char *text, const char *extra, char *why, size_t len)
{
    static const struct { const char *word, *reason; } rules[] = {
        {"cub::", "uses CUB: this lab asks you to write the kernel yourself"},
        {"thrust::", "uses Thrust: this lab asks you to write the kernel yourself"},
        {"ref_reduce_i32", "calls the harness's CPU reference"},
        {"ref_reduce_f32", "calls the harness's CPU reference"},
        {"ref_scan_i32", "calls the harness's CPU reference"},
        {"ref_scan_f32", "calls the harness's CPU reference"},
        {"gen_input", "calls the harness's input generator"},
        {"prng_u64", "calls the harness's input generator"},
        {"check_output", "calls the harness's checker"},
    };
    char *code = code_only(text);
    if (!code)
        return snprintf(why, len, "%s: out of memory", name), 1;
    int found = 0;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0] && !found; r++) {
        const char *at = find_word(code, rules[r].word);
        if (at)
            found = snprintf(why, len, "%s:%d: %s (%s)", name, line_of(code, at), rules[r].reason,
                             rules[r].word) > 0;
    }
    /* #include lines: no CUB/Thrust headers, nothing outside the submission
     * and the kit's common/ (an absolute path or .. could read any file of
     * the grading machine into a compiler error message). */
    for (const char *p = text; !found && (p = strstr(p, "#include")) != NULL; p++) {
        const char *q = p + 8;
        while (*q == ' ' || *q == '\t')
            q++;
        char target[256];
        size_t k = 0;
        if (*q == '<' || *q == '"')
            for (q++; *q && *q != '>' && *q != '"' && *q != '\n' && k + 1 < sizeof target; q++)
                target[k++] = *q;
        target[k] = '\0';
        if (code[p - text] != '#')
            continue; /* inside a comment or a string */
        if (!strncmp(target, "cub/", 4) || !strncmp(target, "thrust/", 7) ||
            target[0] == '/' || strstr(target, ".."))
            found = snprintf(why, len, "%s:%d: #include <%s> is not allowed in a submission", name,
                             line_of(text, p), target) > 0;
    }
    /* The suite's own words. */
    char words[512];
    snprintf(words, sizeof words, "%s", extra ? extra : "");
    for (char *w = strtok(words, ","); w && !found; w = strtok(NULL, ",")) {
        const char *at = find_word(code, w);
        if (at)
            found = snprintf(why, len, "%s:%d: uses %s, which this lab forbids", name,
                             line_of(code, at), w) > 0;
    }
    free(code);
    return found;
}
