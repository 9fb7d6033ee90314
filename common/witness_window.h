/*
 * witness_window.h - a witnessed run says when it times kernels.
 *
 * Why: the speed witness (grader/witness.h) runs the lab under ncu with the
 * GPU held alone, and in a class every other grader of that GPU waits
 * meanwhile.  Most of such a run needs no GPU to itself: ncu's first
 * launch, the input made and copied up, the output copied back and
 * written, the process's end and ncu's report (lab 6: some 2 of 2.4 s on
 * an H200).  So the grader hands the program a window
 * (KIT_WITNESS_WINDOW=W,G: two file descriptors, set by
 * `grade --sandbox-exec`): before a case's first launch the harness sends
 * 'r' on W and waits for a byte on G, which the grader sends once it holds
 * the GPU alone; after the case's timed launches it sends 'd', and after
 * the last case's the grader shares the GPU again.
 *
 * Nothing here is trusted: a program that sends nothing, or 'd' too soon,
 * only has its own kernels timed beside other runs' (never faster), and the
 * grader never lets another speed test in beside it (gpulock.h).
 */
#ifndef WITNESS_WINDOW_H
#define WITNESS_WINDOW_H

#ifdef __cplusplus
extern "C" {
#endif
/* Before a case's first launch: 'r', then wait for the grader's byte.
 * Without KIT_WITNESS_WINDOW (a run by hand, a GPU of one's own), nothing. */
void witness_window_enter(void);
/* After a case's timed launches (all finished): 'd'. */
void witness_window_leave(void);
#ifdef __cplusplus
}
#endif

#endif /* WITNESS_WINDOW_H */
