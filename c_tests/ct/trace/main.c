/* ct_trace: the deterministic instruction-and-address trace checker.
 *
 *   ct_trace [--runs N] [--max-steps S] -- PROGRAM ARG...
 *
 * runs `PROGRAM ARG... 0` to `PROGRAM ARG... N-1` (N from 2 to 16, default
 * 4: the harness picks its secrets from that last argument, run 0 being the
 * reference) under ptrace, with address randomisation off and every
 * getrandom answered from one fixed stream. Each run goes at full speed to
 * the start mark of its measured region (`int3` with rax = CT_MARK_MAGIC,
 * rdi = CT_MARK_START), then all runs are single-stepped in lockstep to the
 * end mark. At every step each run's observation (observe.c: the
 * instruction's address, every memory operand's effective address, the
 * opmask of a masked access, string counts, division operands, system
 * calls) must equal run 0's. Every run must then exit with status 0 (the
 * harness checks its own results).
 *
 * Exit status: 0 the same trace in every run; 1 a difference, printed with
 * the step, the instruction, the differing values, and the symbol and
 * source line; 2 an error; 3 an instruction the tracer cannot judge (it
 * fails closed); 77 ptrace or turning address randomisation off is refused
 * here (the check is skipped, by name).
 *
 * What a pass shows: for these runs' secrets, no control flow, memory
 * address, opmask or division operand inside the region depends on them.
 * Not what a pass shows: anything about data-independent addresses' timing
 * (cache banks, page walks), or about code outside the region. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracer.h"

#define MAX_RUNS 16

struct totals {
    uint64_t steps, memory, masked, calls, segments, in_segments;
};

static void usage(void) {
    fprintf(stderr, "usage: ct_trace [--runs N] [--max-steps S] [--step-every-instruction] -- PROGRAM ARG...\n"
                    "       (runs PROGRAM ARG... 0 .. N-1 in lockstep; see the top of main.c)\n");
    exit(CT_EXIT_ERROR);
}

static int thread_count(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void kill_all(struct ct_run *runs, int count) {
    for (int i = 0; i < count; i++) ct_run_kill(&runs[i]);
}

/* The runs must stand at the same place with the same stack before the
 * region: otherwise their traces would differ for reasons of their own. */
static int check_alike(struct ct_run *runs, int count) {
    for (int i = 0; i < count; i++) {
        int threads = thread_count(runs[i].pid);
        if (threads != 1) {
            fprintf(stderr, "ct_trace: run %d has %d threads at its start mark: only one may run\n", i, threads);
            return CT_EXIT_UNCLASSIFIED;
        }
        if (runs[i].regs.rip != runs[0].regs.rip || runs[i].regs.rsp != runs[0].regs.rsp) {
            fprintf(stderr,
                    "ct_trace: runs 0 and %d reach their start mark at different places (rip %llx/%llx, "
                    "rsp %llx/%llx): the harness or its environment is not deterministic\n",
                    i, runs[0].regs.rip, runs[i].regs.rip, runs[0].regs.rsp, runs[i].regs.rsp);
            return CT_EXIT_ERROR;
        }
    }
    return CT_EXIT_SAME;
}

static void report_control_flow(const struct ct_run *a, const struct ct_run *b, uint64_t step) {
    fprintf(stderr, "ct_trace: DIVERGENCE at step %" PRIu64 ": runs %d and %d take different paths after\n", step,
            a->index, b->index);
    const struct ct_insn *branch = ct_insn_at(a->pid, a->previous_rip);
    fprintf(stderr, "  the instruction `%s`\n", branch->text);
    ct_report_location(a->pid, a->previous_rip, "  at ");
    char prefix[64];
    snprintf(prefix, sizeof prefix, "  run %d goes on at ", a->index);
    ct_report_location(a->pid, a->regs.rip, prefix);
    snprintf(prefix, sizeof prefix, "  run %d goes on at ", b->index);
    ct_report_location(b->pid, b->regs.rip, prefix);
}

static void report_value(const struct ct_run *a, const struct ct_run *b, const struct ct_insn *insn,
                         const struct ct_observation *oa, const struct ct_observation *ob, int k, uint64_t step) {
    fprintf(stderr,
            "ct_trace: DIVERGENCE at step %" PRIu64 ": runs %d and %d differ in the %s\n"
            "  the instruction `%s`: 0x%" PRIx64 " in run %d, 0x%" PRIx64 " in run %d\n",
            step, a->index, b->index, oa->labels[k], insn->text, oa->values[k], a->index, ob->values[k], b->index);
    ct_report_location(a->pid, insn->address, "  at ");
}

