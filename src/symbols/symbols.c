/*
 * symbols.c - loading symbol tables (ELF via libelf, kallsyms, perf JIT
 * maps, the vdso) and resolving addresses through a (module, address)
 * cache.  The rules for which symbols count, how same-address duplicates
 * are resolved and where zero-sized symbols end follow perf 6.1's
 * util/symbol.c and util/symbol-elf.c, so names match what perf script
 * prints.
 */
#include "symbols/symbols.h"
#include "symbols/build_id.h"
#include "symbols/kallsyms.h"
#include "symbols/symtab.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/file_map.h"
#include "core/intern.h"
#include "core/radix_sort.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <fcntl.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
static struct sym_cache_entry *sym_cache_find(struct sym_cache *c, uint32_t dso, uint64_t addr,
					      struct hashmap_iter *it)
{
	uint32_t id;

	for (id = hashmap_first(&c->index, sym_cache_hash(dso, addr), it);
	     id != HASHMAP_NONE; id = hashmap_next(it))
		if (c->v[id].key_addr == addr && c->v[id].key_dso == dso)
			return &c->v[id];
	return NULL;
}

static void sym_cache_add(struct sym_cache *c, struct hashmap_iter *it, uint32_t dso,
			  uint64_t addr, int32_t sym)
{
	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
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

/* ---- ELF -------------------------------------------------------------------- */

struct elf_file {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	int has_symtab, has_dynsym;
};

static void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

static int elf_file_open(struct elf_file *f, const char *path, const struct dso *d)
{
	Elf_Scn *scn = NULL;

	f->fd = -1;
	f->elf = NULL;
	f->has_symtab = f->has_dynsym = 0;
	f->fd = open_regular(path);
	if (f->fd < 0)
		return -1;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &f->ehdr)) {
		elf_file_close(f);
		return -1;
	}
	if (d->build_id_size) {
		uint8_t id[20];
		size_t n = 0;

		if (build_id_from_elf(f->elf, id, &n) || n != d->build_id_size ||
		    memcmp(id, d->build_id, n)) {
			elf_file_close(f);
			return -1;
		}
	}
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			f->has_symtab = 1;
		else if (sh.sh_type == SHT_DYNSYM)
			f->has_dynsym = 1;
	}
	return 0;
}

static void load_segments(struct dso *d, Elf *elf)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs = xreallocarray(d->segs, d->nr_segs + 1, sizeof(*d->segs));
		d->segs[d->nr_segs].offset = ph.p_offset;
		d->segs[d->nr_segs].vaddr = ph.p_vaddr;
		d->segs[d->nr_segs].filesz = ph.p_filesz;
		d->segs[d->nr_segs].memsz = ph.p_memsz;
		d->nr_segs++;
	}
}

/* perf's elf_sym__is_function/is_object/is_label and text-section test. */
static int keep_elf_symbol(Elf *elf, const GElf_Sym *sym, size_t shstrndx)
{
	int type = GELF_ST_TYPE(sym->st_info);
	Elf_Scn *scn;
	GElf_Shdr sh;
	const char *secname;

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF)
		return 0;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return sym->st_shndx < SHN_LORESERVE || sym->st_shndx == SHN_XINDEX;
	if (type != STT_NOTYPE || sym->st_shndx == SHN_ABS || sym->st_shndx >= SHN_LORESERVE)
		return 0;
	/* a label: only in text sections */
	scn = elf_getscn(elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	secname = elf_strptr(elf, shstrndx, sh.sh_name);
	return secname && strstr(secname, "text");
}

static void load_elf_symbols(struct symbolizer *s, struct dso *d, Elf *elf, int want_type,
			     int adjust, Elf *runtime)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || (int)sh.sh_type != want_type || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		d->syms = xreallocarray(d->syms, d->nr_syms + n + 1, sizeof(*d->syms));
		for (i = 0; i < n; i++) {
			GElf_Sym sym;
			const char *name;
			struct symbol *out;
			uint64_t value;

			if (!gelf_getsym(data, (int)i, &sym) || !keep_elf_symbol(elf, &sym, shstrndx))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			value = sym.st_value;
			/*
			 * perf 6.1 (symsrc__init: adjust_symbols for all user
			 * DSOs): move the symbol into file-offset space with the
			 * PT_LOAD that holds it, so map ips compare directly.
			 */
			if (adjust) {
				size_t k;

				for (k = 0; k < d->nr_segs; k++)
					if (value >= d->segs[k].vaddr &&
					    value - d->segs[k].vaddr < d->segs[k].memsz) {
						value -= d->segs[k].vaddr - d->segs[k].offset;
						break;
					}
			}
			(void)runtime;
			out = &d->syms[d->nr_syms++];
			out->start = value;
			out->end = value + sym.st_size;
			out->name = name;	/* the Elf stays open (dso_keep_elf) */
			out->demangled = NULL;
			out->demangled_len = 0;
			out->binding = (uint8_t)GELF_ST_BIND(sym.st_info);
			out->type = (uint8_t)GELF_ST_TYPE(sym.st_info);
			out->unterminated = 0;
		}
		break;
	}
}

