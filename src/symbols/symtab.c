/*
 * symtab.c - a module's symbol table as perf keeps it (util/symbol.c):
 * sorted by start, one symbol per start address (perf's choice among
 * aliases, the others marked erased), zero-sized symbols running to the
 * next, and the lookup: a binary search, or perf's own tree (symtree.c)
 * where an earlier symbol reaches over the address.
 */
#include "symbols/symtab.h"
#include "symbols/symtree.h"
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

static const char *kept_name(const struct symtab_recipe *r, const struct symbol *sym, size_t *len)
{
	if (r && r->name)
		return r->name(r->ctx, sym, len);
	*len = symbol_name_len(sym);
	return sym->name;
}

/*
 * perf's choose_best_symbol(): 1 when a wins, 0 when b wins.  Its names
 * are the ones perf keeps (recipe r: demangled where perf demangles).
 */
static int choose_a(const struct symbol *a, const struct symbol *b, const struct symtab_recipe *r)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	const char *name_a, *name_b;
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
	name_a = kept_name(r, a, &na);
	name_b = kept_name(r, b, &nb);
	wa = prefix_underscores(name_a);
	wb = prefix_underscores(name_b);
	if (wb > wa)
		return 1;
	if (wa > wb)
		return 0;
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

/*
 * Sort syms by start, stable (perf's tree keeps equal starts in insertion
 * order); *orig gets each sorted position's index before the sort, and
 * kmod moves with its symbols.
 */
static void sort_symbols(struct symbol *syms, size_t nr, const char **kmod, uint32_t *orig)
{
	struct radix_pair *keys;
	struct symbol *v;
	const char **km = NULL;
	size_t i;

	for (i = 1; i < nr && syms[i - 1].start <= syms[i].start; i++)
		;
	if (i >= nr) {
		for (i = 0; i < nr; i++)
			orig[i] = (uint32_t)i;
		return;
	}
	/* sort small keys (stable: ties keep table order), then move the
	 * symbols once */
	keys = xmallocarray(nr, sizeof(*keys));
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
		orig[i] = (uint32_t)keys[i].val;
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

/*
 * symbols__fixup_end over the symbols perf had when it ran (the sorted
 * table but the late ones): a zero-sized symbol runs to the next.
 */
static void fixup_ends(struct symbol *syms, size_t nr, const uint32_t *orig, size_t nr_early,
		       int is_kallsyms, const char **kmod)
{
	size_t i, prev = SIZE_MAX;

	for (i = 0; i <= nr; i++) {
		struct symbol *p;

		if (i < nr && orig[i] >= nr_early)
			continue;
		if (prev == SIZE_MAX) {
			prev = i;
			continue;
		}
		p = &syms[prev];
		if (p->end == p->start) {
			if (i == nr)
				p->end = roundup_page(p->start) + 4096;
			else if (is_kallsyms && kmod && (!kmod[prev] != !kmod[i]))
				p->end = roundup_page(p->end + 4096);
			else
				p->end = syms[i].start;
		}
		prev = i;
	}
}

/*
 * symbols__fixup_duplicate: of symbols sharing a start, perf keeps one
 * (choose_best_symbol) and erases the others from its tree, in the order
 * its walk meets them.  Marks them erased and appends their positions to
 * *erase (when erase is not NULL).  Returns how many.
 */
static size_t fixup_duplicates(struct symbol *syms, size_t nr, const uint32_t *orig,
			       size_t nr_early, const struct symtab_recipe *r, uint32_t *erase)
{
	size_t i, curr = SIZE_MAX, n = 0;

	for (i = 0; i < nr; i++) {
		size_t lost;

		if (orig[i] >= nr_early)
			continue;
		if (curr == SIZE_MAX || syms[curr].start != syms[i].start) {
			curr = i;
			continue;
		}
		if (choose_a(&syms[curr], &syms[i], r)) {
			lost = i;
		} else {
			lost = curr;
			curr = i;
		}
		syms[lost].erased = 1;
		if (erase)
			erase[n] = (uint32_t)lost;
		n++;
	}
	return n;
}

/* A zero-sized symbol holds one address, its start. */
static uint64_t reach_of(const struct symbol *s)
{
	return s->end > s->start ? s->end : s->start + 1;
}

static int has_overlap(const struct symbol *syms, size_t nr)
{
	uint64_t reach = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (syms[i].erased)
			continue;
		if (i && syms[i].start < reach)
			return 1;
		if (reach_of(&syms[i]) > reach)
			reach = reach_of(&syms[i]);
	}
	return 0;
}

