/*
 * cuemu_trace.h - the emulator's recorder (src/trace.cpp): every load,
 * store, atomic and barrier of the device threads, written as JSON lines
 * (format: common/emu/README.md, "Recorder").  CUEMU_TRACE=path turns it
 * on for a whole run; a program that wants only some launches (the kit's
 * harness, for --trace) starts and stops it around them.  The same header
 * counts global traffic alone (cuemuTrafficStart: the harness's --traffic).  Emulator only:
 * a GPU build has no such call.
 */
#ifndef CUEMU_TRACE_H
#define CUEMU_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Record every launch from now on into path (0; -1 with a message when
 * the file cannot be written). */
int cuemuTraceStart(const char *path);
/* Call the device allocation holding p `name` in the trace ("in", "out"),
 * with p's byte offset in it and its bytes from p as they are now (at most
 * 64 KiB). */
void cuemuTraceName(const void *p, const char *name);
/* Add a record {"t":"note", FIELDS}: fields is JSON without braces. */
void cuemuTraceNote(const char *fields);
/* Stop recording and close the file. */
void cuemuTraceStop(void);

/* Count the global memory traffic of device threads from now on: bytes
 * loaded from and stored to device allocations, and atomics there (a GPU
 * build's ncu says the same as DRAM bytes, less what caches merge). */
void cuemuTrafficStart(void);
/* Stop counting; moved[0] bytes loaded, [1] bytes stored, [2] atomics. */
void cuemuTrafficRead(unsigned long long moved[3]);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_TRACE_H */
