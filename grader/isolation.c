/*
 * isolation.c - see isolation.h: the kit's view for students' code, the
 * probe that checks it before anything of a student's runs, and the
 * policy where it cannot be had.
 */
#define _GNU_SOURCE
#include "isolation.h"
#include "cccl.h"
#include "run.h"
#include "tunables.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int isolation_parse_policy(const char *text, sandbox_policy *out)
{
    if (!text || !*text)
        *out = POLICY_DEFAULT;
    else if (!strcmp(text, "refuse"))
        *out = POLICY_REFUSE;
    else if (!strcmp(text, "unsandboxed"))
        *out = POLICY_UNSANDBOXED;
    else
        return -1;
    return 0;
}

sandbox_policy isolation_effective(sandbox_policy asked, const char *top)
{
    char path[PATH_MAX];
    if (asked != POLICY_DEFAULT)
        return asked;
    snprintf(path, sizeof path, "%s/solutions", top);
    return access(path, F_OK) == 0 ? POLICY_REFUSE : POLICY_UNSANDBOXED;
}

int isolation_tool_path(const char *tool, char *path, size_t len)
{
    char cand[PATH_MAX], real[PATH_MAX];
    const char *home = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
    for (const char *p = getenv("PATH"); p && *p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        size_t n = strcspn(p, ":");
        snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, tool);
        if (n && access(cand, X_OK) == 0 && realpath(cand, real))
            return snprintf(path, len, "%s", real) < (int)len ? 0 : -1;
    }
    snprintf(cand, sizeof cand, "%s/bin/%s", home, tool);
    if (access(cand, X_OK) != 0 || !realpath(cand, real))
        return -1;
    return snprintf(path, len, "%s", real) < (int)len ? 0 : -1;
}

/* The folder a CUDA tool is installed in (its path's prefix, two levels
 * up), into prefix; 0 when found. */
static int tool_prefix(const char *tool, char *prefix, size_t len)
{
    char real[PATH_MAX];
    if (isolation_tool_path(tool, real, sizeof real) != 0)
        return -1;
    for (int up = 0; up < 2; up++)
        *strrchr(real, '/') = '\0';
    snprintf(prefix, len, "%s", real[0] ? real : "/");
    return 0;
}

/* Read-only system parts, CUDA wherever it is, and what the instructor
 * adds in GRADE_SANDBOX_BIND (folders separated by ':'). */
static int add_system(fsview *v, char *why, size_t len)
{
    static const char *const sys[] = {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32",
                                      "/lib64", "/libx32", "/run/nvidia-persistenced"};
    static const char *const cuda[] = {"nvcc", "compute-sanitizer"};
    char prefix[PATH_MAX];
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
        if (fsview_add(v, sys[i], FSV_RO) < 0)
            return snprintf(why, len, "view: too many paths"), -1;
    for (size_t i = 0; i < sizeof cuda / sizeof cuda[0]; i++)
        if (tool_prefix(cuda[i], prefix, sizeof prefix) == 0 &&
            !fsview_covers(v, prefix, FSV_RO) && fsview_add(v, prefix, FSV_RO) < 0)
            return snprintf(why, len, "view: too many paths"), -1;
    const char *cs = getenv("COMPUTE_SANITIZER");
    if (cs && cs[0] == '/' && fsview_add(v, cs, FSV_RO) < 0)
        return snprintf(why, len, "view: too many paths"), -1;
    char extra[4096];
    snprintf(extra, sizeof extra, "%s", getenv("GRADE_SANDBOX_BIND") ? getenv("GRADE_SANDBOX_BIND") : "");
    for (char *save, *d = strtok_r(extra, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        if (d[0] != '/')
            return snprintf(why, len, "GRADE_SANDBOX_BIND: '%s' is not an absolute path", d), -1;
        if (fsview_add(v, d, FSV_RO) < 0)
            return snprintf(why, len, "view: too many paths"), -1;
    }
    return 0;
}

/* Of the kit's common/, only what a graded build reads: its headers, the
 * emulator (headers, runtime sources, driver), the one script `make
 * bin` runs and the symbol list its GPU link renames the copy calls with
 * (copy_count.syms).  The harness's own sources (reference.c, harness.cu, ...)
 * and the other tools are not bound at all, so no include of them, in any
 * spelling, finds a file: a graded binary links them prebuilt (build/),
 * never compiled into the submission's own object. */
static int add_kit_headers(fsview *v, const char *top)
{
    static const char *const shown[] = {"common/*.h", "common/*.cuh", "common/kinds/*.h",
                                        "common/emu",
                                        "common/tools/no_algorithms.sh", "common/graded/*.syms"};
    char pattern[PATH_MAX];
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        glob_t g;
        snprintf(pattern, sizeof pattern, "%s/%s", top, shown[i]);
        if (glob(pattern, GLOB_NOSORT, NULL, &g) != 0)
            continue; /* none of them (a kit without the emulator) */
        int full = 0;
        for (size_t k = 0; k < g.gl_pathc && !full; k++)
            full = fsview_add(v, g.gl_pathv[k], FSV_RO) < 0;
        globfree(&g);
        if (full)
            return -1;
    }
    return 0;
}

