/*
 * nameattr.h - per-function SVG attributes (--nameattr FILE), the format
 * flamegraph.pl reads: a function name, a tab, then tab-separated
 * name=value pairs (title, class, id, href, target, g_extra, a_extra).
 */
#ifndef TRAIL_FLAMEGRAPH_NAMEATTR_H
#define TRAIL_FLAMEGRAPH_NAMEATTR_H

#include <stddef.h>

#include "core/intern.h"

enum fg_attr {
	FG_ATTR_TITLE,		/* replaces the tooltip text */
	FG_ATTR_CLASS,		/* on the frame's <g> */
	FG_ATTR_ID,		/* on the frame's <g> */
	FG_ATTR_HREF,		/* makes the frame a link (<a>) */
	FG_ATTR_TARGET,		/* link target, "_top" by default */
	FG_ATTR_G_EXTRA,	/* raw attributes added to <g> (or <a>) */
	FG_ATTR_A_EXTRA,	/* raw attributes added to <a> */
	FG_ATTR_NR
};

struct fg_nameattr {
	struct intern names;	/* function name -> id */
	char *(*values)[FG_ATTR_NR];	/* by id; NULL when not set (owned) */
	size_t alloc;
};

void fg_nameattr_init(struct fg_nameattr *a);
void fg_nameattr_release(struct fg_nameattr *a);
/*
 * Read path.  Empty lines and empty fields are skipped; unknown attribute
 * names are warned about and ignored; a later value wins over an earlier
 * one.  Returns 0, or -1 (error printed with path:line) when a line has no
 * tab or the file cannot be read.
 */
int fg_nameattr_read(struct fg_nameattr *a, const char *path);
/* The attributes of a function, or NULL. */
char **fg_nameattr_get(const struct fg_nameattr *a, const char *name, size_t len);

#endif
