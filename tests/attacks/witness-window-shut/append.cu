
/* The attack: before main, 'd' and 'r' and stray bytes by the thousand on
 * the witness's window (common/witness_window.h), then both of its files
 * replaced by /dev/null (the harness's 'r' goes nowhere, its wait ends at
 * once).  What the grader must do: hold the GPU as before (a 'd' out of
 * turn moves nothing), not hang when the program never says 'r', and time
 * the kernels all the same; in a batch the program's own kernels would
 * then share the GPU with correctness runs, never with another speed
 * test.  A single grading holds no lock, so full marks are expected. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void shut_the_window(void)
{
    const char *v = getenv("KIT_WITNESS_WINDOW");
    int w = -1, g = -1;
    if (!v || sscanf(v, "%d,%d", &w, &g) != 2)
        return;
    static const char junk[] = "ddrrxd\n\0gg";
    for (int i = 0; i < 1000; i++)
        if (write(w, junk, sizeof junk) < 0)
            break;
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, w);
        dup2(null, g);
    }
}
