
// The attack: at its start, write files of 1 MiB (each under the file size
// limit) into /dev/shm and /tmp until a write fails or 1 GiB is there
// (then it ends on purpose, failing its cases: the cap did not hold), and
// free them again.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long long fill(const char *dir)
{
    static char block[1 << 20];
    char path[256];
    long long total = 0;
    int k = 0;
    memset(block, 'x', sizeof block);
    for (; total < (1LL << 30); k++) {
        snprintf(path, sizeof path, "%s/fill%d", dir, k);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ssize_t n = fd >= 0 ? write(fd, block, sizeof block) : -1;
        if (fd >= 0)
            close(fd);
        if (n != (ssize_t)sizeof block)
            break;
        total += n;
    }
    for (int i = 0; i <= k; i++) {
        snprintf(path, sizeof path, "%s/fill%d", dir, i);
        unlink(path);
    }
    return total;
}
__attribute__((constructor)) static void attack_start(void)
{
    if (fill("/dev/shm") >= (1LL << 30) || fill("/tmp") >= (1LL << 30)) {
        fprintf(stderr, "attack: 1 GiB fitted in /dev/shm or /tmp\n");
        _exit(3);
    }
}
