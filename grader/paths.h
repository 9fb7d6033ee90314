/*
 * paths.h - a student's file under the name the student knows.  Compilers,
 * compute-sanitizer and the emulator name a file as it was built: the
 * grader's scratch copy, e.g. /dev/shm/grade.x/src/reduce.cu:42, which
 * means nothing to the student and changes every run.
 */
#ifndef PATHS_H
#define PATHS_H

#include <stddef.h>

/* Rewrite every path in text that is `file` or ends in "/file" to
 * "labs/<dir>/file" (a ":LINE" after it stays); the result is cut to len. */
void show_student_paths(char *text, size_t len, const char *file, const char *dir);

#endif /* PATHS_H */
