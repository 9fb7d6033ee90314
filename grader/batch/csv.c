/*
 * csv.c - the batch's gradebook: one row per student (name, total, max,
 * each test's points, status, seconds, note), written to NAME.part and
 * renamed, so an interrupted batch never leaves half a gradebook.  Text
 * cells are cleaned and never start a formula (csv_field); the figures are
 * points, which are credited by construction (a time not credited earns
 * none), never a time or ratio the student's process reported.  All
 * rows share one maximum: a row graded under another suite (85/105 beside
 * 80/100) is an error, never a silent mix.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "text.h"

/* One text cell.  The text is cleaned first (text.h: one line, no control
 * characters), then a cell a spreadsheet would evaluate as a formula (its
 * first character one of = + - @, a tab or a carriage return: OWASP's
 * rule for CSV injection) gets a leading single quote, so "=HYPERLINK(...)"
 * as a submission's name is shown as text, never run.  Numbers are the
 * grader's own and are written by fmt_num, not here. */
static void csv_field(FILE *f, const char *raw)
{
    char clean[1024], cell[1026];
    text_clean(raw, clean, sizeof clean, NULL);
    snprintf(cell, sizeof cell, "%s%s", clean[0] && strchr("=+-@\t\r", clean[0]) ? "'" : "",
             clean);
    const char *v = cell;
    if (strpbrk(v, ",\"\r\n") || v[0] == ' ' || (v[0] && v[strlen(v) - 1] == ' ')) {
        fputc('"', f);
        for (; *v; v++) {
            if (*v == '"') fputc('"', f);
            fputc(*v, f);
        }
        fputc('"', f);
    } else {
        fputs(v, f);
    }
}

void fmt_num(double x, char *buf, size_t len)
{
    if (!isfinite(x)) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, len, "%.3f", x);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0') *end-- = '\0';
        if (end == dot) *end = '\0';
    }
    if (strcmp(buf, "-0") == 0) snprintf(buf, len, "0");
}

/* A student's maximum: the sum of their tests' max_score (NaN: no result). */
static double max_of(const student *s)
{
    const jv *tests = jv_get(s->json, "tests");
    double m = 0, x;
    if (!tests)
        return NAN;
    for (int t = 0; t < jv_len(tests); t++)
        if (jv_num(jv_at(tests, t), "max_score", &x) == 0)
            m += x;
    return m;
}

/* Every row with a result has the same maximum; else name each one that
 * differs from the first and return -1. */
static int one_maximum(student *st, int nst, double *common)
{
    int mixed = 0;
    *common = NAN;
    for (int i = 0; i < nst; i++) {
        double m = max_of(&st[i]);
        if (isnan(m))
            continue;
        if (isnan(*common)) {
            *common = m;
        } else if (fabs(m - *common) > 1e-9) {
            batch_say(stderr, "batch: %s was graded out of %g, others out of %g: results of "
                            "another suite; run with --redo\n", st[i].name, m, *common);
            mixed = 1;
        }
    }
    return mixed ? -1 : 0;
}

/* Columns: every test name seen, in order of first appearance; -1 (no
 * memory) or their count. */
static int columns(student *st, int nst, const char ***cols)
{
    int ncols = 0;
    *cols = NULL;
    for (int i = 0; i < nst; i++) {
        const jv *tests = jv_get(st[i].json, "tests");
        for (int t = 0; t < jv_len(tests); t++) {
            const char *name = jv_str(jv_at(tests, t), "name");
            int seen = !name;
            for (int c = 0; c < ncols && !seen; c++) seen = strcmp((*cols)[c], name) == 0;
            if (seen)
                continue;
            const char **more = realloc(*cols, sizeof **cols * (size_t)(ncols + 1));
            if (!more)
                return free(*cols), -1;
            *cols = more;
            (*cols)[ncols++] = name;
        }
    }
    return ncols;
}

/* One student's row. */
static void write_row(FILE *f, const student *s, const char **cols, int ncols, double common)
{
    const jv *tests = jv_get(s->json, "tests");
    char num[64], note[800];
    double total = 0, max = tests ? max_of(s) : common;
    if (tests)
        jv_num(s->json, "score", &total);
    csv_field(f, s->name);
    fmt_num(total, num, sizeof num);
    fprintf(f, ",%s", num);
    fmt_num(max, num, sizeof num);
    fprintf(f, ",%s", num);
    for (int c = 0; c < ncols; c++) {
        num[0] = '\0';
        for (int t = 0; t < jv_len(tests); t++) {
            const char *name = jv_str(jv_at(tests, t), "name");
            double x;
            if (name && strcmp(name, cols[c]) == 0 && jv_num(jv_at(tests, t), "score", &x) == 0)
                fmt_num(x, num, sizeof num);
        }
        fprintf(f, ",%s", num);
    }
    fputc(',', f);
    csv_field(f, s->done ? s->status : "not graded");
    if (isfinite(s->seconds))
        snprintf(num, sizeof num, "%.1f", s->seconds);
    else
        num[0] = '\0';
    fprintf(f, ",%s,", num);
    snprintf(note, sizeof note, "%s%s%s", s->note, s->note[0] && s->dup_note[0] ? "; " : "",
             s->dup_note);
    csv_field(f, note);
    fputs("\r\n", f);
}

int write_csv(const char *path, student *st, int nst)
{
    const char **cols;
    double common;
    int mixed = one_maximum(st, nst, &common);
    int ncols = columns(st, nst, &cols);
    char tmp[4096 + 16];
    if (ncols < 0)
        return -1;
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return free(cols), -1;
    fputs("student,total,max", f);
    for (int c = 0; c < ncols; c++) {
        fputc(',', f);
        csv_field(f, cols[c]);
    }
    fputs(",status,seconds,note\r\n", f);
    for (int i = 0; i < nst; i++)
        write_row(f, &st[i], cols, ncols, common);
    free(cols);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        return -1;
    return mixed ? -2 : 0;
}
