/*
 * dwarf_defs.h - the functions a binary defines, from its DWARF: each
 * subprogram with code, where the source declares it (DW_AT_decl_file,
 * DW_AT_decl_line) and the last line of that file its code comes from
 * (line table), so a function made by a macro or a static function in a
 * header is found where its code is written, not where its name is.
 */
#ifndef TRAIL_SYMBOLS_DWARF_DEFS_H
#define TRAIL_SYMBOLS_DWARF_DEFS_H

#include <stddef.h>

struct dwarf_def {
	char *name;		/* DW_AT_name (through abstract origins) */
	char *file;		/* DW_AT_decl_file, made absolute with the CU's comp_dir */
	unsigned line;		/* DW_AT_decl_line, 1-based */
	unsigned end;		/* last line of file among the rows of its code, before the
				 * next function declared in that file; >= line */
};

struct dwarf_defs {
	struct dwarf_def *v;	/* sorted by name, then file, then line */
	size_t nr, alloc;
};

/*
 * Append the definitions in the DWARF of the ELF file at path to d (call
 * dwarf_defs_sort() after the last file).  0; 1 when the file has no
 * DWARF; -1 when it cannot be read (no message: the caller decides).
 */
int dwarf_defs_read(struct dwarf_defs *d, const char *path);
/* Sort d by name, file, line and drop exact repeats (a header's function in many CUs). */
void dwarf_defs_sort(struct dwarf_defs *d);
/* The first definition of name in a sorted d, and how many there are (*n), or NULL. */
const struct dwarf_def *dwarf_defs_find(const struct dwarf_defs *d, const char *name, size_t *n);
void dwarf_defs_release(struct dwarf_defs *d);

#endif
