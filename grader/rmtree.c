/*
 * rmtree.c - remove_tree: a folder and everything in it, never through a
 * symbolic link (rmtree.h).
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rmtree.h"
#include "tunables.h"

/* nftw has no user pointer: the walk's first failure, to report once. */
static int failed;

/* nftw's callback: remove one entry (FTW_DEPTH: a folder after its
 * children); a failure is noted and the walk goes on, so that as much as
 * possible goes. */
static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    int r = (type == FTW_DP) ? rmdir(path) : unlink(path);
    if (r != 0 && errno != ENOENT && !failed) {
        failed = 1;
        fprintf(stderr, "grade: could not remove %s: %s\n", path, strerror(errno));
    }
    return 0;
}

/* The walk, children first, links never followed. */
int remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    failed = 0;
    if (nftw(path, remove_one, TREE_WALK_FDS, FTW_PHYS | FTW_DEPTH) != 0)
        return -1;
    return failed ? -1 : 0;
}
