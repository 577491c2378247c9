/*
 * kallsyms.h - the kernel's symbols from a kallsyms file (/proc/kallsyms,
 * or the copy perf record keeps under the kernel's build-id), and a cache
 * of the parsed table for a copy that cannot change.
 */
#ifndef TRAIL_SYMBOLS_KALLSYMS_H
#define TRAIL_SYMBOLS_KALLSYMS_H

#include "symbols/symbols.h"

/*
 * Fill d's symbol table (syms, nr_syms, kmod, kmod_names, text) from
 * s->kallsyms_path, sorted and fixed up as symbols_fixup() leaves it.  A
 * regular file of non-zero size (not /proc/kallsyms, whose size is 0) is
 * parsed once: the table is kept in cache_dir("kallsyms-1") under the
 * file's device, inode, size and modification time, and read back from
 * there (names still point into the file).  Nothing on failure.
 */
void kallsyms_load(struct symbolizer *s, struct dso *d);

#endif
