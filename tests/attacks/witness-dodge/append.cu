
/* The attack: a kernel ten times slower than it need be, and a program that
 * leaves before its first kernel when it is started under the witness (it
 * can tell from its own command line: --witness), so that ncu times nothing
 * and only the program's own time is left. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int started_under_witness(void)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (strcmp(args + i, "--witness") == 0)
            return 1;
    return 0;
}

__attribute__((constructor)) static void dodge_the_witness(void)
{
    if (started_under_witness())
        _exit(0);
}
