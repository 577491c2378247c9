/*
 * diff.c - 'trail diff': two folded profiles to difffolded.pl's three
 * columns (sorted), or with --top/--json a ranked table of the functions
 * whose share of samples changed, with standard errors and a significance
 * test.  Glue only: the engine is src/diff/.
 */
#include "cmd/commands.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/strbuf.h"
#include "diff/difffolded.h"
#include "diff/diffmerge.h"
#include "diff/hotspots.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const diff_usage[] = {
	"trail diff [-n] [-s] BEFORE AFTER",
	"trail diff --top N [--json] [--min-delta PTS] [--confirm PTS] BEFORE AFTER",
	"",
	"Without --top or --json, print difffolded.pl's three columns, 'stack before",
	"after', one line per stack sorted in byte order: feed it to 'trail flamegraph'",
	"for a differential flame graph.  With --top N, print the N functions whose",
	"share of samples grew most and the N that shrank most (by self and total,",
	"i.e. inclusive, share), with the delta in percentage points, its standard",
	"error and a two-proportion z-test.  BEFORE and AFTER are folded stack files",
	"('-' is stdin, gzip is read too).",
	NULL
};

struct diff_opts {
	int normalize;
	int strip_hex;
	uint64_t top;		/* UINT64_MAX: not given */
	int json;
	double min_delta;	/* percentage points */
	double confirm;		/* percentage points */
	double alpha;
	double period;		/* counts per sample; 0: not given (1) */
	const char *measure;
	int strip_annotations;
	int strip_modules;
	int strip_clones;
};

static void json_side(struct json_writer *w, const char *name, const char *path, double samples)
{
	json_writer_key(w, name);
	json_writer_begin_object(w);
	json_writer_key_string(w, "path", path);
	json_writer_key_number(w, "samples", samples);
	json_writer_end(w);
}

static void json_rows(struct json_writer *w, const struct hotspots *h, const char *name,
		      const struct hotspot_row *rows, size_t nr)
{
	size_t i;

	json_writer_key(w, name);
	json_writer_begin_array(w);
	for (i = 0; i < nr; i++) {
		const struct hotspot_row *r = &rows[i];
		const struct share_test *t = &r->test;

		json_writer_begin_object(w);
		json_writer_key_string(w, "function", hotspots_name(h, r->func));
		json_writer_key_string(w, "measure", hotspot_measure_name(r->measure));
		json_writer_key_number(w, "before_pct", 100 * t->before.share);
		json_writer_key_number(w, "after_pct", 100 * t->after.share);
		json_writer_key_number(w, "before_se_pp", 100 * t->before.se);
		json_writer_key_number(w, "after_se_pp", 100 * t->after.se);
		json_writer_key_number(w, "delta_pp", 100 * t->delta);
		json_writer_key_number(w, "se_pp", 100 * t->se);
		json_writer_key_number(w, "z", t->z);
		json_writer_key_number(w, "p_value", t->p_value);
		json_writer_key_bool(w, "significant", r->significant);
		json_writer_key_bool(w, "confirmed", r->confirmed);
		json_writer_end(w);
	}
	json_writer_end(w);
}

