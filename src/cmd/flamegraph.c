/*
 * flamegraph.c - 'trail flamegraph': folded stacks (or differential
 * three-column stacks) to an interactive SVG, with flamegraph.pl's options.
 * Glue only: options -> input (flamegraph/input.c) -> layout -> SVG writer.
 */
#include "cmd/commands.h"
#include "collapse/load.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "flamegraph/input.h"
#include "flamegraph/layout.h"
#include "flamegraph/nameattr.h"
#include "flamegraph/palette.h"
#include "flamegraph/render.h"
#include "flamegraph/svg.h"

#include <stdio.h>
#include <string.h>

#define PALETTE_MAP "palette.map"

static const char *const usage[] = {
	"trail flamegraph [options] [FILE...] > out.svg",
	"",
	"Draw folded stacks (\"a;b;c 42\", as from 'trail collapse' or stackcollapse-*.pl)",
	"as an interactive SVG flame graph: hover for counts, click to zoom, Ctrl-F to",
	"search; the view is kept in the URL.  Reads stdin when no FILE is given; gzip",
	"input is accepted.  Three-column input (\"stack BEFORE AFTER\", from",
	"'trail diff' or difffolded.pl) draws a differential graph: widths from AFTER,",
	"each frame coloured by its function's change (as 'trail diff --top'): in time",
	"when the input names its sampling period (trail record, trail diff), else in",
	"share; red hotter, blue cooler, grey below the 1-point floor or within sampling",
	"noise (z-test, 1% false discovery rate), with a legend.  Options mean what",
	"they mean in flamegraph.pl.",
	NULL
};

/*
 * A profile in another format (pprof, speedscope, perf.data ...): read as
 * 'trail collapse' would, with its units, then added stack by stack.
 */
static int read_foreign(struct fg_input *in, const char *path)
{
	struct folded_profile p;
	uint32_t id;
	int ret;

	folded_profile_init(&p);
	ret = load_profile(&p, path, NULL, NULL) ? -1 : 0;
	for (id = 0; !ret && id < folded_profile_size(&p); id++) {
		double c[2] = { p.counts[0][id], p.counts[1] ? p.counts[1][id] : 0 };

		fg_input_add(in, intern_str(&p.stacks, id), intern_len(&p.stacks, id), c,
			     p.columns);
	}
	if (!ret && (p.weight.weight != FOLDED_WEIGHT_SAMPLES || p.weight.type[0]))
		in->weight = p.weight;
	folded_profile_release(&p);
	return ret;
}

/* What the command line says besides the drawing options of struct fg_render. */
struct flamegraph_cli {
	const char *colors, *bgcolors, *minwidth, *nameattr;
	double min_delta;	/* percentage points */
	int reverse, cp, diff_self, diff_total, truncate_right, truncate_left;
	int ignored;		/* --hash, --deterministic, --no-sort: always so */
};

/* Parse argv into r (fg_render_init() first) and c; the number of files left in argv. */
/* --by's words (help, errors and completion read them). */
static const struct option_choice fg_bases[] = { { "time", 0 }, { "share", 0 }, { NULL, 0 } };

