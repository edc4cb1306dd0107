/* Decoding an instruction once into what a step of it must record (Zydis 4:
 * Debian's capstone 4 does not know the AVX-512 IFMA instructions), cached by
 * address. The classification fails closed: whatever this file cannot turn
 * into comparable values (an AVX2 gather's vector mask, a floating-point
 * division, hardware randomness) is CT_INSN_UNCLASSIFIED with a reason, and
 * the trace stops there. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <Zydis/Zydis.h>

#include "tracer.h"

/* ---- classification ------------------------------------------------------- */

static bool is_float_divide_or_root(ZydisMnemonic m) {
    switch (m) {
    case ZYDIS_MNEMONIC_DIVSS: case ZYDIS_MNEMONIC_DIVSD: case ZYDIS_MNEMONIC_DIVPS: case ZYDIS_MNEMONIC_DIVPD:
    case ZYDIS_MNEMONIC_VDIVSS: case ZYDIS_MNEMONIC_VDIVSD: case ZYDIS_MNEMONIC_VDIVPS: case ZYDIS_MNEMONIC_VDIVPD:
    case ZYDIS_MNEMONIC_SQRTSS: case ZYDIS_MNEMONIC_SQRTSD: case ZYDIS_MNEMONIC_SQRTPS: case ZYDIS_MNEMONIC_SQRTPD:
    case ZYDIS_MNEMONIC_VSQRTSS: case ZYDIS_MNEMONIC_VSQRTSD: case ZYDIS_MNEMONIC_VSQRTPS: case ZYDIS_MNEMONIC_VSQRTPD:
    case ZYDIS_MNEMONIC_FDIV: case ZYDIS_MNEMONIC_FDIVP: case ZYDIS_MNEMONIC_FDIVR: case ZYDIS_MNEMONIC_FDIVRP:
    case ZYDIS_MNEMONIC_FIDIV: case ZYDIS_MNEMONIC_FIDIVR: case ZYDIS_MNEMONIC_FSQRT:
        return true;
    default:
        return false;
    }
}

static bool is_bit_test(ZydisMnemonic m) {
    return m == ZYDIS_MNEMONIC_BT || m == ZYDIS_MNEMONIC_BTS || m == ZYDIS_MNEMONIC_BTR ||
           m == ZYDIS_MNEMONIC_BTC;
}

static bool is_general_register(ZydisRegister reg) {
    ZydisRegisterClass c = ZydisRegisterGetClass(reg);
    return c == ZYDIS_REGCLASS_GPR8 || c == ZYDIS_REGCLASS_GPR16 || c == ZYDIS_REGCLASS_GPR32 ||
           c == ZYDIS_REGCLASS_GPR64;
}

/* Bit of a general register (any width) in a 16-bit set: rax = 0 .. r15 = 15;
 * -1 for any other register. */
static int gpr_bit(ZydisRegister reg) {
    if (!is_general_register(reg)) return -1;
    ZydisRegister full = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
    return full >= ZYDIS_REGISTER_RAX && full <= ZYDIS_REGISTER_R15 ? (int)(full - ZYDIS_REGISTER_RAX) : -1;
}

static void note_read(struct ct_insn *out, ZydisRegister reg) {
    int bit = gpr_bit(reg);
    if (bit >= 0) out->reads_gpr |= (uint16_t)(1u << bit);
}

/* What the instruction writes, and whether it must run alone: a write to
 * rip (a jump, call or return), to a segment register or base, or a
 * register this tracer does not model in segments. */
static void note_writes(struct ct_insn *out, const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops) {
    for (int i = 0; i < in->operand_count; i++) {
        const ZydisDecodedOperand *op = &ops[i];
        if (op->type != ZYDIS_OPERAND_TYPE_REGISTER || !(op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)) continue;
        ZydisRegister reg = op->reg.value;
        int bit = gpr_bit(reg);
        if (bit >= 0) {
            out->writes_gpr |= (uint16_t)(1u << bit);
        } else if (reg >= ZYDIS_REGISTER_K0 && reg <= ZYDIS_REGISTER_K7) {
            out->writes_opmask |= (uint8_t)(1u << (reg - ZYDIS_REGISTER_K0));
        } else if (ZydisRegisterGetClass(reg) == ZYDIS_REGCLASS_IP ||
                   ZydisRegisterGetClass(reg) == ZYDIS_REGCLASS_SEGMENT) {
            out->step_alone = true;
        }
    }
    if (in->meta.category == ZYDIS_CATEGORY_RDWRFSGS) out->step_alone = true;
}

