/*
 * sandbox_exec.h - `grade --sandbox-exec ... -- PROGRAM ARGS`: the
 * student's sandbox entered by a command of its own, for a profiler that
 * must start the program itself (witness.h).  sandbox_exec.c has the
 * options.
 */
#ifndef SANDBOX_EXEC_H
#define SANDBOX_EXEC_H
/* argv[1] is "--sandbox-exec".  Does not return when the program starts;
 * else its exit status (2 usage, 126 sandbox, 127 exec). */
int sandbox_exec_main(int argc, char **argv);
#endif
