/* pick.c - a lab's file in a submission (pick.h). */
#define _GNU_SOURCE /* nftw's FTW_ACTIONRETVAL */
#include "pick.h"

#include <ftw.h>
#include <stdio.h>
#include <string.h>

#include "tunables.h"

/* nftw has no user pointer: the search in progress. */
static struct {
    const char *labdir, *name;
    size_t root_len;
    char found[PICK_MAX_CANDIDATES][1024];
    int tier[PICK_MAX_CANDIDATES];
    int count, more;
} search;

/* How well a path matches: 3 labs/<dir>/<name>, 2 <dir>/<name>, 1 any. */
static int tier_of(const char *path)
{
    char want[400];
    size_t len = strlen(path);
    snprintf(want, sizeof want, "/labs/%s/%s", search.labdir, search.name);
    if (len >= strlen(want) && strcmp(path + len - strlen(want), want) == 0)
        return 3;
    snprintf(want, sizeof want, "/%s/%s", search.labdir, search.name);
    if (len >= strlen(want) && strcmp(path + len - strlen(want), want) == 0)
        return 2;
    return 1;
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    const char *base = path + ftw->base;
    if (type == FTW_D && ftw->level > 0 &&
        (base[0] == '.' || strcmp(base, "__MACOSX") == 0 || ftw->level >= PICK_MAX_DEPTH))
        return FTW_SKIP_SUBTREE;
    /* a link of that name is a candidate too, so that the grader refuses
     * it by name (collect.c) rather than calling the file missing */
    if ((type != FTW_F && type != FTW_SL && type != FTW_SLN) || strcmp(base, search.name) != 0)
        return FTW_CONTINUE;
    if (search.count == PICK_MAX_CANDIDATES) {
        search.more++;
        return FTW_CONTINUE;
    }
    snprintf(search.found[search.count], sizeof search.found[0], "%s", path);
    search.tier[search.count++] = tier_of(path);
    return FTW_CONTINUE;
}

/* "a, b and c" of the candidates of tier t, relative to the root. */
static void name_candidates(int t, char *why, size_t wlen)
{
    size_t used = strlen(why);
    int shown = 0;
    for (int i = 0; i < search.count; i++) {
        if (search.tier[i] != t)
            continue;
        const char *rel = search.found[i] + search.root_len;
        used += (size_t)snprintf(why + used, used < wlen ? wlen - used : 0, "%s%s",
                                 shown++ ? ", " : "", *rel == '/' ? rel + 1 : rel);
    }
    if (search.more && used < wlen)
        snprintf(why + used, wlen - used, " and %d more", search.more);
}

pick_result pick_file(const char *root, const char *labdir, const char *name, char *out,
                      size_t len, char *why, size_t wlen)
{
    memset(&search, 0, sizeof search);
    search.labdir = labdir;
    search.name = name;
    search.root_len = strlen(root);
    why[0] = '\0';
    nftw(root, visit, TREE_WALK_FDS, FTW_PHYS | FTW_ACTIONRETVAL);
    int best = 0, at = -1, ties = 0;
    for (int i = 0; i < search.count; i++)
        if (search.tier[i] > best)
            best = search.tier[i], at = i, ties = 1;
        else if (search.tier[i] == best)
            ties++;
    if (best == 0) {
        snprintf(why, wlen, "the submission has no %s (looked for labs/%s/%s, %s/%s, or %s "
                 "anywhere %d folders deep)", name, labdir, name, labdir, name, name,
                 PICK_MAX_DEPTH);
        return PICK_MISSING;
    }
    if (ties > 1 || search.more) {
        snprintf(why, wlen, "the submission has %d files that could be the lab's %s, and the "
                 "grader will not guess: ", ties + search.more, name);
        name_candidates(best, why, wlen);
        size_t used = strlen(why);
        if (used + 1 < wlen)
            snprintf(why + used, wlen - used, " (keep one, or put it at labs/%s/%s)", labdir,
                     name);
        return PICK_AMBIGUOUS;
    }
    snprintf(out, len, "%s", search.found[at]);
    return PICK_FOUND;
}
