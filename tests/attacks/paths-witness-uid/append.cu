
// The attack: when started under the witness (--witness on its command
// line), look for more rights than the sandbox user's: uid 0, /etc/shadow
// readable, its cgroup's files writable.  Any of them: say so and end at
// once, so that the witness fails and the report says "not witnessed".
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int witnessed(void)
{
    char args[8192];
    int fd = open("/proc/self/cmdline", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, args, sizeof args - 1) : 0;
    if (fd >= 0)
        close(fd);
    for (ssize_t i = 0; i < n; i += (ssize_t)strlen(args + i) + 1)
        if (!strcmp(args + i, "--witness"))
            return 1;
    return 0;
}
__attribute__((constructor)) static void attack_start(void)
{
    if (!witnessed())
        return;
    int shadow = open("/etc/shadow", O_RDONLY), cgroup = open("/sys/fs/cgroup/cgroup.procs", O_WRONLY);
    fprintf(stderr, "attack: uid=%d shadow=%s cgroup=%s\n", (int)getuid(),
            shadow >= 0 ? "READABLE" : "no", cgroup >= 0 ? "WRITABLE" : "no");
    if (getuid() == 0 || shadow >= 0 || cgroup >= 0)
        _exit(1);
}
