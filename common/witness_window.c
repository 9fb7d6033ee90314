/*
 * witness_window.c - see witness_window.h.
 */
#include "witness_window.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The two descriptors of KIT_WITNESS_WINDOW, read once; 0, or -1 when the
 * variable is absent or not "W,G" (a malformed value is said once: the run
 * then goes on without a window, timed beside other runs). */
static int window_fds(int *w, int *g)
{
    static int read_once, fd_w = -1, fd_g = -1;
    if (!read_once) {
        read_once = 1;
        const char *v = getenv("KIT_WITNESS_WINDOW");
        char tail;
        if (v && (sscanf(v, "%d,%d%c", &fd_w, &fd_g, &tail) != 2 || fd_w < 0 || fd_g < 0)) {
            fprintf(stderr, "harness: KIT_WITNESS_WINDOW='%s' is not W,G; no window\n", v);
            fd_w = fd_g = -1;
        }
    }
    *w = fd_w;
    *g = fd_g;
    return fd_w >= 0 ? 0 : -1;
}

/* One byte on fd, retried when a signal interrupts; 0 or -1. */
static int say(int fd, char byte)
{
    ssize_t n;
    while ((n = write(fd, &byte, 1)) < 0 && errno == EINTR) {}
    return n == 1 ? 0 : -1;
}

/* The harness's watchdog (alarm) is stopped while it waits: the GPU may
 * be held by other graders' runs for seconds, which is not this run's
 * time (the grader leaves the wait out of its limits too); it runs on
 * afterwards with the seconds it had left. */
void witness_window_enter(void)
{
    int w, g;
    char byte;
    if (window_fds(&w, &g) != 0 || say(w, 'r') != 0)
        return;
    unsigned left = alarm(0);
    while (read(g, &byte, 1) < 0 && errno == EINTR) {}
    /* no byte (the grader gone): the grader's own limit ends the run */
    if (left)
        alarm(left);
}

void witness_window_leave(void)
{
    int w, g;
    if (window_fds(&w, &g) == 0)
        say(w, 'd');
}
