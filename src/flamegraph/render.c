/*
 * render.c - one read input to one SVG (see render.h): what the counts
 * allow (a noise test only on sample counts), time or share for a
 * differential graph, the input checks, then layout and the writer.
 */
#include "flamegraph/render.h"
#include "core/error.h"

#include <math.h>
#include <string.h>

void fg_render_init(struct fg_render *r)
{
	memset(r, 0, sizeof(*r));
	r->svg.nametype = "Function:";
	r->svg.fonttype = "Verdana";
	r->svg.fontsize = 12;
	r->svg.fontwidth = 0.59;
	r->svg.frameheight = 16;
	r->svg.nominal_width = FG_NOMINAL_WIDTH;
	r->svg.diff.min_delta = 0.01;
	/*
	 * A C name is identified by its start ("count_primes" cut to
	 * "count_pr.."; cut at the left it was "..t_primes"), and flamegraph.pl
	 * keeps the start too: that is the default.
	 */
	r->svg.truncate_right = 1;
	r->svg.search_color = "rgb(230,0,230)";
	r->svg.palette = fg_palette_find("hot");
	r->layout.minwidth = 0.1;
	r->alpha = -1;
	r->factor = 1;
}

/*
 * What a differential graph compares (--by): time when the input names
 * its sampling period (the counts are then time), else shares.  0, or -1
 * after trail_error() for a --by that cannot be.
 */
static int diff_basis(const struct fg_input *in, const char *by, int *by_time)
{
	if (by && strcmp(by, "time") && strcmp(by, "share"))
		return trail_error("option '--by' expects time or share, not '%s'", by);
	/* bytes (memory samples) add up as time does: compared by amount too */
	*by_time = in->columns == 2 && (folded_ns_per_count(&in->weight) > 0 ||
					folded_bytes_per_sample(&in->weight) > 0) &&
		   !(by && !strcmp(by, "share"));
	if (by && !strcmp(by, "time") && in->columns == 2 && !*by_time)
		return trail_error("--by time: the input does not name its sampling period (trail "
				   "record writes it in a '# trail-folded' header); compare shares "
				   "(--by share)");
	return 0;
}

/* --merge-processes on in: every stack without its first frame ("[process]" when alone). */
static void fg_merge_roots(struct fg_input *in)
{
	size_t i;

	/* the stacks point into the input's text: this moves pointers only */
	for (i = 0; i < in->nr; i++) {
		struct fg_stack *st = &in->stacks[i];
		const char *semi = memchr(st->s, ';', st->len);

		if (semi) {
			st->len -= (uint32_t)(semi + 1 - st->s);
			st->s = semi + 1;
		} else {
			st->s = "[process]";
			st->len = 9;
		}
	}
	in->sorted = 0;
	fg_input_forget_lcp(in);
}

/*
 * Weighted counts (time, bytes, periods) are not sample counts: the noise
 * test would call any change significant.  0, or -1 (said) when
 * --noise-alpha asks for the test anyway.
 */
static int weighted_counts(const struct fg_input *in, struct fg_render *r)
{
	char what[64];

	if (in->weight.weight == FOLDED_WEIGHT_SAMPLES)
		return 0;
	folded_weight_describe(what, sizeof(what), &in->weight);
	/* the tooltips name the unit, not "samples" */
	if (!r->svg.countname && in->weight.unit[0])
		r->svg.countname = in->weight.unit;
	if (in->columns != 2)
		return 0;
	if (r->alpha >= 0 && r->alpha < 1)
		return trail_error("--noise-alpha: the counts are weighted by %s, not sample counts; "
				   "the noise test needs counts (trail record and trail collapse "
				   "write them with --weight samples)", what);
	if (r->alpha < 0 && !r->quiet)
		warning("the counts are weighted by %s, not sample counts: no noise test, "
			"every change above the floor is coloured (as --noise-alpha 1); for the "
			"test, fold with --weight samples", what);
	r->alpha = 1;
	r->svg.diff.untested = 1;
	return 0;
}

int fg_render(struct fg_input *in, struct fg_render *r, FILE *f)
{
	struct fg_layout layout = { 0 };
	int ret = EXIT_OK;

	if (in->malformed && !r->quiet)
		warning("ignored %llu line%s with invalid format", (unsigned long long)in->malformed,
			in->malformed == 1 ? "" : "s");
	if (weighted_counts(in, r) || diff_basis(in, r->by, &r->svg.diff.by_time))
		return EXIT_USAGE;
	r->svg.diff.by_bytes = r->svg.diff.by_time && !(folded_ns_per_count(&in->weight) > 0);
	if (r->svg.diff.by_time) {
		r->svg.amount_per_count = r->svg.diff.by_bytes ? folded_bytes_per_sample(&in->weight) :
						folded_ns_per_count(&in->weight);
		r->svg.amount_unit = r->svg.diff.by_bytes ? "bytes" : "ns";
		if (!(r->svg.runs > 0))
			r->svg.runs = in->weight.runs;
	}
	if (r->merge_processes)
		fg_merge_roots(in);
	if (!r->svg.countname)
		r->svg.countname = "samples";
	if (!r->svg.bg)
		r->svg.bg = fg_background_find(r->svg.palette->bg, &r->custom_bg, r->bgbuf,
					       sizeof(r->bgbuf));
	if (r->base && in->dropped && !r->quiet)
		note("--base '%s': dropped %llu stack%s that do not pass through it", r->base,
		     (unsigned long long)in->dropped, in->dropped == 1 ? "" : "s");
	r->svg.differential = in->columns == 2;
	r->svg.diff.alpha = r->alpha < 0 ? 0.01 : r->alpha;
	if (!(in->total[1] > 0) && !(in->total[0] > 0)) {
		trail_error("no valid input: no stack with a count above zero%s",
		      in->malformed ? " (every line was malformed; expected folded stacks, "
				      "'main;f;g 12', e.g. from trail collapse)" : "");
		if (fg_svg_write_error(f, &r->svg, "ERROR: No valid input provided to trail flamegraph."))
			return EXIT_FAILURE_;
		return EXIT_USAGE;
	}
	if (!isfinite(in->total[0]) || !isfinite(in->total[1])) {
		/* every width would be 0 or NaN: a picture of nothing */
		trail_error("the total count overflows a double (counts times --factor %g)", r->factor);
		return EXIT_USAGE;
	}
	if (r->total > 0 && r->total < in->total[1]) {
		if (!r->quiet)
			warning("--total %g is less than the actual total %g, so it is ignored",
				r->total, in->total[1]);
		r->total = 0;
	}
	r->layout.width = (r->svg.width > 0 ? r->svg.width : FG_NOMINAL_WIDTH) - 20;
	r->layout.total = r->total;
	r->layout.both = r->svg.differential;
	if (!r->svg.flamechart)
		fg_input_sort(in);
	fg_layout_build(&layout, in, &r->layout);
	if (fg_svg_write(f, &layout, &r->svg))
		ret = EXIT_FAILURE_;
	fg_layout_release(&layout);
	return ret;
}