static void report_unclassified(const struct ct_run *run, const struct ct_insn *insn, uint64_t step) {
    fprintf(stderr, "ct_trace: UNCLASSIFIED at step %" PRIu64 ": `%s` is %s\n", step, insn->text, insn->why);
    ct_report_location(run->pid, insn->address, "  at ");
}

/* Compares every run's observation of `insn` with run 0's, from each
 * run's registers (and opmasks, where `insn` needs them). */
static int compare_step(struct ct_run *runs, int count, uint64_t (*k)[8], const struct ct_insn *insn,
                        uint64_t step, struct totals *totals) {
    struct ct_observation first, other;
    if (!ct_observe(runs[0].pid, &runs[0].regs, k[0], insn, &first)) return CT_EXIT_ERROR;
    for (int i = 1; i < count; i++) {
        if (!ct_observe(runs[i].pid, &runs[i].regs, k[i], insn, &other)) return CT_EXIT_ERROR;
        for (int v = 0; v < first.count; v++) {
            if (first.values[v] != other.values[v]) {
                report_value(&runs[0], &runs[i], insn, &first, &other, v, step);
                return CT_EXIT_DIVERGED;
            }
        }
    }
    totals->memory += insn->mem_count;
    totals->masked += insn->opmask != 0;
    totals->calls += insn->kind == CT_INSN_SYSCALL;
    return CT_EXIT_SAME;
}

static int read_opmasks(struct ct_run *runs, int count, uint64_t (*k)[8]) {
    for (int i = 0; i < count; i++) {
        if (!ct_opmasks(runs[i].pid, k[i])) return CT_EXIT_ERROR;
    }
    return CT_EXIT_SAME;
}

/* Runs a straight-line segment at full speed in every run, once its
 * computed observations agree. */
static int run_segment(struct ct_run *runs, int count, const struct ct_segment *segment, uint64_t step,
                       struct totals *totals) {
    uint64_t k[MAX_RUNS][8];
    if (segment->needs_opmasks && read_opmasks(runs, count, k) != CT_EXIT_SAME) return CT_EXIT_ERROR;
    for (uint32_t j = 0; j < segment->count; j++) {
        int status = compare_step(runs, count, k, segment->insns[j], step + j, totals);
        if (status != CT_EXIT_SAME) return status;
    }
    for (int i = 0; i < count; i++) {
        runs[i].previous_rip = segment->insns[segment->count - 1]->address;
        int status = ct_run_continue_begin(&runs[i], segment);
        if (status != CT_EXIT_SAME) return status;
    }
    for (int i = 0; i < count; i++) {
        int status = ct_run_continue_wait(&runs[i], segment);
        if (status != CT_EXIT_SAME) return status;
    }
    totals->segments++;
    totals->in_segments += segment->count;
    return CT_EXIT_SAME;
}

/* Steps one instruction in every run (or answers its getrandom). */
static int run_one(struct ct_run *runs, int count, const struct ct_insn *insn, uint64_t step,
                   struct totals *totals) {
    uint64_t k[MAX_RUNS][8];
    if (insn->opmask && read_opmasks(runs, count, k) != CT_EXIT_SAME) return CT_EXIT_ERROR;
    int status = compare_step(runs, count, k, insn, step, totals);
    if (status != CT_EXIT_SAME) return status;
    bool stepping[MAX_RUNS];
    for (int i = 0; i < count; i++) {
        status = ct_run_step_begin(&runs[i], insn, &stepping[i]);
        if (status != CT_EXIT_SAME) return status;
    }
    for (int i = 0; i < count; i++) {
        status = stepping[i] ? ct_run_step_wait(&runs[i], insn)
                             : ct_run_read_registers(&runs[i]) ? CT_EXIT_SAME : CT_EXIT_ERROR;
        if (status != CT_EXIT_SAME) return status;
    }
    return CT_EXIT_SAME;
}

/* Steps every run in lockstep from the start mark to the end mark, running
 * straight-line segments at full speed where hardware breakpoints work. */