static Elf_Scn *section_by_name(Elf *elf, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

struct plt_rel {
	uint64_t got;		/* r_offset: GOT slot, the order of the PLT */
	uint32_t sym;		/* .dynsym index */
};

static int cmp_plt_rel(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	return (x->got > y->got) - (x->got < y->got);
}

static void add_symbol(struct symbolizer *s, struct dso *d, uint64_t start, uint64_t size,
		       const char *name, size_t *alloc)
{
	struct symbol *out;

	ALLOC_GROW(d->syms, d->nr_syms + 1, *alloc);
	out = &d->syms[d->nr_syms++];
	out->start = start;
	out->end = start + size;
	out->name = arena_strndup(&s->arena, name, strlen(name));
	out->demangled = out->name;
	out->demangled_len = 0;
	out->binding = STB_GLOBAL;
	out->type = STT_FUNC;
	out->unterminated = 0;
}

/*
 * perf 6.1's dso__synthesize_plt_symbols() for x86-64: "name@plt" per
 * .rela.plt entry in relocation order, in .plt.sec when the binary has
 * one (IBT), else after the .plt header.
 */
static void synthesize_plt(struct symbolizer *s, struct dso *d, Elf *elf)
{
	GElf_Shdr plt, pltsec, rel, dynsym, strs;
	Elf_Scn *rel_scn, *dyn_scn, *str_scn;
	Elf_Data *reldata, *symdata;
	struct plt_rel *rels;
	size_t n, i, alloc = d->nr_syms, have_sec;
	uint64_t at, entry;

	if (!section_by_name(elf, ".plt", &plt) || !plt.sh_entsize)
		return;
	rel_scn = section_by_name(elf, ".rela.plt", &rel);
	if (!rel_scn)
		rel_scn = section_by_name(elf, ".rel.plt", &rel);
	if (!rel_scn || (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL) || !rel.sh_entsize)
		return;
	dyn_scn = elf_getscn(elf, rel.sh_link);
	if (!dyn_scn || !gelf_getshdr(dyn_scn, &dynsym) || dynsym.sh_type != SHT_DYNSYM)
		return;
	str_scn = elf_getscn(elf, dynsym.sh_link);
	if (!str_scn || !gelf_getshdr(str_scn, &strs))
		return;
	reldata = elf_getdata(rel_scn, NULL);
	symdata = elf_getdata(dyn_scn, NULL);
	if (!reldata || !symdata)
		return;
	entry = plt.sh_entsize;
	have_sec = section_by_name(elf, ".plt.sec", &pltsec) && pltsec.sh_entsize;
	n = rel.sh_size / rel.sh_entsize;
	rels = xmallocarray(n ? n : 1, sizeof(*rels));
	for (i = 0; i < n; i++) {
		if (rel.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(reldata, (int)i, &r))
				break;
			rels[i].got = r.r_offset;
			rels[i].sym = (uint32_t)GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			rels[i].got = r.r_offset;
			rels[i].sym = (uint32_t)GELF_R_SYM(r.r_info);
		}
	}
	n = i;
	(void)cmp_plt_rel;	/* perf 6.1 keeps .rela.plt order (6.2 sorts) */
	/* perf 6.1 names no symbol for the .plt header (6.2 adds ".plt") */
	if (have_sec) {
		entry = pltsec.sh_entsize;
		at = pltsec.sh_offset;	/* perf uses file offsets here */
		if (n * entry != pltsec.sh_size)
			at += entry;
	} else {
		at = plt.sh_offset + entry;
	}
	for (i = 0; i < n; i++, at += entry) {
		GElf_Sym sym;
		const char *name = "";
		char *dm = NULL, *full;

		if (gelf_getsym(symdata, (int)rels[i].sym, &sym))
			name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		if (!name)
			name = "";
		if (s->demangle && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R'))
			dm = cplus_demangle(name, DMGL_NO_OPTS);
		full = xstrfmt("%s@plt", dm ? dm : name);
		add_symbol(s, d, at, entry, full, &alloc);
		free(full);
		free(dm);
	}
	free(rels);
}

/* Keep f open for d's lifetime: symbol names point into its string tables. */
static void dso_keep_elf(struct dso *d, struct elf_file *f)
{
	if (d->nr_keep >= 2) {
		elf_file_close(f);
		return;
	}
	d->elf_keep[d->nr_keep] = f->elf;
	d->fd_keep[d->nr_keep] = f->fd;
	d->nr_keep++;
	f->elf = NULL;
	f->fd = -1;
}

static void hex_id(const struct dso *d, char *out)
{
	build_id_hex(d->build_id, d->build_id_size, out);
}

static char *read_debuglink(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_size || !memchr(data->d_buf, 0, data->d_size))
			return NULL;
		return xstrdup(data->d_buf);
	}
	return NULL;
}

