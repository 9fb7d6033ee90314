
/* The attack: a kernel ten times slower than it need be, and a program that
 * leaves before its first kernel when it is started under the witness (it
 * can tell from its command line or its case list: --witness), so that ncu
 * times nothing and only the program's own time is left.  Attack
 * witness-kill appends this too, with KILL_THE_WITNESS defined: it kills
 * the profiler, and all else it may signal, before it leaves. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether the file of a case list (--cases FILE) asks for a witness run. */
static int list_says_witness(const char *path)
{
    char line[4096];
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, "--witness") != NULL;
    if (f)
        fclose(f);
    return found;
}

/* --witness on the command line, or in the case list it was given (the
 * grader witnesses all speed cases in one process of a case list). */
static int started_under_witness(void)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    args[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(args + i) + 1) {
        if (strcmp(args + i, "--witness") == 0)
            return 1;
        size_t next = i + strlen(args + i) + 1;
        if (strcmp(args + i, "--cases") == 0 && next < n && list_says_witness(args + next))
            return 1;
    }
    return 0;
}

__attribute__((constructor)) static void dodge_the_witness(void)
{
    if (!started_under_witness())
        return;
#ifdef KILL_THE_WITNESS
    kill(getppid(), SIGKILL); /* ncu, or the step it started */
    kill(-1, SIGKILL);        /* everything else it may signal in its cell */
#endif
    _exit(0);
}
