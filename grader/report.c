/*
 * report.c - the grader's two outputs: a table a student understands at a
 * glance (test, verdict, time, what went wrong), and Gradescope's
 * results.json (one entry per group and per speed test).
 */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "hidden.h"
#include "hints.h"
#include "json.h"
#include "sanitize.h"
#include "text.h"

/* Did --sanitize run its tools here (asked for, on a GPU, on a build)? */
static int sanitized(const grade_run *g) { return g->sanitize && !g->sanitize_why[0]; }

/* Does the lab's suite ask for tool t (0 memcheck, 1 racecheck, 2 synccheck)? */
static int tool_asked(const suite *s, int t) { return (s->sanitize.tools >> t) & 1; }

void tally(grade_run *g)
{
    const suite *s = g->s;
    g->total = g->max_total = g->speed_pending = 0;
    for (int i = 0; i < s->ngroups; i++) {
        g->group_passed[i] = g->group_run[i] = 0;
        for (int c = 0; c < s->ncases; c++) {
            if (s->cases[c].group != i || g->tests[c].verdict == V_SKIPPED)
                continue;
            g->group_run[i]++;
            g->group_passed[i] += g->tests[c].verdict == V_PASS;
        }
        g->group_points[i] = group_score(s->groups[i].points, g->group_passed[i], g->group_run[i]);
        int found = 0;
        for (int t = 0; t < SAN_TOOL_COUNT && sanitized(g); t++)
            found += g->san[i][t].verdict == V_SANITIZER;
        g->san_taken[i] = found * s->sanitize.penalty * s->groups[i].points;
        if (g->san_taken[i] > g->group_points[i])
            g->san_taken[i] = g->group_points[i];
        g->group_points[i] -= g->san_taken[i];
        g->total += g->group_points[i];
        g->max_total += s->groups[i].points;
    }
    for (int k = 0; k < s->nspeed; k++) {
        if (!g->speed_graded) {
            g->speed_pending += s->speed[k].points;
            continue;
        }
        g->total += g->speed[k].points;
        g->max_total += s->speed[k].points;
    }
}

/* Skipped tests are counted in the open, with the first one's reason:
 * a group's points are shared by the tests that ran, so a bug that shows
 * only in a skipped test (too large for the emulator) cannot cost points
 * here, and the student must know that. */
static void print_skipped(const grade_run *g, int group, FILE *f)
{
    const suite *s = g->s;
    int skipped = 0;
    const char *why = "";
    for (int c = 0; c < s->ncases; c++)
        if (s->cases[c].group == group && g->tests[c].verdict == V_SKIPPED && !skipped++)
            why = g->tests[c].detail;
    if (skipped)
        fprintf(f, ", %d skipped%s%s%s", skipped, why[0] ? " (" : "", why, why[0] ? ")" : "");
}

/* Text the student influenced (a run's excerpt, a compiler's log, a
 * tool's finding), cleaned (text.h) and every line of it indented: it can
 * never start a line the way the report's own lines do ("TOTAL ...").
 * Emulator reports keep their line breaks. */
static void print_indented(FILE *f, const char *text, const char *indent)
{
    static char clean[16384];
    text_clean(text, clean, sizeof clean, indent);
    fprintf(f, "%s%s\n", indent, clean);
}

/* A student-influenced name (a file, a device) on one line, cleaned. */
static const char *one_line(const char *text, char *buf, size_t len)
{
    text_clean(text, buf, len, NULL);
    return buf;
}

/* The points scored in hidden groups. */
static double hidden_total(const grade_run *g)
{
    double sum = 0;
    for (int i = 0; i < g->s->ngroups; i++)
        if (group_hidden(g->s, i))
            sum += g->group_points[i];
    return sum;
}

/* What a student may read of a sanitizer's run on case c (hidden.h): it
 * ran after the hidden cases, and may have been one of them. */
static const char *san_text(const suite *s, const suite_case *c, const test_result *r)
{
    return r->verdict == V_PASS ? "" : case_text_shown(c, later_run_text(s, r->detail));
}

