/*
 * dwarf_defs.c - the functions a binary's DWARF defines and the source
 * lines each covers (dwarf_defs.h): every DW_TAG_subprogram with code
 * (low_pc or ranges), named through its abstract origin or specification,
 * declared at DW_AT_decl_file:decl_line; its extent is the last row of the
 * line table inside its address ranges that lies in that file, cut before
 * the next function the CU declares in the file (code inlined from further
 * down the same file is not its own).
 */
#include "symbols/dwarf_defs.h"
#include "core/alloc.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct row {
	Dwarf_Addr addr;
	const char *file;	/* libdw's string, alive while the Dwarf is open */
	unsigned line;
};

/* One function of a CU while its extent is worked out. */
struct pending {
	Dwarf_Die die;
	const char *file;	/* libdw's */
	unsigned line;
	int has_code;
};

struct cu_walk {
	struct pending *v;
	size_t nr, alloc;
};

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int def_cmp(const void *a, const void *b)
{
	const struct dwarf_def *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
	if (!c)
		c = (x->end > y->end) - (x->end < y->end);
	return c;
}

/* Drop "." and "dir/.." components of an absolute path, in place. */
static void normalise(char *path)
{
	char *out = path, *p = path;

	while (*p) {
		char *seg = p, *slash;
		size_t len;

		while (*seg == '/')
			seg++;
		slash = strchr(seg, '/');
		len = slash ? (size_t)(slash - seg) : strlen(seg);
		p = seg + len;
		if (!len || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > path && out[-1] != '/')
				out--;
			if (out > path)
				out--;
			continue;
		}
		*out++ = '/';
		memmove(out, seg, len);
		out += len;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

static char *absolute(const char *file, const char *comp_dir)
{
	char *p = file[0] == '/' || !comp_dir ? xstrdup(file) : xstrfmt("%s/%s", comp_dir, file);

	if (p[0] == '/')
		normalise(p);
	return p;
}

static void collect(struct cu_walk *w, Dwarf_Die *parent)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child), line;
		const char *file;

		switch (tag) {
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			collect(w, &child);
			continue;
		case DW_TAG_subprogram:
			break;
		default:
			continue;
		}
		file = dwarf_decl_file(&child);
		if (!file || dwarf_decl_line(&child, &line) || line <= 0)
			continue;
		ALLOC_GROW(w->v, w->nr + 1, w->alloc);
		w->v[w->nr].die = child;
		w->v[w->nr].file = file;
		w->v[w->nr].line = (unsigned)line;
		w->v[w->nr].has_code = dwarf_hasattr(&child, DW_AT_low_pc) ||
				       dwarf_hasattr(&child, DW_AT_ranges);
		w->nr++;
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The last line in file among rows[] inside die's address ranges (0: none). */
static unsigned last_row_line(Dwarf_Die *die, const char *file, const struct row *rows, size_t nr)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	unsigned last = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		size_t a = 0, b = nr;

		while (a < b) {
			size_t m = a + (b - a) / 2;

			if (rows[m].addr < lo)
				a = m + 1;
			else
				b = m;
		}
		for (; a < nr && rows[a].addr < hi; a++)
			if (rows[a].line > last && !strcmp(rows[a].file, file))
				last = rows[a].line;
	}
	return last;
}

static struct row *cu_rows(Dwarf_Die *cu, size_t *nr)
{
	Dwarf_Lines *lines;
	size_t n, i;
	struct row *rows;

	*nr = 0;
	if (dwarf_getsrclines(cu, &lines, &n) || !n)
		return NULL;
	rows = xcalloc(n, sizeof(*rows));
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		int lineno;

		if (!l || dwarf_lineaddr(l, &rows[*nr].addr) || dwarf_lineno(l, &lineno) ||
		    lineno <= 0 || !(rows[*nr].file = dwarf_linesrc(l, NULL, NULL)))
			continue;
		rows[(*nr)++].line = (unsigned)lineno;
	}
	qsort(rows, *nr, sizeof(*rows), row_cmp);
	return rows;
}

static void read_cu(struct dwarf_defs *d, Dwarf_Die *cu)
{
	struct cu_walk w = { NULL, 0, 0 };
	Dwarf_Attribute attr;
	const char *comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	struct row *rows;
	size_t nrows = 0, i, k;

	collect(&w, cu);
	rows = w.nr ? cu_rows(cu, &nrows) : NULL;
	for (i = 0; i < w.nr; i++) {
		struct pending *p = &w.v[i];
		const char *name = dwarf_formstring(dwarf_attr_integrate(&p->die, DW_AT_name, &attr));
		unsigned end, next = 0;

		if (!p->has_code || !name || !*name)
			continue;
		end = last_row_line(&p->die, p->file, rows, nrows);
		for (k = 0; k < w.nr; k++)
			if (w.v[k].line > p->line && (!next || w.v[k].line < next) &&
			    !strcmp(w.v[k].file, p->file))
				next = w.v[k].line;
		if (next && end >= next)
			end = next - 1;
		ALLOC_GROW(d->v, d->nr + 1, d->alloc);
		d->v[d->nr].name = xstrdup(name);
		d->v[d->nr].file = absolute(p->file, comp_dir);
		d->v[d->nr].line = p->line;
		d->v[d->nr].end = end > p->line ? end : p->line;
		d->nr++;
	}
	free(rows);
	free(w.v);
}

int dwarf_defs_read(struct dwarf_defs *d, const char *path)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf *dbg;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	dbg = dwarf_begin(fd, DWARF_C_READ);
	if (!dbg) {
		close(fd);
		return 1;
	}
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dbg, off + hsize, &cu))
			read_cu(d, &cu);
		off = next;
	}
	dwarf_end(dbg);
	close(fd);
	return 0;
}

void dwarf_defs_sort(struct dwarf_defs *d)
{
	size_t i, n = 0;

	if (!d->nr)
		return;
	qsort(d->v, d->nr, sizeof(*d->v), def_cmp);
	for (i = 0; i < d->nr; i++) {
		if (n && !def_cmp(&d->v[n - 1], &d->v[i])) {
			free(d->v[i].name);
			free(d->v[i].file);
			continue;
		}
		d->v[n++] = d->v[i];
	}
	d->nr = n;
}

const struct dwarf_def *dwarf_defs_find(const struct dwarf_defs *d, const char *name, size_t *n)
{
	size_t a = 0, b = d->nr, e;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (strcmp(d->v[m].name, name) < 0)
			a = m + 1;
		else
			b = m;
	}
	for (e = a; e < d->nr && !strcmp(d->v[e].name, name); e++)
		;
	if (n)
		*n = e - a;
	return e > a ? &d->v[a] : NULL;
}

void dwarf_defs_release(struct dwarf_defs *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		free(d->v[i].name);
		free(d->v[i].file);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
