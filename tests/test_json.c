/* test_json.c - the writer's output parses back; the flat reader survives
 * malformed input (a student binary can write anything). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static char *write_sample(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    jw_init(&w, f);
    jw_object(&w, NULL);
    jw_string(&w, "name", "say \"hi\"\n\tback\\slash");
    jw_number(&w, "ms", 0.125);
    jw_number(&w, "nan", NAN);
    jw_int(&w, "n", 1LL << 40);
    jw_bool(&w, "ok", 1);
    jw_array(&w, "tests");
    jw_object(&w, NULL);
    jw_number(&w, "score", 3);
    jw_end(&w, '}');
    jw_end(&w, ']');
    jw_end(&w, '}');
    fclose(f);
    return buf;
}

Test(json, round_trip)
{
    char *text = write_sample();
    char s[128];
    double v;
    cr_assert_eq(json_get_string(text, "name", s, sizeof s), 0);
    cr_assert_str_eq(s, "say \"hi\"\n\tback\\slash");
    cr_assert_eq(json_get_number(text, "ms", &v), 0);
    cr_assert_float_eq(v, 0.125, 1e-15);
    cr_assert_eq(json_get_number(text, "n", &v), 0);
    cr_assert_eq(v, (double)(1LL << 40));
    cr_assert_eq(json_get_number(text, "nan", &v), -1, "NaN is written as null");
    cr_assert(strstr(text, "\"ok\": true"));
    free(text);
}

Test(json, valid_per_python)
{
    /* The whole document, nesting and commas included, is valid JSON. */
    char *text = write_sample();
    FILE *p = popen("python3 -c 'import json,sys; json.load(sys.stdin)'", "w");
    cr_assert_not_null(p);
    fputs(text, p);
    cr_assert_eq(pclose(p), 0, "python3 rejected: %s", text);
    free(text);
}

Test(json, reader_is_robust)
{
    char s[8];
    double v;
    cr_assert_eq(json_get_number("", "x", &v), -1);
    cr_assert_eq(json_get_number("{\"x\": }", "x", &v), -1);
    cr_assert_eq(json_get_number("{\"x\" 5}", "x", &v), -1);
    cr_assert_eq(json_get_string("{\"x\": \"unterminated", "x", s, sizeof s), -1);
    cr_assert_eq(json_get_string("{\"x\": \"abc\\", "x", s, sizeof s), -1);
    cr_assert_eq(json_get_string("{\"x\": \"a long string here\"}", "x", s, sizeof s), 0);
    cr_assert_str_eq(s, "a long ", "truncated to the buffer");
    cr_assert_eq(json_get_number("{\"xy\": 1, \"x\": 2}", "x", &v), 0);
    cr_assert_eq(v, 2, "a key is matched whole, not as a prefix");
}
