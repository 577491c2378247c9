/*
 * cfi_rows.c - decoding libdw's Dwarf_Frame into cfi_row rules, cached by
 * pc (see cfi_rows.h).  The classification follows what libdw 0.188's
 * dwarf_frame_register() returns and how its frame_unwind.c evaluates it,
 * so a usable row gives exactly the registers libdw's unwinder would.
 */
#include "perf/cfi_rows.h"
#include "core/alloc.h"
#include "core/hashmap.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

void cfi_rows_init(struct cfi_rows *t)
{
	memset(t, 0, sizeof(*t));
	hashmap_init(&t->index, 192);
}

void cfi_rows_release(struct cfi_rows *t)
{
	free(t->v);
	hashmap_release(&t->index);
	memset(t, 0, sizeof(*t));
}

void cfi_rows_clear(struct cfi_rows *t)
{
	hashmap_clear(&t->index);
	memset(t->recent, 0, sizeof(t->recent));
	t->nr = 0;
}

/* A register's rule as libdw's handle_cfi() would apply it; 0 when unsupported. */
static int decode_register(Dwarf_Frame *frame, int regno, struct cfi_row *row)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;

	if (dwarf_frame_register(frame, regno, mem, &ops, &nops) != 0) {
		row->rule[regno] = CFI_UNSET;	/* libdw: error, register left unset */
		return 1;
	}
	if (nops == 0) {
		if (ops == mem)
			row->rule[regno] = CFI_UNDEFINED;
		else if (ops == NULL)
			row->rule[regno] = CFI_SAME;
		else
			row->rule[regno] = CFI_UNSET;
		return 1;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return 0;	/* register or expression rule */
	row->off[regno] = 0;
	if (nops == 1) {
		row->rule[regno] = CFI_AT;
		return 1;
	}
	if (ops[1].atom == DW_OP_plus_uconst) {
		row->off[regno] = (int64_t)ops[1].number;
		if (nops == 2) {
			row->rule[regno] = CFI_AT;
			return 1;
		}
		if (nops == 3 && ops[2].atom == DW_OP_stack_value) {
			row->rule[regno] = CFI_VAL;
			return 1;
		}
		return 0;
	}
	if (nops == 2 && ops[1].atom == DW_OP_stack_value) {
		row->rule[regno] = CFI_VAL;
		return 1;
	}
	return 0;
}

/*
 * The frame for pc as libdw's __libdwfl_frame_unwind() finds it: from
 * .eh_frame, else from .debug_frame (separate debug info), else none.
 */
static Dwarf_Frame *find_frame(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	Dwarf_Frame *frame;

	if ((cfi = dwfl_module_eh_cfi(mod, &bias)) && !dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return frame;
	if ((cfi = dwfl_module_dwarf_cfi(mod, &bias)) && !dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return frame;
	return NULL;
}

/* Fill row (pc set) from dwfl's CFI; row->kind says how to step. */
static void decode(Dwfl *dwfl, struct cfi_row *row)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, row->pc);
	Dwarf_Frame *frame = mod ? find_frame(mod, row->pc) : NULL;
	Dwarf_Op *ops;
	size_t nops;
	bool signal = false;
	int regno;

	row->kind = CFI_ROW_LIBDW;
	if (!frame) {
		row->kind = CFI_ROW_FRAME_POINTER;
		return;
	}
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != CFI_RA || signal ||
	    dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx && ops[0].number < CFI_NREGS) {
		row->cfa_reg = (uint8_t)ops[0].number;
		row->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom < DW_OP_breg0 + CFI_NREGS) {
		row->cfa_reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		row->cfa_off = (int64_t)ops[0].number;
	} else {
		goto out;
	}
	for (regno = 0; regno < CFI_NREGS; regno++)
		if (!decode_register(frame, regno, row))
			goto out;
	row->kind = CFI_ROW_RULES;
out:
	free(frame);
}

int cfi_signal_frame(Dwfl *dwfl, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_Frame *frame = mod ? find_frame(mod, pc) : NULL;
	bool signal = false;

	if (frame)
		dwarf_frame_info(frame, NULL, NULL, &signal);
	free(frame);
	return signal;
}

/* The rule masks of a decoded row (see struct cfi_row). */
static void rule_masks(struct cfi_row *row)
{
	int regno;

	row->same = row->at = row->val = 0;
	for (regno = 0; regno < CFI_NREGS; regno++) {
		uint32_t bit = 1u << regno;

		if (row->rule[regno] == CFI_SAME)
			row->same |= bit;
		else if (row->rule[regno] == CFI_AT)
			row->at |= bit;
		else if (row->rule[regno] == CFI_VAL)
			row->val |= bit;
	}
}

const struct cfi_row *cfi_rows_find_slow(struct cfi_rows *t, Dwfl *dwfl, uint64_t pc)
{
	uint32_t *recent = &t->recent[pc % (sizeof(t->recent) / sizeof(t->recent[0]))];
	struct hashmap_iter it;
	struct cfi_row *row;
	uint32_t id;

	for (id = hashmap_first(&t->index, hashmap_hash_u64(pc), &it); id != HASHMAP_NONE;
	     id = hashmap_next(&it))
		if (t->v[id].pc == pc) {
			*recent = id + 1;
			return &t->v[id];
		}
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	row = &t->v[t->nr];
	memset(row, 0, sizeof(*row));
	row->pc = pc;
	decode(dwfl, row);
	rule_masks(row);
	hashmap_add_at(&t->index, &it, (uint32_t)t->nr++);
	*recent = (uint32_t)t->nr;
	return row;
}