static void json_table(struct strbuf *sb, const struct diff_opts *o, const struct hotspots *h,
		       const struct hotspot_ranking *rank, const char *before, const char *after)
{
	struct json_writer w;

	json_writer_init(&w, sb, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_side(&w, "before", before, hotspots_samples(h, 0));
	json_side(&w, "after", after, hotspots_samples(h, 1));
	json_writer_key_number(&w, "period", h->opts.period);
	json_writer_key_number(&w, "min_delta_pp", o->min_delta);
	json_writer_key_number(&w, "confirm_pp", o->confirm);
	json_writer_key_number(&w, "alpha", o->alpha);
	json_rows(&w, h, "hotter", rank->hotter, rank->nr_hotter);
	json_rows(&w, h, "cooler", rank->cooler, rank->nr_cooler);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(sb, '\n');
}

/*
 * Names come from the profiles: escaped for the terminal (core/escape.h).
 * A name with blanks at either end would be invisible in the last column.
 */
static void add_name(struct strbuf *sb, const char *name)
{
	size_t len = strlen(name);
	int quote = !len || name[0] == ' ' || name[len - 1] == ' ';

	if (quote)
		strbuf_addch(sb, '\'');
	escape_term(sb, name, len);
	if (quote)
		strbuf_addch(sb, '\'');
}

static void text_rows(struct strbuf *sb, const struct hotspots *h, const char *change,
		      const struct hotspot_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct hotspot_row *r = &rows[i];
		const struct share_test *t = &r->test;
		char p[32];

		if (t->p_value < 1e-4)
			snprintf(p, sizeof(p), "<0.0001");
		else
			snprintf(p, sizeof(p), "%.4f", t->p_value);
		strbuf_addf(sb, "%-6s  %-7s  %7.2f  %7.2f  %+7.2f  %6.2f  %7s  %-9s  ",
			    change, hotspot_measure_name(r->measure),
			    100 * t->before.share, 100 * t->after.share,
			    100 * t->delta, 100 * t->se, p, r->confirmed ? "yes" : "no");
		add_name(sb, hotspots_name(h, r->func));
		strbuf_addch(sb, '\n');
	}
}

static void table_init(struct hotspots *h, const struct diff_opts *o)
{
	struct hotspot_options ho = HOTSPOT_OPTIONS_INIT;

	ho.period = o->period;
	ho.flags = (o->strip_annotations ? HOTSPOT_STRIP_ANNOTATIONS : 0) |
		   (o->strip_modules ? HOTSPOT_STRIP_MODULE : 0) |
		   (o->strip_clones ? HOTSPOT_STRIP_CLONES : 0);
	hotspots_init(h, &ho);
}

/*
 * The table needs only per-function sums, and those add up line by line
 * (a duplicate stack adds what its merged count would), so each line goes
 * straight to the hotspots: no stack is held, whatever the file sizes.
 */
static void add_to_hotspots(void *data, int side, const char *stack, size_t len, double count)
{
	hotspots_add_stack(data, side, stack, len, count);
}

/* Rank and print; h holds both files. */
static int run_table(const struct diff_opts *o, const char *before, const char *after,
		     struct hotspots *h)
{
	struct hotspot_rank_options ro = HOTSPOT_RANK_OPTIONS_INIT;
	struct hotspot_ranking rank;
	struct strbuf sb = STRBUF_INIT;
	char n1[64], n2[64];
	int ret = EXIT_OK;

	ro.min_delta = o->min_delta / 100;
	ro.confirm = o->confirm / 100;
	ro.alpha = o->alpha;
	ro.top = o->top == UINT64_MAX ? 0 : (size_t)o->top;
	if (!strcmp(o->measure, "self"))
		ro.measures = HOTSPOT_MEASURE_BIT(HOTSPOT_SELF);
	else if (!strcmp(o->measure, "total"))
		ro.measures = HOTSPOT_MEASURE_BIT(HOTSPOT_TOTAL);
	else
		ro.measures = HOTSPOT_MEASURE_BIT(HOTSPOT_SELF) | HOTSPOT_MEASURE_BIT(HOTSPOT_TOTAL);

