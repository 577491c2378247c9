/*
 * definition.h - where a function is defined in the repository and which
 * lines it covers: first from the DWARF of the binaries built at that
 * revision (symbols/dwarf_defs.h: a function made by a macro, a static
 * function in a header), else from the source text at the revision (a
 * reading that skips prototypes, macros and calls and takes K&R
 * definitions).  The one finder of trail flame's suspects, its report
 * and trail history --bisect (which runs flame's session).
 */
#ifndef TRAIL_FLAME_DEFINITION_H
#define TRAIL_FLAME_DEFINITION_H

#include "measure/repo.h"
#include "symbols/dwarf_defs.h"

struct flame_definition {
	char *file;		/* path in the repository, malloc'd; NULL: not found */
	unsigned line, end;	/* 1-based, inclusive: the name's line .. the body's last */
	int from_dwarf;		/* found in a binary's DWARF (else in the text) */
	int by_macro;		/* DWARF: its line does not name it - a macro made it,
				 * and line..end is the macro's invocation */
	char *macro_file;	/* by_macro: the invoked macro's #define, malloc'd
				 * (NULL: not found at the revision) ... */
	unsigned macro_line, macro_end;	/* ... and its lines, continuations included:
					 * a commit that edits only the macro's body
					 * changes the function too */
};

/* The DWARF of one build worktree's binaries, read on first use. */
struct flame_defs {
	char *build_dir;	/* NULL: no binaries (text only) */
	struct dwarf_defs dwarf;
	int loaded;
	size_t binaries;	/* ELF files with DWARF read */
};

/* build_dir: the worktree built at the revision asked about later (may be NULL). */
void flame_defs_init(struct flame_defs *d, const char *build_dir);
void flame_defs_release(struct flame_defs *d);

/*
 * Where func (a profile's name: flame_source_name() makes it the source's)
 * is defined at rev.  0 with *out filled, -1 when neither the DWARF of
 * defs's binaries (under its build_dir, file present at rev) nor the text
 * has a definition.  defs may be NULL.
 */
int flame_definition_find(struct flame_repo *r, struct flame_defs *defs, const char *rev,
			  const char *func, struct flame_definition *out);
void flame_definition_release(struct flame_definition *d);

/*
 * Which of names defs's DWARF defines in a file of the repository at rev:
 * appended to defined (the names as given).  A function a macro names
 * (#define INSERT_STRING insert_string) is the program's too.
 */
void flame_defs_defined(struct flame_repo *r, struct flame_defs *defs, const char *rev,
			const struct string_list *names, struct string_list *defined);

/*
 * The definition of name in C-like source text src: the line of its name
 * and of its body's closing brace.  Skips prototypes (a ';' after the
 * parameters), preprocessor lines and their continuations, calls
 * (indented, or after '=', '(' or 'return'), and takes K&R definitions
 * (parameter declarations between ')' and '{').  1 when found, else 0.
 */
int flame_definition_in_text(const char *src, const char *name, unsigned *line, unsigned *end);

/*
 * The #define of macro in src: the directive's line and its last
 * continuation line ('\' at the end).  1 when found, else 0.
 */
int flame_macro_in_text(const char *src, const char *macro, unsigned *line, unsigned *end);

#endif
