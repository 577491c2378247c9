/*
 * svg.h - writing a laid-out flame graph as an interactive SVG: frames as
 * <g><title/><rect/><text/></g> in pre-order, positions in percent of the
 * frame area (so the graph can scale to the window), colours from a
 * palette or, for differential input, from the change and its noise test,
 * and the embedded script (script.js) for zoom, search and tooltips.
 */
#ifndef TRAIL_FLAMEGRAPH_SVG_H
#define TRAIL_FLAMEGRAPH_SVG_H

#include <stdio.h>

#include "flamegraph/diffcolor.h"
#include "flamegraph/layout.h"
#include "flamegraph/nameattr.h"
#include "flamegraph/palette.h"

struct fg_svg_options {
	const char *title;	/* NULL: "Flame Graph", "Icicle Graph" or "Flame Chart" */
	const char *subtitle;	/* NULL for none */
	const char *notes;	/* NULL for none; goes into an XML comment */
	const char *nametype;	/* "Function:" */
	const char *countname;	/* "samples" */
	const char *fonttype;	/* "Verdana" */
	double fontsize;	/* px */
	double fontwidth;	/* average glyph width / font size */
	double frameheight;	/* px per level */
	double width;		/* px of the whole image; 0 = fluid (scales to the window) */
	double nominal_width;	/* px assumed for a fluid graph (labels, --minwidth) */
	int inverted;		/* icicle: root at the top */
	int flamechart;
	int differential;	/* colour by change (two-column input) */
	struct fg_diff_options diff;	/* the noise decision (flamegraph/diffcolor.h) */
	/*
	 * diff.by_time: what one count stands for, amount_unit ("ns" or
	 * "bytes", set by render.c from the input's header), and the runs
	 * each column sums (the header's runs= unless set; 0 or 1: the
	 * counts are one run's or a total); the
	 * tooltips then give each frame's time (bytes) per run before and
	 * after and its change, the shares beside.
	 */
	double amount_per_count;
	const char *amount_unit;
	double runs;
	int hide_noise;		/* differential: skip subtrees without a significant change */
	int truncate_right;	/* cut long labels at the right ("abc..") */
	int color_diffusion;	/* colour by width (inferno's --colordiffusion), not by name */
	const char *search_color;
	const char *stroke_color;	/* NULL for none */
	const struct fg_palette *palette;
	struct fg_palette_map *cp;	/* --cp, or NULL */
	const struct fg_background *bg;
	const struct fg_nameattr *nameattr;	/* or NULL */
};

/* Write the graph to f; 0, or -1 when writing failed (error printed). */
int fg_svg_write(FILE *f, const struct fg_layout *l, const struct fg_svg_options *o);
/* The SVG written when there is nothing to draw; 0 or -1. */
int fg_svg_write_error(FILE *f, const struct fg_svg_options *o, const char *message);

/* The embedded script (script.js, made into a C string at build time). */
extern const char fg_script_js[];

#endif
