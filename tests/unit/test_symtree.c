/*
 * test_symtree.c - lookups where symbols overlap give perf's answer:
 * small tables whose trees are worked out by hand, and random tables
 * against a textbook red-black tree written here from scratch (nodes
 * with pointers, keys compared by start), built the way perf 6.1's
 * dso__load builds its own.
 */
#include "harness.h"
#include "symbols/symtab.h"
#include "symbols/symtree.h"
#include "core/alloc.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

static const struct symbol *find(struct symbol *s, size_t n, struct symtree *t, uint64_t a)
{
	return symbols_search(s, n, t, a);
}

static const char *name_at(struct symbol *s, size_t n, struct symtree *t, uint64_t a)
{
	const struct symbol *r = find(s, n, t, a);

	return r ? r->name : "-";
}

static void fill(struct symbol *s, uint64_t start, uint64_t size, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = start + size;
	s->name = name;
	s->binding = STB_GLOBAL;
	s->type = size ? STT_FUNC : STT_NOTYPE;
}

/*
 * A label L at 0x150 inside F [0x100, 0x200), stretched to B at 0x400.
 * Inserted A F B L: F ends up the root, so perf meets F first at 0x150.
 * Inserted B L F A: L is the root, and perf meets L first.
 */
TEST(label_inside_a_function_follows_the_tree)
{
	static const struct {
		const char *order;
		const char *at_label;
	} cases[] = { { "AFBL", "F" }, { "BLFA", "L" } };

	for (size_t c = 0; c < 2; c++) {
		struct symbol s[4];
		struct symtree *t;

		for (size_t i = 0; i < 4; i++) {
			switch (cases[c].order[i]) {
			case 'A': fill(&s[i], 0x10, 0x20, "A"); break;
			case 'F': fill(&s[i], 0x100, 0x100, "F"); break;
			case 'L': fill(&s[i], 0x150, 0, "L"); break;
			default: fill(&s[i], 0x400, 0x10, "B"); break;
			}
		}
		t = symtab_prepare(s, 4, &(struct symtab_recipe){ .fix_ends = 1 });
		CHECK(t != NULL);
		CHECK_STREQ(name_at(s, 4, t, 0x150), cases[c].at_label);
		CHECK_STREQ(name_at(s, 4, t, 0x1ff), cases[c].at_label);
		CHECK_STREQ(name_at(s, 4, t, 0x120), "F");
		CHECK_STREQ(name_at(s, 4, t, 0x250), "L");	/* F ends at 0x200 */
		CHECK_STREQ(name_at(s, 4, t, 0x14), "A");
		CHECK_STREQ(name_at(s, 4, t, 0x405), "B");
		CHECK_STREQ(name_at(s, 4, t, 0x5), "-");
		symtree_free(t);
	}
}

/*
 * A perf map is read as it is: a zero-sized entry holds its start only,
 * duplicates stay, and perf's descent can miss a holder: X [0x100,
 * 0x200), then Y (0 bytes at 0x100), then Z at 0x180 rotate Y to the
 * root; at 0x101 perf goes right of Y, left of Z, and finds nothing.
 */
TEST(perf_map_entries_as_perf_reads_them)
{
	struct symbol s[3];
	struct symtree *t;

	fill(&s[0], 0x100, 0x100, "X");
	fill(&s[1], 0x100, 0, "Y");
	fill(&s[2], 0x180, 0x10, "Z");
	t = symtab_prepare(s, 3, &(struct symtab_recipe){ .fix_ends = 0 });
	CHECK(t != NULL);
	CHECK_STREQ(name_at(s, 3, t, 0x100), "Y");
	CHECK_STREQ(name_at(s, 3, t, 0x101), "-");
	CHECK_STREQ(name_at(s, 3, t, 0x185), "Z");
	CHECK_STREQ(name_at(s, 3, t, 0x190), "-");
	symtree_free(t);
	/* no overlap: no tree, the table answers */
	fill(&s[0], 0x100, 0x10, "X");
	fill(&s[1], 0x110, 0x10, "Y");
	fill(&s[2], 0x180, 0, "Z");
	t = symtab_prepare(s, 3, &(struct symtab_recipe){ .fix_ends = 0 });
	CHECK(t == NULL);
	CHECK_STREQ(name_at(s, 3, NULL, 0x115), "Y");
	CHECK_STREQ(name_at(s, 3, NULL, 0x180), "Z");
	CHECK_STREQ(name_at(s, 3, NULL, 0x181), "-");
}

/* ---- the reference: a pointer red-black tree, as a textbook has it ---- */

