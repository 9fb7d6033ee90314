/* test_text.c - text_clean (grader/text.h), the one cleaning of every
 * piece of text a student influences before a report, results.json or the
 * gradebook: no C0 control but the line break and the tab, no DEL, no C1
 * control, no invalid, overlong or surrogate UTF-8, a cut only at a
 * character's boundary, and every later line indented, so that a
 * student's "TOTAL 100.0 / 100.0" never starts a line of the report. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static char out[4096];

/* text_clean into out; checks that the count returned is the length. */
static const char *clean(const char *in, const char *indent)
{
    size_t n = text_clean(in, out, sizeof out, indent);
    cr_assert_eq(n, strlen(out), "returned %zu for a text of %zu bytes", n, strlen(out));
    return out;
}

Test(text, c0_controls_become_question_marks_but_line_break_and_tab)
{
    cr_assert_str_eq(clean("a\x01" "b\x1b[2Jc\rd\x07" "e\x08" "f\x0b\x0c\x1f", ""),
                     "a?b?[2Jc?d?e?f???");
    cr_assert_str_eq(clean("a\tb\nc", ""), "a\tb\nc");
    cr_assert_str_eq(clean("a\tb\nc", NULL), "a b c"); /* one line */
}

Test(text, del_is_replaced)
{
    cr_assert_str_eq(clean("x\x7fy", ""), "x?y");
}

Test(text, every_c1_control_is_replaced)
{
    for (int b = 0x80; b <= 0x9f; b++) {
        char in[8];
        snprintf(in, sizeof in, "a\xc2%cz", b);
        cr_assert_str_eq(clean(in, ""), "a??z", "U+%04X passed", b);
    }
    cr_assert_str_eq(clean("\xc2\xa0|\xc3\xa9", ""), "\xc2\xa0|\xc3\xa9"); /* U+00A0, é stay */
}

Test(text, invalid_utf8_is_replaced_byte_by_byte)
{
    cr_assert_str_eq(clean("a\xff\xfe" "b", ""), "a??b");
    cr_assert_str_eq(clean("\x80" "c", ""), "?c");               /* a lone continuation */
    cr_assert_str_eq(clean("d\xe2\x82", ""), "d??");              /* cut short at the end */
    cr_assert_str_eq(clean("\xe2(\xa1", ""), "?(?");              /* a bad continuation */
    cr_assert_str_eq(clean("\xf8\x88\x80\x80\x80", ""), "?????"); /* 5-byte forms */
}

Test(text, overlong_encodings_are_replaced)
{
    cr_assert_str_eq(clean("\xc0\xaf", ""), "??");             /* '/' in two bytes */
    cr_assert_str_eq(clean("\xc1\x9b", ""), "??");             /* ESC in two bytes */
    cr_assert_str_eq(clean("\xe0\x80\xaf", ""), "???");        /* '/' in three */
    cr_assert_str_eq(clean("\xe0\x82\x9b", ""), "???");        /* U+009B (CSI) in three */
    cr_assert_str_eq(clean("\xf0\x80\x80\xaf", ""), "????");   /* '/' in four */
    cr_assert_str_eq(clean("\xe0\xa0\x80", ""), "\xe0\xa0\x80"); /* U+0800: the first 3-byte */
}

Test(text, surrogates_and_past_u10ffff_are_replaced)
{
    cr_assert_str_eq(clean("\xed\xa0\x80", ""), "???");        /* U+D800 */
    cr_assert_str_eq(clean("\xed\xbf\xbf", ""), "???");        /* U+DFFF */
    cr_assert_str_eq(clean("\xed\x9f\xbf", ""), "\xed\x9f\xbf"); /* U+D7FF stays */
    cr_assert_str_eq(clean("\xf4\x90\x80\x80", ""), "????");   /* U+110000 */
    cr_assert_str_eq(clean("\xf0\x9f\x98\x80", ""), "\xf0\x9f\x98\x80"); /* U+1F600 stays */
}

Test(text, a_long_line_is_cut_at_a_character_boundary)
{
    size_t n = 100000;
    char *in = malloc(2 * n + 1);
    cr_assert_not_null(in);
    for (size_t i = 0; i < n; i++)
        memcpy(in + 2 * i, "\xc3\xa9", 2); /* é, two bytes each */
    in[2 * n] = '\0';
    char small[1000]; /* 999 bytes of room: the 500th é would be cut in half */
    size_t got = text_clean(in, small, sizeof small, "");
    cr_assert_eq(got, 998);
    cr_assert_eq(strlen(small), 998);
    for (size_t i = 0; i < got; i += 2)
        cr_assert(small[i] == '\xc3' && small[i + 1] == '\xa9', "cut inside a character at %zu", i);
    free(in);
    cr_assert_eq(text_clean("abc", small, 1, ""), 0);
    cr_assert_str_eq(small, "");
    cr_assert_eq(text_clean("abc", small, 0, ""), 0);
}

Test(text, later_lines_are_indented)
{
    cr_assert_str_eq(clean("a\nb\n\nc", "  | "), "a\n  | b\n  | \n  | c");
    cr_assert_str_eq(clean(NULL, "  "), "");
}

Test(text, a_fake_total_line_never_starts_a_line)
{
    const char *fake = "ok\nTOTAL 100.0 / 100.0\n\xc2\x85TOTAL 100.0 / 100.0\r\nTOTAL 100.0 / 100.0"
                       "\x1b[1ETOTAL 100.0 / 100.0\x0bTOTAL 100.0 / 100.0";
    const char *indents[] = {"      ", "  | ", "  "};
    for (size_t k = 0; k < sizeof indents / sizeof indents[0]; k++) {
        const char *text = clean(fake, indents[k]);
        for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
            cr_assert(strncmp(line, "TOTAL", 5) != 0, "a line starts with TOTAL: %s", text);
    }
    cr_assert_null(strchr(clean(fake, NULL), '\n'), "one line asked for, several given");
}