/* The sanitizer lines of group i: one per tool, and the tool's message. */
static void print_sanitized(const grade_run *g, int i, FILE *f)
{
    if (!sanitized(g))
        return; /* (a failed build sets sanitize_why) */
    for (int t = 0; t < SAN_TOOL_COUNT; t++) {
        const test_result *r = &g->san[i][t];
        if (!tool_asked(g->s, t))
            continue;
        const suite_case *c = g->san_on_small[i][t] ? &g->san_small[i] : &g->san_case[i];
        char label[160];
        case_label(c, i, label, sizeof label);
        const char *text = san_text(g->s, c, r);
        char name[40];
        snprintf(name, sizeof name, "%s", sanitize_tool_name(1 << t));
        fprintf(f, "  %-13s %-52s\n", r->verdict == V_PASS ? "CLEAN" : verdict_name(r->verdict),
                name);
        if (text[0]) {
            fprintf(f, "      %s on %s:\n", name, label);
            print_indented(f, text, "        ");
        }
    }
}

/* The hidden groups in one line: how many and their points, nothing more
 * (not even their score: Gradescope hides the total for the same reason). */
static void print_hidden_summary(const grade_run *g, FILE *f, double *points)
{
    int n = 0, after = 0;
    *points = 0;
    for (int i = 0; i < g->s->ngroups; i++)
        if (group_hidden(g->s, i)) {
            n++;
            *points += g->s->groups[i].points;
            after += g->s->groups[i].visibility == VIS_AFTER_DUE;
        }
    if (n)
        fprintf(f, "\n== Hidden tests: %d group(s) worth %.1f points are graded too; %s\n", n,
                *points, after == n ? "their results are shown after the due date"
                                    : "their results are not shown to students");
}

/* The header: lab, submission, the files graded, and why nothing ran. */
static void print_head(const grade_run *g, FILE *f)
{
    const suite *s = g->s;
    char buf[1100];
    fprintf(f, "\n%s (%s): grading %s\n", s->lab, s->dir,
            one_line(g->submission, buf, sizeof buf));
    if (g->files[0])
        fprintf(f, "graded file(s): %s\n", one_line(g->files, buf, sizeof buf));
    fprintf(f, "backend: %s%s%s\n", strcmp(g->backend, "gpu") == 0 ? "GPU" : "CPU emulator",
            g->device[0] ? ", " : "", one_line(g->device, buf, sizeof buf));
    if (g->isolation[0])
        fprintf(f, "WARNING: %s\n", g->isolation);
    if (g->forbidden[0])
        fprintf(f, "\nFORBIDDEN: %s; every test scores 0.\n", one_line(g->forbidden, buf, sizeof buf));
    else if (g->file_verdict != V_PASS)
        fprintf(f, "\n%s: %s; every test scores 0.\n",
                g->file_verdict == V_MISSING_FILE ? "MISSING FILE" : "AMBIGUOUS FILE",
                one_line(g->build_log, buf, sizeof buf));
    if (!g->forbidden[0] && g->file_verdict == V_PASS && g->build_failed) {
        fprintf(f, "\nBUILD FAILED: your code did not compile; every test scores 0.\n");
        print_indented(f, g->build_log, "  | ");
    } else if (!g->forbidden[0] && g->file_verdict == V_PASS && g->emu_build_log[0]) {
        fprintf(f, "\nEMULATOR BUILD FAILED: your code did not compile for the CPU emulator; "
                   "its [emu] tests score 0.\n");
        print_indented(f, g->emu_build_log, "  | ");
    }
}

/* On the emulator, a group with a WRONG or RACE case: the make draw
 * command that pictures its smallest such case (drawn on request, so
 * that grading stays fast), and what to look for in it.  Not for lab 7's
 * decodes and compactions, which make draw does not picture. */
