/* One traced run of the harness: started under ptrace with address
 * randomisation off (so that two runs lay out code, heap and stack alike),
 * run at full speed to its marks with every getrandom system call answered
 * from one fixed stream (so that no run's coins differ from another's but by
 * what the harness chose), and single-stepped inside its region. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ptrace.h> /* PTRACE_GET_SYSCALL_INFO */

#include "tracer.h"

static bool poke_debug_register(struct ct_run *run, int index, uint64_t value);

/* ---- the fixed randomness ---------------------------------------------- */

/* SplitMix64: the same stream for every run (it is no secret). */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Writes `len` bytes of the run's stream at `address` in the run. */
static bool answer_getrandom(struct ct_run *run, uint64_t address, uint64_t len) {
    uint8_t chunk[4096];
    for (uint64_t done = 0; done < len;) {
        size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
        for (size_t i = 0; i < n; i += 8) {
            uint64_t word = next_random(&run->random_state);
            memcpy(chunk + i, &word, n - i < 8 ? n - i : 8);
        }
        struct iovec local = {chunk, n}, remote = {(void *)(uintptr_t)(address + done), n};
        if (process_vm_writev(run->pid, &local, 1, &remote, 1, 0) != (ssize_t)n) {
            fprintf(stderr, "ct_trace: run %d: answering getrandom: %s\n", run->index, strerror(errno));
            return false;
        }
        done += n;
    }
    run->getrandom_calls++;
    return true;
}

/* ---- starting ------------------------------------------------------------ */

int ct_run_start(struct ct_run *run, char *const argv[]) {
    memset(&run->regs, 0, sizeof run->regs);
    run->random_state = 0x6f626c7669657821ULL;
    run->getrandom_calls = 0;
    run->previous_rip = 0;
    run->breakpoint = 0;
    run->resumed_stops = 0;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) == -1) {
        perror("ct_trace: pipe2");
        return CT_EXIT_ERROR;
    }
    pid_t pid = fork();
    if (pid == -1) {
        perror("ct_trace: fork");
        return CT_EXIT_ERROR;
    }
    if (pid == 0) {
        /* The child reports a failure as (step, errno) through the pipe,
         * which a successful exec closes. */
        int failure[2] = {0, 0};
        close(pipefd[0]);
        int current = personality(0xffffffff);
        if (current == -1 || personality((unsigned long)current | ADDR_NO_RANDOMIZE) == -1) {
            failure[0] = 'P';
        } else if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1) {
            failure[0] = 'T';
        } else {
            execvp(argv[0], argv);
            failure[0] = 'E';
        }
        failure[1] = errno;
        if (write(pipefd[1], failure, sizeof failure) < 0) _exit(127);
        _exit(127);
    }
    close(pipefd[1]);
    int failure[2];
    ssize_t got = read(pipefd[0], failure, sizeof failure);
    close(pipefd[0]);
    run->pid = pid;
    if (got == (ssize_t)sizeof failure) {
        waitpid(pid, NULL, 0);
        switch (failure[0]) {
        case 'P':
            printf("ct_trace: skipped, address randomisation cannot be turned off here (personality: %s)\n",
                   strerror(failure[1]));
            return CT_EXIT_SKIP;
        case 'T':
            printf("ct_trace: skipped, ptrace is refused here (PTRACE_TRACEME: %s)\n", strerror(failure[1]));
            return CT_EXIT_SKIP;
        default:
            fprintf(stderr, "ct_trace: cannot run %s: %s\n", argv[0], strerror(failure[1]));
            return CT_EXIT_ERROR;
        }
    }
    int status;
    if (waitpid(pid, &status, 0) == -1 || !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
        fprintf(stderr, "ct_trace: run %d did not stop at its exec\n", run->index);
        return CT_EXIT_ERROR;
    }
    if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) == -1) {
        perror("ct_trace: PTRACE_SETOPTIONS");
        return CT_EXIT_ERROR;
    }
    return CT_EXIT_SAME;
}

bool ct_run_read_registers(struct ct_run *run) {
    if (ptrace(PTRACE_GETREGS, run->pid, NULL, &run->regs) == -1) {
        fprintf(stderr, "ct_trace: run %d: PTRACE_GETREGS: %s\n", run->index, strerror(errno));
        return false;
    }
    return true;
}

