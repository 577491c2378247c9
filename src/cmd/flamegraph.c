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

int cmd_flamegraph(int argc, const char **argv)
{
	const char *title = NULL, *subtitle = NULL, *notes = NULL, *nameattr_path = NULL;
	const char *fonttype = "Verdana", *countname = NULL, *nametype = "Function:";
	const char *colors = "hot", *bgcolors = NULL, *minwidth_s = "0.1", *base = NULL;
	const char *search_color = "rgb(230,0,230)", *stroke_color = NULL;
	double width = 0, frameheight = 16, fontsize = 12, fontwidth = 0.59, factor = 1;
	double total = 0, alpha = -1;	/* -1: --noise-alpha not given, 0.01 */
	int hash = 0, cp = 0, reverse = 0, inverted = 0, flamechart = 0, negate = 0;
	int diff_self = 0, hide_noise = 0, by_frame = 0;
	double min_delta = 1;
	int truncate_right = 0, truncate_left = 0, diff_total = 0, ret = EXIT_OK, nfiles, i;
	int color_diffusion = 0, no_sort = 0, merge_processes = 0;
	const char *by = NULL;
	struct option opts[] = {
		OPT_GROUP("text"),
		OPT_STRING(0, "title", &title, "TEXT", "title (default \"Flame Graph\", \"Icicle Graph\", \"Flame Chart\")"),
		OPT_STRING(0, "subtitle", &subtitle, "TEXT", "second line under the title"),
		OPT_STRING(0, "countname", &countname, "NAME", "what the counts are (default \"samples\")"),
		OPT_STRING(0, "nametype", &nametype, "TEXT", "label before a hovered name (default \"Function:\")"),
		OPT_STRING(0, "notes", &notes, "TEXT", "text for a comment in the SVG"),
		OPT_STRING(0, "fonttype", &fonttype, "FONT", "font family (default Verdana)"),
		OPT_DOUBLE(0, "fontsize", &fontsize, "PX", "font size (default 12)", 1, 1000),
		OPT_DOUBLE(0, "fontwidth", &fontwidth, "RATIO", "average glyph width / font size (default 0.59)", 0.01, 10),
		OPT_FLAG(0, "truncate-text-right", &truncate_right, "cut long names at the right, keeping their start (the default, as flamegraph.pl)"),
		OPT_FLAG(0, "truncate-text-left", &truncate_left, "cut long names at the left, keeping their end (inferno's default; for names whose end identifies them)"),
		OPT_GROUP("geometry"),
		OPT_DOUBLE(0, "width", &width, "PX", "image width (default: fluid, scales to the window)", 40, 1e6),
		OPT_DOUBLE(0, "height", &frameheight, "PX", "height of one frame (default 16)", 2, 1000),
		OPT_STRING(0, "minwidth", &minwidth_s, "PX|N%", "omit frames narrower than PX pixels or N% (default 0.1)"),
		OPT_FLAG('i', "inverted", &inverted, "icicle graph: root at the top"),
		OPT_FLAG(0, "reverse", &reverse, "reverse every stack: leaf functions at the root"),
		OPT_FLAG(0, "flamechart", &flamechart, "flame chart: keep input (time) order, do not merge by name"),
		OPT_STRING(0, "base", &base, "FUNC", "re-root at FUNC: keep stacks through it, from it up"),
		OPT_DOUBLE(0, "factor", &factor, "X", "multiply every count by X", 1e-300, 1e300),
		OPT_DOUBLE(0, "total", &total, "N", "draw against a total of N (if above the real total)", 0, 1e300),
		OPT_GROUP("colours"),
		OPT_STRING('c', "colors", &colors, "PALETTE", "hot (default), mem, io, wakeup, chain, java, js, perl, python, rust, red, green, blue, aqua, yellow, purple, orange"),
		OPT_STRING(0, "bgcolors", &bgcolors, "COLOR", "background: yellow, blue, green, grey or #rrggbb"),
		OPT_FLAG(0, "hash", &hash, "colour by a hash of the name (always on: colours are deterministic)"),
		OPT_FLAG(0, "colordiffusion", &color_diffusion, "colour by width: the wider the frame, the deeper its red"),
		OPT_FLAG(0, "cp", &cp, "consistent palette: reuse and update ./palette.map"),
		OPT_STRING(0, "nameattr", &nameattr_path, "FILE", "per-function SVG attributes (name<TAB>key=value...)"),
		OPT_STRING(0, "search-color", &search_color, "COLOR", "fill of search matches (default rgb(230,0,230))"),
		OPT_STRING(0, "stroke-color", &stroke_color, "COLOR", "outline every frame in COLOR"),
		OPT_GROUP("differential (three-column input)"),
		OPT_FLAG(0, "negate", &negate, "swap hotter and cooler colours"),
		OPT_FLAG(0, "diff-self", &diff_self, "colour by the change in self share (flamegraph.pl's choice; default: inclusive)"),
		OPT_FLAG(0, "diff-total", &diff_total, "colour by the change in inclusive share (the default)"),
		OPT_DOUBLE(0, "noise-alpha", &alpha, "Q", "false discovery rate of the noise test over all frames (default 0.01; 1 colours every change above the floor)", 1e-12, 1),
		OPT_DOUBLE(0, "min-delta", &min_delta, "PTS", "noise floor: changes under PTS percentage points stay grey (default 1)", 0, 100),
		OPT_FLAG(0, "diff-by-frame", &by_frame, "colour each frame by its own change at that position (default: its function's change in the whole profile)"),
		OPT_FLAG(0, "hide-noise", &hide_noise, "draw only frames on a path to a significant change"),
		OPT_STRING(0, "by", &by, "B", "compare time (default when the input names its sampling period) or share"),
		OPT_FLAG(0, "merge-processes", &merge_processes, "drop each stack's first (process) frame: one graph for differently named binaries"),
		/* inferno-flamegraph's spellings: colours are always deterministic,
		 * and the input never needs to be sorted */
		OPT_ALIAS_FLAG(0, "deterministic", &hash),
		OPT_ALIAS_FLAG(0, "no-sort", &no_sort),
		OPT_END()
	};
	struct fg_input_options iopts = { 0 };
	struct fg_render r;
	struct fg_input in;
	struct fg_nameattr nameattr;
	struct fg_palette_map pmap;

	fg_render_init(&r);
	nfiles = cmd_parse_options(argc, argv, opts, usage, 0);
	(void)hash;
	(void)no_sort;

	r.svg.palette = fg_palette_find(colors);
	if (!r.svg.palette) {
		trail_error("unknown palette '%s' (known: %s)", colors, fg_palette_names());
		return EXIT_USAGE;
	}
	r.svg.bg = fg_background_find(bgcolors ? bgcolors : r.svg.palette->bg, &r.custom_bg,
				      r.bgbuf, sizeof(r.bgbuf));
	if (!r.svg.bg) {
		trail_error("unknown background '%s' (known: yellow, blue, green, grey, #rrggbb)", bgcolors);
		return EXIT_USAGE;
	}
	if (parse_amount_or_percent(minwidth_s, &r.layout.minwidth, &r.layout.minwidth_percent)) {
		trail_error("option '--minwidth' expects pixels or a percentage such as 0.5%%, not '%s'", minwidth_s);
		return EXIT_USAGE;
	}
	if (base && !*base) {
		trail_error("option '--base' expects a function name");
		return EXIT_USAGE;
	}
	if (merge_processes && reverse) {
		trail_error("--merge-processes drops the root frame, and --reverse puts the leaf there");
		return EXIT_USAGE;
	}
	/* --truncate-text-right is the default; --truncate-text-left the exception (inferno's) */
	if (truncate_right && truncate_left) {
		trail_error("--truncate-text-right and --truncate-text-left contradict each other");
		return EXIT_USAGE;
	}

	iopts.reverse = reverse;
	iopts.chain = colors && !strcmp(colors, "chain");
	iopts.factor = factor;
	iopts.base = base;
	fg_input_init(&in, &iopts);
	fg_nameattr_init(&nameattr);
	fg_palette_map_init(&pmap);

	if (nameattr_path && fg_nameattr_read(&nameattr, nameattr_path)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (cp && fg_palette_map_read(&pmap, PALETTE_MAP)) {
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

	r.svg.title = title;
	r.svg.subtitle = subtitle;
	r.svg.notes = notes;
	r.svg.nametype = nametype;
	r.svg.countname = countname;
	r.svg.fonttype = fonttype;
	r.svg.fontsize = fontsize;
	r.svg.fontwidth = fontwidth;
	r.svg.frameheight = frameheight;
	r.svg.width = width;
	r.svg.inverted = inverted;
	r.svg.color_diffusion = color_diffusion;
	r.svg.flamechart = flamechart;
	r.svg.diff.negate = negate;
	r.svg.diff.self = diff_self && !diff_total;
	r.svg.diff.min_delta = min_delta / 100;
	r.svg.hide_noise = hide_noise;
	r.svg.diff.by_frame = by_frame;
	r.svg.truncate_right = !truncate_left;
	r.svg.search_color = search_color;
	r.svg.stroke_color = stroke_color;
	r.svg.cp = cp ? &pmap : NULL;
	r.svg.nameattr = nameattr_path ? &nameattr : NULL;
	r.by = by;
	r.alpha = alpha;
	r.total = total;
	r.factor = factor;
	r.base = base;
	r.merge_processes = merge_processes;
	ret = fg_render(&in, &r, stdout);
	if (ret == EXIT_OK && cp && pmap.dirty && fg_palette_map_write(&pmap, PALETTE_MAP))
		ret = EXIT_FAILURE_;
out:
	fg_palette_map_release(&pmap);
	fg_nameattr_release(&nameattr);
	fg_input_release(&in);
	return ret;
}
