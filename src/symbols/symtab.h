/*
 * symtab.h - one module's symbol table (symtab.c): the symbol record,
 * perf's fix-ups of a freshly read table, and the address lookup (with
 * perf's tree, symtree.h, where symbols overlap).
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
	uint8_t erased;		/* lost to a symbol with the same start (kept for perf's tree) */
};

struct symtree;

/* How perf made a module's table (its dso__load paths). */
struct symtab_recipe {
	int fix_ends;		/* ELF tables: symbols__fixup_end and _duplicate; perf maps: none */
	size_t nr_late;		/* the last nr_late symbols (PLT entries) went in after those */
	/*
	 * The name perf keeps (demangled: its choice among same-start symbols
	 * counts that name's underscores and length); NULL: the raw name.
	 */
	const char *(*name)(void *ctx, const struct symbol *sym, size_t *len);
	void *ctx;
};

/*
 * Sort syms by start (stable), give zero-sized symbols the end perf gives
 * them and mark the same-start duplicates perf erases, as recipe says.
 * Where symbols overlap, returns what rebuilds perf's tree for
 * symbols_search (free with symtree_free); else NULL.
 */
struct symtree *symtab_prepare(struct symbol *syms, size_t nr, const struct symtab_recipe *r);
/*
 * The same for kallsyms (its module rule for zero-sized ends), dropping
 * the duplicates; kmod moves with its symbols.  Returns the new count.
 */
size_t symbols_fixup(struct symbol *syms, size_t nr, int is_kallsyms, const char **kmod);
/* perf's symbols__find: the table's answer, or the tree's where symbols overlap. */
const struct symbol *symbols_search(const struct symbol *syms, size_t nr, struct symtree *tree,
				    uint64_t addr);
/* Bytes of sym's raw name (kallsyms names end at a tab or newline). */
size_t symbol_name_len(const struct symbol *sym);

#endif
