/*
 * pcline.cpp - "scan.cu:172" for a code address.  The memory hooks of
 * memory.cpp learn where an access is only as the return address of the
 * hook, and a warning about memory ordering must name lines: the kit
 * builds device code with -g, so addr2line (binutils) can tell.  Without
 * it, or without debug information, the answer is "binary+0xOFFSET".
 */
#include "internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

namespace cuemu {

/* The path goes to the shell in single quotes (it may hold spaces); one
 * that holds a single quote gets the offset form instead. */
static bool quotable(const char *s)
{
    return strchr(s, '\'') == nullptr;
}

/* "labs/x/scan.cu:12" rather than "/home/.../labs/x/scan.cu:12", as the
 * other diagnostics name files. */
const char *relative_path(const char *path)
{
    char cwd[1024];
    if (!getcwd(cwd, sizeof cwd))
        return path;
    size_t n = strlen(cwd);
    return strncmp(path, cwd, n) == 0 && path[n] == '/' ? path + n + 1 : path;
}

void pc_line(uintptr_t pc, char *buf, size_t len)
{
    Dl_info info;
    if (!pc || !dladdr((void *)(pc - 1), &info) || !info.dli_fname) {
        snprintf(buf, len, "an unknown line (pc 0x%lx)", (unsigned long)pc);
        return;
    }
    /* addr2line wants an offset in a position-independent object, the
     * address itself in a fixed one. */
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)info.dli_fbase;
    uintptr_t where = pc - 1 - (eh->e_type == ET_DYN ? (uintptr_t)info.dli_fbase : 0);
    const char *exe = info.dli_fname[0] ? info.dli_fname : "/proc/self/exe";
    snprintf(buf, len, "%s+0x%lx", exe, (unsigned long)where);
    if (!quotable(exe))
        return;
    /* -i: the chain of inlined calls, innermost first; the first frame
     * outside the emulator's headers is the program's line (an atomicExch
     * is inlined from cuda_runtime.h). */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", exe,
             (unsigned long)where);
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    char line[1024];
    bool found = false;
    while (fgets(line, sizeof line, p)) {
        if (found || line[0] == '?')
            continue;
        line[strcspn(line, " \n")] = '\0'; /* drop " (discriminator N)" */
        snprintf(buf, len, "%s", relative_path(line));
        found = strstr(line, "/common/emu/include/") == nullptr;
    }
    pclose(p);
}

} // namespace cuemu
