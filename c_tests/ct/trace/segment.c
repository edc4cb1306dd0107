/* Straight-line segments: a run of instructions that the tracer may let the
 * CPU execute at full speed (to a hardware breakpoint at its end) instead
 * of stepping each one, because every observation of every instruction in
 * it can be computed from the registers at its start.
 *
 * A segment holds no control transfer, system call, mark, repeated string
 * instruction or division (those are stepped alone, so the instructions
 * executed are exactly the segment's, in order), and no instruction whose
 * address registers (base, index, bit offset) or opmask an earlier
 * instruction of the segment may write: so the effective addresses and
 * masks computed from the start registers are the ones the CPU uses.
 * Two runs at the same address take the same segment (it depends on the
 * code only), so comparing the computed observations is comparing the
 * steps. Cached by start address. */
#include <stdlib.h>

#include "tracer.h"

enum { MAX_SEGMENT = 4096 };

/* Whether `insn` may join a segment whose instructions so far write
 * `gprs` and `opmasks`. */
static bool may_join(const struct ct_insn *insn, uint16_t gprs, uint8_t opmasks) {
    if (insn->kind != CT_INSN_PLAIN || insn->step_alone) return false;
    if (insn->reads_gpr & gprs) return false;
    return !(insn->opmask && (opmasks & (1u << insn->opmask)));
}

static void *build(pid_t pid, uint64_t start) {
    const struct ct_insn *buffer[MAX_SEGMENT];
    uint16_t gprs = 0;
    uint8_t opmasks = 0;
    uint32_t count = 0;
    uint64_t address = start;
    while (count < MAX_SEGMENT) {
        const struct ct_insn *insn = ct_insn_at(pid, address);
        if (!may_join(insn, gprs, opmasks)) break;
        buffer[count++] = insn;
        gprs |= insn->writes_gpr;
        opmasks |= insn->writes_opmask;
        address += insn->length;
    }
    struct ct_segment *segment = malloc(sizeof *segment + count * sizeof segment->insns[0]);
    if (!segment) return NULL;
    segment->start = start;
    segment->end = address;
    segment->count = count;
    segment->needs_opmasks = false;
    for (uint32_t i = 0; i < count; i++) {
        segment->insns[i] = buffer[i];
        segment->needs_opmasks |= buffer[i]->opmask != 0;
    }
    return segment;
}

const struct ct_segment *ct_segment_at(pid_t pid, uint64_t start) {
    static struct ct_cache cache;
    return ct_cache_get(&cache, start, build, pid);
}
