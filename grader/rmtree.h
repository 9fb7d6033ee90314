/*
 * rmtree.h - removing a folder and everything in it (a scratch folder, a
 * batch's), for the grader and the batch driver alike.
 *
 * The folder may hold what a student's process left: symbolic links to
 * files of the machine, folders it made unreadable.  The walk is nftw with
 * FTW_PHYS | FTW_DEPTH: it never follows a link (a link is removed as a
 * name, never its target) and removes children before their folder.  No
 * process is started (no rm -rf, no PATH to trust).
 */
#ifndef RMTREE_H
#define RMTREE_H

/* Remove path and everything under it; 0 when nothing is left, -1 when
 * some entry could not be removed (it says which on stderr once).  A path
 * that does not exist is 0. */
int remove_tree(const char *path);

#endif
