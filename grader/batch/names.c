/*
 * names.c - two submissions under one student's name (bob/ and bob.tgz):
 * one is graded, chosen by a fixed rule rather than directory order, and
 * the gradebook says so (it used to be a line on stderr only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"

static const char *base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void note_duplicate(student *kept, char *path, int kind)
{
    if (strcmp(base(path), base(kept->path)) < 0) { /* the other one comes first */
        char *old = kept->path;
        int old_kind = kept->kind;
        kept->path = path;
        kept->kind = kind;
        path = old;
        kind = old_kind;
    }
    size_t used = strlen(kept->dup_note);
    snprintf(kept->dup_note + used, sizeof kept->dup_note - used,
             "%sduplicate name: graded %s; %s not graded", used ? "; " : "", base(kept->path),
             base(path));
    batch_say(stderr, "batch: student '%s' has two submissions: grading %s, not %s\n", kept->name,
            base(kept->path), base(path));
    (void)kind;
    free(path);
}
