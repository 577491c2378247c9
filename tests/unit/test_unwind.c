/*
 * test_unwind.c - unit tests of the cached CFI rows (cfi_rows.c) on this
 * test binary's own .eh_frame, and of the unwinder (unwind.c) on
 * constructed samples and on a real signal frame of this process; the
 * conformance of the whole unwinder with libdw's and with perf script is
 * tests/cli/50-perfdata.sh.
 */
#include "harness.h"
#include "perf/cfi_rows.h"
#include "perf/maps.h"
#include "perf/perf_event.h"
#include "perf/unwind.h"
#include "symbols/build_id.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include <unistd.h>

static char *debuginfo_path;
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

__attribute__((noinline)) static long leaf(long x)
{
	return x * 3 + 1;
}

static Dwfl *self_dwfl(void)
{
	Dwfl *dwfl = dwfl_begin(&proc_callbacks);

	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	if (dwfl_linux_proc_report(dwfl, getpid())) {
		dwfl_end(dwfl);
		return NULL;
	}
	dwfl_report_end(dwfl, NULL, NULL);
	return dwfl;
}

/* At a function's first instruction the CFA is rsp + 8 and the return address is at CFA - 8. */
TEST(entry_row_is_the_call_frame)
{
	Dwfl *dwfl = self_dwfl();
	struct cfi_rows rows;
	const struct cfi_row *row;
	uint64_t pc = (uint64_t)(uintptr_t)&leaf;
	int regno;

	CHECK(leaf(1) == 4);
	CHECK(dwfl != NULL);
	if (!dwfl)
		return;
	cfi_rows_init(&rows);
	row = cfi_rows_find(&rows, dwfl, pc);
	CHECK_INT(row->kind, CFI_ROW_RULES);
	CHECK_INT(row->cfa_reg, CFI_RSP);
	CHECK_INT(row->cfa_off, 8);
	CHECK_INT(row->rule[CFI_RA], CFI_AT);
	CHECK_INT(row->off[CFI_RA], -8);
	CHECK_INT(row->rule[CFI_RSP], CFI_VAL);	/* the caller's rsp is the CFA */
	CHECK_INT(row->off[CFI_RSP], 0);
	/* the step visits registers through the masks: each names exactly its rule's */
	for (regno = 0; regno < CFI_NREGS; regno++) {
		CHECK_INT(row->same >> regno & 1, row->rule[regno] == CFI_SAME);
		CHECK_INT(row->at >> regno & 1, row->rule[regno] == CFI_AT);
		CHECK_INT(row->val >> regno & 1, row->rule[regno] == CFI_VAL);
	}
	CHECK(row->same >> CFI_RBP & 1);	/* callee-saved: the x86-64 ABI's same value */
	CHECK(cfi_rows_find(&rows, dwfl, pc) == row);	/* cached */
	cfi_rows_release(&rows);
	dwfl_end(dwfl);
}

/* No module at the address: libdw steps by the frame pointer there. */
TEST(no_module_means_frame_pointer_step)
{
	Dwfl *dwfl = self_dwfl();
	struct cfi_rows rows;
	uint64_t pc;

	CHECK(dwfl != NULL);
	if (!dwfl)
		return;
	cfi_rows_init(&rows);
	CHECK_INT(cfi_rows_find(&rows, dwfl, 0x10)->kind, CFI_ROW_FRAME_POINTER);
	for (pc = 0x1000; pc < 0x1000 + 4096 * 300; pc += 4096)	/* past a few table growths */
		(void)cfi_rows_find(&rows, dwfl, pc);
	CHECK_INT(rows.nr, 301);
	CHECK_INT(cfi_rows_find(&rows, dwfl, 0x10)->pc, 0x10);
	cfi_rows_clear(&rows);
	CHECK_INT(rows.nr, 0);
	cfi_rows_release(&rows);
	dwfl_end(dwfl);
}

/* The link address of the vdso's dynamic symbol name in this process's image, or 0. */
static uint64_t vdso_symbol(const char *name)
{
	Elf *elf = vdso_elf_open();
	Elf_Scn *scn = NULL;
	uint64_t found = 0;

	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Sym sym;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize && gelf_getsym(data, (int)i, &sym); i++) {
			const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);

			if (s && !strcmp(s, name) && sym.st_value)
				found = sym.st_value;
		}
	}
	if (elf)
		elf_end(elf);
	return found;
}

/*
 * A sample taken at the first instruction of __vdso_clock_gettime (the
 * [vdso] mapped at VDSO_AT in the recorded process): the return address
 * is at the stack pointer and rbp still holds the caller's frame, whose
 * return address is its own caller's.  perf unwinds the vdso through its
 * .eh_frame (its own process's image) and finds the caller; stepping by
 * the frame pointer instead skips it.  Both unwinding paths (cached rows,
 * libdw) must give ip, caller, caller's caller.
 */