static int parse_flamegraph_options(int argc, const char **argv, struct fg_render *r,
				    struct flamegraph_cli *c)
{
	struct option opts[] = {
		OPT_GROUP("text"),
		OPT_STRING(0, "title", &r->svg.title, "TEXT", "title (default \"Flame Graph\", \"Icicle Graph\", \"Flame Chart\")"),
		OPT_STRING(0, "subtitle", &r->svg.subtitle, "TEXT", "second line under the title"),
		OPT_STRING(0, "countname", &r->svg.countname, "NAME", "what the counts are (default \"samples\")"),
		OPT_STRING(0, "nametype", &r->svg.nametype, "TEXT", "label before a hovered name (default \"Function:\")"),
		OPT_STRING(0, "notes", &r->svg.notes, "TEXT", "text for a comment in the SVG"),
		OPT_STRING(0, "fonttype", &r->svg.fonttype, "FONT", "font family (default Verdana)"),
		OPT_DOUBLE(0, "fontsize", &r->svg.fontsize, "PX", "font size (default 12)", 1, 1000),
		OPT_DOUBLE(0, "fontwidth", &r->svg.fontwidth, "RATIO", "average glyph width / font size (default 0.59)", 0.01, 10),
		OPT_FLAG(0, "truncate-text-right", &c->truncate_right, "cut long names at the right, keeping their start (the default, as flamegraph.pl)"),
		OPT_FLAG(0, "truncate-text-left", &c->truncate_left, "cut long names at the left, keeping their end (inferno's default; for names whose end identifies them)"),
		OPT_GROUP("geometry"),
		OPT_DOUBLE(0, "width", &r->svg.width, "PX", "image width (default: fluid, scales to the window)", 40, 1e6),
		OPT_DOUBLE(0, "height", &r->svg.frameheight, "PX", "height of one frame (default 16)", 2, 1000),
		OPT_STRING(0, "minwidth", &c->minwidth, "PX|N%", "omit frames narrower than PX pixels or N% (default 0.1)"),
		OPT_FLAG('i', "inverted", &r->svg.inverted, "icicle graph: root at the top"),
		OPT_FLAG(0, "reverse", &c->reverse, "reverse every stack: leaf functions at the root"),
		OPT_FLAG(0, "flamechart", &r->svg.flamechart, "flame chart: keep input (time) order, do not merge by name"),
		OPT_STRING(0, "base", &r->base, "FUNC", "re-root at FUNC: keep stacks through it, from it up"),
		OPT_DOUBLE(0, "factor", &r->factor, "X", "multiply every count by X", 1e-300, 1e300),
		OPT_DOUBLE(0, "total", &r->total, "N", "draw against a total of N (if above the real total)", 0, 1e300),
		OPT_GROUP("colours"),
		OPT_STRING('c', "colors", &c->colors, "PALETTE", "hot (default), mem, io, wakeup, chain, java, js, perl, python, rust, red, green, blue, aqua, yellow, purple, orange"),
		OPT_STRING(0, "bgcolors", &c->bgcolors, "COLOR", "background: yellow, blue, green, grey or #rrggbb"),
		OPT_FLAG(0, "hash", &c->ignored, "colour by a hash of the name (always on: colours are deterministic)"),
		OPT_FLAG(0, "colordiffusion", &r->svg.color_diffusion, "colour by width: the wider the frame, the deeper its red"),
		OPT_FLAG(0, "cp", &c->cp, "consistent palette: reuse and update ./palette.map"),
		OPT_STRING(0, "nameattr", &c->nameattr, "FILE", "per-function SVG attributes (name<TAB>key=value...)"),
		OPT_STRING(0, "search-color", &r->svg.search_color, "COLOR", "fill of search matches (default rgb(230,0,230))"),
		OPT_STRING(0, "stroke-color", &r->svg.stroke_color, "COLOR", "outline every frame in COLOR"),
		OPT_GROUP("differential (three-column input)"),
		OPT_FLAG(0, "negate", &r->svg.diff.negate, "swap hotter and cooler colours"),
		OPT_FLAG(0, "diff-self", &c->diff_self, "colour by the change in self share (flamegraph.pl's choice; default: inclusive)"),
		OPT_FLAG(0, "diff-total", &c->diff_total, "colour by the change in inclusive share (the default)"),
		OPT_DOUBLE(0, "noise-alpha", &r->alpha, "Q", "false discovery rate of the noise test over all frames (default 0.01; 1 colours every change above the floor)", 1e-12, 1),
		OPT_DOUBLE(0, "min-delta", &c->min_delta, "PTS", "noise floor: changes under PTS percentage points stay grey (default 1)", 0, 100),
		OPT_FLAG(0, "diff-by-frame", &r->svg.diff.by_frame, "colour each frame by its own change at that position (default: its function's change in the whole profile)"),
		OPT_FLAG(0, "hide-noise", &r->svg.hide_noise, "draw only frames on a path to a significant change"),
		OPT_CHOICE_NAME(0, "by", &r->by, "B",
				"compare time (default when the input names its sampling period) or share",
				fg_bases),
		OPT_FLAG(0, "merge-processes", &r->merge_processes, "drop each stack's first (process) frame: one graph for differently named binaries"),
		/* inferno-flamegraph's spellings: colours are always deterministic,
		 * and the input never needs to be sorted */
		OPT_ALIAS_FLAG(0, "deterministic", &c->ignored),
		OPT_ALIAS_FLAG(0, "no-sort", &c->ignored),
		OPT_END()
	};

