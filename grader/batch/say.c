/*
 * say.c - every line the batch prints (the instructor's terminal, a
 * student's log), passed whole through text_clean (text.h): a submission's
 * name, an archive member's, a note, are the student's bytes, and an ANSI
 * escape in a file name would otherwise rewrite the instructor's terminal
 * or fake another student's line.  Only the batch's own progress line
 * (sched.c) writes control sequences, and it holds no student text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "text.h"

void batch_say(FILE *f, const char *fmt, ...)
{
    char raw[4096], clean[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* the format's own leading and trailing line breaks stay; a break
     * inside (from a name) is indented, so it never starts a line */
    size_t lead = strspn(raw, "\n"), end = strlen(raw);
    while (end > lead && raw[end - 1] == '\n')
        end--;
    size_t trail = strlen(raw) - end;
    raw[end] = '\0';
    text_clean(raw + lead, clean, sizeof clean, "    ");
    fprintf(f, "%.*s%s%.*s", (int)lead, "\n\n\n\n\n\n\n\n", clean, (int)trail, "\n\n\n\n\n\n\n\n");
}