struct ref {
	struct ref *l, *r, *p;
	int red;
	uint64_t start, end;
	const char *name;
	size_t nlen;
	int late;
};

static struct ref *ref_root;

static int ref_is_red(struct ref *x)
{
	return x && x->red;
}

static void ref_rotate_left(struct ref *x)
{
	struct ref *y = x->r;

	x->r = y->l;
	if (y->l)
		y->l->p = x;
	y->p = x->p;
	if (!x->p)
		ref_root = y;
	else if (x == x->p->l)
		x->p->l = y;
	else
		x->p->r = y;
	y->l = x;
	x->p = y;
}

static void ref_rotate_right(struct ref *x)
{
	struct ref *y = x->l;

	x->l = y->r;
	if (y->r)
		y->r->p = x;
	y->p = x->p;
	if (!x->p)
		ref_root = y;
	else if (x == x->p->r)
		x->p->r = y;
	else
		x->p->l = y;
	y->r = x;
	x->p = y;
}

static void ref_insert(struct ref *z)
{
	struct ref *y = NULL, *x = ref_root;

	while (x) {
		y = x;
		x = z->start < x->start ? x->l : x->r;
	}
	z->p = y;
	z->l = z->r = NULL;
	z->red = 1;
	if (!y)
		ref_root = z;
	else if (z->start < y->start)
		y->l = z;
	else
		y->r = z;
	while (ref_is_red(z->p)) {
		struct ref *g = z->p->p;

		if (z->p == g->l) {
			struct ref *u = g->r;

			if (ref_is_red(u)) {
				z->p->red = u->red = 0;
				g->red = 1;
				z = g;
				continue;
			}
			if (z == z->p->r) {
				z = z->p;
				ref_rotate_left(z);
			}
			z->p->red = 0;
			z->p->p->red = 1;
			ref_rotate_right(z->p->p);
		} else {
			struct ref *u = g->l;

			if (ref_is_red(u)) {
				z->p->red = u->red = 0;
				g->red = 1;
				z = g;
				continue;
			}
			if (z == z->p->l) {
				z = z->p;
				ref_rotate_right(z);
			}
			z->p->red = 0;
			z->p->p->red = 1;
			ref_rotate_left(z->p->p);
		}
	}
	ref_root->red = 0;
}

static void ref_transplant(struct ref *u, struct ref *v)
{
	if (!u->p)
		ref_root = v;
	else if (u == u->p->l)
		u->p->l = v;
	else
		u->p->r = v;
	if (v)
		v->p = u->p;
}

static void ref_erase(struct ref *z)
{
	struct ref *y = z, *x, *xp;
	int y_red = y->red;

	if (!z->l) {
		x = z->r;
		xp = z->p;
		ref_transplant(z, z->r);
	} else if (!z->r) {
		x = z->l;
		xp = z->p;
		ref_transplant(z, z->l);
	} else {
		for (y = z->r; y->l; y = y->l)
			;
		y_red = y->red;
		x = y->r;
		if (y->p == z) {
			xp = y;
		} else {
			xp = y->p;
			ref_transplant(y, y->r);
			y->r = z->r;
			y->r->p = y;
		}
		ref_transplant(z, y);
		y->l = z->l;
		y->l->p = y;
		y->red = z->red;
	}
	if (y_red)
		return;
	while (x != ref_root && !ref_is_red(x)) {
		if (x == xp->l) {
			struct ref *w = xp->r;

			if (ref_is_red(w)) {
				w->red = 0;
				xp->red = 1;
				ref_rotate_left(xp);
				w = xp->r;
			}
			if (!ref_is_red(w->l) && !ref_is_red(w->r)) {
				w->red = 1;
				x = xp;
				xp = x->p;
			} else {
				if (!ref_is_red(w->r)) {
					w->l->red = 0;
					w->red = 1;
					ref_rotate_right(w);
					w = xp->r;
				}
				w->red = xp->red;
				xp->red = 0;
				w->r->red = 0;
				ref_rotate_left(xp);
				x = ref_root;
			}
		} else {
			struct ref *w = xp->l;

			if (ref_is_red(w)) {
				w->red = 0;
				xp->red = 1;
				ref_rotate_right(xp);
				w = xp->l;
			}
			if (!ref_is_red(w->l) && !ref_is_red(w->r)) {
				w->red = 1;
				x = xp;
				xp = x->p;
			} else {
				if (!ref_is_red(w->l)) {
					w->r->red = 0;
					w->red = 1;
					ref_rotate_left(w);
					w = xp->l;
				}
				w->red = xp->red;
				xp->red = 0;
				w->l->red = 0;
				ref_rotate_right(xp);
				x = ref_root;
			}
		}
	}
	if (x)
		x->red = 0;
}

