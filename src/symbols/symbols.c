/*
 * symbols.c - the symbolizer: its modules (dsos), loading each once by
 * kind (kernel, JIT map; ELF files and the vdso through symbols_elf.c),
 * and resolving addresses through a (module, address) cache.  The rules
 * for which symbols count follow perf 6.1's util/symbol.c, so names match
 * what perf script prints.
 */
#include "symbols/symbols.h"
#include "symbols/symbols_parts.h"
#include "symbols/symtree.h"
#include "symbols/debuginfo.h"
#include "symbols/kallsyms.h"
#include "symbols/symtab.h"
#include "core/alloc.h"
#include "core/file_map.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <demangle.h>

#define CACHE_MIN (1u << 12)

/* ---- remembered lookups ---------------------------------------------------- */

/*
 * Fibonacci hashing (Knuth 6.4): the top half of one multiplication is
 * mixed enough for addresses, and this runs once per frame.
 */
static uint32_t sym_cache_hash(uint32_t dso, uint64_t addr)
{
	return (uint32_t)(((addr ^ ((uint64_t)dso << 47)) * 0x9e3779b97f4a7c15ull) >> 32);
}

/*
 * The entry remembered for (dso, addr), or NULL with *it where a new one
 * goes (sym_cache_add).
 */
struct sym_cache_entry *sym_cache_find(struct sym_cache *c, uint32_t dso, uint64_t addr,
				       struct hashmap_iter *it)
{
	uint32_t id;

	for (id = hashmap_first(&c->index, sym_cache_hash(dso, addr), it);
	     id != HASHMAP_NONE; id = hashmap_next(it))
		if (c->v[id].key_addr == addr && c->v[id].key_dso == dso)
			return &c->v[id];
	return NULL;
}

void sym_cache_add(struct sym_cache *c, struct hashmap_iter *it, uint32_t dso, uint64_t addr,
		   int32_t sym)
{
	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	memset(&c->v[c->nr], 0, sizeof(c->v[c->nr]));
	c->v[c->nr].key_addr = addr;
	c->v[c->nr].key_dso = dso;
	c->v[c->nr].sym = sym;
	hashmap_add_at(&c->index, it, (uint32_t)c->nr++);
}

static void sym_cache_release(struct sym_cache *c)
{
	free(c->v);
	hashmap_release(&c->index);
	memset(c, 0, sizeof(*c));
}

void symbolizer_init(struct symbolizer *s)
{
	const char *home = getenv("HOME");

	memset(s, 0, sizeof(*s));
	s->demangle = 1;
	s->home_debug = xstrfmt("%s/.debug", home && *home ? home : "/root");
	s->kallsyms_path = "/proc/kallsyms";
	hashmap_init(&s->dso_index, 64);
	hashmap_init(&s->cache.index, CACHE_MIN);
	hashmap_init(&s->icache.index, CACHE_MIN);
	elf_version(EV_CURRENT);
}

static void dso_free(struct dso *d)
{
	size_t i;

	if (d->kind != DSO_KERNEL)
		for (i = 0; i < d->nr_syms; i++)
			if (d->syms[i].demangled && d->syms[i].demangled != d->syms[i].name)
				free((char *)d->syms[i].demangled);
	free(d->syms);
	symtree_free(d->tree);
	free(d->segs);
	free(d->path);
	free(d->symtab_path);
	free(d->bin_path);
	free(d->debug_path);
	free(d->kmod);
	free(d->kmod_names);
	file_map_release(&d->text);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	for (i = 0; i < (size_t)d->nr_keep; i++) {
		elf_end(d->elf_keep[i]);
		close(d->fd_keep[i]);
	}
	free(d);
}

void symbolizer_release(struct symbolizer *s)
{
	size_t i;

	for (i = 0; i < s->nr_dsos; i++)
		dso_free(s->dsos[i]);
	free(s->dsos);
	hashmap_release(&s->dso_index);
	sym_cache_release(&s->cache);
	sym_cache_release(&s->icache);
	free(s->recent);
	for (i = 0; i < s->nr_inames; i++)
		if ((uintptr_t)s->inames[i] > 4096)
			free((char *)s->inames[i]);
	free(s->inames);
	free(s->home_debug);
	debuginfo_cache_release(&s->debuginfo);
	arena_release(&s->arena);
	memset(s, 0, sizeof(*s));
}

struct dso *symbolizer_dso(struct symbolizer *s, const char *path, enum dso_kind kind)
{
	size_t len = strlen(path);
	struct hashmap_iter it;
	struct dso *d;
	uint32_t id;

