/*
 * test_unwind.c - unit tests of the cached CFI rows (cfi_rows.c) on this
 * test binary's own .eh_frame; the conformance of the whole unwinder
 * with libdw's is tests/cli/50-perfdata.sh (TRAIL_UNWIND=libdw).
 */
#include "harness.h"
#include "perf/cfi_rows.h"

#include <elfutils/libdwfl.h>
#include <stdint.h>
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

TEST_MAIN("unwind", entry_row_is_the_call_frame, no_module_means_frame_pointer_step)
