/*
 * text.h - the one cleaning of text the student influences (output and
 * log excerpts, file and submission names, a device name a run reported)
 * before it reaches a report, results.json or the gradebook.  Nothing a
 * terminal, a spreadsheet or a reader could take for something else
 * survives it: no C0 control character but the line break (and the tab),
 * no DEL, no C1 control (U+0080-U+009F, "\xC2\x80".."\xC2\x9F" in UTF-8),
 * no invalid UTF-8; each becomes '?'.  Every line after the first starts
 * with a given indent, so a student's "TOTAL 100.0 / 100.0" can never
 * begin a line the way the grader's own lines do.
 */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

/* Clean `in` into out (len bytes, always terminated; cut at a character's
 * boundary).  indent NULL: one line (line breaks and tabs become spaces);
 * else each line break is followed by indent.  Returns the bytes written. */
size_t text_clean(const char *in, char *out, size_t len, const char *indent);

#endif /* TEXT_H */