static void unclassified(struct ct_insn *out, const char *why) {
    out->kind = CT_INSN_UNCLASSIFIED;
    out->why = why;
}

static void add_register(struct ct_insn *out, ZydisRegister reg) {
    for (int i = 0; i < out->reg_count; i++) {
        if (out->regs[i] == (int)reg) return;
    }
    if (out->reg_count == CT_MAX_REGS) {
        unclassified(out, "more register operands to compare than the tracer records");
        return;
    }
    out->regs[out->reg_count++] = (int)reg;
}

/* What the vector-indexed (VSIB) operand being classified takes: index
 * size and element count, set by vector_indexed. */
/* An xmm, ymm or zmm register. */
static bool is_vector_register(ZydisRegister reg) {
    ZydisRegisterClass c = ZydisRegisterGetClass(reg);
    return c == ZYDIS_REGCLASS_XMM || c == ZYDIS_REGCLASS_YMM || c == ZYDIS_REGCLASS_ZMM;
}

static uint8_t vsib_index_bytes, vsib_elements;

/* An AVX-512 gather or scatter (opmask k1..k7): its per-element
 * addresses are compared (index vector read from the XSAVE area, elements
 * outside the mask left out). Anything else vector-indexed (AVX2's
 * vector-masked gathers, prefetch gathers) fails closed. */
static bool vector_indexed(struct ct_insn *out, const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
                           const ZydisDecodedOperand *mem) {
    unsigned index_bytes, data_bytes;
    switch (in->mnemonic) {
    case ZYDIS_MNEMONIC_VPGATHERDD: case ZYDIS_MNEMONIC_VGATHERDPS:
    case ZYDIS_MNEMONIC_VPSCATTERDD: case ZYDIS_MNEMONIC_VSCATTERDPS:
        index_bytes = 4, data_bytes = 4;
        break;
    case ZYDIS_MNEMONIC_VPGATHERDQ: case ZYDIS_MNEMONIC_VGATHERDPD:
    case ZYDIS_MNEMONIC_VPSCATTERDQ: case ZYDIS_MNEMONIC_VSCATTERDPD:
        index_bytes = 4, data_bytes = 8;
        break;
    case ZYDIS_MNEMONIC_VPGATHERQD: case ZYDIS_MNEMONIC_VGATHERQPS:
    case ZYDIS_MNEMONIC_VPSCATTERQD: case ZYDIS_MNEMONIC_VSCATTERQPS:
        index_bytes = 8, data_bytes = 4;
        break;
    case ZYDIS_MNEMONIC_VPGATHERQQ: case ZYDIS_MNEMONIC_VGATHERQPD:
    case ZYDIS_MNEMONIC_VPSCATTERQQ: case ZYDIS_MNEMONIC_VSCATTERQPD:
        index_bytes = 8, data_bytes = 8;
        break;
    default:
        unclassified(out, "a vector-indexed memory operand of an unsupported kind: its addresses are not compared");
        return false;
    }
    ZydisRegister k = in->avx.mask.reg;
    if (k < ZYDIS_REGISTER_K1 || k > ZYDIS_REGISTER_K7) {
        unclassified(out, "a gather masked by a vector register (AVX2): its mask is not compared");
        return false;
    }
    unsigned data_width = 0;
    for (int i = 0; i < in->operand_count; i++) {
        if (ops[i].type == ZYDIS_OPERAND_TYPE_REGISTER && is_vector_register(ops[i].reg.value)) {
            data_width = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, ops[i].reg.value) / 8;
        }
    }
    unsigned index_width = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, mem->mem.index) / 8;
    unsigned elements = index_width / index_bytes;
    if (data_width / data_bytes < elements) elements = data_width / data_bytes;
    if (elements == 0 || elements > CT_MAX_ELEMENTS) {
        unclassified(out, "a gather or scatter of an unexpected shape");
        return false;
    }
    vsib_index_bytes = (uint8_t)index_bytes;
    vsib_elements = (uint8_t)elements;
    return true;
}

/* The opmask bits a masked instruction uses, one per element of what it
 * writes: its destination (a vector register or memory), or for a compare
 * into a mask register the elements of its first vector operand. The bits
 * above are ignored by the CPU and may hold anything (e.g. the secret
 * result of another compare), so they are not compared. All 64 bits where
 * the count is not known (never fewer than the CPU uses). */