/* What rebuilds perf's tree, kept when some symbols overlap. */
static struct symtree *keep_tree(const struct symbol *syms, size_t nr, const uint32_t *orig,
				 size_t nr_early, uint32_t *erase, size_t nr_erase)
{
	struct symtree *t = xcalloc(1, sizeof(*t));
	uint64_t reach = 0;
	size_t i;

	t->nr = nr;
	t->nr_early = nr_early;
	t->erase = erase;
	t->nr_erase = nr_erase;
	t->reach = xmallocarray(nr, sizeof(*t->reach));
	t->insert = xmallocarray(nr, sizeof(*t->insert));
	for (i = 0; i < nr; i++) {
		t->insert[orig[i]] = (uint32_t)i;
		t->reach[i] = reach;
		if (!syms[i].erased && reach_of(&syms[i]) > reach)
			reach = reach_of(&syms[i]);
	}
	return t;
}

/*
 * What perf's loaders do to a fresh table: sort it (*orig: each position's
 * index before), and with fix_ends run symbols__fixup_end and then
 * symbols__fixup_duplicate over the first nr_early symbols read, marking
 * the duplicates erased and listing them in erase (when not NULL) in the
 * order perf erases them.  Returns how many were erased.
 */
static size_t fix_table(struct symbol *syms, size_t nr, size_t nr_early, int fix_ends,
			int is_kallsyms, const char **kmod, const struct symtab_recipe *r,
			uint32_t *orig, uint32_t *erase)
{
	size_t i;

	for (i = 0; i < nr; i++)
		syms[i].erased = 0;
	sort_symbols(syms, nr, kmod, orig);
	if (!fix_ends)
		return 0;
	fixup_ends(syms, nr, orig, nr_early, is_kallsyms, kmod);
	return fixup_duplicates(syms, nr, orig, nr_early, r, erase);
}

struct symtree *symtab_prepare(struct symbol *syms, size_t nr, const struct symtab_recipe *r)
{
	size_t nr_early = nr - (r->nr_late < nr ? r->nr_late : nr), nr_erase;
	uint32_t *orig, *erase;
	struct symtree *t = NULL;

	if (!nr)
		return NULL;
	orig = xmallocarray(nr, sizeof(*orig));
	erase = xmallocarray(nr, sizeof(*erase));
	nr_erase = fix_table(syms, nr, nr_early, r->fix_ends, 0, NULL, r, orig, erase);
	if (has_overlap(syms, nr)) {
		erase = xreallocarray(erase, nr_erase ? nr_erase : 1, sizeof(*erase));
		t = keep_tree(syms, nr, orig, nr_early, erase, nr_erase);
	} else {
		free(erase);
	}
	free(orig);
	return t;
}

size_t symbols_fixup(struct symbol *syms, size_t nr, int is_kallsyms, const char **kmod)
{
	uint32_t *orig;
	size_t i, n = 0;

	if (!nr)
		return 0;
	orig = xmallocarray(nr, sizeof(*orig));
	fix_table(syms, nr, nr, 1, is_kallsyms, kmod, NULL, orig, NULL);
	free(orig);
	for (i = 0; i < nr; i++) {
		if (syms[i].erased)
			continue;
		syms[n] = syms[i];
		if (kmod)
			kmod[n] = kmod[i];
		n++;
	}
	return n;
}

const struct symbol *symbols_search(const struct symbol *syms, size_t nr, struct symtree *tree,
				    uint64_t addr)
{
	size_t lo = 0, hi = nr;

	/* the last symbol with start <= addr that perf kept */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && syms[lo - 1].erased)
		lo--;
	if (!lo)
		return NULL;
	lo--;
	/* no earlier symbol reaches addr: this one holds it or none does */
	if (!tree || tree->reach[lo] <= addr)
		return symbol_holds(&syms[lo], addr) ? &syms[lo] : NULL;
	return symtree_find(tree, syms, addr);
}
