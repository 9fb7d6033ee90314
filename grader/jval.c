/*
 * jval.c - jval.h over cJSON, and common/json.h's flat-object lookups
 * (json_get_string, json_get_number) on top of it: one JSON parser for
 * everything the grader and the batch driver read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jval.h"

/* No results.json or result file comes near this: larger is not ours. */
#define JV_MAX_FILE_BYTES (64L << 20)

jv *jv_parse(const char *text)
{
    return text ? cJSON_Parse(text) : NULL;
}

jv *jv_parse_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && size <= JV_MAX_FILE_BYTES &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1)) != NULL) {
        size_t got = fread(buf, 1, (size_t)size, f);
        buf[got] = '\0';
    }
    fclose(f);
    jv *v = jv_parse(buf);
    free(buf);
    return v;
}

void jv_free(jv *v)
{
    cJSON_Delete(v);
}

const jv *jv_get(const jv *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

const char *jv_str(const jv *obj, const char *key)
{
    const jv *v = jv_get(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int jv_num(const jv *obj, const char *key, double *out)
{
    const jv *v = jv_get(obj, key);
    if (!cJSON_IsNumber(v))
        return -1;
    *out = v->valuedouble;
    return 0;
}

int jv_len(const jv *arr)
{
    return cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : -1;
}

const jv *jv_at(const jv *arr, int i)
{
    return cJSON_IsArray(arr) ? cJSON_GetArrayItem(arr, i) : NULL;
}

/* json.h: the lab run's result file is a flat object; a key found with the
 * right type is 0, else -1.  Strings truncated to size - 1 bytes. */
int json_get_string(const char *text, const char *key, char *out, size_t size)
{
    jv *j = jv_parse(text);
    const char *s = jv_str(j, key);
    int rc = s && size ? (snprintf(out, size, "%s", s), 0) : -1;
    jv_free(j);
    return rc;
}

int json_get_number(const char *text, const char *key, double *out)
{
    jv *j = jv_parse(text);
    int rc = jv_num(j, key, out);
    jv_free(j);
    return rc;
}
