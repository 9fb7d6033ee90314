/*
 * gpunodes.h - a grader given one GPU (a batch worker's
 * CUDA_VISIBLE_DEVICES, or the variable the instructor set) shows its
 * sandboxed processes only that GPU's device node: /dev/nvidiaN of every
 * other GPU is left out of the view (fsview.c), so a program that unsets
 * the variable still finds one GPU, not the host's.  The variable is only
 * a request to the CUDA library; the missing node is the defence.
 *
 * CUDA indices name GPUs in PCI bus order here (the grader and the child
 * both get CUDA_DEVICE_ORDER=PCI_BUS_ID, nvidia-smi's order); a GPU's
 * node minor is read from the driver (/proc/driver/nvidia/gpus/<bus>/
 * information, "Device Minor"), never assumed equal to its index.  The
 * child's CUDA_VISIBLE_DEVICES is rewritten to the indices the remaining
 * GPUs have among themselves.
 *
 * A no-op (every node shown, the variable kept) without /dev/nvidiactl,
 * without the variable, or when it names what is not a whole GPU (a MIG
 * instance): then the view is as before, and isolation.c says nothing.
 */
#ifndef GPUNODES_H
#define GPUNODES_H

#include <stddef.h>

#define GPUNODES_MAX 16

typedef struct {
    int index;     /* nvidia-smi's index (PCI bus order) */
    char bus[16];  /* "0000:3b:00.0", as /proc/driver/nvidia/gpus names it */
    char uuid[64]; /* "GPU-..." */
    int minor;     /* N of /dev/nvidiaN, -1 unknown */
} gpu_node;

typedef struct {
    int active;                            /* 1: the nodes below are hidden */
    int nhidden;
    int hidden_minor[GPUNODES_MAX];        /* /dev/nvidiaN left out */
    char hidden_bus[GPUNODES_MAX][16];     /* /proc/driver/nvidia/gpus/<bus> masked */
    char visible[128];                     /* the child's CUDA_VISIBLE_DEVICES */
} gpu_view;

/* "0000:3B:00.0" or "00000000:3b:00.0" (nvidia-smi) into the driver's
 * "0000:3b:00.0"; 0, or -1 when it is not a PCI address. */
int gpunodes_bus(const char *text, char *out, size_t len);

/* Lines "index, pci.bus_id, uuid" (nvidia-smi --query-gpu=index,
 * pci.bus_id,uuid --format=csv,noheader) into nodes (minor -1); how many. */
int gpunodes_parse_smi(const char *text, gpu_node *nodes, int max);

/* The "Device Minor:" of a driver information file's text; -1 if none. */
int gpunodes_parse_minor(const char *text);

/*
 * The plan for CUDA_VISIBLE_DEVICES `visible` (indices or GPU- UUIDs,
 * comma-separated) over nodes[0..n) with their minors known: every other
 * GPU hidden, the child's variable rewritten.  0 with *out active; 1 when
 * nothing is to be hidden (inactive, why says why); -1 when the request
 * cannot be mapped (why; inactive).
 */
int gpunodes_plan(const char *visible, const gpu_node *nodes, int n, gpu_view *out, char *why,
                  size_t len);

/* This machine's plan: nvidia-smi and the driver's files read, then
 * gpunodes_plan with the grader's CUDA_VISIBLE_DEVICES.  Same returns. */
int gpunodes_here(gpu_view *out, char *why, size_t len);

#endif /* GPUNODES_H */
