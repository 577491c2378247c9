/*
 * cfi_rows.h - the call frame information of one address space, decoded
 * once per program counter into a compact rule table (x86-64: the CFA as
 * register + offset, each of the 17 DWARF registers undefined, same
 * value, saved at CFA + n, or equal to CFA + n).  libdw's unwinder looks
 * the CFI up and allocates for every frame of every sample; with the
 * rows cached, unwinding a sample is a few loads per frame.  Where libdw
 * finds no CFI (in .eh_frame, then .debug_frame) it steps by the frame
 * pointer; such rows say so.  Rows libdw would handle in ways this table
 * does not describe (signal frames, DWARF expressions, register-to-
 * register rules) send the whole sample back to libdw.
 */
#ifndef TRAIL_PERF_CFI_ROWS_H
#define TRAIL_PERF_CFI_ROWS_H

#include "core/hashmap.h"

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

#define CFI_NREGS 17		/* x86-64 DWARF registers 0-15 and the return address (16) */
#define CFI_RBP 6
#define CFI_RSP 7
#define CFI_RA 16

enum cfi_rule {
	CFI_UNSET,		/* libdw could not describe it: the register stays unknown */
	CFI_UNDEFINED,		/* no value (for the return address: the outermost frame) */
	CFI_SAME,		/* the callee's value */
	CFI_AT,			/* saved in memory at CFA + n */
	CFI_VAL,		/* the value CFA + n */
};

enum cfi_row_kind {
	CFI_ROW_LIBDW,		/* leave this sample to libdw */
	CFI_ROW_RULES,		/* the rules below (from .eh_frame or .debug_frame) */
	CFI_ROW_FRAME_POINTER,	/* no CFI for pc: libdw's x86-64 frame-pointer step */
};

struct cfi_row {
	uint64_t pc;		/* the (adjusted) pc it was looked up for */
	uint8_t kind;		/* enum cfi_row_kind */
	uint8_t cfa_reg;	/* CFA = value of cfa_reg + cfa_off */
	uint8_t rule[CFI_NREGS];	/* enum cfi_rule */
	int64_t cfa_off;
	int64_t off[CFI_NREGS];	/* n of CFI_AT / CFI_VAL */
	/*
	 * The registers (bit n: DWARF register n) under CFI_SAME, CFI_AT and
	 * CFI_VAL, so a step visits only those instead of switching on all
	 * 17 rules (the unwinder's inner loop).
	 */
	uint32_t same, at, val;
};

struct cfi_rows {
	struct cfi_row *v;	/* rows in order of first lookup */
	size_t nr, alloc;
	struct hashmap index;	/* pc -> index in v */
	/*
	 * A direct-mapped front of the index: slot pc mod 256 holds
	 * the index + 1 of the row found there last (0: none).  A sample's
	 * frames keep coming back to the same few hundred pcs.
	 */
	uint32_t recent[256];
};

void cfi_rows_init(struct cfi_rows *t);
void cfi_rows_release(struct cfi_rows *t);
/* Forget every row (the address space's modules changed). */
void cfi_rows_clear(struct cfi_rows *t);

/*
 * The row for pc (already adjusted as libdw adjusts it: the sampled pc as
 * is, callers' return addresses one byte back) in dwfl's modules, from
 * .eh_frame, decoded on first use.  Never NULL.  The recent slot is
 * tried inline (the unwinder's every frame), the index out of line.
 */
const struct cfi_row *cfi_rows_find_slow(struct cfi_rows *t, Dwfl *dwfl, uint64_t pc);
static inline const struct cfi_row *cfi_rows_find(struct cfi_rows *t, Dwfl *dwfl, uint64_t pc)
{
	uint32_t r = t->recent[pc % (sizeof(t->recent) / sizeof(t->recent[0]))];

	if (r && t->v[r - 1].pc == pc)
		return &t->v[r - 1];
	return cfi_rows_find_slow(t, dwfl, pc);
}

/* Whether the CFI for pc in dwfl's modules marks a signal frame (augmentation 'S'). */
int cfi_signal_frame(Dwfl *dwfl, uint64_t pc);

#endif