static struct ref *ref_first(void)
{
	struct ref *x = ref_root;

	while (x && x->l)
		x = x->l;
	return x;
}

static struct ref *ref_next(struct ref *x)
{
	if (x->r) {
		for (x = x->r; x->l; x = x->l)
			;
		return x;
	}
	while (x->p && x == x->p->r)
		x = x->p;
	return x->p;
}

/* perf's symbols__find */
static struct ref *ref_find(uint64_t a)
{
	struct ref *x = ref_root;

	while (x) {
		if (a < x->start)
			x = x->l;
		else if (a > x->end || (a == x->end && a != x->start))
			x = x->r;
		else
			return x;
	}
	return NULL;
}

/* perf's walks after loading an ELF table: ends, then duplicates */
static void ref_fixups(void)
{
	struct ref *x, *next;

	for (x = ref_first(); x; x = next) {
		next = ref_next(x);
		if (x->late)
			continue;
		while (next && next->late)
			next = ref_next(next);
		if (x->end == x->start)
			x->end = next ? next->start : ((x->start + 4095) & ~4095ull) + 4096;
	}
	for (x = ref_first(); x;) {
		next = ref_next(x);
		if (!next)
			break;
		if (x->start != next->start) {
			x = next;
			continue;
		}
		/* a sized symbol wins, then the longer name, then the first */
		if ((next->end == next->start && x->end > x->start) ||
		    (!((x->end == x->start) && next->end > next->start) && x->nlen >= next->nlen)) {
			ref_erase(next);
		} else {
			ref_erase(x);
			x = next;
		}
	}
}

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/*
 * Random tables - functions with labels inside, zero-sized symbols,
 * same-start aliases, PLT-like entries added last - against the
 * reference, at every address in range.
 */
TEST(matches_a_textbook_tree_on_random_tables)
{
	static char names[40][48];
	uint64_t seed = 7;
	size_t mismatches = 0, trees = 0, shared = 0, outer = 0;

	for (size_t i = 0; i < 40; i++)
		memset(names[i], 'n', i + 1);	/* distinct lengths: the alias rule is length */
	for (int round = 0; round < 300; round++) {
		int jit = round % 3 == 2;
		size_t n = 2 + rnd(&seed) % (round < 100 ? 12 : 60), late = jit ? 0 : rnd(&seed) % 4;
		struct symbol *s = xcalloc(n + late, sizeof(*s));
		struct ref *r = xcalloc(n + late, sizeof(*r));
		struct symtree *t;

		ref_root = NULL;
		for (size_t i = 0; i < n + late; i++) {
			uint64_t start = 0x1000 + rnd(&seed) % 64 * 8, size = rnd(&seed) % 3 ? rnd(&seed) % 200 : 0;

			if (i >= n)
				start = 0x800 + rnd(&seed) % 8 * 16, size = 16;	/* "PLT" */
			fill(&s[i], start, size, names[rnd(&seed) % 40]);
			r[i].start = start;
			r[i].end = start + size;
			r[i].name = s[i].name;
			r[i].nlen = strlen(s[i].name);
			r[i].late = i >= n;
		}
		for (size_t i = 0; i < n; i++)
			ref_insert(&r[i]);
		if (!jit)
			ref_fixups();
		for (size_t i = n; i < n + late; i++)
			ref_insert(&r[i]);
		t = symtab_prepare(s, n + late, &(struct symtab_recipe){ .fix_ends = !jit, .nr_late = late });
		trees += t != NULL;
		for (uint64_t a = 0x7f0; a < 0x1400; a++) {
			const struct symbol *got = find(s, n + late, t, a), *inner = NULL;
			struct ref *want = ref_find(a);
			size_t holders = 0;

			if ((got == NULL) != (want == NULL) || (got && (got->start != want->start ||
								     strcmp(got->name, want->name))))
				mismatches++;
			for (size_t i = 0; i < n + late; i++)
				if (!s[i].erased && symbol_holds(&s[i], a)) {
					holders++;
					inner = &s[i];
				}
			shared += holders > 1;
			outer += holders > 1 && got != inner;	/* not the innermost */
		}
		symtree_free(t);
		free(s);
		free(r);
	}
	CHECK_INT(mismatches, 0);
	CHECK(trees > 100);	/* the tree was exercised, */
	CHECK(shared > 10000);	/* at addresses two symbols hold, */
	CHECK(outer > 1000);	/* often not answering with the innermost */
}

TEST_MAIN("symtree", label_inside_a_function_follows_the_tree, perf_map_entries_as_perf_reads_them,
	  matches_a_textbook_tree_on_random_tables)