static void draw_line(const grade_run *g, int group, FILE *f)
{
    const suite *s = g->s;
    const suite_case *best = NULL;
    if (strcmp(g->backend, "gpu") == 0)
        return;
    for (int c = 0; c < s->ncases; c++) {
        const suite_case *k = &s->cases[c];
        int v = g->tests[c].verdict;
        if (k->group == group && (v == V_WRONG || v == V_RACE) && kind_get(k->kind)->drawn &&
            (!best || k->n < best->n))
            best = k;
    }
    if (!best)
        return;
    char args[160];
    int len = snprintf(args, sizeof args, "-s %llu%s", (unsigned long long)best->seed,
                       best->exclusive ? " -x" : "");
    if (best->dtype != DT_INT32)
        len += snprintf(args + len, sizeof args - (size_t)len, " -t %s", dtype_name(best->dtype));
    if (best->op != OP_SUM)
        len += snprintf(args + len, sizeof args - (size_t)len, " -p %s", op_name(best->op));
    if (best->dist != DIST_SMALL)
        snprintf(args + len, sizeof args - (size_t)len, " -d %s", dist_name(best->dist));
    /* lab 6 draws tiles of 512 elements (Makefile, DRAW_DEFINES_lab6): 8 of them */
    char sched[48] = "";
    if (best->schedule[0])
        snprintf(sched, sizeof sched, "CUEMU_SCHEDULE=%s ", best->schedule);
    size_t most = strcmp(s->lab, "lab6") == 0 ? 4096 : 32;
    fprintf(f, "  see it: %smake draw LAB=%s VARIANT=%s N=%zu ARGS=\"%s\" (picture: "
               "build/draw/%s-%s.png)%s: your run beside the reference's; look for the circled "
               "first wrong output, the inputs it lacks or has twice, and red dashed arrows (a "
               "read racing a write: a missing __syncthreads())\n",
            sched,
            s->lab, best->variant, best->n < most ? best->n : most, args, s->lab, best->variant,
            best->n > most ? "; the case failed at a larger n, a small one usually shows the "
                             "same bug" : "");
}

/* The report as the grader lays it out (print_report cleans it). */
static void render_report(const grade_run *g, FILE *f)
{
    const suite *s = g->s;
    double hidden_points;
    print_head(g, f);
    for (int i = 0; i < s->ngroups; i++) {
        const suite_group *gr = &s->groups[i];
        int shown_fail = 0;
        if (group_hidden(s, i))
            continue;
        fprintf(f, "\n== %s  [%s]\n", gr->title, gr->id);
        for (int c = 0; c < s->ncases; c++) {
            const suite_case *k = &s->cases[c];
            const test_result *t = &g->tests[c];
            char label[160], ms[32] = "";
            if (k->group != i || g->build_failed)
                continue;
            case_label(k, c, label, sizeof label);
            /* an emulated run's milliseconds are CPU time, noise to a student */
            if (isfinite(t->ms) && strcmp(g->backend, "gpu") == 0 && !k->schedule[0])
                snprintf(ms, sizeof ms, "%9.3f ms", t->ms);
            if (ms[0])
                fprintf(f, "  %-13s %-52s %s\n", verdict_name(t->verdict), label, ms);
            else
                fprintf(f, "  %-13s %s\n", verdict_name(t->verdict), label);
            if (t->verdict != V_PASS && t->verdict != V_SKIPPED &&
                case_text_shown(k, t->detail)[0] && shown_fail++ < 4)
                print_indented(f, case_text_shown(k, t->detail), "      ");
        }
        print_sanitized(g, i, f);
        fprintf(f, "  -> %d/%d passed", g->group_passed[i], g->group_run[i]);
        print_skipped(g, i, f);
        fprintf(f, ": %.1f / %.1f points", g->group_points[i], gr->points);
        if (g->san_taken[i] > 0)
            fprintf(f, " (%.1f taken off for sanitizer findings)", g->san_taken[i]);
        fputc('\n', f);
        char hint[600];
        hint_line(g, i, hint, sizeof hint);
        if (hint[0])
            fprintf(f, "  %s\n", hint);
        draw_line(g, i, f);
    }
    for (int k = 0; k < s->nspeed; k++) {
        const suite_speed *sp = &s->speed[k];
        const speed_result *r = &g->speed[k];
        char what[48]; /* the kind's parameters */
        kind_params kp = {sp->section, sp->order, sp->tuple, sp->pred};
        kind_params_text(sp->kind, &kp, what, sizeof what);
        fprintf(f, "\n== Speed: %s %s %s%s%s n=%zu (group %s must pass)\n", sp->variant,
                dtype_name(sp->dtype), op_name(sp->op), sp->exclusive ? " exclusive" : "", what,
                sp->n, s->groups[sp->group].id);
        if (r->verdict == V_PASS)
            fprintf(f, "  yours %.4f ms, reference %.4f ms: %.2fx the reference's time; "
                       "%.1f GB/s = %.2f of a device copy (%.1f GB/s)\n",
                    r->t_student, r->t_ref, r->t_student / r->t_ref, r->gbps,
                    r->gbps / r->copy_gbps, r->copy_gbps);
        if (r->detail[0])
            print_indented(f, r->detail, "  ");
        if (g->speed_graded)
            fprintf(f, "  -> %.1f / %.1f points\n", r->points, sp->points);
        else
            fprintf(f, "  -> %.1f points pending (not in this total)\n", sp->points);
    }
    print_hidden_summary(g, f, &hidden_points);
    if (g->sanitize && g->sanitize_why[0])
        fprintf(f, "\nsanitize: not run: %s\n", g->sanitize_why);
    if (hidden_points > 0)
        fprintf(f, "\nTOTAL of the visible tests %.1f / %.1f", g->total - hidden_total(g),
                g->max_total - hidden_points);
    else
        fprintf(f, "\nTOTAL %.1f / %.1f", g->total, g->max_total);
    if (!g->speed_graded)
        fprintf(f, "   (correctness only; speed not graded: %s%s",
                g->no_speed_why ? g->no_speed_why : "no GPU", g->speed_pending > 0 ? "" : ")");
    if (!g->speed_graded && g->speed_pending > 0)
        fprintf(f, ": %.1f more points for speed, graded on a GPU)", g->speed_pending);
    fprintf(f, "\ntime: build %.1f s, grading %.1f s\n", g->build_seconds, g->seconds);
}