static uint64_t element_bits(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops) {
    unsigned count = 0;
    if (in->operand_count_visible > 0 &&
        (ops[0].type == ZYDIS_OPERAND_TYPE_MEMORY ||
         (ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER && is_vector_register(ops[0].reg.value)))) {
        count = ops[0].element_count;
    } else {
        for (int i = 1; i < in->operand_count_visible && !count; i++) {
            if (ops[i].type == ZYDIS_OPERAND_TYPE_REGISTER && is_vector_register(ops[i].reg.value)) {
                count = ops[i].element_count;
            }
        }
    }
    return count == 0 || count >= 64 ? ~0ull : (1ull << count) - 1;
}

static void classify(struct ct_insn *out, const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops) {
    out->kind = CT_INSN_PLAIN;
    out->length = in->length;
    out->address_width = in->address_width;
    note_writes(out, in, ops);
    switch (in->mnemonic) {
    case ZYDIS_MNEMONIC_INT3:
        out->kind = CT_INSN_MARK;
        out->step_alone = true;
        return;
    case ZYDIS_MNEMONIC_SYSCALL:
        out->kind = CT_INSN_SYSCALL;
        out->step_alone = true;
        return;
    case ZYDIS_MNEMONIC_SYSENTER: case ZYDIS_MNEMONIC_INT: case ZYDIS_MNEMONIC_INTO: case ZYDIS_MNEMONIC_INT1:
        unclassified(out, "a system call or trap other than syscall");
        return;
    case ZYDIS_MNEMONIC_RDRAND: case ZYDIS_MNEMONIC_RDSEED:
        unclassified(out, "hardware randomness: the runs' randomness cannot be fixed");
        return;
    case ZYDIS_MNEMONIC_MASKMOVQ: case ZYDIS_MNEMONIC_MASKMOVDQU: case ZYDIS_MNEMONIC_VMASKMOVDQU:
    case ZYDIS_MNEMONIC_VMASKMOVPS: case ZYDIS_MNEMONIC_VMASKMOVPD:
    case ZYDIS_MNEMONIC_VPMASKMOVD: case ZYDIS_MNEMONIC_VPMASKMOVQ:
        unclassified(out, "a memory access masked by a vector register: the mask is not compared");
        return;
    default:
        break;
    }
    if (is_float_divide_or_root(in->mnemonic)) {
        unclassified(out, "a floating-point division or square root: variable latency, operands not compared");
        return;
    }
    out->variable_latency = in->mnemonic == ZYDIS_MNEMONIC_DIV || in->mnemonic == ZYDIS_MNEMONIC_IDIV;
    bool has_memory = false;
    for (int i = 0; i < in->operand_count; i++) {
        const ZydisDecodedOperand *op = &ops[i];
        if (op->type == ZYDIS_OPERAND_TYPE_REGISTER) {
            bool read = op->actions & ZYDIS_OPERAND_ACTION_MASK_READ;
            if (out->variable_latency && read && is_general_register(op->reg.value)) {
                add_register(out, op->reg.value);
            }
            continue;
        }
        if (op->type != ZYDIS_OPERAND_TYPE_MEMORY) continue;
        if (op->mem.type == ZYDIS_MEMOP_TYPE_AGEN) continue; /* lea: no access */
        if (in->mnemonic == ZYDIS_MNEMONIC_NOP) continue;    /* padding: no access */
        if (op->mem.type == ZYDIS_MEMOP_TYPE_VSIB && !vector_indexed(out, in, ops, op)) return;
        if (op->mem.type != ZYDIS_MEMOP_TYPE_MEM && op->mem.type != ZYDIS_MEMOP_TYPE_VSIB) {
            unclassified(out, "a memory operand of an unsupported kind (MIB)");
            return;
        }
        if (out->mem_count == CT_MAX_MEM) {
            unclassified(out, "more memory operands than the tracer records");
            return;
        }
        struct ct_mem_ref *ref = &out->mem[out->mem_count++];
        ref->segment = op->mem.segment;
        ref->base = op->mem.base;
        ref->index = op->mem.index;
        note_read(out, op->mem.base);
        note_read(out, op->mem.index);
        if (op->mem.type == ZYDIS_MEMOP_TYPE_VSIB) {
            ref->vector_index = true;
            ref->index = ZydisRegisterGetId(op->mem.index);
            ref->index_bytes = vsib_index_bytes;
            ref->elements = vsib_elements;
            out->step_alone = true; /* its indices are read as it runs */
        }
        ref->scale = op->mem.scale;
        ref->disp = op->mem.disp.has_displacement ? op->mem.disp.value : 0;
        ref->bytes = (uint8_t)(op->size / 8);
        /* A divisor in memory: its value sets div's latency. */
        ref->value_recorded = out->variable_latency && (op->actions & ZYDIS_OPERAND_ACTION_MASK_READ) &&
                              ref->bytes <= 8;
        has_memory = true;
    }
    if (out->kind == CT_INSN_UNCLASSIFIED) return;
    if (out->variable_latency) out->step_alone = true; /* its operands are read as it runs */
    /* The bit offset of bt/bts/btr/btc with a register moves the address. */
    if (is_bit_test(in->mnemonic) && has_memory && in->operand_count >= 2 &&
        ops[1].type == ZYDIS_OPERAND_TYPE_REGISTER) {
        add_register(out, ops[1].reg.value);
    }
    /* A repeated string instruction: its count (rsi/rdi are its operands). */
    if (in->attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE)) {
        add_register(out, ZYDIS_REGISTER_RCX);
        out->step_alone = out->repeats = true; /* one step: every repetition (inferior.c) */
    }
    for (int i = 0; i < out->reg_count; i++) note_read(out, (ZydisRegister)out->regs[i]);
    ZydisRegister k = in->avx.mask.reg;
    if (has_memory && k >= ZYDIS_REGISTER_K1 && k <= ZYDIS_REGISTER_K7) {
        out->opmask = (int)(k - ZYDIS_REGISTER_K0);
        out->opmask_bits = element_bits(in, ops);
    }
}