/* Candidate files for a module's symbols, in perf's order of preference. */
static void debug_candidates(struct symbolizer *s, struct dso *d, const char *debuglink,
			     char **out, size_t *n)
{
	char hex[41];
	char *dir = xstrdup(d->path), *slash = strrchr(dir, '/');

	if (slash)
		*slash = 0;
	if (debuglink) {
		out[(*n)++] = xstrfmt("%s/%s", dir, debuglink);
		out[(*n)++] = xstrfmt("%s/.debug/%s", dir, debuglink);
		out[(*n)++] = xstrfmt("/usr/lib/debug%s/%s", dir, debuglink);
	}
	if (d->build_id_size) {
		hex_id(d, hex);
		out[(*n)++] = xstrfmt("%s/.build-id/%.2s/%s/elf", s->home_debug, hex, hex + 2);
		out[(*n)++] = xstrfmt("%s/.build-id/%.2s/%s/debug", s->home_debug, hex, hex + 2);
	}
	out[(*n)++] = xstrfmt("/usr/lib/debug%s.debug", d->path);
	out[(*n)++] = xstrfmt("/usr/lib/debug%s", d->path);
	if (d->build_id_size)
		out[(*n)++] = xstrfmt("/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	free(dir);
}

static void load_elf(struct symbolizer *s, struct dso *d)
{
	struct elf_file bin, cand;
	char *paths[16];
	size_t n = 0, i;
	char *debuglink = NULL;
	int have_bin;

	have_bin = !elf_file_open(&bin, d->path, d);
	if (have_bin)
		d->bin_path = xstrdup(d->path);
	if (!have_bin && d->build_id_size) {
		/* the binary changed or is gone: perf's build-id cache has a copy */
		char hex[41], *p;

		hex_id(d, hex);
		p = xstrfmt("%s/.build-id/%.2s/%s/elf", s->home_debug, hex, hex + 2);
		have_bin = !elf_file_open(&bin, p, d);
		if (have_bin)
			d->bin_path = p;
		else
			free(p);
	}
	if (!have_bin) {
		d->translate = 0;
		return;
	}
	if (!d->build_id_size) {
		size_t sz = 0;

		if (!build_id_from_elf(bin.elf, d->build_id, &sz))
			d->build_id_size = (uint8_t)sz;
	}
	load_segments(d, bin.elf);
	if (bin.has_symtab) {
		load_elf_symbols(s, d, bin.elf, SHT_SYMTAB, 1, bin.elf);
		d->symtab_path = xstrdup(d->path);
		if (bin.has_dynsym)
			synthesize_plt(s, d, bin.elf);
		dso_keep_elf(d, &bin);
		return;
	}
	debuglink = read_debuglink(bin.elf);
	debug_candidates(s, d, debuglink, paths, &n);
	for (i = 0; i < n; i++) {
		if (!d->symtab_path && !elf_file_open(&cand, paths[i], d)) {
			if (cand.has_symtab) {
				load_elf_symbols(s, d, cand.elf, SHT_SYMTAB, 1, bin.elf);
				d->symtab_path = xstrdup(paths[i]);
				dso_keep_elf(d, &cand);
			}
			elf_file_close(&cand);
		}
		free(paths[i]);
	}
	free(debuglink);
	if (!d->symtab_path && bin.has_dynsym) {
		load_elf_symbols(s, d, bin.elf, SHT_DYNSYM, 1, bin.elf);
		d->symtab_path = xstrdup(d->path);
		synthesize_plt(s, d, bin.elf);
		dso_keep_elf(d, &bin);
		return;
	}
	if (bin.has_dynsym)
		synthesize_plt(s, d, bin.elf);
	elf_file_close(&bin);
}

/* ---- kernel, JIT, vdso ---------------------------------------------------- */

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
	}
	fclose(f);
}

