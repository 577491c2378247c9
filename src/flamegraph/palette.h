/*
 * palette.h - frame colours: a table of palettes (flamegraph.pl's hot, mem,
 * io, ... plus python and rust), background gradients, and the consistent
 * palette file of --cp.  Colours depend only on the frame name (a hash), so
 * a function has the same colour in every graph.
 */
#ifndef TRAIL_FLAMEGRAPH_PALETTE_H
#define TRAIL_FLAMEGRAPH_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#include "core/intern.h"

struct fg_rgb {
	uint8_t r, g, b;
};

struct fg_palette {
	const char *name;	/* as given to --colors */
	const char *bg;		/* default background (fg_background name) */
	const char *help;	/* one line for the docs and --help */
	struct fg_rgb (*color)(const char *name, size_t len, const double v[3]);
};

struct fg_background {
	const char *name;	/* as given to --bgcolors */
	const char *from, *to;	/* gradient stops, "#rrggbb" */
};

/* The palette called name, or NULL. */
const struct fg_palette *fg_palette_find(const char *name);
/* The palette names, comma-separated, for messages and --help. */
const char *fg_palette_names(void);
/* Background by name, or a custom "#rrggbb" (stored in *custom); NULL if invalid. */
const struct fg_background *fg_background_find(const char *name, struct fg_background *custom,
					       char *buf, size_t bufsize);

/* The colour of a frame name under palette p. */
struct fg_rgb fg_palette_color(const struct fg_palette *p, const char *name, size_t len);

/*
 * --cp: name -> colour, read from and written back to a file of
 * "name->rgb(R,G,B)" lines (flamegraph.pl's palette.map format).
 */
struct fg_palette_map {
	struct intern names;
	struct fg_rgb *colors;	/* by name id */
	size_t alloc;
	int dirty;		/* colours were added since reading */
};

void fg_palette_map_init(struct fg_palette_map *m);
void fg_palette_map_release(struct fg_palette_map *m);
/* Read path if it exists; 0, or -1 on a malformed line (error printed). */
int fg_palette_map_read(struct fg_palette_map *m, const char *path);
/* Write every entry sorted by name; 0 or -1 (error printed). */
int fg_palette_map_write(const struct fg_palette_map *m, const char *path);
/* The stored colour of name, or the palette's, which is then stored. */
struct fg_rgb fg_palette_map_color(struct fg_palette_map *m, const struct fg_palette *p,
				   const char *name, size_t len);

#endif
