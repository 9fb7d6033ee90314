/*
 * cccl.h - CUB and Thrust, CCCL's algorithm libraries, made absent from a
 * submission's build view: the folders that hold them in the toolkit nvcc
 * uses are masked (fsview.h FSV_MASK), so that no spelling of an include
 * (a macro, an absolute path, #include_next, __has_include) can reach
 * them.  libcu++ (cuda/, cuda/std/, nv/) stays: a student may rightly use
 * cuda::atomic_ref and its memory orders.
 */
#ifndef CCCL_H
#define CCCL_H

#include <stddef.h>

#include "fsview.h"

/*
 * Add a mask for every cub/ and thrust/ folder in the include folders of
 * the toolkit nvcc uses (what `nvcc --dryrun` lists as INCLUDES and
 * SYSTEM_INCLUDES, and the include/ and include/cccl/ of nvcc's install
 * prefix).  work: a folder for nvcc's answer.  Returns the number of
 * folders masked (0 where there is no toolkit), or -1 with the reason in
 * why (the view is full).
 */
int cccl_mask(fsview *v, const char *work, char *why, size_t len);

/*
 * Whether path names a file inside a cub/ or thrust/ folder (its first
 * component, or one after a '/'): how the build log's "no such file" is
 * told to be one of theirs.
 */
int cccl_is_algorithm_header(const char *path);

#endif /* CCCL_H */