/* The vdso: perf reads its own process's image; so do we. */
static void load_vdso(struct symbolizer *s, struct dso *d)
{
	Elf *elf = vdso_elf_open();

	if (!elf)
		return;
	load_elf_symbols(s, d, elf, SHT_DYNSYM, 0, elf);
	elf_end(elf);
}

static void dso_load(struct symbolizer *s, struct dso *d)
{
	d->loaded = 1;
	switch (d->kind) {
	case DSO_ELF:
		load_elf(s, d);
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
		load_jit_map(s, d);
		break;
	case DSO_VDSO:
		load_vdso(s, d);
		break;
	case DSO_NONE:
		break;
	}
	d->nr_syms = symbols_fixup(d->syms, d->nr_syms, d->kind == DSO_KERNEL, d->kmod);
}

/* ---- lookups ---------------------------------------------------------------- */

static uint64_t translate(const struct dso *d, uint64_t off)
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
	sym = symbols_search(d->syms, d->nr_syms, addr);
	sym_cache_add(&s->cache, &it, d->id, addr, sym ? (int32_t)(sym - d->syms) : -1);
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

/* ---- separate debug files for libdw ---------------------------------------- */

static int has_debug_info(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_info"))
			return 1;
	}
	return 0;
}

static void find_debug_file(struct symbolizer *s, struct dso *d)
{
	struct elf_file bin, cand;
	char *paths[16], *debuglink;
	size_t n = 0, i;

	d->debug_tried = 1;
	if (!d->loaded)
		dso_load(s, d);
	if (!d->bin_path || elf_file_open(&bin, d->bin_path, d))
		return;
	debuglink = read_debuglink(bin.elf);
	elf_file_close(&bin);
	debug_candidates(s, d, debuglink, paths, &n);
	for (i = 0; i < n; i++) {
		if (!d->debug_path && !elf_file_open(&cand, paths[i], d)) {
			if (has_debug_info(cand.elf))
				d->debug_path = xstrdup(paths[i]);
			elf_file_close(&cand);
		}
		free(paths[i]);
	}
	free(debuglink);
}

int symbolizer_debuginfo(struct symbolizer *s, struct dso *d, const char **path)
{
	int fd;

	if (!d->debug_tried)
		find_debug_file(s, d);
	if (!d->debug_path)
		return -1;
	fd = open_regular(d->debug_path);
	if (fd < 0)
		return -1;
	*path = d->debug_path;
	return debuginfo_prepared(&s->debuginfo, fd, d->debug_path, d->build_id, d->build_id_size);
}

/* ---- inline frames (what perf gets from addr2line -i) --------------------- */

int symbolizer_dwfl_debuginfo(struct symbolizer *s, struct dso *d, Dwfl_Module *mod,
			      void **userdata, const char *modname, GElf_Addr base,
			      const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *path;
	int fd = -1;

	/* a debuglink name without CRC: the dwz alternate file, the standard way */
	if (s && d && !(debuglink_file && !debuglink_crc))
		fd = symbolizer_debuginfo(s, d, &path);
	if (fd < 0)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	*debuginfo_file_name = xstrdup(path);
	return fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  GElf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct dso *d = *userdata;

	return symbolizer_dwfl_debuginfo(d ? d->owner : NULL, d, mod, userdata, modname, base,
					 file_name, debuglink_file, debuglink_crc,
					 debuginfo_file_name);
}

static char *debuginfo_path_;
static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path_,
};