#define VDSO_AT 0x7ff000001000ULL
#define CALLER 0x401234ULL	/* in no module: stepped by the frame pointer */
#define CALLERS_CALLER 0x405678ULL

/*
 * Unwind the sample above with caller as the vdso function's return
 * address and the first copied bytes of its 64-byte stack; n frames into ips.
 */
static size_t unwind_vdso_entry(const char *how, uint64_t caller, size_t copied, uint64_t ips[8])
{
	struct symbolizer sym;
	struct machine m;
	struct thread *t;
	struct unwinder *u;
	struct perf_sample s;
	uint64_t fn = vdso_symbol("__vdso_clock_gettime"), stack[8] = { 0 }, regs[3];
	const uint64_t sp = 0x7ffd00001000ULL;
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t n;

	if (!fn)
		SKIP("no vdso with __vdso_clock_gettime (not x86-64 Linux?)");
	CHECK(len > 0);
	if (len <= 0)
		return 0;
	exe[len] = 0;
	if (how)
		setenv("TRAIL_UNWIND", how, 1);
	else
		unsetenv("TRAIL_UNWIND");
	symbolizer_init(&sym);
	machine_init(&m, &sym);
	/* the program, as in every recording: libdw takes the architecture from it */
	machine_mmap(&m, 10, 10, 0x10000000, 0x100000, 0, exe, 1);
	machine_mmap(&m, 10, 10, VDSO_AT - 0x4000, 0x4000, 0, "[vvar]", 0);
	machine_mmap(&m, 10, 10, VDSO_AT, 0x2000, 0, "[vdso]", 1);
	t = machine_thread(&m, 10, 10);
	stack[0] = caller;		/* pushed by the call */
	stack[2] = 0;			/* the caller's frame: saved rbp (the outermost), */
	stack[3] = CALLERS_CALLER;	/* its return address */
	regs[0] = sp + 16;		/* bp, sp, ip: perf's register order */
	regs[1] = sp;
	regs[2] = VDSO_AT + fn;
	memset(&s, 0, sizeof(s));
	s.regs_abi = 2;			/* PERF_SAMPLE_REGS_ABI_64 */
	s.regs_mask = 1u << 6 | 1u << 7 | 1u << 8;
	s.regs = regs;
	s.stack = (const unsigned char *)stack;
	s.stack_size = copied;
	memset(ips, 0, 8 * sizeof(*ips));
	u = unwinder_new(&m);
	n = unwinder_unwind(u, t, &s, ips, 8);
	CHECK_INT(ips[0], VDSO_AT + fn);
	unwinder_free(u);
	machine_release(&m);
	symbolizer_release(&sym);
	return n;
}

static void vdso_caller_found(const char *how)
{
	uint64_t ips[8];

	CHECK_INT(unwind_vdso_entry(how, CALLER, 64, ips), 3);
	CHECK_INT(ips[1], CALLER - 1);
	CHECK_INT(ips[2], CALLERS_CALLER - 1);
}

TEST(vdso_unwinds_through_its_cfi)
{
	vdso_caller_found(NULL);
}

TEST(vdso_unwinds_through_its_cfi_libdw)
{
	vdso_caller_found("libdw");
}

/*
 * A return address of 1 (a stale word where the CFI says the return
 * address is): one byte back it is 0, a frame perf leaves out; the
 * unwinding goes on from there by the frame pointer, as libunwind's does.
 */
static void zero_frame_dropped(const char *how)
{
	uint64_t ips[8];

	CHECK_INT(unwind_vdso_entry(how, 1, 64, ips), 2);
	CHECK_INT(ips[1], CALLERS_CALLER - 1);
}

/*
 * perf's stack reader (util/unwind-libunwind-local.c, access_mem) takes
 * a word that ends exactly at the copy's end as outside it: a return
 * address in the last 8 copied bytes cannot be read, and the stack ends
 * as one deeper than its copy does (one more frame at ~0).
 */
static void last_word_unread(const char *how)
{
	uint64_t ips[8];

	CHECK_INT(unwind_vdso_entry(how, CALLER, 8, ips), 2);
	CHECK(ips[1] == UINT64_MAX);
	CHECK_INT(unwind_vdso_entry(how, CALLER, 16, ips), 3);
	CHECK_INT(ips[1], CALLER - 1);
	CHECK(ips[2] == UINT64_MAX);
}

TEST(last_word_of_the_copy_is_not_read)
{
	last_word_unread(NULL);
}

TEST(last_word_of_the_copy_is_not_read_libdw)
{
	last_word_unread("libdw");
}

TEST(frame_at_zero_is_left_out)
{
	zero_frame_dropped(NULL);
}

