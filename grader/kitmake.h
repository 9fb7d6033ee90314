/*
 * kitmake.h - the grader's requests to the kit's Makefile (kitmake.c).
 */
#ifndef KITMAKE_H
#define KITMAKE_H

#include <stddef.h>
#include <sys/types.h>

#include "grade.h"
#include "sandbox.h"

/* The kit's folder and the scratch folder (for logs), before any call. */
void kit_make_init(const char *kit_top, const char *scratch);

/* Build the lab sources in src_dir into bin (log in log), for the emulator
 * or the GPU, within limit seconds, in sandbox sb (may be NULL); 0 when
 * it built. */
int kit_build(const char *src_dir, const char *bin, const char *log, int emu, double limit,
              const sandbox *sb);
/* kit_build in a child process of its own, so that a second build (the
 * emulator's, beside the GPU's) runs at the same time: its pid, or -1
 * when fork failed.  kit_build_wait gives kit_build's result. */
pid_t kit_build_start(const char *src_dir, const char *bin, const char *log, int emu,
                      double limit, const sandbox *sb);
int kit_build_wait(pid_t pid);
/* What every lab binary links, as the grader's user; -1 with make's why. */
int kit_prebuild(int emu, char *why, size_t len);
/* "gpu" or "emu", or NULL (why said) when the backend cannot build. */
const char *kit_backend(int emu, char *why, size_t len);
/* The reference binary for g's lab, built once and cached under a lock;
 * 0 with its path in ref, or -1 with make's complaint in why. */
int kit_reference(const grade_run *g, char *ref, size_t len, char *why, size_t wlen);

#endif /* KITMAKE_H */