/* Open d's DWARF (its own or separate debug info) once. */
static void dso_dwfl(struct symbolizer *s, struct dso *d)
{
	Dwfl *dwfl;
	Dwfl_Module *mod;
	void **userdata;

	if (d->dwarf_tried)
		return;
	d->dwarf_tried = 1;
	dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl)
		return;
	dwfl_report_begin(dwfl);
	/* base 0: module addresses are the file's link addresses */
	mod = d->bin_path ? dwfl_report_elf(dwfl, d->path, d->bin_path, -1, 0, false) : NULL;
	if (!mod) {
		dwfl_end(dwfl);
		return;
	}
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	d->owner = s;
	*userdata = d;
	dwfl_report_end(dwfl, NULL, NULL);
	d->dwfl = dwfl;
}

/* binutils names a scope by its linkage name when it has one */
static char *scope_name(struct symbolizer *s, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name)
		name = dwarf_diename(die);
	if (!name)
		return xstrdup("??");
	if (s->demangle && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')) {
		char *dm = cplus_demangle(name, DMGL_NO_OPTS);

		if (dm)
			return dm;
	}
	return xstrdup(name);
}

/*
 * gas lists one subprogram per alias (__mprotect, __GI___mprotect,
 * mprotect, __GI_mprotect) over the same range; binutils' addr2line takes
 * the smallest range containing the address, the last one listed on ties.
 */
static size_t asm_function(struct symbolizer *s, Dwarf_Die *cu, Dwarf_Addr pc)
{
	Dwarf_Die child, best;
	Dwarf_Addr best_size = 0;
	int have = 0;
	size_t start;

	if (dwarf_child(cu, &child))
		return SIZE_MAX;
	do {
		Dwarf_Addr lo, hi;

		if (dwarf_tag(&child) != DW_TAG_subprogram || dwarf_lowpc(&child, &lo) ||
		    dwarf_highpc(&child, &hi) || pc < lo || pc >= hi)
			continue;
		if (!have || hi - lo <= best_size) {
			best = child;
			best_size = hi - lo;
			have = 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (!have)
		return SIZE_MAX;
	start = s->nr_inames;
	ALLOC_GROW(s->inames, s->nr_inames + 2, s->alloc_inames);
	s->inames[s->nr_inames++] = (const char *)(uintptr_t)1;
	s->inames[s->nr_inames++] = scope_name(s, &best);
	return start;
}

static size_t inline_chain(struct symbolizer *s, struct dso *d, uint64_t vaddr)
{
	Dwfl_Module *mod;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias;
	size_t start = s->nr_inames, count = 0;
	int n, i;

	if (d->kind != DSO_ELF || !d->translate)
		return SIZE_MAX;
	dso_dwfl(s, d);
	mod = d->dwfl ? dwfl_addrmodule(d->dwfl, vaddr) : NULL;
	if (!mod)
		return SIZE_MAX;
	cu = dwfl_module_addrdie(mod, vaddr, &bias);
	if (!cu)
		return SIZE_MAX;
	if (dwarf_srclang(cu) == DW_LANG_Mips_Assembler)
		return asm_function(s, cu, vaddr - bias);
	n = dwarf_getscopes(cu, vaddr - bias, &scopes);
	if (n > 0) {
		/* the physical nesting of the innermost scope (eu-addr2line -i) */
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	ALLOC_GROW(s->inames, s->nr_inames + 1, s->alloc_inames);
	s->nr_inames++;		/* the count goes here */
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		ALLOC_GROW(s->inames, s->nr_inames + 1, s->alloc_inames);
		s->inames[s->nr_inames++] = scope_name(s, &scopes[i]);
		count++;
		if (tag == DW_TAG_subprogram)
			break;
	}
	free(scopes);
	if (!count) {
		s->nr_inames = start;
		return SIZE_MAX;
	}
	s->inames[start] = (const char *)(uintptr_t)count;
	return start;
}

size_t symbolizer_inlines(struct symbolizer *s, struct dso *d, uint64_t addr,
			  const char *const **names)
{
	struct hashmap_iter it;
	const struct sym_cache_entry *e = sym_cache_find(&s->icache, d->id, addr, &it);
	size_t at;
	int32_t v;

	if (e) {
		v = e->sym;
	} else {
		if (!d->loaded)
			dso_load(s, d);
		at = inline_chain(s, d, d->translate ? translate(d, addr) : addr);
		v = at == SIZE_MAX || at > INT32_MAX ? -1 : (int32_t)at;
		sym_cache_add(&s->icache, &it, d->id, addr, v);
	}
	if (v < 0)
		return 0;
	*names = s->inames + v + 1;
	return (size_t)(uintptr_t)s->inames[v];
}
