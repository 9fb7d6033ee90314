/*
 * logtext.c - what a student reads of a run's log (logtext.h): the
 * diagnostic that matters on a line or a few, and compute-sanitizer's
 * first report with its count.
 */
#define _GNU_SOURCE /* memmem */
#include "logtext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tunables.h"

/* The first size - 1 bytes of a log of the grader's own folder,
 * NUL-terminated ("" when unreadable). */
static void read_head(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, size - 1, f) : 0;
    if (f)
        fclose(f);
    buf[got] = '\0';
}

/*
 * text's lines into out (len bytes): the first line and every "hint:"
 * line always, the lines between them while there is room, and a count
 * of those left out.  A deadlock report lists one line per stuck block;
 * cutting it at len lost the hint at its end, the part a student needs.
 */
static void keep_first_and_hint(const char *text, char *out, size_t len)
{
    size_t must = 0, o = 0;
    int lines = 0, noted = 0;
    for (const char *p = text; *p; lines++) { /* room the must-keep lines take */
        size_t n = strcspn(p, "\n");
        if (lines == 0 || memmem(p, n, "hint:", 5))
            must += n + 1;
        p += n + (p[n] == '\n');
    }
    must += 48; /* the "(N more lines ...)" note */
    lines = 0;
    for (const char *p = text; *p; lines++) {
        size_t n = strcspn(p, "\n");
        int keep = lines == 0 || memmem(p, n, "hint:", 5);
        if (keep || o + n + 1 + must < len) {
            if (o + n + 2 > len)
                n = len > o + 2 ? len - o - 2 : 0;
            o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? "\n" : "", (int)n, p);
            if (keep)
                must -= must > n + 1 ? n + 1 : must;
        } else if (!noted++ && o + 48 < len) {
            o += (size_t)snprintf(out + o, len - o, "\n(more lines left out here)");
        }
        p += strcspn(p, "\n");
        p += *p == '\n';
    }
    while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\n'))
        o--;
    out[o] = '\0';
}

/* What a student should read from a run's log text: from the first
 * diagnostic (the emulator's, CUDA's, the watchdog's) if there is one,
 * else the text's last lines. */
void log_excerpt_text(const char *head, char *out, size_t len)
{
    static const char *const markers[] = {"out of host memory", "cuemu: error", "CUDA error",
                                          "TIMEOUT:", "error:"};
    static char text[LOG_HEAD_BYTES]; /* the log's head */
    const char *from = NULL;
    for (size_t m = 0; m < sizeof markers / sizeof markers[0] && !from; m++)
        from = strstr(head, markers[m]);
    while (from && from > head && from[-1] != '\n') /* the whole line: file:line first */
        from--;
    if (from) {
        snprintf(text, sizeof text, "%s", from);
    } else {
        size_t hl = strlen(head);
        snprintf(text, sizeof text, "%s", head + (hl > sizeof text - 1 ? hl - (sizeof text - 1) : 0));
    }
    /* Line breaks stay (an emulator report is laid out in lines: the
     * deadlock, then each waiting thread, then the hint); other control
     * characters become spaces. */
    for (char *p = text; *p; p++)
        if (*p != '\n' && (unsigned char)*p < 0x20)
            *p = ' ';
    keep_first_and_hint(text, out, len);
}

/* The same for a whole log file (its head). */
void log_excerpt(const char *log, char *out, size_t len)
{
    static char head[LOG_HEAD_BYTES];
    read_head(log, head, sizeof head);
    log_excerpt_text(head, out, len);
}

/* What compute-sanitizer found, on one line: its first report (the lines
 * from the first "========= " message up to the next blank report line,
 * banner and summaries left out) and its error count. */
void sanitizer_excerpt(const char *log, char *out, size_t len)
{
    static char text[SANITIZER_HEAD_BYTES];
    read_head(log, text, sizeof text);
    sanitizer_summary(text, out, len);
}

/* sanitizer_excerpt's work, on the text itself (logtext.h). */
int sanitizer_summary(const char *text, char *out, size_t len)
{
    static const char *const skip[] = {"COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY",
                                       "LEAK SUMMARY", "Target application returned",
                                       "Saved host backtrace", "Host Frame"};
    const char *prefix = "========= ";
    size_t o = 0, plen = strlen(prefix);
    int errors = -1, in_report = 0, lines = 0;
    out[0] = '\0';
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (nl ? 1 : 0);
        const char *e;
        if ((e = strstr(line, "ERROR SUMMARY: ")) != NULL)
            errors = atoi(e + 15);
        else if ((e = strstr(line, "RACECHECK SUMMARY: ")) != NULL && strchr(e, '('))
            errors = atoi(strchr(e, '(') + 1); /* "(E errors, W warnings)" */
        if (strncmp(line, prefix, plen) != 0) {
            in_report = 0;
            continue;
        }
        const char *body = line + plen;
        int indented = *body == ' ';
        while (*body == ' ')
            body++;
        int boring = *body == '\0';
        for (size_t k = 0; k < sizeof skip / sizeof skip[0] && !boring; k++)
            boring = strstr(body, skip[k]) == body;
        if (boring) {
            in_report = 0;
            continue;
        }
        if (!indented && lines == 0)
            in_report = 1; /* the first report starts here */
        else if (!indented)
            in_report = 0; /* a second report: one is enough */
        if (in_report && lines < 4 && o + 2 < len) {
            o += (size_t)snprintf(out + o, len - o, "%s%s", lines ? " " : "", body);
            lines++;
        }
    }
    if (o >= len)
        o = len - 1;
    if (errors > 0)
        snprintf(out + o, len - o, "%s(compute-sanitizer: %d error%s)", o ? " " : "", errors,
                 errors == 1 ? "" : "s");
    else if (o == 0)
        snprintf(out, len, "compute-sanitizer reported errors (no message found in its output)");
    return errors;
}
