/*
 * cuemu_watch.h - the emulator's output watch (src/watch.cpp): which bytes
 * of one device range were last written by host code rather than by a
 * kernel.  The kit's grading harness arms it on a case's output before the
 * lab's run() and asks after it, so that an answer computed on the host and
 * copied (or stored) into the output is told from a kernel's.  Emulator
 * only: a GPU build has no such call.
 */
#ifndef CUEMU_WATCH_H
#define CUEMU_WATCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Watch [p, p + bytes) from now on (the previous watch ends; NULL or 0
 * bytes: none, before the range is freed).  Returns the watch's serial
 * number, for the query. */
int cuemuWatchOutput(void *p, size_t bytes);

/* The offset of the first byte of the watched range whose last writer was
 * host code (a runtime copy or fill, a host store, a change made between
 * launches), -1 when every byte was last written by a kernel or never
 * changed, -2 when the watch is not serial's on [p, p + bytes) (it was
 * re-armed since). */
long long cuemuWatchHostWritten(const void *p, size_t bytes, int serial);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_WATCH_H */
