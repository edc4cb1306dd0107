/* The AVX-512 opmask and vector registers of a stopped thread, read from
 * its XSAVE area (PTRACE_GETREGSET with NT_X86_XSTATE, standard format):
 * xmm0-15 in the legacy area, their upper halves to ymm in component 2,
 * to zmm in component 6, zmm16-31 whole in component 7, k0-7 in
 * component 5; the offsets of components 5 to 7 come from CPUID leaf 0xD.
 * A component whose XSTATE_BV bit is clear is in its initial state, all
 * zeros. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "tracer.h"

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

enum {
    XSTATE_BV_OFFSET = 512,
    XMM_COMPONENT = 1, XMM_OFFSET = 160,
    YMM_COMPONENT = 2, YMM_OFFSET = 576,
    OPMASK_COMPONENT = 5, ZMM_HI256_COMPONENT = 6, HI16_ZMM_COMPONENT = 7,
    XSAVE_AREA_MAX = 16384
};

static uint8_t area[XSAVE_AREA_MAX] __attribute__((aligned(64)));
static size_t area_len;

/* The standard-format offset of XSAVE component `c` (2..7), 0 if absent. */
static unsigned component_offset(unsigned c) {
    static unsigned offsets[8];
    if (!offsets[c]) {
        unsigned eax, ebx, ecx, edx;
        if (!__get_cpuid_count(0xd, c, &eax, &ebx, &ecx, &edx) || eax == 0) return 0;
        offsets[c] = ebx;
    }
    return offsets[c];
}

static bool read_area(pid_t pid) {
    struct iovec iov = {area, sizeof area};
    if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_XSTATE, &iov) == -1) {
        perror("ct_trace: PTRACE_GETREGSET NT_X86_XSTATE");
        return false;
    }
    area_len = iov.iov_len;
    return true;
}

/* Copies `len` bytes of component `c` at `offset` into `out`: zeros when
 * the component is in its initial state; false if the area lacks it. */
static bool copy_component(unsigned c, unsigned offset, size_t len, void *out) {
    uint64_t present;
    memcpy(&present, area + XSTATE_BV_OFFSET, sizeof present);
    if (!(present & (1ULL << c))) {
        memset(out, 0, len);
        return true;
    }
    if (offset == 0 || offset + len > area_len) {
        fprintf(stderr, "ct_trace: the XSAVE area lacks state component %u\n", c);
        return false;
    }
    memcpy(out, area + offset, len);
    return true;
}

bool ct_opmasks(pid_t pid, uint64_t k[8]) {
    return read_area(pid) &&
           copy_component(OPMASK_COMPONENT, component_offset(OPMASK_COMPONENT), 8 * sizeof k[0], k);
}

bool ct_vector_register(pid_t pid, int number, uint8_t out[64]) {
    if (number < 0 || number > 31 || !read_area(pid)) return false;
    if (number >= 16) {
        return copy_component(HI16_ZMM_COMPONENT, component_offset(HI16_ZMM_COMPONENT) + 64 * (unsigned)(number - 16),
                              64, out);
    }
    unsigned n = (unsigned)number;
    return copy_component(XMM_COMPONENT, XMM_OFFSET + 16 * n, 16, out) &&
           copy_component(YMM_COMPONENT, YMM_OFFSET + 16 * n, 16, out + 16) &&
           copy_component(ZMM_HI256_COMPONENT, component_offset(ZMM_HI256_COMPONENT) + 32 * n, 32, out + 32);
}
