/*
 * symbols_inline.c - inline frames, what perf gets from addr2line -i:
 * the chain of inlined scopes at an address, read from the module's DWARF
 * (its own or separate debug info, opened once through libdwfl) and
 * remembered per (module, address).
 */
#include "symbols/symbols.h"
#include "symbols/symbols_parts.h"
#include "core/alloc.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <demangle.h>

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
		at = inline_chain(s, d, d->translate ? dso_translate(d, addr) : addr);
		v = at == SIZE_MAX || at > INT32_MAX ? -1 : (int32_t)at;
		sym_cache_add(&s->icache, &it, d->id, addr, v);
	}
	if (v < 0)
		return 0;
	*names = s->inames + v + 1;
	return (size_t)(uintptr_t)s->inames[v];
}