	if (!(hotspots_samples(h, 0) > 0) || !(hotspots_samples(h, 1) > 0)) {
		trail_error("'%s' has no samples: there are no shares to compare",
		      hotspots_samples(h, 0) > 0 ? after : before);
		return EXIT_USAGE;
	}
	hotspots_rank(h, &ro, &rank);
	folded_format_count(n1, sizeof(n1), hotspots_samples(h, 0));
	folded_format_count(n2, sizeof(n2), hotspots_samples(h, 1));
	if (o->json) {
		json_table(&sb, o, h, &rank, before, after);
	} else {
		strbuf_addstr(&sb, "# before: ");
		escape_term(&sb, before, strlen(before));
		strbuf_addf(&sb, " (%s samples)  after: ", n1);
		escape_term(&sb, after, strlen(after));
		strbuf_addf(&sb, " (%s samples)\n", n2);
		strbuf_addf(&sb, "# shares in %% of samples; delta and se in percentage points (pp); "
			    "p: two-proportion z-test\n"
			    "# noise floor: |delta| >= %g pp; confirmed: |delta| >= %g pp and p < %g\n",
			    o->min_delta, o->confirm, o->alpha);
		strbuf_addf(&sb, "%-6s  %-7s  %7s  %7s  %7s  %6s  %7s  %-9s  %s\n", "change",
			    "measure", "before%", "after%", "delta", "se", "p", "confirmed",
			    "function");
		text_rows(&sb, h, "hotter", rank.hotter, rank.nr_hotter);
		text_rows(&sb, h, "cooler", rank.cooler, rank.nr_cooler);
		if (!rank.nr_hotter && !rank.nr_cooler)
			strbuf_addf(&sb, "# no function's share changed by %g pp or more\n",
				    o->min_delta);
	}
	if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len) {
		error_errno("cannot write to standard output");
		ret = EXIT_FAILURE_;
	}
	strbuf_release(&sb);
	hotspot_ranking_release(&rank);
	return ret;
}

/*
 * The z-test reads counts as samples: summed periods (1001001 "samples"
 * per sample at -F 999) make every row significant.  Refuse unless
 * --period says how to turn them back into counts.
 */
static int weights_refused(const struct diff_opts *o, const char **argv,
			   const struct difffolded_stats st[2])
{
	int side;

	if (o->period)
		return 0;
	for (side = 0; side < 2; side++) {
		char what[64];

		if (st[side].weight.weight == FOLDED_WEIGHT_SAMPLES)
			continue;
		folded_weight_describe(what, sizeof(what), &st[side].weight);
		trail_error("'%s' is weighted by %s, not sample counts: the significance test needs "
		      "counts.  Fold with --weight samples ('trail record -o F.folded' writes "
		      "counts by default; 'trail collapse --weight samples'), or give --period N, "
		      "the weight of one sample (e.g. 1001001 ns at -F 999)", argv[side], what);
		return 1;
	}
	return 0;
}

/*
 * The three columns keep the inputs' weight header, so 'trail flamegraph'
 * knows the counts are not samples.
 */
