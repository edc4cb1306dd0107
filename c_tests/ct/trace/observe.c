/* One step's observation: the instruction's address and every value its
 * timing or cache footprint could depend on beyond the instruction itself —
 * each memory operand's effective address (segment base included), the
 * opmask of a k-masked memory access, the count of a repeated string
 * instruction, the operands of a variable-latency division, and a system
 * call's number and first arguments. Two runs with different secrets must
 * observe the same values at every step. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#include <Zydis/Zydis.h>

#include "tracer.h"

static const char *const memory_labels[CT_MAX_MEM] = {
    "address of memory operand 1", "address of memory operand 2",
    "address of memory operand 3", "address of memory operand 4"};

static void push(struct ct_observation *out, uint64_t value, const char *label) {
    out->values[out->count] = value;
    out->labels[out->count] = label;
    out->count++;
}

static bool address_of(const struct user_regs_struct *regs, const struct ct_insn *insn,
                       const struct ct_mem_ref *ref, uint64_t *address) {
    uint64_t base = 0, index = 0;
    if (ref->base == ZYDIS_REGISTER_RIP) {
        base = insn->address + insn->length;
    } else if (ref->base != ZYDIS_REGISTER_NONE && !ct_register_value(regs, ref->base, &base)) {
        return false;
    }
    if (ref->index != ZYDIS_REGISTER_NONE && !ct_register_value(regs, ref->index, &index)) {
        return false;
    }
    uint64_t segment = ref->segment == ZYDIS_REGISTER_FS ? regs->fs_base
                       : ref->segment == ZYDIS_REGISTER_GS ? regs->gs_base
                                                           : 0;
    uint64_t effective = base + index * (ref->scale ? ref->scale : 1) + (uint64_t)ref->disp;
    if (insn->address_width == 32) effective &= 0xffffffffULL;
    *address = segment + effective;
    return true;
}

/* Each element's address of a gather or scatter (0 for the elements its
 * opmask leaves out): base + index[e]·scale + displacement, the indices
 * sign-extended from the index vector. */
static bool observe_elements(pid_t pid, const struct user_regs_struct *regs, const uint64_t *k,
                             const struct ct_insn *insn, const struct ct_mem_ref *ref, struct ct_observation *out) {
    uint64_t base = 0;
    uint8_t indices[64];
    if (!k || (ref->base != ZYDIS_REGISTER_NONE && !ct_register_value(regs, ref->base, &base)) ||
        !ct_vector_register(pid, ref->index, indices)) {
        fprintf(stderr, "ct_trace: `%s`: its base, indices or opmask could not be read\n", insn->text);
        return false;
    }
    for (int e = 0; e < ref->elements; e++) {
        int64_t index;
        if (ref->index_bytes == 4) {
            int32_t i32;
            memcpy(&i32, indices + 4 * e, 4);
            index = i32;
        } else {
            memcpy(&index, indices + 8 * e, 8);
        }
        uint64_t address = base + (uint64_t)index * ref->scale + (uint64_t)ref->disp;
        bool in_mask = (k[insn->opmask] >> e) & 1;
        push(out, in_mask ? address : 0, "address of an element of the gather or scatter");
    }
    return true;
}

bool ct_observe(pid_t pid, const struct user_regs_struct *regs, const uint64_t *k, const struct ct_insn *insn,
                struct ct_observation *out) {
    out->rip = insn->address;
    out->count = 0;
    if (insn->kind == CT_INSN_SYSCALL) {
        push(out, regs->rax, "system call number");
        push(out, regs->rdi, "system call argument 1");
        push(out, regs->rsi, "system call argument 2");
        push(out, regs->rdx, "system call argument 3");
        return true;
    }
    for (int i = 0; i < insn->mem_count; i++) {
        const struct ct_mem_ref *ref = &insn->mem[i];
        if (ref->vector_index) {
            if (!observe_elements(pid, regs, k, insn, ref, out)) return false;
            continue;
        }
        uint64_t address;
        if (!address_of(regs, insn, ref, &address)) {
            fprintf(stderr, "ct_trace: a memory operand of `%s` uses a register it cannot read\n", insn->text);
            return false;
        }
        push(out, address, memory_labels[i]);
        if (ref->value_recorded) {
            uint64_t value = 0;
            struct iovec local = {&value, ref->bytes}, remote = {(void *)(uintptr_t)address, ref->bytes};
            if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)ref->bytes) {
                perror("ct_trace: reading a divisor");
                return false;
            }
            push(out, value, "value of the variable-latency instruction's memory operand");
        }
    }
    if (insn->opmask) {
        if (!k) {
            fprintf(stderr, "ct_trace: `%s`: its opmask was not read\n", insn->text);
            return false;
        }
        push(out, k[insn->opmask] & insn->opmask_bits, "opmask of the masked memory access (its elements' bits)");
    }
    for (int i = 0; i < insn->reg_count; i++) {
        uint64_t value;
        if (!ct_register_value(regs, insn->regs[i], &value)) {
            fprintf(stderr, "ct_trace: `%s` reads a register it cannot read\n", insn->text);
            return false;
        }
        push(out, value,
             insn->variable_latency ? "register operand of the variable-latency instruction"
                                    : "register that moves the access (string count or bit offset)");
    }
    return true;
}
