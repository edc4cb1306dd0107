/* Where an address is, for a report: the module that maps it and the offset
 * in it (from /proc/PID/maps, so that a report means the same on every
 * machine), and the function and source line with every inlined frame
 * (`addr2line -f -i -C`, from the module's line tables). */
#define _GNU_SOURCE
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer.h"

struct module {
    char path[4096];
    uint64_t base; /* what the module's addresses are relative to */
};

/* Whether the ELF file at `path` is a fixed-address executable (ET_EXEC),
 * whose addresses are absolute. */
static bool fixed_address(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    Elf64_Ehdr header;
    bool fixed = fread(&header, sizeof header, 1, f) == 1 && header.e_type == ET_EXEC;
    fclose(f);
    return fixed;
}

/* The module mapping `address` in `pid`; false if none (an anonymous map). */
static bool module_of(pid_t pid, uint64_t address, struct module *out) {
    char maps[64];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(maps, "r");
    if (!f) return false;
    char line[4608];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        uint64_t start, end;
        int path_at = 0;
        if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %*s %n", &start, &end, &path_at) < 2) continue;
        if (address < start || address >= end || !path_at || line[path_at] == '\n' || !line[path_at]) continue;
        snprintf(out->path, sizeof out->path, "%s", line + path_at);
        out->path[strcspn(out->path, "\n")] = 0;
        found = true;
    }
    if (!found) {
        fclose(f);
        return false;
    }
    /* The load base: the start of the module's mapping at file offset 0. */
    rewind(f);
    out->base = 0;
    while (fgets(line, sizeof line, f)) {
        uint64_t start, offset;
        int path_at = 0;
        if (sscanf(line, "%" SCNx64 "-%*x %*s %" SCNx64 " %*s %*s %n", &start, &offset, &path_at) < 2) continue;
        char *path = line + path_at;
        path[strcspn(path, "\n")] = 0;
        if (offset == 0 && strcmp(path, out->path) == 0) {
            out->base = start;
            break;
        }
    }
    fclose(f);
    if (fixed_address(out->path)) out->base = 0;
    return true;
}

void ct_report_location(pid_t pid, uint64_t address, const char *prefix) {
    struct module module;
    if (!module_of(pid, address, &module)) {
        fprintf(stderr, "%s0x%" PRIx64 " (in no module)\n", prefix, address);
        return;
    }
    uint64_t offset = address - module.base;
    const char *name = strrchr(module.path, '/');
    fprintf(stderr, "%s%s+0x%" PRIx64 "\n", prefix, name ? name + 1 : module.path, offset);
    if (module.path[0] != '/' || strchr(module.path, '\'')) return; /* [vdso] and the like */
    char command[4300];
    snprintf(command, sizeof command, "addr2line -f -i -C -e '%s' 0x%" PRIx64 " 2>/dev/null", module.path, offset);
    FILE *p = popen(command, "r");
    if (!p) return;
    char function[4096], place[4096];
    while (fgets(function, sizeof function, p) && fgets(place, sizeof place, p)) {
        function[strcspn(function, "\n")] = 0;
        place[strcspn(place, "\n")] = 0;
        fprintf(stderr, "%*s    %s at %s\n", (int)strlen(prefix), "", function, place);
    }
    pclose(p);
}