	memset(c, 0, sizeof(*c));
	c->colors = "hot";
	c->minwidth = "0.1";
	c->min_delta = 1;
	return cmd_parse_options(argc, argv, opts, usage, 0);
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct fg_input_options iopts = { 0 };
	struct flamegraph_cli c;
	struct fg_render r;
	struct fg_input in;
	struct fg_nameattr nameattr;
	struct fg_palette_map pmap;
	int ret = EXIT_OK, nfiles, i;

	fg_render_init(&r);
	nfiles = parse_flamegraph_options(argc, argv, &r, &c);
	r.svg.palette = fg_palette_find(c.colors);
	if (!r.svg.palette) {
		trail_error("unknown palette '%s' (known: %s)", c.colors, fg_palette_names());
		return EXIT_USAGE;
	}
	r.svg.bg = fg_background_find(c.bgcolors ? c.bgcolors : r.svg.palette->bg, &r.custom_bg,
				      r.bgbuf, sizeof(r.bgbuf));
	if (!r.svg.bg) {
		trail_error("unknown background '%s' (known: yellow, blue, green, grey, #rrggbb)", c.bgcolors);
		return EXIT_USAGE;
	}
	if (parse_amount_or_percent(c.minwidth, &r.layout.minwidth, &r.layout.minwidth_percent)) {
		trail_error("option '--minwidth' expects pixels or a percentage such as 0.5%%, not '%s'", c.minwidth);
		return EXIT_USAGE;
	}
	if (r.base && !*r.base) {
		trail_error("option '--base' expects a function name");
		return EXIT_USAGE;
	}
	if (r.merge_processes && c.reverse) {
		trail_error("--merge-processes drops the root frame, and --reverse puts the leaf there");
		return EXIT_USAGE;
	}
	/* --truncate-text-right is the default; --truncate-text-left the exception (inferno's) */
	if (c.truncate_right && c.truncate_left) {
		trail_error("--truncate-text-right and --truncate-text-left contradict each other");
		return EXIT_USAGE;
	}
	r.svg.truncate_right = !c.truncate_left;
	r.svg.diff.self = c.diff_self && !c.diff_total;
	r.svg.diff.min_delta = c.min_delta / 100;

	iopts.reverse = c.reverse;
	iopts.chain = !strcmp(c.colors, "chain");
	iopts.factor = r.factor;
	iopts.base = r.base;
	fg_input_init(&in, &iopts);
	fg_nameattr_init(&nameattr);
	fg_palette_map_init(&pmap);
	r.svg.cp = c.cp ? &pmap : NULL;
	r.svg.nameattr = c.nameattr ? &nameattr : NULL;

	if (c.nameattr && fg_nameattr_read(&nameattr, c.nameattr)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (c.cp && fg_palette_map_read(&pmap, PALETTE_MAP)) {
		ret = EXIT_FAILURE_;
		goto out;
	}
	if (!nfiles && fg_input_read(&in, "-")) {
		ret = EXIT_FAILURE_;
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		int foreign = load_is_foreign(argv[i]);

		if (foreign < 0 || (foreign ? read_foreign(&in, argv[i]) : fg_input_read(&in, argv[i]))) {
			ret = EXIT_FAILURE_;
			goto out;
		}
	}
	ret = fg_render(&in, &r, stdout);
	if (ret == EXIT_OK && c.cp && pmap.dirty && fg_palette_map_write(&pmap, PALETTE_MAP))
		ret = EXIT_FAILURE_;
out:
	fg_palette_map_release(&pmap);
	fg_nameattr_release(&nameattr);
	fg_input_release(&in);
	return ret;
}
