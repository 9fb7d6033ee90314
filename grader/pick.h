/*
 * pick.h - which file of a submission is the lab's file.  A submission may
 * be the file itself, a folder with it, or a whole repository of the kit
 * (every lab's folder, each with a reduce.cu or scan.cu): there the lab's
 * own folder, labs/<dir>/<file>, is the one meant, not the first file of
 * that name in directory order.  Two equally likely candidates are refused,
 * naming both, rather than one of them graded by chance.
 */
#ifndef PICK_H
#define PICK_H

#include <stddef.h>

typedef enum { PICK_FOUND, PICK_MISSING, PICK_AMBIGUOUS } pick_result;

/*
 * Look below root (a folder) for name, the lab's file, the lab's folder
 * being labdir.  Preferred, in order: .../labs/<labdir>/<name>, then
 * .../<labdir>/<name>, then <name> anywhere (PICK_MAX_DEPTH deep; hidden
 * folders, __MACOSX and links are not looked into; a link named <name> is a
 * candidate, which collect.c refuses).  PICK_FOUND: its path
 * in out.  PICK_MISSING or PICK_AMBIGUOUS: the reason in why, naming the
 * candidates relative to root.
 */
pick_result pick_file(const char *root, const char *labdir, const char *name, char *out,
                      size_t len, char *why, size_t wlen);

#endif /* PICK_H */
