/*
 * symbols_parts.h - what the three files of the symbolizer share, and no
 * one else uses: symbols.c (modules, the lookup cache), symbols_elf.c
 * (ELF files, debug files) and symbols_inline.c (inline chains).  Calls
 * go one way: inline -> symbols -> elf.
 */
#ifndef TRAIL_SYMBOLS_PARTS_H
#define TRAIL_SYMBOLS_PARTS_H

#include "symbols/symbols.h"

#include <stdint.h>

/* symbols.c */

/*
 * The entry remembered for (dso, addr), or NULL with *it where a new one
 * goes (sym_cache_add).
 */
struct sym_cache_entry *sym_cache_find(struct sym_cache *c, uint32_t dso, uint64_t addr,
				       struct hashmap_iter *it);
void sym_cache_add(struct sym_cache *c, struct hashmap_iter *it, uint32_t dso, uint64_t addr,
		   int32_t sym);
/* Read d's symbols once, by its kind (sets d->loaded). */
void dso_load(struct symbolizer *s, struct dso *d);
/* A file offset in d to its link-time address, through its segments. */
uint64_t dso_translate(const struct dso *d, uint64_t off);

/* symbols_elf.c */

/* d's binary (or build-id cache copy) and its best symbol table. */
void dso_load_elf(struct symbolizer *s, struct dso *d);
/* The vdso's dynamic symbols, from this process's image. */
void dso_load_vdso(struct symbolizer *s, struct dso *d);
/* Sets d->debug_path to the first candidate with .debug_info (d loaded). */
void dso_find_debug_file(struct symbolizer *s, struct dso *d);

#endif
