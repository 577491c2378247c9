/*
 * symbols_elf.c - a module's ELF files: the binary (or perf's build-id
 * cache copy), its separate symbol and debug files in perf's order of
 * preference, the symbol tables and synthesized PLT entries read from
 * them, and the vdso.  Follows perf 6.1's util/symbol-elf.c, so names
 * match what perf script prints.
 */
#include "symbols/symbols.h"
#include "symbols/symbols_parts.h"
#include "symbols/build_id.h"
#include "symbols/symtab.h"
#include "core/alloc.h"
#include "core/file_map.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <demangle.h>

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
			out->erased = 0;
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
	out->erased = 0;
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
		d->nr_late++;
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

void dso_load_elf(struct symbolizer *s, struct dso *d)
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

/* The vdso: perf reads its own process's image; so do we. */
void dso_load_vdso(struct symbolizer *s, struct dso *d)
{
	Elf *elf = vdso_elf_open();

	if (!elf)
		return;
	load_elf_symbols(s, d, elf, SHT_DYNSYM, 0, elf);
	elf_end(elf);
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

void dso_find_debug_file(struct symbolizer *s, struct dso *d)
{
	struct elf_file bin, cand;
	char *paths[16], *debuglink;
	size_t n = 0, i;

	d->debug_tried = 1;
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