static int write_weight_header(const char **argv, const struct difffolded_stats st[2])
{
	const struct folded_weight_info *w = &st[1].weight;
	char header[96];

	if (w->weight == FOLDED_WEIGHT_SAMPLES)
		w = &st[0].weight;
	if (w->weight == FOLDED_WEIGHT_SAMPLES)
		return 0;
	if (st[0].weight.weight != st[1].weight.weight ||
	    strcmp(st[0].weight.unit, st[1].weight.unit)) {
		char a[64], b[64];

		warning("'%s' is weighted by %s and '%s' by %s: their counts do not compare",
			argv[0], folded_weight_describe(a, sizeof(a), &st[0].weight), argv[1],
			folded_weight_describe(b, sizeof(b), &st[1].weight));
	}
	folded_header_format(header, sizeof(header), w);
	return fputs(header, stdout) < 0 ? error_errno("cannot write to standard output") : 0;
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_opts o = {
		.top = UINT64_MAX, .min_delta = 1, .confirm = 2, .alpha = 0.05,
		.period = 0, .measure = "both",
	};
	struct option opts[] = {
		OPT_GROUP("three-column output (difffolded.pl)"),
		OPT_FLAG('n', "normalize", &o.normalize, "scale BEFORE's counts to AFTER's total"),
		OPT_FLAG('s', "strip-hex", &o.strip_hex, "replace hex addresses (0x1a2b) with 0x..."),
		OPT_GROUP("hotter/cooler table"),
		OPT_U64(0, "top", &o.top, "N", "show the N hottest and N coolest functions (0: all)",
			0, 1e9),
		OPT_FLAG(0, "json", &o.json, "print the table as JSON (all rows unless --top)"),
		OPT_DOUBLE(0, "min-delta", &o.min_delta, "PTS",
			   "noise floor: hide changes below PTS percentage points (default 1)", 0, 100),
		OPT_DOUBLE(0, "confirm", &o.confirm, "PTS",
			   "confirmed: |delta| >= PTS points and significant (default 2)", 0, 100),
		OPT_DOUBLE(0, "alpha", &o.alpha, "A",
			   "significance level of the z-test (default 0.05)", 0, 1),
		OPT_STRING(0, "measure", &o.measure, "M", "self, total or both (default both)"),
		OPT_DOUBLE(0, "period", &o.period, "N",
			   "counts per sample, when counts are summed periods (default 1)", 1e-300, 1e300),
		OPT_FLAG(0, "strip-annotations", &o.strip_annotations,
			 "function names without _[k] _[j] _[i] _[w] suffixes"),
		OPT_FLAG(0, "strip-modules", &o.strip_modules,
			 "function names without a module` prefix"),
		OPT_FLAG(0, "strip-clones", &o.strip_clones,
			 "function names without .isra.N .constprop.N .part.N .cold ... suffixes"),
		OPT_END()
	};
	struct folded_profile p;
	struct hotspots h;
	struct diffmerge m;
	struct difffolded_stats st[2];
	unsigned flags;
	int n, ret = EXIT_OK, table;

	n = cmd_parse_options(argc, argv, opts, diff_usage, 0);
	if (n != 2) {
		trail_error("expected two folded files, BEFORE and AFTER (got %d argument%s)",
		      n, n == 1 ? "" : "s");
		fprintf(stderr, "see '%s --help'\n", error_program());
		return EXIT_USAGE;
	}
	if (strcmp(o.measure, "self") && strcmp(o.measure, "total") && strcmp(o.measure, "both")) {
		trail_error("option '--measure' expects self, total or both, not '%s'", o.measure);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "-") && !strcmp(argv[1], "-")) {
		trail_error("BEFORE and AFTER cannot both be standard input");
		return EXIT_USAGE;
	}
	table = o.top != UINT64_MAX || o.json;
	memset(st, 0, sizeof(st));
	flags = (o.strip_hex ? DIFFFOLDED_STRIP_HEX : 0);

	folded_profile_init(&p);
	if (table)
		table_init(&h, &o);
	if (table ? difffolded_read_lines(argv[0], 0, flags, &st[0], add_to_hotspots, &h) ||
		    difffolded_read_lines(argv[1], 1, flags, &st[1], add_to_hotspots, &h)
		  : diffmerge_read(&m, argv[0], argv[1], flags, st)) {
		ret = EXIT_FAILURE_;
		goto out;
	}
	p.columns = 2;
	if (st[0].malformed > 5 || st[1].malformed > 5)
		warning("%llu malformed line%s in '%s', %llu in '%s' (counted as the empty stack, "
			"as difffolded.pl does)",
			st[0].malformed, st[0].malformed == 1 ? "" : "s", argv[0],
			st[1].malformed, argv[1]);
	if (!st[0].stacks && !st[1].stacks) {
		trail_error("no folded stacks in '%s' or '%s' (expected lines such as "
			    "'main;f;g 12', e.g. from trail collapse)", argv[0], argv[1]);
		ret = EXIT_USAGE;
		goto out;
	}
	if (table && weights_refused(&o, argv, st)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!o.period)
		o.period = 1;
	if (table) {
		ret = run_table(&o, argv[0], argv[1], &h);
		goto out;
	}
	if (write_weight_header(argv, st)) {
		ret = EXIT_FAILURE_;
		goto out;
	}
	if (o.normalize && diffmerge_normalize(&m))
		warning("'%s' has no samples: cannot normalize it to '%s', counts left as they are",
			argv[0], argv[1]);
	if (diffmerge_write(&m, stdout)) {
		error_errno("cannot write to standard output");
		ret = EXIT_FAILURE_;
	}
out:
	if (table)
		hotspots_release(&h);
	else
		diffmerge_release(&m);
	folded_profile_release(&p);
	return ret;
}
