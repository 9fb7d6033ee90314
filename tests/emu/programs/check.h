/* check.h - tiny helpers shared by the emulator's test programs. */
#ifndef EMU_TEST_CHECK_H
#define EMU_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>

static int check_failures = 0;

/* Record a failed expectation and go on, so one run reports all of them. */
#define EXPECT(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                       \
            check_failures++;                                                            \
        }                                                                                \
    } while (0)

#define CUDA_OK(call)                                                                    \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(e_));                                              \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* Prints the verdict the Criterion tests look for. */
static int finish(const char *name)
{
    if (check_failures == 0)
        printf("%s: ok\n", name);
    else
        printf("%s: %d failures\n", name, check_failures);
    return check_failures != 0;
}
#endif
