/*
 * hints.h - a hint chosen from how a group failed, not fixed per group.
 *
 * Each lab has a table, grader/hints/labN.hints, of rules: when a group's
 * failures show these patterns (which outputs are wrong and how, which
 * emulator schedule fails, which other group passes), the bug is most
 * likely in TODO k, and here is what to look at.  The first rule that
 * matches is the hint; when none does, the report says the suite's group
 * hint is general advice for the group.  The table is data, so a course
 * adds or corrects rules without touching C.
 */
#ifndef HINTS_H
#define HINTS_H

#include <stddef.h>

#include "grade.h"

/* Patterns of a whole group, next to diagnose.h's element patterns (bits
 * 0..PAT_NAMES-1) in one word. */
enum {
    GPAT_SCHEDULE = 1u << 16,      /* a case fails, and one of the same shape at least as
                                      large passes under another emulator schedule */
    GPAT_SCHEDULED_ONLY = 1u << 17, /* only the cases with an emulator schedule fail */
    GPAT_RACE = 1u << 18,          /* a second launch gave another result */
    GPAT_HANG = 1u << 19,          /* a timeout or the emulator's deadlock report */
    GPAT_BARRIER = 1u << 20,       /* the emulator saw a barrier not reached by all */
    GPAT_BOUNDS = 1u << 21,        /* a store past the end of out (its guard band changed) */
    GPAT_FLOAT_ONLY = 1u << 22,    /* only float32 cases fail */
    GPAT_EXCLUSIVE_ONLY = 1u << 23, /* only exclusive cases fail, inclusive ones pass */
    GPAT_LARGE_ONLY = 1u << 24,    /* every failing n is above every passing n */
    GPAT_CRASH = 1u << 25,         /* a crash, CUDA error or no result */
    GPAT_WRONG = 1u << 26,         /* a wrong or unwritten output */
    GPAT_INT_ONLY = 1u << 27,      /* only int32 cases fail */
    GPAT_EMU_BOUNDS = 1u << 28,    /* the emulator stopped an access out of bounds */
    GPAT_NOTHING_STORED = 1u << 29, /* every case failed UNWRITTEN: the TODOs look empty */
};
#define GPAT_FIRST_BIT 16
#define GPAT_NAMES 14

#define HINTS_MAX_RULES 64
#define HINTS_TEXT 320

typedef struct {
    char group[32];      /* the suite's group id, or "*" */
    unsigned need, avoid; /* every bit of need holds, none of avoid */
    char passes[32];     /* this group passed completely ("" = no condition) */
    int todo;            /* the TODO the rule blames (0: none in particular) */
    char text[HINTS_TEXT];
    int line;
} hint_rule;

typedef struct {
    hint_rule rules[HINTS_MAX_RULES];
    int n;
} hint_table;

/* Parse a table; -1 with "line N: what" in err on any unknown word. */
int hints_parse(const char *text, hint_table *t, char *err, size_t len);
/* Read and parse a file; a missing file is an empty table (returns 1). */
int hints_load(const char *path, hint_table *t, char *err, size_t len);

/* A pattern's name as tables write it ("schedule", "missing-one", ...), or
 * NULL; its phrase for a student ("fails only under some schedules"). */
const char *hint_pattern_name(unsigned bit);
const char *hint_pattern_phrase(unsigned bit);

/* The patterns of group `group` in a graded run. */
unsigned group_patterns(const grade_run *g, int group);

/* The rule for group `group`, or NULL (then the group's hint is general
 * advice).  *seen gets the group's patterns. */
const hint_rule *hint_pick(const grade_run *g, const hint_table *t, int group, unsigned *seen);

/* The hint line for group `group`, e.g. "hint (TODO 2; seen: ...): text"
 * or "general advice for this group: text"; "" when the group passed or
 * has nothing to say.  Uses the lab's table, loaded once from
 * $KIT_TOP/grader/hints/ (the kit's folder, as ./grade sets it). */
void hint_line(const grade_run *g, int group, char *out, size_t len);

#endif /* HINTS_H */