/* The report, passed whole through text_clean before it is written: the
 * student's pieces were indented where they were printed, and whatever
 * else reaches the report, no control character does. */
void print_report(const grade_run *g, FILE *f)
{
    char *text = NULL, *clean;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return;
    render_report(g, m);
    fclose(m);
    if (text && (clean = malloc(len + 1)) != NULL) {
        text_clean(text, clean, len + 1, "");
        fputs(clean, f);
        free(clean);
    }
    free(text);
}

static const char *vis_name(visibility_t v)
{
    return v == VIS_HIDDEN ? "hidden" : v == VIS_AFTER_DUE ? "after_due_date" : "visible";
}

/* The top-level "output", which Gradescope shows students: the report
 * they would read in a terminal (print_report), so never a hidden group's
 * tests or hints. */
static void write_public_output(const grade_run *g, json_writer *w)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return;
    print_report(g, m);
    fclose(m);
    jw_string(w, "output", text);
    free(text);
}

/* A string of results.json that holds text the student influenced: cleaned
 * (text.h), its pieces already indented where they were put together. */
static void put_text(json_writer *w, const char *key, const char *text)
{
    static char clean[16384];
    text_clean(text, clean, sizeof clean, "");
    jw_string(w, key, clean);
}

/* The time ratio a leaderboard may show: the geometric mean of the
 * student's time over the reference's, over the speed tests, from credited
 * times only (every test PASS: timed, plausible, witnessed where the
 * policy requires it; t_student is then the witnessed time when that was
 * slower).  NaN (null) when any test was not credited or not graded: the
 * student's own figure is never shown. */
static double credited_ratio(const grade_run *g)
{
    double logsum = 0;
    int n = 0;
    for (int k = 0; k < g->s->nspeed && g->speed_graded; k++) {
        const speed_result *r = &g->speed[k];
        if (r->verdict != V_PASS || !(r->t_student > 0) || !(r->t_ref > 0) ||
            !isfinite(r->t_student / r->t_ref))
            return NAN;
        logsum += log(r->t_student / r->t_ref);
        n++;
    }
    return n ? exp(logsum / n) : NAN;
}

/* extra_data (stored by Gradescope, read by ./grade --batch): what became
 * of the submission, as a field, so nobody searches the report's text. */
static void write_status(const grade_run *g, json_writer *w)
{
    char reason[600];
    const char *status = grade_status(g, reason, sizeof reason);
    jw_object(w, "extra_data");
    jw_string(w, "status", status);
    put_text(w, "reason", reason);
    put_text(w, "files", g->files);
    jw_number(w, "speed_ratio", credited_ratio(g)); /* the leaderboard's (post.py) */
    jw_object(w, "timing"); /* seconds, for the batch's closing line */
    jw_number(w, "build", g->build_seconds);
    jw_number(w, "correctness", g->t_correctness);
    jw_number(w, "sanitize", g->t_sanitize);
    jw_number(w, "speed", g->t_speed);
    jw_number(w, "witness", g->t_witness);
    jw_number(w, "gpu_wait", g->t_gpu_wait);
    jw_number(w, "gpu_alone", g->t_gpu_alone);
    jw_number(w, "gpu_kept", g->t_gpu_kept);
    jw_end(w, '}');
    if (!g->speed_graded) { /* the speed tests are left out of "tests" and of the maximum */
        char pending[200];
        snprintf(pending, sizeof pending, "pending: %.1f points, not graded here (%s)",
                 g->speed_pending, g->no_speed_why ? g->no_speed_why : "no GPU");
        jw_string(w, "speed", pending);
    }
    jw_end(w, '}');
}

