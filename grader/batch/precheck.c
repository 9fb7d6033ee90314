/*
 * precheck.c - a batch checks the lab's suite before grading anyone: a
 * broken suite used to let every student's grading fail ("grader error"
 * for the whole class) while the batch exited 0.  The check is the
 * grader's own loader (./grade labN --validate-suite), so there is one
 * parser.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"

int check_suite_first(const char *grader, const char *lab)
{
    pid_t pid = fork();
    if (pid < 0)
        return fprintf(stderr, "batch: fork: %s\n", strerror(errno)), 3;
    if (pid == 0) {
        dup2(2, 1); /* its summary or complaint goes with the batch's messages */
        execl(grader, grader, lab, "--validate-suite", (char *)NULL);
        fprintf(stderr, "batch: cannot run %s: %s\n", grader, strerror(errno));
        _exit(3);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 3;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}
