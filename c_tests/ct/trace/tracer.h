/* ct_trace: the instruction-and-address trace checker (see main.c for what
 * it proves and docs/TESTING.md for how CI runs it). Declarations shared by
 * its files, one concern each:
 *   cache.c     what is decided once per code address
 *   inferior.c  starting a run under ptrace, running it to its marks,
 *               fixed randomness, single steps
 *   insn.c      decoding an instruction once (Zydis) into what a step of
 *               it must record, or why it cannot be classified
 *   observe.c   one step's observation: the address, every memory
 *               operand's effective address, opmasks, string registers,
 *               variable-latency operands
 *   segment.c   straight-line runs of instructions executed at full speed
 *   xstate.c    the AVX-512 opmask and vector registers (PTRACE_GETREGSET)
 *   report.c    module + offset, symbol and source line (addr2line -i) */
#ifndef CT_TRACE_TRACER_H
#define CT_TRACE_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

/* The harness marks its measured region with `int3`, rax = CT_MARK_MAGIC
 * and rdi = CT_MARK_START or CT_MARK_END (ASCII "oblvtrce"). */
#define CT_MARK_MAGIC 0x6f626c7674726365ULL
#define CT_MARK_START 1
#define CT_MARK_END 2

/* Exit codes. */
#define CT_EXIT_SAME 0        /* every run's trace equals the first one's */
#define CT_EXIT_DIVERGED 1    /* a secret-dependent difference */
#define CT_EXIT_ERROR 2       /* usage, a run that failed, a harness fault */
#define CT_EXIT_UNCLASSIFIED 3 /* fail closed: an instruction it cannot judge */
#define CT_EXIT_SKIP 77       /* ptrace or address-randomisation control refused */

/* ---- cache.c ----------------------------------------------------------- */

struct ct_cache_slot {
    uint64_t address;
    void *value;
};

/* Values made once per code address; zero-initialised, it is empty. */
struct ct_cache {
    struct ct_cache_slot *slots;
    size_t count, used;
};

/* The value kept for `address`, made by `make(pid, address)` (non-NULL)
 * the first time. */
void *ct_cache_get(struct ct_cache *cache, uint64_t address, void *(*make)(pid_t, uint64_t), pid_t pid);

/* ---- insn.c ------------------------------------------------------------ */

#define CT_MAX_MEM 4    /* memory operands of one instruction */
#define CT_MAX_REGS 4   /* general registers whose values one step records */
#define CT_MAX_ELEMENTS 16 /* addresses of one gather or scatter */
#define CT_MAX_VALUES (CT_MAX_MEM + CT_MAX_REGS + CT_MAX_ELEMENTS + 2)

/* One memory operand, as registers (Zydis register ids) to add up. */
struct ct_mem_ref {
    int segment, base, index;
    uint8_t scale;
    int64_t disp;
    uint8_t bytes;         /* operand size (for reading a divisor) */
    bool value_recorded;   /* a variable-latency operand: its contents too */
    /* A gather's or scatter's vector index (VSIB): `index` is then the
     * number of the vector register (0..31) holding `elements` indices of
     * `index_bytes` bytes each, one address per element. */
    bool vector_index;
    uint8_t elements, index_bytes;
};

enum ct_insn_kind {
    CT_INSN_PLAIN,   /* record the observation and single-step it */
    CT_INSN_SYSCALL, /* getrandom is emulated; thread creation fails closed */
    CT_INSN_MARK,    /* int3: the end of the region if it carries the magic */
    CT_INSN_UNCLASSIFIED,
};

/* What stepping one instruction records, decided once per address. */
struct ct_insn {
    uint64_t address;
    uint8_t length;
    enum ct_insn_kind kind;
    uint8_t address_width;
    uint8_t mem_count;
    struct ct_mem_ref mem[CT_MAX_MEM];
    int opmask;            /* 1..7: a k-masked memory access; 0: none */
    uint64_t opmask_bits;  /* the opmask bits it uses: one per element */
    uint8_t reg_count;
    int regs[CT_MAX_REGS]; /* rcx of a rep prefix, div/idiv operands, bt's bit index */
    bool variable_latency; /* div/idiv: its operands are compared */
    /* For running straight-line code at full speed (segment.c): */
    bool step_alone;       /* control transfer, rep string, div, syscall, mark */
    bool repeats;          /* a rep prefix: stepped until it is done */
    uint16_t reads_gpr;    /* general registers its observation is computed from */
    uint16_t writes_gpr;   /* general registers it may write (any part) */
    uint8_t writes_opmask; /* opmask registers it may write */
    const char *why;       /* CT_INSN_UNCLASSIFIED: the reason */
    char text[96];         /* Intel syntax, for reports */
};

/* The instruction at `address` of process `pid`, decoded and classified on
 * first sight and cached (code does not change while it is traced). */
