/*
 * gradekey.c - when a batch resumes, a result is kept only if nothing it
 * depends on changed: the suite (and its hidden part), the student's
 * submission, the kit (grader binary, harness, Makefile, the reference
 * solution) and the grading options.  Each is hashed with 64-bit FNV-1a:
 * this detects changes; it is no defence against a crafted collision,
 * which could only keep a student's own earlier grade for new code.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch.h"
#include "tunables.h"

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

static unsigned long long mix(unsigned long long h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* A file's name (as given) and bytes; a missing file hashes as "absent". */
static unsigned long long mix_file(unsigned long long h, const char *path, const char *name)
{
    char buf[65536];
    size_t got;
    FILE *f = fopen(path, "rb");
    h = mix(h, name, strlen(name) + 1);
    if (!f)
        return mix(h, "absent", 6);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        h = mix(h, buf, got);
    fclose(f);
    return h;
}

/* nftw has no user pointer: the regular files of the tree being hashed. */
static char **files;
static int nfiles, capfiles;

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (type != FTW_F)
        return 0;
    if (nfiles == capfiles) {
        capfiles = capfiles ? capfiles * 2 : 256;
        char **more = realloc(files, sizeof *files * (size_t)capfiles);
        if (!more)
            return 1;
        files = more;
    }
    files[nfiles++] = strdup(path);
    return 0;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file below root, in sorted order, by path below root. */
static unsigned long long mix_tree(unsigned long long h, const char *root)
{
    struct stat sb;
    if (stat(root, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return mix_file(h, root, root + (strrchr(root, '/') ? strrchr(root, '/') - root + 1 : 0));
    nfiles = 0;
    nftw(root, collect, TREE_WALK_FDS, FTW_PHYS);
    qsort(files, (size_t)nfiles, sizeof *files, by_path);
    for (int i = 0; i < nfiles; i++) {
        h = mix_file(h, files[i], files[i] + strlen(root));
        free(files[i]);
    }
    return h;
}

/* The kit's parts a grade depends on. */
static unsigned long long kit_hash(const char *top, const char *lab)
{
    char path[4096];
    glob_t g;
    unsigned long long h = FNV_OFFSET;
    snprintf(path, sizeof path, "%s/build/grader", top);
    h = mix_file(h, path, "grader");
    snprintf(path, sizeof path, "%s/Makefile", top);
    h = mix_file(h, path, "Makefile");
    snprintf(path, sizeof path, "%s/common", top);
    h = mix_tree(h, path);
    snprintf(path, sizeof path, "%s/refbin/%s", top, lab);
    h = mix_file(h, path, "refbin");
    snprintf(path, sizeof path, "%s/solutions/%s-*", top, lab);
    if (glob(path, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            h = mix_tree(h, g.gl_pathv[i]);
        globfree(&g);
    }
    return h;
}

void grade_key(const char *top, const char *lab, const student *s, const char *options,
               char *out, size_t len)
{
    char path[4096];
    unsigned long long suite = FNV_OFFSET;
    snprintf(path, sizeof path, "%s/grader/suites/%s.suite", top, lab);
    suite = mix_file(suite, path, "suite");
    snprintf(path, sizeof path, "%s/grader/suites/hidden/%s.suite", top, lab);
    suite = mix_file(suite, path, "hidden");
    unsigned long long sub = mix_tree(FNV_OFFSET, s->path);
    snprintf(out, len, "suite=%016llx submission=%016llx kit=%016llx options=%s", suite, sub,
             kit_hash(top, lab), options);
}

int key_is_current(const char *keyfile, const char *key, char *changed, size_t len)
{
    char saved[256] = "";
    FILE *f = fopen(keyfile, "r");
    changed[0] = '\0';
    if (f) {
        if (!fgets(saved, sizeof saved, f))
            saved[0] = '\0';
        fclose(f);
    }
    saved[strcspn(saved, "\n")] = '\0';
    if (strcmp(saved, key) == 0)
        return 1;
    if (!saved[0])
        return snprintf(changed, len, "no resume key"), 0;
    static const char *parts[] = {"suite=", "submission=", "kit=", "options="};
    for (int i = 0; i < 4; i++) {
        const char *a = strstr(saved, parts[i]), *b = strstr(key, parts[i]);
        size_t la = a ? strcspn(a, " ") : 0, lb = b ? strcspn(b, " ") : 0;
        if (!a || !b || la != lb || strncmp(a, b, la) != 0) {
            size_t used = strlen(changed);
            snprintf(changed + used, len - used, "%s%.*s", used ? ", " : "",
                     (int)strlen(parts[i]) - 1, parts[i]);
        }
    }
    return 0;
}

int key_save(const char *keyfile, const char *key)
{
    FILE *f = fopen(keyfile, "w");
    if (!f)
        return -1;
    fprintf(f, "%s\n", key);
    return fclose(f);
}