static int trace_region(struct ct_run *runs, int count, uint64_t max_steps, bool segments, struct totals *totals) {
    segments = segments && ct_run_breakpoints_work(&runs[0]);
    for (uint64_t step = 0;;) {
        for (int i = 1; i < count; i++) {
            if (runs[i].regs.rip != runs[0].regs.rip) {
                report_control_flow(&runs[0], &runs[i], step);
                return CT_EXIT_DIVERGED;
            }
        }
        const struct ct_segment *segment = segments ? ct_segment_at(runs[0].pid, runs[0].regs.rip) : NULL;
        uint64_t length = segment && segment->count >= 2 ? segment->count : 1;
        if (step + length > max_steps) {
            fprintf(stderr, "ct_trace: the region is longer than --max-steps %" PRIu64 "\n", max_steps);
            return CT_EXIT_ERROR;
        }
        if (length > 1) {
            int status = run_segment(runs, count, segment, step, totals);
            if (status != CT_EXIT_SAME) return status;
            step += length;
            continue;
        }
        const struct ct_insn *insn = ct_insn_at(runs[0].pid, runs[0].regs.rip);
        if (insn->kind == CT_INSN_UNCLASSIFIED) {
            report_unclassified(&runs[0], insn, step);
            return CT_EXIT_UNCLASSIFIED;
        }
        if (insn->kind == CT_INSN_MARK) {
            for (int i = 0; i < count; i++) {
                if (runs[i].regs.rax != CT_MARK_MAGIC || runs[i].regs.rdi != CT_MARK_END) {
                    fprintf(stderr, "ct_trace: run %d meets an int3 inside its region that is not the end mark\n", i);
                    return CT_EXIT_ERROR;
                }
            }
            totals->steps = step;
            return CT_EXIT_SAME;
        }
        int status = run_one(runs, count, insn, step, totals);
        if (status != CT_EXIT_SAME) return status;
        step++;
    }
}

int main(int argc, char **argv) {
    int count = 4;
    uint64_t max_steps = 200000000;
    bool segments = true;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            count = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--max-steps") == 0 && i + 1 < argc) {
            max_steps = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--step-every-instruction") == 0) {
            segments = false;
        } else {
            usage();
        }
    }
    if (i + 1 >= argc || count < 2 || count > MAX_RUNS) usage();
    char **program = &argv[i + 1];
    int program_argc = argc - i - 1;

    struct ct_run runs[MAX_RUNS] = {0};
    char variant[MAX_RUNS][4];
    char *run_argv[MAX_RUNS][64];
    if (program_argc + 2 > 64) usage();
    struct timespec begun;
    clock_gettime(CLOCK_MONOTONIC, &begun);
    for (int r = 0; r < count; r++) {
        snprintf(variant[r], sizeof variant[r], "%d", r % 10);
        if (r >= 10) snprintf(variant[r], sizeof variant[r], "%c", 'a' + r - 10);
        memcpy(run_argv[r], program, (size_t)program_argc * sizeof *program);
        run_argv[r][program_argc] = variant[r];
        run_argv[r][program_argc + 1] = NULL;
        runs[r].index = r;
        int status = ct_run_start(&runs[r], run_argv[r]);
        if (status == CT_EXIT_SAME) status = ct_run_to_mark(&runs[r], CT_MARK_START);
        if (status != CT_EXIT_SAME) {
            kill_all(runs, count);
            return status;
        }
    }
    int status = check_alike(runs, count);
    struct totals totals = {0};
    if (status == CT_EXIT_SAME) status = trace_region(runs, count, max_steps, segments, &totals);
    for (int r = 0; r < count && status == CT_EXIT_SAME; r++) status = ct_run_finish(&runs[r]);
    kill_all(runs, count);
    if (status != CT_EXIT_SAME) return status;
    struct timespec ended;
    clock_gettime(CLOCK_MONOTONIC, &ended);
    uint64_t resumed_stops = 0;
    for (int r = 0; r < count; r++) resumed_stops += runs[r].resumed_stops;
    double seconds = (double)(ended.tv_sec - begun.tv_sec) + (double)(ended.tv_nsec - begun.tv_nsec) / 1e9;
    printf("ct_trace: %s: the same trace in %d runs: %" PRIu64 " instructions (%" PRIu64 " of them in %" PRIu64
           " straight-line segments), %" PRIu64 " memory operands, %" PRIu64 " masked accesses, %" PRIu64
           " system calls, getrandom answered %" PRIu64 " times, %" PRIu64 " traps inside segments resumed (%.1f s)\n",
           program[program_argc - 1], count, totals.steps, totals.in_segments, totals.segments, totals.memory,
           totals.masked, totals.calls, runs[0].getrandom_calls, resumed_stops, seconds);
    return CT_EXIT_SAME;
}