	for (id = hashmap_first(&s->dso_index, hashmap_hash_bytes(path, len), &it);
	     id != HASHMAP_NONE; id = hashmap_next(&it))
		if (s->dsos[id]->path_len == len && !memcmp(s->dsos[id]->path, path, len))
			return s->dsos[id];
	d = xcalloc(1, sizeof(*d));
	d->id = (uint32_t)s->nr_dsos;
	d->kind = kind;
	d->path = xstrdup(path);
	d->path_len = strlen(path);
	d->path_ambiguous = strpbrk(path, " ()") != NULL;
	d->translate = kind == DSO_ELF;
	ALLOC_GROW(s->dsos, s->nr_dsos + 1, s->alloc_dsos);
	s->dsos[s->nr_dsos++] = d;
	hashmap_add_at(&s->dso_index, &it, d->id);
	return d;
}

struct dso *symbolizer_kernel(struct symbolizer *s)
{
	if (!s->kernel)
		s->kernel = symbolizer_dso(s, "[kernel.kallsyms]", DSO_KERNEL);
	return s->kernel;
}

void dso_set_build_id(struct dso *d, const uint8_t *id, size_t size)
{
	if (size > sizeof(d->build_id))
		size = sizeof(d->build_id);
	memcpy(d->build_id, id, size);
	d->build_id_size = (uint8_t)size;
}

/* ---- kernel, JIT maps ------------------------------------------------------ */

/* kallsyms types perf keeps: text, weak, data, bss (either case). */
/* /tmp/perf-PID.map: "START SIZE name" per line, hex numbers. */
static void load_jit_map(struct symbolizer *s, struct dso *d)
{
	int fd = open_regular(d->path);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char line[4096];
	size_t alloc = 0;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		unsigned long long start, size;
		struct symbol *sym;
		size_t len;

		start = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		size = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		len = strcspn(p, "\n");
		ALLOC_GROW(d->syms, d->nr_syms + 1, alloc);
		sym = &d->syms[d->nr_syms++];
		sym->start = start;
		sym->end = start + size;
		sym->name = arena_strndup(&s->arena, p, len);
		sym->demangled = NULL;
		sym->demangled_len = 0;
		sym->binding = STB_GLOBAL;
		sym->type = STT_FUNC;
		sym->unterminated = 0;
		sym->erased = 0;
	}
	fclose(f);
}

/* The name perf keeps for a symbol: demangled, as perf script shows it. */
static const char *kept_name(void *ctx, const struct symbol *sym, size_t *len)
{
	const char *name = symbolizer_name(ctx, sym);

	*len = sym->demangled_len;
	return name;
}

void dso_load(struct symbolizer *s, struct dso *d)
{
	d->loaded = 1;
	switch (d->kind) {
	case DSO_ELF:
		dso_load_elf(s, d);
		break;
	case DSO_KERNEL: {
		struct kallsyms k;

		kallsyms_load(&k, s->kallsyms_path, &s->arena);	/* sorted and fixed up already */
		d->syms = k.syms;
		d->nr_syms = k.nr_syms;
		d->kmod = k.kmod;
		d->kmod_names = k.kmod_names;
		d->text = k.text;
		return;
	}
	case DSO_JIT:
		/* dso__load_perf_map: the lines as they are, in file order */
		load_jit_map(s, d);
		d->tree = symtab_prepare(d->syms, d->nr_syms, &(struct symtab_recipe){ .fix_ends = 0 });
		return;
	case DSO_VDSO:
		dso_load_vdso(s, d);
		break;
	case DSO_NONE:
		return;
	}
	d->tree = symtab_prepare(d->syms, d->nr_syms,
				 &(struct symtab_recipe){ .fix_ends = 1, .nr_late = d->nr_late,
							  .name = kept_name, .ctx = s });
}

/* ---- lookups ---------------------------------------------------------------- */

uint64_t dso_translate(const struct dso *d, uint64_t off)
{
	size_t i;

	for (i = 0; i < d->nr_segs; i++)
		if (off >= d->segs[i].offset && off - d->segs[i].offset < d->segs[i].filesz)
			return off - d->segs[i].offset + d->segs[i].vaddr;
	/* not inside a segment: perf compares the offset as is */
	return off;
}