const struct ct_insn *ct_insn_at(pid_t pid, uint64_t address);

/* The value of a general register (any width, Zydis id) in `regs`; false if
 * the register is not a general one. */
bool ct_register_value(const struct user_regs_struct *regs, int reg, uint64_t *value);

/* ---- segment.c --------------------------------------------------------- */

/* A straight-line run of instructions whose observations all follow from
 * the registers at its start (see segment.c); `count` may be 0 or 1. */
struct ct_segment {
    uint64_t start, end; /* end: the address after its last instruction */
    uint32_t count;
    bool needs_opmasks;  /* some instruction makes a masked access */
    const struct ct_insn *insns[];
};

/* The segment starting at `start` in `pid`, built once and cached. */
const struct ct_segment *ct_segment_at(pid_t pid, uint64_t start);

/* ---- xstate.c ---------------------------------------------------------- */

/* The opmask registers k0..k7 of `pid`'s stopped thread. */
bool ct_opmasks(pid_t pid, uint64_t k[8]);

/* The 64 bytes of vector register `number` (zmm0..zmm31; the low bytes are
 * its xmm and ymm) of `pid`'s stopped thread. */
bool ct_vector_register(pid_t pid, int number, uint8_t out[64]);

/* ---- observe.c --------------------------------------------------------- */

/* What one step of one run shows: where it is and what it touches. */
struct ct_observation {
    uint64_t rip;
    uint8_t count;
    uint64_t values[CT_MAX_VALUES];
    const char *labels[CT_MAX_VALUES]; /* "memory operand 1 address", ... */
};

/* The observation of `insn` in `pid` from its registers `regs` and, if
 * the instruction makes a masked access, its opmasks `k` (see
 * ct_opmasks); false (with a message on stderr) if a value could not be
 * read. */
bool ct_observe(pid_t pid, const struct user_regs_struct *regs, const uint64_t *k, const struct ct_insn *insn,
                struct ct_observation *out);

/* ---- inferior.c -------------------------------------------------------- */

/* One traced run of the harness. */
struct ct_run {
    pid_t pid;
    int index;             /* its variant number */
    struct user_regs_struct regs;
    uint64_t previous_rip; /* the instruction stepped last (a branch, on divergence) */
    uint64_t random_state; /* the fixed stream getrandom answers from */
    uint64_t getrandom_calls;
    uint64_t breakpoint;   /* where its hardware breakpoint is armed, or 0 */
    uint64_t resumed_stops; /* traps inside a segment, resumed (see below) */
};

/* Starts `argv` under ptrace with address randomisation off and stops it
 * at its exec; returns CT_EXIT_SAME, or CT_EXIT_SKIP/CT_EXIT_ERROR with a
 * message. */
int ct_run_start(struct ct_run *run, char *const argv[]);

/* Runs to the next mark (answering getrandom from the fixed stream on the
 * way) and checks it is `mark`; returns CT_EXIT_SAME or CT_EXIT_ERROR. */
int ct_run_to_mark(struct ct_run *run, uint64_t mark);

/* Reads the run's registers into run->regs. */
bool ct_run_read_registers(struct ct_run *run);

/* Starts executing `insn` at run->regs.rip: a single step (*stepping set:
 * wait for it with ct_run_step_wait), or for getrandom an emulated call.
 * Returns CT_EXIT_SAME or an exit code with a message. Several runs step
 * at once: begin each, then wait for each. */
int ct_run_step_begin(struct ct_run *run, const struct ct_insn *insn, bool *stepping);
/* ... and reads its registers. */
int ct_run_step_wait(struct ct_run *run, const struct ct_insn *insn);

/* Lets the run execute `segment` at full speed, up to a hardware
 * breakpoint at its end: begin, then wait. ct_run_breakpoints_work says
 * whether this is possible here (probed once on the first run). A trap
 * that stops the run on one of the segment's own instructions before its
 * end (none of them traps; seen once in CI on an Intel Xeon, cause not
 * found) is resumed and counted in run->resumed_stops: the run still
 * executes exactly the segment's instructions, in order. */
int ct_run_continue_begin(struct ct_run *run, const struct ct_segment *segment);
int ct_run_continue_wait(struct ct_run *run, const struct ct_segment *segment);
bool ct_run_breakpoints_work(struct ct_run *run);

/* Leaves the region (past its end mark), lets the run finish and returns
 * CT_EXIT_SAME if it exited with status 0. */
int ct_run_finish(struct ct_run *run);

/* Kills a run (after a divergence or an error). */
void ct_run_kill(struct ct_run *run);

/* ---- report.c ---------------------------------------------------------- */

/* Prints "module+0xoffset  function at file:line (inlined frames)" for an
 * address of `pid` to stderr, with `prefix` first. */
void ct_report_location(pid_t pid, uint64_t address, const char *prefix);

#endif
