/*
 * render.h - folded stacks already read into a struct fg_input, drawn as
 * an SVG: the steps 'trail flamegraph' takes after its options (the
 * weights and the noise test, the differential basis, the checks of an
 * empty or overflowing input, sorting, layout, writing).  The command and
 * in-process callers (trail flame's graphs) share them.
 */
#ifndef TRAIL_FLAMEGRAPH_RENDER_H
#define TRAIL_FLAMEGRAPH_RENDER_H

#include "flamegraph/input.h"
#include "flamegraph/layout.h"
#include "flamegraph/svg.h"

#include <stdio.h>

#define FG_NOMINAL_WIDTH 1200	/* px: flamegraph.pl's default image width */

struct fg_render {
	/*
	 * The SVG's options (fg_render_init() sets flamegraph.pl's defaults);
	 * countname NULL: the input's unit, else "samples"; bg NULL: the
	 * palette's.  differential and the noise test's alpha and basis are
	 * set by fg_render() from the input.
	 */
	struct fg_svg_options svg;
	struct fg_layout_options layout;	/* minwidth; the rest is set by fg_render() */
	const char *by;		/* --by: NULL, "time" or "share" */
	double alpha;		/* --noise-alpha; < 0: 0.01 (1 when counts are weighted) */
	double total;		/* --total: a larger total to draw against, 0 for none */
	double factor;		/* --factor, for the overflow message */
	const char *base;	/* --base, for the note on dropped stacks */
	int merge_processes;	/* drop every stack's first (process) frame */
	int quiet;		/* no warnings or notes: graphs drawn on the side */
	struct fg_background custom_bg;	/* storage for a "#rrggbb" background */
	char bgbuf[8];
};

/* flamegraph.pl's defaults: hot palette, Verdana 12 px, 16 px frames, fluid width ... */
void fg_render_init(struct fg_render *r);

/*
 * Draw in to f.  EXIT_OK; EXIT_USAGE when the input cannot be drawn (no
 * stack with a count: an error graph is written; an overflowing total; a
 * --by or --noise-alpha the input's counts do not allow), with the error
 * printed; EXIT_FAILURE_ when writing failed.  in is sorted in place.
 */
int fg_render(struct fg_input *in, struct fg_render *r, FILE *f);

#endif
