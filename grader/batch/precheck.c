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
#include <sys/wait.h>

#include "batch.h"
#include "cuda_exit.h"
#include "spawn.h"

int check_suite_first(const char *grader, const char *lab)
{
    char *argv[] = {(char *)grader, (char *)lab, "--validate-suite", NULL};
    /* its summary or complaint goes with the batch's messages */
    spawn_opts o = {.stdout_to_stderr = 1, .who = "batch", .exec_failed_code = GRADE_FAILURE};
    pid_t pid = spawn(argv, &o);
    if (pid < 0)
        return batch_say(stderr, "batch: fork: %s\n", strerror(errno)), GRADE_FAILURE;
    int status = spawn_wait(pid);
    if (status >= 0 && WIFEXITED(status))
        return WEXITSTATUS(status);
    return GRADE_FAILURE;
}
