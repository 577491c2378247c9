/*
 * symtab.h - one module's symbol table (symtab.c): the symbol record,
 * perf's fix-ups of a freshly read table, and the address lookup.
 */
#ifndef TRAIL_SYMBOLS_SYMTAB_H
#define TRAIL_SYMBOLS_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symbol {
	uint64_t start, end;	/* for files: file offsets (perf's adjusted symbols); end exclusive */
	const char *name;	/* raw (mangled) name: in an ELF string table kept open, or the arena */
	const char *demangled;	/* filled on first use; NULL until then */
	uint32_t demangled_len;	/* bytes of demangled, once filled */
	uint8_t binding;	/* STB_* */
	uint8_t type;		/* STT_* */
	uint8_t unterminated;	/* name ends at a tab or newline (kallsyms text) */
};

/*
 * Sort syms by start, drop same-start duplicates keeping perf's choice,
 * and give zero-sized symbols the end perf gives them.  Returns the new
 * count.
 */
size_t symbols_fixup(struct symbol *syms, size_t nr, int is_kallsyms, const char **kmod);
/* Binary search as perf's symbols__find does. */
const struct symbol *symbols_search(const struct symbol *syms, size_t nr, uint64_t addr);
/* Bytes of sym's raw name (kallsyms names end at a tab or newline). */
size_t symbol_name_len(const struct symbol *sym);

#endif