TEST(frame_at_zero_is_left_out_libdw)
{
	zero_frame_dropped("libdw");
}

/*
 * A real signal frame: inside a SIGUSR1 handler, this process's registers
 * and stack (getcontext), its maps from /proc/self/maps.  The handler's
 * caller is the signal trampoline (__restore_rt), whose CFI is marked as
 * a signal frame; perf (libunwind) shows the trampoline one byte back,
 * like any caller, and the interrupted pc as it is.
 */
static struct {
	ucontext_t here;		/* registers in the handler */
	unsigned char stack[8192];	/* from here's rsp up */
	size_t stack_size;		/* bytes */
	uint64_t trampoline;		/* the handler's return address */
	uint64_t interrupted;		/* the pc the signal interrupted */
} sig;

/* Bytes of the mapping holding addr from addr up (so the copy stays in it). */
static size_t mapped_above(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start, end;
	char line[4096];
	size_t n = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2 && addr >= start && addr < end)
			n = end - addr;
	if (f)
		fclose(f);
	return n;
}

/* The stack as the kernel copies it, redzones of a sanitizer build included. */
__attribute__((no_sanitize("address"))) static void copy_stack(unsigned char *to, uint64_t from,
							      size_t n)
{
	const volatile unsigned char *p = (const volatile unsigned char *)(uintptr_t)from;
	size_t i;

	for (i = 0; i < n; i++)
		to[i] = p[i];
}

__attribute__((noinline)) static void on_signal(int signo, siginfo_t *info, void *ucv)
{
	const ucontext_t *uc = ucv;
	uint64_t sp;

	(void)signo;
	(void)info;
	sig.trampoline = (uint64_t)(uintptr_t)__builtin_return_address(0);
	sig.interrupted = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	getcontext(&sig.here);
	sp = (uint64_t)sig.here.uc_mcontext.gregs[REG_RSP];
	sig.stack_size = mapped_above(sp);
	if (sig.stack_size > sizeof(sig.stack))
		sig.stack_size = sizeof(sig.stack);
	copy_stack(sig.stack, sp, sig.stack_size);
}

/* This process's maps, as MMAP records would give them. */
static void self_maps(struct machine *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start, end, pgoff;
	char line[4096], perms[8], path[4096];

	while (f && fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, perms, &pgoff, path) < 4)
			continue;
		if (path[0])
			machine_mmap(m, 20, 20, start, end - start, pgoff, path, perms[2] == 'x');
	}
	if (f)
		fclose(f);
}

static void unwind_signal_frame(const char *how)
{
	static const int greg[] = {	/* perf's register order: ax bx cx dx si di bp sp ip, r8-r15 */
		REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_RIP,
		REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
	};
	struct sigaction sa;
	struct symbolizer sym;
	struct machine m;
	struct unwinder *u;
	struct perf_sample s;
	uint64_t regs[17], ips[16];
	size_t i, n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	raise(SIGUSR1);
	CHECK(sig.stack_size > 256);
	for (i = 0; i < 17; i++)
		regs[i] = (uint64_t)sig.here.uc_mcontext.gregs[greg[i]];
	if (how)
		setenv("TRAIL_UNWIND", how, 1);
	symbolizer_init(&sym);
	machine_init(&m, &sym);
	self_maps(&m);
	memset(&s, 0, sizeof(s));
	s.regs_abi = 2;			/* PERF_SAMPLE_REGS_ABI_64 */
	s.regs_mask = 0x1ff | 0xff0000;
	s.regs = regs;
	s.stack = sig.stack;
	s.stack_size = sig.stack_size;
	u = unwinder_new(&m);
	n = unwinder_unwind(u, machine_thread(&m, 20, 20), &s, ips, 16);
	CHECK(n >= 3);
	if (n >= 3) {
		CHECK_INT(ips[0], regs[8]);
		CHECK_INT(ips[1], sig.trampoline - 1);
		CHECK_INT(ips[2], sig.interrupted);
	}
	unwinder_free(u);
	machine_release(&m);
	symbolizer_release(&sym);
}

TEST(signal_trampoline_one_byte_back)
{
	unwind_signal_frame(NULL);
}

TEST(signal_trampoline_one_byte_back_libdw)
{
	unwind_signal_frame("libdw");
}

TEST_MAIN("unwind", entry_row_is_the_call_frame, no_module_means_frame_pointer_step,
	  vdso_unwinds_through_its_cfi, vdso_unwinds_through_its_cfi_libdw, frame_at_zero_is_left_out,
	  frame_at_zero_is_left_out_libdw, last_word_of_the_copy_is_not_read,
	  last_word_of_the_copy_is_not_read_libdw, signal_trampoline_one_byte_back,
	  signal_trampoline_one_byte_back_libdw)