const struct symbol *symbolizer_find(struct symbolizer *s, struct dso *d, uint64_t addr)
{
	struct hashmap_iter it;
	const struct sym_cache_entry *e = sym_cache_find(&s->cache, d->id, addr, &it);
	const struct symbol *sym;

	s->lookups++;
	if (e)
		return e->sym < 0 ? NULL : &d->syms[e->sym];
	s->misses++;
	if (!d->loaded)
		dso_load(s, d);
	sym = symbols_search(d->syms, d->nr_syms, d->tree, addr);
	sym_cache_add(&s->cache, &it, d->id, addr, sym ? (int32_t)(sym - d->syms) : -1);
	return sym;
}

const struct symbol *symbolizer_lookup(struct symbolizer *s, struct dso *d, uint64_t addr,
				       struct sym_found *out)
{
	struct hashmap_iter it;
	struct sym_cache_entry *e;
	struct sym_recent *r;
	const struct symbol *sym;

	s->lookups++;
	if (!s->recent)
		s->recent = xcalloc(SYM_RECENT, sizeof(*s->recent));
	r = &s->recent[sym_cache_hash(d->id, addr) & (SYM_RECENT - 1)];
	if (r->dso1 == d->id + 1 && r->addr == addr) {
		out->name = r->name;
		out->name_len = r->name_len;
		out->symoff = r->symoff;
		out->id = r->id;
		return &d->syms[r->sym];
	}
	e = sym_cache_find(&s->cache, d->id, addr, &it);
	if (!e) {
		s->misses++;
		if (!d->loaded)
			dso_load(s, d);
		sym = symbols_search(d->syms, d->nr_syms, d->tree, addr);
		sym_cache_add(&s->cache, &it, d->id, addr, sym ? (int32_t)(sym - d->syms) : -1);
		e = &s->cache.v[s->cache.nr - 1];
	}
	if (e->sym < 0)
		return NULL;
	sym = &d->syms[e->sym];
	if (!e->name) {
		e->name = symbolizer_name(s, sym);
		e->name_len = sym->demangled_len;
		e->symoff = addr - sym->start < UINT32_MAX ? (uint32_t)(addr - sym->start) : UINT32_MAX;
	}
	out->name = e->name;
	out->name_len = e->name_len;
	out->symoff = e->symoff != UINT32_MAX ? e->symoff : addr - sym->start;
	out->id = (uint32_t)(e - s->cache.v) + 1;
	if (e->symoff != UINT32_MAX && d->id < UINT32_MAX) {
		r->addr = addr;
		r->name = e->name;
		r->dso1 = d->id + 1;
		r->sym = e->sym;
		r->name_len = e->name_len;
		r->symoff = e->symoff;
		r->id = out->id;
	}
	return sym;
}

const char *symbolizer_name(struct symbolizer *s, const struct symbol *sym)
{
	struct symbol *m = (struct symbol *)sym;	/* the demangled name is a cache */

	if (m->demangled) {
		if (!m->demangled_len)
			m->demangled_len = (uint32_t)strlen(m->demangled);
		return m->demangled;
	}
	if (m->unterminated) {	/* kallsyms: not demangled, as perf does not */
		size_t len = symbol_name_len(m);

		m->demangled = arena_strndup(&s->arena, m->name, len);
		m->demangled_len = (uint32_t)len;
		return m->demangled;
	}
	m->demangled = m->name;
	if (s->demangle && (m->name[0] == '_' && (m->name[1] == 'Z' || m->name[1] == 'R'))) {
		/* perf: bfd_demangle() == cplus_demangle() without DMGL_PARAMS */
		char *dm = cplus_demangle(m->name, DMGL_NO_OPTS);

		if (dm)
			m->demangled = dm;
	}
	m->demangled_len = (uint32_t)strlen(m->demangled);
	return m->demangled;
}

const char *symbolizer_binary(struct symbolizer *s, struct dso *d)
{
	if (!d->loaded)
		dso_load(s, d);
	return d->bin_path;
}

const char *symbolizer_kmod(const struct dso *d, const struct symbol *sym)
{
	if (!d->kmod || sym < d->syms || sym >= d->syms + d->nr_syms)
		return NULL;
	return d->kmod[sym - d->syms];
}

/* ---- separate debug files ---------------------------------------------------- */

int symbolizer_debuginfo(struct symbolizer *s, struct dso *d, const char **path)
{
	int fd;

	if (!d->debug_tried) {
		if (!d->loaded)
			dso_load(s, d);
		dso_find_debug_file(s, d);
	}
	if (!d->debug_path)
		return -1;
	fd = open_regular(d->debug_path);
	if (fd < 0)
		return -1;
	*path = d->debug_path;
	return debuginfo_prepared(&s->debuginfo, fd, d->debug_path, d->build_id, d->build_id_size);
}