static bool write_registers(struct ct_run *run) {
    if (ptrace(PTRACE_SETREGS, run->pid, NULL, &run->regs) == -1) {
        fprintf(stderr, "ct_trace: run %d: PTRACE_SETREGS: %s\n", run->index, strerror(errno));
        return false;
    }
    return true;
}

static void describe_end(const struct ct_run *run, int status) {
    if (WIFEXITED(status)) {
        fprintf(stderr, "ct_trace: run %d exited with status %d\n", run->index, WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        fprintf(stderr, "ct_trace: run %d was killed by signal %d (%s)\n", run->index, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
    }
}

/* ---- at full speed, between marks --------------------------------------- */

/* A syscall stop outside the region: getrandom's entry is turned into an
 * invalid call and its exit answered from the fixed stream. */
static bool on_syscall_stop(struct ct_run *run, bool *pending, uint64_t *address, uint64_t *len) {
    struct ptrace_syscall_info info;
    if (ptrace(PTRACE_GET_SYSCALL_INFO, run->pid, (void *)sizeof info, &info) <= 0) {
        perror("ct_trace: PTRACE_GET_SYSCALL_INFO");
        return false;
    }
    if (info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == SYS_getrandom) {
        if (!ct_run_read_registers(run)) return false;
        *address = info.entry.args[0];
        *len = info.entry.args[1];
        *pending = true;
        run->regs.orig_rax = (unsigned long long)-1; /* the kernel skips it */
        return write_registers(run);
    }
    if (info.op == PTRACE_SYSCALL_INFO_EXIT && *pending) {
        *pending = false;
        if (!answer_getrandom(run, *address, *len) || !ct_run_read_registers(run)) return false;
        run->regs.rax = *len;
        return write_registers(run);
    }
    return true;
}

/* Continues at full speed, answering getrandom, until the run stops on a
 * trap (1) or ends (0, with its wait status in *status); -1 on an error. */
static int run_free(struct ct_run *run, int *status) {
    bool pending = false;
    uint64_t address = 0, len = 0;
    int deliver = 0;
    for (;;) {
        if (ptrace(PTRACE_SYSCALL, run->pid, NULL, (void *)(long)deliver) == -1) {
            fprintf(stderr, "ct_trace: run %d: PTRACE_SYSCALL: %s\n", run->index, strerror(errno));
            return -1;
        }
        deliver = 0;
        if (waitpid(run->pid, status, 0) == -1) {
            perror("ct_trace: waitpid");
            return -1;
        }
        if (WIFEXITED(*status) || WIFSIGNALED(*status)) {
            run->pid = 0;
            return 0;
        }
        int sig = WSTOPSIG(*status);
        if (sig == (SIGTRAP | 0x80)) {
            if (!on_syscall_stop(run, &pending, &address, &len)) return -1;
        } else if (sig == SIGTRAP) {
            return 1;
        } else {
            deliver = sig; /* the run's own signal: let it have it */
        }
    }
}

int ct_run_to_mark(struct ct_run *run, uint64_t mark) {
    const char *name = mark == CT_MARK_START ? "start" : "end";
    int status;
    switch (run_free(run, &status)) {
    case -1:
        return CT_EXIT_ERROR;
    case 0:
        describe_end(run, status);
        fprintf(stderr, "ct_trace: run %d ended before its %s mark\n", run->index, name);
        return CT_EXIT_ERROR;
    default:
        break;
    }
    if (!ct_run_read_registers(run)) return CT_EXIT_ERROR;
    if (run->regs.rax != CT_MARK_MAGIC || run->regs.rdi != mark) {
        fprintf(stderr, "ct_trace: run %d stopped on a trap that is not its %s mark\n", run->index, name);
        return CT_EXIT_ERROR;
    }
    return CT_EXIT_SAME;
}

/* ---- inside the region ---------------------------------------------------- */

static bool starts_a_task(uint64_t nr) {
    return nr == SYS_clone || nr == SYS_clone3 || nr == SYS_fork || nr == SYS_vfork || nr == SYS_execve ||
           nr == SYS_execveat;
}

static bool single_step(struct ct_run *run) {
    if (ptrace(PTRACE_SINGLESTEP, run->pid, NULL, NULL) == -1) {
        fprintf(stderr, "ct_trace: run %d: PTRACE_SINGLESTEP: %s\n", run->index, strerror(errno));
        return false;
    }
    return true;
}

int ct_run_step_begin(struct ct_run *run, const struct ct_insn *insn, bool *stepping) {
    run->previous_rip = run->regs.rip;
    *stepping = false;
    if (insn->kind == CT_INSN_SYSCALL) {
        uint64_t nr = run->regs.rax;
        if (starts_a_task(nr)) {
            fprintf(stderr, "ct_trace: run %d starts a thread or process inside the region (system call %llu)\n",
                    run->index, (unsigned long long)nr);
            return CT_EXIT_UNCLASSIFIED;
        }
        if (nr == SYS_getrandom) {
            uint64_t len = run->regs.rsi;
            if (!answer_getrandom(run, run->regs.rdi, len)) return CT_EXIT_ERROR;
            run->regs.rax = len;
            run->regs.rip += insn->length;
            return write_registers(run) ? CT_EXIT_SAME : CT_EXIT_ERROR;
        }
    }
    if (!single_step(run)) return CT_EXIT_ERROR;
    *stepping = true;
    return CT_EXIT_SAME;
}

/* Waits for a run stepped or continued inside the region to stop again:
 * its stop signal, or 0 (with a message) if it ended. */
static int wait_in_region(struct ct_run *run) {
    int status;
    if (waitpid(run->pid, &status, 0) == -1) {
        perror("ct_trace: waitpid");
        return 0;
    }
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
        run->pid = 0;
        describe_end(run, status);
        fprintf(stderr, "ct_trace: run %d ended inside the region\n", run->index);
        return 0;
    }
    return WSTOPSIG(status);
}

int ct_run_step_wait(struct ct_run *run, const struct ct_insn *insn) {
    for (;;) {
        int sig = wait_in_region(run);
        if (sig != SIGTRAP) {
            if (sig) {
                fprintf(stderr, "ct_trace: run %d received signal %d (%s) inside the region at `%s`\n", run->index,
                        sig, strsignal(sig), insn->text);
            }
            return CT_EXIT_ERROR;
        }
        if (!ct_run_read_registers(run)) return CT_EXIT_ERROR;
        if (run->regs.rip != insn->address) return CT_EXIT_SAME;
        /* Still on the instruction, for one of two reasons; either way it
         * is stepped again:
         * - a segment's hardware breakpoint is still armed at it and fired
         *   before it ran (the run came to it by a step, and the kernel
         *   sets the resume flag only when a breakpoint stops it): the
         *   breakpoint is disarmed first;
         * - a repeated string instruction has repetitions left. It is one
         *   step of the trace, run to its end: how many repetitions one
         *   single step runs is the CPU's choice (on an Intel Xeon two runs
         *   stepping the same `rep stosb` once each have stood one byte
         *   apart), and every address its repetitions touch follows from
         *   the count and address registers observed at its start. */
        if (run->breakpoint == insn->address) {
            if (!poke_debug_register(run, 7, 0)) return CT_EXIT_ERROR;
            run->breakpoint = 0;
        } else if (!insn->repeats) {
            return CT_EXIT_SAME; /* a jump to itself */
        }
        if (!single_step(run)) return CT_EXIT_ERROR;
    }
}

/* ---- hardware breakpoints: segments at full speed ------------------------ */

/* DR7 with breakpoint 0 enabled, for execution, locally. */
#define DR7_EXECUTE_DR0 1UL

/* Where debug register `index` lies in `struct user` (PTRACE_PEEKUSER and
 * PTRACE_POKEUSER address it so). */
static size_t debug_register_offset(int index) {
    return offsetof(struct user, u_debugreg) + (size_t)index * sizeof(((struct user *)0)->u_debugreg[0]);
}

static bool poke_debug_register(struct ct_run *run, int index, uint64_t value) {
    return ptrace(PTRACE_POKEUSER, run->pid, (void *)debug_register_offset(index), (void *)(uintptr_t)value) == 0;
}

bool ct_run_breakpoints_work(struct ct_run *run) {
    static int works = -1;
    if (works < 0) {
        works = poke_debug_register(run, 0, run->regs.rip) && poke_debug_register(run, 7, DR7_EXECUTE_DR0) &&
                poke_debug_register(run, 7, 0);
        run->breakpoint = 0;
    }
    return works;
}

int ct_run_continue_begin(struct ct_run *run, const struct ct_segment *segment) {
    uint64_t address = segment->end;
    if (run->breakpoint != address) {
        bool was_armed = run->breakpoint != 0;
        if (!poke_debug_register(run, 0, address) || (!was_armed && !poke_debug_register(run, 7, DR7_EXECUTE_DR0))) {
            fprintf(stderr, "ct_trace: run %d: arming a hardware breakpoint: %s\n", run->index, strerror(errno));
            return CT_EXIT_ERROR;
        }
        run->breakpoint = address;
    }
    /* The breakpoint at the address the run stands on (the end of the
     * previous segment) does not fire again: the kernel set the resume
     * flag when it fired. */
    if (ptrace(PTRACE_CONT, run->pid, NULL, NULL) == -1) {
        fprintf(stderr, "ct_trace: run %d: PTRACE_CONT: %s\n", run->index, strerror(errno));
        return CT_EXIT_ERROR;
    }
    return CT_EXIT_SAME;
}

/* The index of the segment's instruction at `address`, or -1. */
static int64_t instruction_index(const struct ct_segment *segment, uint64_t address) {
    for (uint32_t i = 0; i < segment->count; i++) {
        if (segment->insns[i]->address == address) return i;
    }
    return -1;
}

int ct_run_continue_wait(struct ct_run *run, const struct ct_segment *segment) {
    int64_t reached = 0;
    for (uint32_t resumed = 0;; resumed++) {
        int sig = wait_in_region(run);
        if (!sig) return CT_EXIT_ERROR;
        if (sig == SIGTRAP && !ct_run_read_registers(run)) return CT_EXIT_ERROR;
        if (sig == SIGTRAP && run->regs.rip == segment->end) return CT_EXIT_SAME;
        int64_t at = sig == SIGTRAP ? instruction_index(segment, run->regs.rip) : -1;
        if (at < reached || resumed >= segment->count) {
            errno = 0;
            long dr6 = ptrace(PTRACE_PEEKUSER, run->pid, (void *)debug_register_offset(6), NULL);
            fprintf(stderr,
                    "ct_trace: run %d stopped (signal %d) before the end of the straight-line segment "
                    "%llx..%llx, at %llx (eflags %llx, dr6 %lx%s)\n",
                    run->index, sig, (unsigned long long)segment->start, (unsigned long long)segment->end,
                    run->regs.rip, run->regs.eflags, dr6, errno ? ", unread" : "");
            ct_report_location(run->pid, run->regs.rip, "  at ");
            return CT_EXIT_ERROR;
        }
        reached = at;
        run->resumed_stops++;
        if (ptrace(PTRACE_CONT, run->pid, NULL, NULL) == -1) {
            fprintf(stderr, "ct_trace: run %d: PTRACE_CONT: %s\n", run->index, strerror(errno));
            return CT_EXIT_ERROR;
        }
    }
}

int ct_run_finish(struct ct_run *run) {
    run->regs.rip += 1; /* past the end mark's int3, which is not executed */
    if (!write_registers(run) || (run->breakpoint && !poke_debug_register(run, 7, 0))) return CT_EXIT_ERROR;
    run->breakpoint = 0;
    int status;
    switch (run_free(run, &status)) {
    case -1:
        return CT_EXIT_ERROR;
    case 1:
        fprintf(stderr, "ct_trace: run %d stopped on a trap after its region\n", run->index);
        return CT_EXIT_ERROR;
    default:
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return CT_EXIT_SAME;
        describe_end(run, status);
        return CT_EXIT_ERROR;
    }
}

void ct_run_kill(struct ct_run *run) {
    if (run->pid > 0) {
        kill(run->pid, SIGKILL);
        waitpid(run->pid, NULL, 0);
        run->pid = 0;
    }
}
