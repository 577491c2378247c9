/*
 * symtab.c - a module's symbol table as perf keeps it (util/symbol.c):
 * sorted by start, one symbol per start address (perf's choice among
 * aliases), zero-sized symbols running to the next, and the lookup.
 */
#include "symbols/symtab.h"
#include "core/alloc.h"
#include "core/radix_sort.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* ---- fixups (perf util/symbol.c) ------------------------------------------ */

/* Bytes of sym's raw name. */
size_t symbol_name_len(const struct symbol *sym)
{
	size_t n = 0;

	if (!sym->unterminated)
		return strlen(sym->name);
	while (sym->name[n] && sym->name[n] != '\t' && sym->name[n] != '\n')
		n++;
	return n;
}

static int prefix_underscores(const char *s)
{
	int n = 0;

	while (*s++ == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): 1 when a wins, 0 when b wins. */
static int choose_a(const struct symbol *a, const struct symbol *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	int wa, wb;
	size_t na, nb;

	if (!lb && la)
		return 1;
	if (!la && lb)
		return 0;
	wa = a->binding == STB_WEAK;
	wb = b->binding == STB_WEAK;
	if (wb && !wa)
		return 1;
	if (wa && !wb)
		return 0;
	wa = a->binding == STB_GLOBAL;
	wb = b->binding == STB_GLOBAL;
	if (wa && !wb)
		return 1;
	if (wb && !wa)
		return 0;
	wa = prefix_underscores(a->name);
	wb = prefix_underscores(b->name);
	if (wb > wa)
		return 1;
	if (wa > wb)
		return 0;
	na = symbol_name_len(a);
	nb = symbol_name_len(b);
	if (na > nb)
		return 1;
	if (na < nb)
		return 0;
	return 1;
}

static uint64_t roundup_page(uint64_t v)
{
	return (v + 4095) & ~(uint64_t)4095;
}

size_t symbols_fixup(struct symbol *syms, size_t nr, int is_kallsyms, const char **kmod)
{
	struct symbol *v;
	const char **km = NULL;
	size_t i, n = 0;

	if (!nr)
		return 0;
	for (i = 1; i < nr && syms[i - 1].start <= syms[i].start; i++)
		;
	if (i < nr) {
		/* sort small keys (stable: ties keep table order), then move
		 * the symbols once */
		struct radix_pair *keys = xmallocarray(nr, sizeof(*keys));

		for (i = 0; i < nr; i++) {
			keys[i].key = syms[i].start;
			keys[i].val = i;
		}
		radix_sort_pairs(keys, nr);
		v = xmallocarray(nr, sizeof(*v));
		if (kmod)
			km = xmallocarray(nr, sizeof(*km));
		for (i = 0; i < nr; i++) {
			v[i] = syms[keys[i].val];
			if (kmod)
				km[i] = kmod[keys[i].val];
		}
		memcpy(syms, v, nr * sizeof(*v));
		if (kmod)
			memcpy(kmod, km, nr * sizeof(*km));
		free(v);
		free(km);
		free(keys);
	}
	/* symbols__fixup_end: zero-sized symbols run to the next one */
	for (i = 0; i + 1 < nr; i++) {
		struct symbol *prev = &syms[i];

		if (prev->end != prev->start)
			continue;
		if (is_kallsyms && kmod && (!kmod[i] != !kmod[i + 1]))
			prev->end = roundup_page(prev->end + 4096);
		else
			prev->end = syms[i + 1].start;
	}
	if (syms[nr - 1].end == syms[nr - 1].start)
		syms[nr - 1].end = roundup_page(syms[nr - 1].start) + 4096;
	/* symbols__fixup_duplicate: one symbol per start address */
	for (i = 0; i < nr; i++) {
		if (n && syms[n - 1].start == syms[i].start) {
			if (!choose_a(&syms[n - 1], &syms[i])) {
				syms[n - 1] = syms[i];
				if (kmod)
					kmod[n - 1] = kmod[i];
			}
			continue;
		}
		syms[n] = syms[i];
		if (kmod)
			kmod[n] = kmod[i];
		n++;
	}
	return n;
}

const struct symbol *symbols_search(const struct symbol *syms, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr, k;

	/* last symbol with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a few steps back for symbols nested in a bigger one */
	for (k = 0; k < 4 && lo > 0; k++, lo--) {
		const struct symbol *sym = &syms[lo - 1];

		if (addr < sym->end || addr == sym->start)
			return sym;
	}
	return NULL;
}
