/*
 * kallsyms.h - the kernel's symbols from a kallsyms file (/proc/kallsyms,
 * or the copy perf record keeps under the kernel's build-id), and a cache
 * of the parsed table for a copy that cannot change.
 */
#ifndef TRAIL_SYMBOLS_KALLSYMS_H
#define TRAIL_SYMBOLS_KALLSYMS_H

#include "core/arena.h"
#include "core/file_map.h"
#include "symbols/symtab.h"

/* The kernel's table; owned by whoever takes it (symbols.c's kernel dso). */
struct kallsyms {
	struct symbol *syms;	/* xmalloc_huge'd; names point into text (or the arena) */
	size_t nr_syms;
	const char **kmod;	/* module name ("[ext4]") per symbol, or NULL */
	char *kmod_names;	/* where kmod points */
	struct file_map text;	/* the kallsyms file */
};

/*
 * Fill k from the kallsyms file at path, sorted and fixed up as
 * symbols_fixup() leaves it (a last line without newline gets its name
 * from arena).  A
 * regular file of non-zero size (not /proc/kallsyms, whose size is 0) is
 * parsed once: the table is kept in cache_dir("kallsyms-1"), one file per
 * path, with the file's device, inode, size and modification time, and
 * read back while they still match (names still point into the file).
 * Nothing on failure.
 */
void kallsyms_load(struct kallsyms *k, const char *path, struct arena *arena);

#endif
