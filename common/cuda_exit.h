/*
 * cuda_exit.h - every exit code of the kit's programs, in one place: a lab
 * binary's (the harness exits with them, the grader reads them), the CPU
 * emulator's diagnostics, the grader's and the batch driver's (./grade
 * and the scripts around it read them).  Plain C, no CUDA.
 */
#ifndef CUDA_EXIT_H
#define CUDA_EXIT_H

/* A lab binary (common/harness.cu). */
enum {
    EXIT_SELF_CHECK_FAILED = 1, /* ran, but the output is wrong */
    EXIT_USAGE = 2,             /* bad command line */
    EXIT_CUDA_ERROR = 3,        /* a CUDA call or kernel failed */
    EXIT_HOST_ERROR = 4,        /* the host failed it (out of memory): not the kernel's fault;
                                   graded HOST-ERROR, never CUDA-ERROR */
    EXIT_CUDA_OOM = 5,          /* a CUDA call failed with cudaErrorMemoryAllocation: graded
                                   CUDA-ERROR, but first run again with the GPU to itself,
                                   since another process on a shared GPU may have taken the
                                   memory (grader/unit.c) */
    EXIT_TIMEOUT = 124          /* a run took longer than --timeout */
};

/* A lab binary built for the CPU emulator, when the emulator reports a
 * fault of the program (common/emu/README.md, "Exit status 86"); the
 * emulator's own copy is DIAG_EXIT in common/emu/src/internal.h. */
#define EMU_DIAGNOSTIC_EXIT 86

/* The grader (./grade labN, grader/main.c). */
enum {
    GRADE_OK = 0,           /* grading ran, whatever the score */
    GRADE_USAGE = 2,        /* bad command line, unknown lab, no suite */
    GRADE_FAILURE = 3,      /* the grader itself could not work */
    GRADE_BAD_SUITE = 4,    /* the lab's suite is invalid (file and line said) */
    GRADE_CHECK_FAILED = 5  /* --check-suite: the reference did not get full marks */
};

/* The batch driver (./grade --batch, grader/batch/batch.c). */
enum {
    BATCH_OK = 0,           /* the batch ran, whatever the students' results */
    BATCH_USAGE = 2,
    BATCH_FAILURE = 3,      /* no grader, results not writable, mixed maxima */
    BATCH_BAD_SUITE = 4,    /* the lab's suite is invalid: nobody graded */
    BATCH_INTERRUPTED = 130 /* a signal stopped it: the same command resumes */
};

#endif /* CUDA_EXIT_H */