int write_results_json(const grade_run *g, const char *path)
{
    const suite *s = g->s;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    json_writer w;
    char out[2048];
    jw_init(&w, f);
    jw_object(&w, NULL);
    jw_number(&w, "score", g->total);
    jw_number(&w, "execution_time", g->build_seconds + g->seconds);
    write_public_output(g, &w);
    write_status(g, &w);
    jw_array(&w, "tests");
    for (int i = 0; i < s->ngroups; i++) {
        size_t used = (size_t)snprintf(out, sizeof out, "%d/%d tests passed.",
                                       g->group_passed[i], g->group_run[i]);
        char hint[600] = ""; /* first: the case details below may fill the text */
        if (!group_hidden(s, i)) /* a hidden group's tests stay unexplained */
            hint_line(g, i, hint, sizeof hint);
        if (hint[0])
            used += (size_t)snprintf(out + used, sizeof out - used, "\n%s", hint);
        for (int c = 0; c < s->ncases && used < sizeof out - 200; c++) {
            const test_result *t = &g->tests[c];
            if (s->cases[c].group != i || t->verdict == V_PASS || t->verdict == V_SKIPPED)
                continue;
            char label[160], detail[1200] = "";
            case_label(&s->cases[c], c, label, sizeof label);
            text_clean(case_text_shown(&s->cases[c], t->detail), detail, sizeof detail, "    ");
            used += (size_t)snprintf(out + used, sizeof out - used, "\n%s: %s%s%s", label,
                                     verdict_name(t->verdict), detail[0] ? ": " : "", detail);
        }
        for (int t = 0; t < SAN_TOOL_COUNT && sanitized(g) && used < sizeof out - 200; t++) {
            const test_result *r = &g->san[i][t];
            if (!tool_asked(s, t))
                continue;
            int clean = r->verdict == V_PASS;
            char detail[1200];
            text_clean(san_text(s, g->san_on_small[i][t] ? &g->san_small[i] : &g->san_case[i], r),
                       detail, sizeof detail, "    ");
            used += (size_t)snprintf(out + used, sizeof out - used, "\n%s: %s%s%s",
                                     sanitize_tool_name(1 << t),
                                     clean ? "clean" : verdict_name(r->verdict),
                                     clean ? "" : ": ", detail);
        }
        if (g->san_taken[i] > 0 && used < sizeof out - 100)
            used += (size_t)snprintf(out + used, sizeof out - used,
                                     "\n%.1f points taken off for sanitizer findings.",
                                     g->san_taken[i]);
        jw_object(&w, NULL);
        jw_string(&w, "name", s->groups[i].title);
        jw_number(&w, "score", g->group_points[i]);
        jw_number(&w, "max_score", s->groups[i].points);
        jw_string(&w, "visibility", vis_name(s->groups[i].visibility));
        put_text(&w, "output", out);
        jw_end(&w, '}');
    }
    for (int k = 0; k < s->nspeed && g->speed_graded; k++) { /* pending: left out */
        const speed_result *r = &g->speed[k];
        text_clean(r->detail, out, sizeof out, "  ");
        if (r->verdict == V_PASS)
            snprintf(out, sizeof out, "yours %.4f ms, reference %.4f ms (%.2fx)", r->t_student,
                     r->t_ref, r->t_student / r->t_ref);
        jw_object(&w, NULL);
        char name[128];
        snprintf(name, sizeof name, "Speed: %s n=%zu", s->speed[k].variant, s->speed[k].n);
        jw_string(&w, "name", name);
        jw_number(&w, "score", r->points);
        jw_number(&w, "max_score", s->speed[k].points);
        put_text(&w, "output", out);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    jw_end(&w, '}');
    return fclose(f);
}
