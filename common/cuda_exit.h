/*
 * cuda_exit.h - exit codes of a lab binary, shared by the harness (which
 * exits with them) and the grader (which reads them).  Plain C, no CUDA.
 */
#ifndef CUDA_EXIT_H
#define CUDA_EXIT_H

enum {
    EXIT_SELF_CHECK_FAILED = 1, /* ran, but the output is wrong */
    EXIT_USAGE = 2,             /* bad command line */
    EXIT_CUDA_ERROR = 3,        /* a CUDA call or kernel failed */
    EXIT_TIMEOUT = 124          /* a run took longer than --timeout */
};

#endif /* CUDA_EXIT_H */
