/*
 * caselist.c - the case-list loop shared by the harness and the tests'
 * fake lab binary (caselist.h says why and what it writes).
 */
#include "caselist.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_exit.h"

int caselist_split(char *line, char **words, int max)
{
    int n = 0;
    for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
        if (n == max)
            return -1;
        words[n++] = p;
    }
    return n;
}

/* One record on the progress file, in one write(2): a process that dies
 * right after has still left it behind. */
static void record(int fd, const char *fmt, const char *id, int rc)
{
    char line[256];
    int len = snprintf(line, sizeof line, fmt, id, rc);
    if (fd >= 0 && len > 0 && write(fd, line, (size_t)len) < 0) { /* a full disk: the
        grader then sees the case unfinished, which is what it is to it */ }
}

/* Parse and run one line; its exit code. */
static int run_line(char *line, const char *prog, caselist_fn fn, void *ctx, int fd)
{
    char *words[CASELIST_ARGS_MAX + 1], err[256];
    int count = caselist_split(line, words + 1, CASELIST_ARGS_MAX);
    if (count == 0 || words[1][0] == '#')
        return -1; /* blank or comment: not a case */
    const char *id = words[1]; /* filled even when there are too many */
    record(fd, "begin %s\n", id, 0);
    fflush(stdout);
    fprintf(stderr, "@@ case %s\n", id);
    int rc;
    cli_opts o;
    cli_defaults(&o);
    words[1] = (char *)prog; /* the id's place becomes argv[0] */
    if (count < 0) {
        fprintf(stderr, "%s: case line has more than %d words\n", prog, CASELIST_ARGS_MAX);
        rc = EXIT_USAGE;
    } else if (cli_parse(count, words + 1, &o, err, sizeof err) != CLI_OK) {
        fprintf(stderr, "%s: case %s: %s\n", prog, id, err);
        rc = EXIT_USAGE;
    } else {
        rc = fn(&o, ctx);
    }
    fflush(stdout);
    record(fd, "end %s %d\n", id, rc);
    return rc;
}

int caselist_run(const char *file, const char *progress, const char *prog, caselist_fn fn,
                 void *ctx)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return EXIT_USAGE;
    }
    int fd = -1;
    if (progress && (fd = open(progress, O_WRONLY | O_CREAT | O_APPEND, 0644)) < 0) {
        perror(progress);
        fclose(f);
        return EXIT_USAGE;
    }
    char line[CASELIST_LINE_MAX];
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s: a case line is longer than %d bytes\n", prog,
                    CASELIST_LINE_MAX - 2);
            fclose(f);
            if (fd >= 0)
                close(fd);
            return EXIT_USAGE;
        }
        run_line(line, prog, fn, ctx, fd);
    }
    fclose(f);
    if (fd >= 0)
        close(fd);
    return 0;
}