/* ---- public ---------------------------------------------------------------- */

static ZydisDecoder decoder;
static ZydisFormatter formatter;
static bool ready;

static void decode(pid_t pid, uint64_t address, struct ct_insn *out) {
    if (!ready) {
        ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
        ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_INTEL);
        ready = true;
    }
    memset(out, 0, sizeof *out);
    out->address = address;
    uint8_t bytes[ZYDIS_MAX_INSTRUCTION_LENGTH];
    struct iovec local = {bytes, sizeof bytes}, remote = {(void *)(uintptr_t)address, sizeof bytes};
    ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (got <= 0 || !ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, bytes, (ZyanUSize)got, &in, ops))) {
        snprintf(out->text, sizeof out->text, "(undecodable)");
        unclassified(out, "the instruction could not be read or decoded");
        return;
    }
    ZydisFormatterFormatInstruction(&formatter, &in, ops, in.operand_count_visible, out->text, sizeof out->text,
                                    address, NULL);
    classify(out, &in, ops);
}

static void *make_insn(pid_t pid, uint64_t address) {
    struct ct_insn *insn = malloc(sizeof *insn);
    if (insn) decode(pid, address, insn);
    return insn;
}

const struct ct_insn *ct_insn_at(pid_t pid, uint64_t address) {
    static struct ct_cache cache;
    return ct_cache_get(&cache, address, make_insn, pid);
}

bool ct_register_value(const struct user_regs_struct *regs, int reg, uint64_t *value) {
    ZydisRegister r = (ZydisRegister)reg;
    if (!is_general_register(r)) return false;
    ZydisRegister full = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
    uint64_t v;
    switch (full) {
    case ZYDIS_REGISTER_RAX: v = regs->rax; break;
    case ZYDIS_REGISTER_RBX: v = regs->rbx; break;
    case ZYDIS_REGISTER_RCX: v = regs->rcx; break;
    case ZYDIS_REGISTER_RDX: v = regs->rdx; break;
    case ZYDIS_REGISTER_RSI: v = regs->rsi; break;
    case ZYDIS_REGISTER_RDI: v = regs->rdi; break;
    case ZYDIS_REGISTER_RBP: v = regs->rbp; break;
    case ZYDIS_REGISTER_RSP: v = regs->rsp; break;
    case ZYDIS_REGISTER_R8: v = regs->r8; break;
    case ZYDIS_REGISTER_R9: v = regs->r9; break;
    case ZYDIS_REGISTER_R10: v = regs->r10; break;
    case ZYDIS_REGISTER_R11: v = regs->r11; break;
    case ZYDIS_REGISTER_R12: v = regs->r12; break;
    case ZYDIS_REGISTER_R13: v = regs->r13; break;
    case ZYDIS_REGISTER_R14: v = regs->r14; break;
    case ZYDIS_REGISTER_R15: v = regs->r15; break;
    default: return false;
    }
    if (r == ZYDIS_REGISTER_AH || r == ZYDIS_REGISTER_BH || r == ZYDIS_REGISTER_CH || r == ZYDIS_REGISTER_DH) {
        v >>= 8;
    }
    unsigned width = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, r);
    *value = width >= 64 ? v : v & ((1ULL << width) - 1);
    return true;
}
