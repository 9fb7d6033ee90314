/*
 * gpunodes.c - see gpunodes.h: which GPU device nodes a sandboxed process
 * is shown, from nvidia-smi's list and the driver's own minors.
 */
#define _GNU_SOURCE
#include "gpunodes.h"
#include "spawn.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int gpunodes_bus(const char *text, char *out, size_t len)
{
    unsigned dom, bus, dev, fn;
    char end;
    while (*text == ' ')
        text++;
    if (sscanf(text, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) < 4 || dom > 0xffff ||
        bus > 0xff || dev > 0x1f || fn > 7)
        return -1;
    return snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn) < (int)len ? 0 : -1;
}

int gpunodes_parse_smi(const char *text, gpu_node *nodes, int max)
{
    int n = 0;
    for (const char *line = text; line && *line && n < max;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char buf[256], *f[3], *save = NULL;
        snprintf(buf, sizeof buf, "%.*s", (int)strcspn(line, "\n"), line);
        int k = 0;
        for (char *t = strtok_r(buf, ",", &save); t && k < 3; t = strtok_r(NULL, ",", &save))
            f[k++] = t + strspn(t, " ");
        if (k < 3 || !isdigit((unsigned char)f[0][0]) ||
            gpunodes_bus(f[1], nodes[n].bus, sizeof nodes[n].bus) != 0)
            continue; /* a warning line, or a field not as asked */
        nodes[n].index = atoi(f[0]);
        snprintf(nodes[n].uuid, sizeof nodes[n].uuid, "%.*s", (int)strcspn(f[2], " \r"), f[2]);
        nodes[n].minor = -1;
        n++;
    }
    return n;
}

int gpunodes_parse_minor(const char *text)
{
    const char *p = strstr(text, "Device Minor:");
    if (!p)
        return -1;
    p += strlen("Device Minor:");
    p += strspn(p, " \t");
    return isdigit((unsigned char)*p) ? atoi(p) : -1;
}

/* The node a CUDA_VISIBLE_DEVICES token names: an index, or a UUID (or
 * its unique prefix, as CUDA takes it); -1 when none. */
static int named(const char *tok, const gpu_node *nodes, int n)
{
    int found = -1;
    for (int i = 0; i < n; i++) {
        int hit = isdigit((unsigned char)tok[0]) ? nodes[i].index == atoi(tok)
                                                 : strncmp(nodes[i].uuid, tok, strlen(tok)) == 0;
        if (hit && found >= 0)
            return -1; /* an ambiguous prefix */
        if (hit)
            found = i;
    }
    return found;
}

int gpunodes_plan(const char *visible, const gpu_node *nodes, int n, gpu_view *out, char *why,
                  size_t len)
{
    int shown[GPUNODES_MAX] = {0}, order[GPUNODES_MAX], k = 0;
    memset(out, 0, sizeof *out);
    if (!visible || !*visible || n <= 0)
        return snprintf(why, len, "no GPU assigned: every GPU is shown"), 1;
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", visible);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int i = named(t + strspn(t, " "), nodes, n);
        if (i < 0 || nodes[i].minor < 0)
            return snprintf(why, len, "CUDA_VISIBLE_DEVICES=%s names '%s', not a whole GPU "
                                      "of this machine: every GPU is shown", visible, t), -1;
        if (k < GPUNODES_MAX && !shown[i])
            order[k++] = i;
        shown[i] = 1;
    }
    for (int i = 0; i < n; i++)
        if (!shown[i] && nodes[i].minor >= 0) {
            out->hidden_minor[out->nhidden] = nodes[i].minor;
            snprintf(out->hidden_bus[out->nhidden++], sizeof out->hidden_bus[0], "%s",
                     nodes[i].bus);
        }
    /* the shown GPUs' indices among themselves, in PCI bus order */
    for (int j = 0; j < k; j++) {
        int rank = 0;
        for (int i = 0; i < n; i++)
            rank += shown[i] && strcmp(nodes[i].bus, nodes[order[j]].bus) < 0;
        size_t used = strlen(out->visible);
        snprintf(out->visible + used, sizeof out->visible - used, "%s%d", j ? "," : "", rank);
    }
    out->active = 1;
    return 0;
}

/* Each node's minor from the driver's information file. */
static void read_minors(gpu_node *nodes, int n)
{
    for (int i = 0; i < n; i++) {
        char path[128], text[4096];
        snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", nodes[i].bus);
        FILE *in = fopen(path, "r");
        size_t got = in ? fread(text, 1, sizeof text - 1, in) : 0;
        if (in)
            fclose(in);
        text[got] = '\0';
        nodes[i].minor = gpunodes_parse_minor(text);
    }
}

int gpunodes_here(gpu_view *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    if (access("/dev/nvidiactl", F_OK) != 0)
        return snprintf(why, len, "no NVIDIA driver here"), 1;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (!visible || !*visible)
        return snprintf(why, len, "no GPU assigned: every GPU is shown"), 1;
    char *argv[] = {"nvidia-smi", "--query-gpu=index,pci.bus_id,uuid", "--format=csv,noheader",
                    NULL};
    char *text = NULL;
    int trunc = 0, status = spawn_capture(argv, &text, 1 << 16, &trunc);
    gpu_node nodes[GPUNODES_MAX];
    int n = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && text
                ? gpunodes_parse_smi(text, nodes, GPUNODES_MAX)
                : 0;
    free(text);
    if (n == 0)
        return snprintf(why, len, "nvidia-smi listed no GPU: every GPU is shown"), -1;
    read_minors(nodes, n);
    return gpunodes_plan(visible, nodes, n, out, why, len);
}