/* build/deps/root: the grader's own libraries where a user without root
 * unpacked them (common/tools/grader_deps.sh); the grader re-executed in
 * the witness's cell loads them through its rpath. */
int isolation_kit_view(fsview *v, const char *top, const char *work, char *why, size_t len)
{
    static const char *const kit[] = {"Makefile", "build/host", "build/gpu/common",
                                      "build/emu/common", "build/emu/libcuemu.a", "build/emu/mufu",
                                      "build/deps/root"};
    char path[PATH_MAX];
    fsview_init(v);
    if (add_system(v, why, len))
        return -1;
    /* CUB and Thrust are not there at all: no spelling of an include
     * reaches them (cccl.h). */
    if (cccl_mask(v, work, why, len) < 0)
        return -1;
    /* The kit's folder is an empty, read-only mask with its parts shown
     * inside: a kit installed inside a system folder (/usr/local/src/kit)
     * or one the instructor added would otherwise be seen whole, and one
     * under /tmp would have its folders in the view's writable /tmp. */
    if (fsview_add(v, top, FSV_MASK) < 0)
        return snprintf(why, len, "view: too many paths"), -1;
    for (size_t i = 0; i < sizeof kit / sizeof kit[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", top, kit[i]);
        if (fsview_add(v, path, FSV_RO) < 0)
            return snprintf(why, len, "view: too many paths"), -1;
    }
    if (add_kit_headers(v, top) != 0)
        return snprintf(why, len, "view: too many paths"), -1;
    if (fsview_add(v, work, FSV_RW) != 0)
        return snprintf(why, len, "view: no scratch folder %s", work), -1;
    return 0;
}

int isolation_gpu_nodes(char *why, size_t len)
{
    if (access("/dev/nvidiactl", F_OK) != 0 || access("/dev/nvidia-uvm", F_OK) == 0)
        return 0; /* no NVIDIA driver here, or the node is there */
    char *argv[] = {"nvidia-modprobe", "-u", "-c=0", NULL};
    run_status st;
    run_command(argv, "/dev/null", LIMIT_HELPER_S, &st);
    if (access("/dev/nvidia-uvm", F_OK) == 0)
        return 0;
    snprintf(why, len, "/dev/nvidia-uvm is missing and nvidia-modprobe -u could not create it: "
                       "CUDA may not start inside the sandbox (run any CUDA program once as root)");
    return -1;
}

/* How many of the kit's private paths the probe checks at most (six
 * folders, the harness's sources, the tools' script: about twenty now). */
#define PROBE_MAX_PARTS 64

int isolation_probe(const sandbox *sb, const char *top, const char *work, char *why, size_t len,
                    double *seconds)
{
    static const char *const private_parts[] = {
        "solutions", "grader", "tests", "build/gpu/ref", "build/emu/ref", "refbin",
        "common/*.c", "common/*.cu", "common/kinds/*.c", "common/tools/graded_harness.sh"};
    static const char script[] =
        "command -v make >/dev/null || { echo 'make is not visible inside'; exit 1; }\n"
        "test -r \"$1/Makefile\" || { echo \"the kit's Makefile is not visible inside\"; exit 1; }\n"
        "test -r \"$1/common/kit.h\" || { echo \"the kit's headers are not visible inside\"; "
        "exit 1; }\n"
        "shift\n"
        "for p; do if test -e \"$p\"; then echo \"a private part of the kit is visible: $p\"; "
        "exit 1; fi; done\n";
    char parts[PROBE_MAX_PARTS][PATH_MAX], log[PATH_MAX], pattern[PATH_MAX];
    char *argv[PROBE_MAX_PARTS + 6] = {"sh", "-c", (char *)script, "sh", (char *)top};
    int a = 5, n = 0;
    /* every one of them, the harness's sources each by name: a kit that
     * grows a source is checked without a change here */
    for (size_t i = 0; i < sizeof private_parts / sizeof private_parts[0]; i++) {
        glob_t g;
        snprintf(pattern, sizeof pattern, "%s/%s", top, private_parts[i]);
        if (glob(pattern, GLOB_NOCHECK, NULL, &g) != 0)
            continue;
        for (size_t k = 0; k < g.gl_pathc && n < PROBE_MAX_PARTS; k++, n++) {
            snprintf(parts[n], sizeof parts[n], "%s", g.gl_pathv[k]);
            argv[a++] = parts[n];
        }
        globfree(&g);
    }
    argv[a] = NULL;
    snprintf(log, sizeof log, "%s/sandbox-probe.log", work);
    run_status st;
    double t0 = now_s();
    run_sandboxed(argv, log, LIMIT_HELPER_S, sb, &st);
    *seconds = now_s() - t0;
    if (st.exited && st.code == 0)
        return 0;
    read_tail(log, why, len);
    why[strcspn(why, "\n")] = '\0';
    const char *prefix = "grader sandbox: ";
    if (!strncmp(why, prefix, strlen(prefix)))
        memmove(why, why + strlen(prefix), strlen(why + strlen(prefix)) + 1);
    if (!why[0]) {
        char how[128];
        describe_status(&st, how, sizeof how);
        snprintf(why, len, "the sandbox's test process ended with %s", how);
    }
    return -1;
}
