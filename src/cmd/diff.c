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
#include "diff/table.h"
#include "collapse/load.h"
#include "core/alloc.h"
#include "core/intern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const diff_usage[] = {
	"trail diff [-n] [-s] [--merge-processes] BEFORE AFTER",
	"trail diff --top N [--json] [--by time|share] BEFORE... AFTER...",
	"",
	"Without --top or --json, print difffolded.pl's three columns, 'stack before",
	"after', one line per stack sorted in byte order: feed it to 'trail flamegraph'",
	"for a differential flame graph.  With --top N, print the N functions that",
	"grew most and the N that shrank most (by self and total, i.e. inclusive),",
	"with the change, its standard error and a test: by time per run (samples x",
	"sampling period) when every profile names its period (trail record writes",
	"it), else by share of samples.  Several profiles per side (runs; the first",
	"half are BEFORE, or --before-runs K) test against the run-to-run spread",
	"(Welch t); one per side gives a sampling-only lower bound of the error.",
	"Only changes above the floor that survive Benjamini-Hochberg are listed.",
	"Profiles are folded files or any format 'trail collapse' reads ('-' is",
	"stdin, gzip is read too).",
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
	int measures;		/* HOTSPOT_MEASURE_BIT()s: --measure */
	int strip_annotations;
	int strip_modules;
	int strip_clones;
	int by;			/* -1 automatic, or enum diff_basis */
	int merge_processes;
	uint64_t before_runs;	/* files on the before side; 0: half */
};

static void json_side(struct json_writer *w, const char *name, const struct diff_table *t,
		      int side, const char *const *paths)
{
	size_t r, first = side ? t->runs[0] : 0;

	json_writer_key(w, name);
	json_writer_begin_object(w);
	json_writer_key_string(w, "path", paths[first]);
	json_writer_key(w, "paths");
	json_writer_begin_array(w);
	for (r = 0; r < t->runs[side]; r++)
		json_writer_string(w, paths[first + r]);
	json_writer_end(w);
	json_writer_key_number(w, "samples", t->samples[side]);
	if (t->basis == DIFF_BY_TIME)
		json_writer_key_number(w, "total_per_run", t->total[side]);
	json_writer_end(w);
}

/*
 * Share rows keep the keys of before (percent and percentage points); time
 * rows give values per run in the table's unit and the change in percent
 * of the before side's total.
 */
static void json_rows(struct json_writer *w, const struct diff_table *t, const char *name,
		      const struct diff_table_row *rows, size_t nr)
{
	int by_time = t->basis == DIFF_BY_TIME;
	double pct = by_time ? 100 / t->total[0] : 100;
	size_t i;

	json_writer_key(w, name);
	json_writer_begin_array(w);
	for (i = 0; i < nr; i++) {
		const struct diff_table_row *r = &rows[i];
		const struct diff_test *x = &r->t;

		json_writer_begin_object(w);
		json_writer_key_string(w, "function", diff_table_name(t, r->func));
		json_writer_key_string(w, "measure", hotspot_measure_name(r->measure));
		if (by_time) {
			json_writer_key_number(w, "before", x->before);
			json_writer_key_number(w, "after", x->after);
			json_writer_key_number(w, "delta", x->delta);
			json_writer_key_number(w, "se", x->se);
		}
		json_writer_key_number(w, "before_pct", pct * x->before);
		json_writer_key_number(w, "after_pct", pct * x->after);
		json_writer_key_number(w, "before_se_pp", pct * x->before_se);
		json_writer_key_number(w, "after_se_pp", pct * x->after_se);
		json_writer_key_number(w, "delta_pp", pct * x->delta);
		json_writer_key_number(w, "se_pp", pct * x->se);
		json_writer_key_number(w, x->df > 0 ? "t" : "z", x->stat);
		if (x->df > 0)
			json_writer_key_number(w, "df", x->df);
		json_writer_key_number(w, "p_value", x->p);
		json_writer_key_bool(w, "significant", r->significant);
		json_writer_key_bool(w, "confirmed", r->confirmed);
		json_writer_end(w);
	}
	json_writer_end(w);
}

static void json_table(struct strbuf *sb, const struct diff_opts *o, const struct diff_table *t,
		       const char *const *paths)
{
	struct json_writer w;

	json_writer_init(&w, sb, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_side(&w, "before", t, 0, paths);
	json_side(&w, "after", t, 1, paths);
	json_writer_key_string(&w, "by", diff_basis_name(t->basis));
	json_writer_key_string(&w, "unit", t->basis == DIFF_BY_TIME ? t->unit : "share");
	if (t->why_share[0])
		json_writer_key_string(&w, "share_because", t->why_share);
	json_writer_key_string(&w, "error", diff_error_name(t->error));
	json_writer_key_number(&w, "period", o->period ? o->period : 1);
	json_writer_key_number(&w, "min_delta_pp", o->min_delta);
	json_writer_key_number(&w, "confirm_pp", o->confirm);
	json_writer_key_number(&w, "alpha", o->alpha);
	json_writer_key_int(&w, "tested", (int64_t)t->nr_tested);
	json_writer_key_int(&w, "not_significant", (int64_t)t->nr_unsure);
	json_writer_key_int(&w, "inclusive_folded", (int64_t)t->nr_folded);
	json_rows(&w, t, "hotter", t->hotter, t->nr_hotter);
	json_rows(&w, t, "cooler", t->cooler, t->nr_cooler);
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

/* Time in the table: ns shown as ms; other units as they are. */
static double shown(const struct diff_table *t, double v)
{
	if (t->basis == DIFF_BY_SHARE)
		return 100 * v;
	return !strcmp(t->unit, "ns") ? v / 1e6 : v;
}

static void text_rows(struct strbuf *sb, const struct diff_table *t, const char *change,
		      const struct diff_table_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct diff_table_row *r = &rows[i];
		const struct diff_test *x = &r->t;
		char p[32];

		if (x->p < 1e-4)
			snprintf(p, sizeof(p), "<0.0001");
		else
			snprintf(p, sizeof(p), "%.4f", x->p);
		strbuf_addf(sb, "%-6s  %-7s  %7.2f  %7.2f  %+7.2f  %6.2f  %7s  %-9s  ",
			    change, hotspot_measure_name(r->measure), shown(t, x->before),
			    shown(t, x->after), shown(t, x->delta), shown(t, x->se), p,
			    r->confirmed ? "yes" : "no");
		add_name(sb, diff_table_name(t, r->func));
		strbuf_addch(sb, '\n');
	}
}

static void side_names(struct strbuf *sb, const struct diff_table *t, int side,
		       const char *const *paths)
{
	size_t first = side ? t->runs[0] : 0, r;
	char n[64];

	for (r = 0; r < t->runs[side]; r++) {
		if (r)
			strbuf_addch(sb, ' ');
		escape_term(sb, paths[first + r], strlen(paths[first + r]));
	}
	folded_format_count(n, sizeof(n), t->samples[side]);
	strbuf_addf(sb, " (%s samples", n);
	if (t->runs[side] > 1)
		strbuf_addf(sb, " in %zu runs", t->runs[side]);
	strbuf_addch(sb, ')');
}

static void text_header(struct strbuf *sb, const struct diff_opts *o, const struct diff_table *t,
			const char *const *paths)
{
	const char *u = !strcmp(t->unit, "ns") ? "ms" : t->unit;

	strbuf_addstr(sb, "# before: ");
	side_names(sb, t, 0, paths);
	strbuf_addstr(sb, "  after: ");
	side_names(sb, t, 1, paths);
	strbuf_addch(sb, '\n');
	if (t->basis == DIFF_BY_TIME)
		strbuf_addf(sb, "# by time: %s per run (samples x period; before %.2f, after %.2f); "
			    "noise floor and confirm in %% of before's total; inclusive rows that "
			    "are their listed callees' change are left out (%zu)\n",
			    u, shown(t, t->total[0]), shown(t, t->total[1]), t->nr_folded);
	else
		strbuf_addf(sb, "# by share%s%s%s: shares in %% of samples; delta and se in "
			    "percentage points (pp)\n", t->why_share[0] ? " (time does not compare: " : "",
			    t->why_share, t->why_share[0] ? ")" : "");
	strbuf_addf(sb, "# p: %s (error: %s); Benjamini-Hochberg at %g over the %zu tests of "
		    "functions whose before + after >= %g pp\n",
		    t->error == DIFF_ERROR_RUNS ? "Welch t on per-run values" :
		    t->basis == DIFF_BY_TIME ? "Poisson z on sample counts" : "two-proportion z-test",
		    diff_error_name(t->error), o->alpha, t->nr_tested, o->min_delta);
	strbuf_addf(sb, "# noise floor: |delta| >= %g pp; confirmed: |delta| >= %g pp and "
		    "significant\n", o->min_delta, o->confirm);
	strbuf_addf(sb, "%-6s  %-7s  %7s  %7s  %7s  %6s  %7s  %-9s  %s\n", "change", "measure",
		    t->basis == DIFF_BY_TIME ? "before" : "before%",
		    t->basis == DIFF_BY_TIME ? "after" : "after%", "delta", "se", "p", "confirmed",
		    "function");
}

/* The first frame of each stack, per side: the process names perf puts there. */
struct roots {
	struct intern names[2];
};

static void roots_add(struct roots *rt, int side, const char *stack, size_t len)
{
	const char *semi = memchr(stack, ';', len);

	if (len)
		intern_add(&rt->names[side], stack, semi ? (size_t)(semi - stack) : len, NULL);
}

/*
 * Differently named binaries (./prog against ./prog_slow) share no root
 * frame: every stack differs, and the biggest "changes" are the process
 * names.  Say so, and how to compare them.
 */
static void roots_check(struct roots *rt)
{
	uint32_t i;

	for (i = 0; i < rt->names[0].nr; i++)
		if (intern_find(&rt->names[1], intern_str(&rt->names[0], i),
				intern_len(&rt->names[0], i)) != UINT32_MAX)
			goto out;
	if (rt->names[0].nr && rt->names[1].nr)
		warning("the two sides share no root frame ('%.*s' before, '%.*s' after): "
			"if these are the process names of differently named binaries, "
			"--merge-processes compares them as one",
			(int)intern_len(&rt->names[0], 0), intern_str(&rt->names[0], 0),
			(int)intern_len(&rt->names[1], 0), intern_str(&rt->names[1], 0));
out:
	intern_release(&rt->names[0]);
	intern_release(&rt->names[1]);
}

static void warn_merged_roots(const struct diffmerge *m)
{
	struct roots rt;
	size_t i;

	intern_init(&rt.names[0]);
	intern_init(&rt.names[1]);
	for (i = 0; i < m->nr; i++)
		for (int side = 0; side < 2; side++)
			if (m->lines[i].count[side] > 0)
				roots_add(&rt, side, m->lines[i].text, m->lines[i].len);
	roots_check(&rt);
}

/*
 * The runs of the table: a folded file is streamed (read again only to
 * fold inclusive rows), so no stack is held however large the files; other
 * formats and standard input or pipes are read whole into a profile.
 */
struct runs_ctx {
	const char *const *paths;
	struct folded_profile *held;	/* per run; used when is_held[r] */
	unsigned char *is_held;
	struct folded_weight_info *weights;
	struct roots *roots;		/* filled on the first pass, when not NULL */
	int *first;			/* per run: the first pass is still to come */
	size_t nb;
	diff_stack_fn *add;		/* during one each() */
	void *arg;
	int side;
	struct roots *cur;		/* during a first pass: roots, else NULL */
};

static void stream_line(void *data, int column, const char *stack, size_t len, double count)
{
	struct runs_ctx *c = data;

	(void)column;
	if (c->cur)
		roots_add(c->cur, c->side, stack, len);
	c->add(c->arg, stack, len, count);
}

static int each_run_stack(void *ctx, size_t run, diff_stack_fn *add, void *arg)
{
	struct runs_ctx *c = ctx;
	struct roots *roots = c->first[run] ? c->roots : NULL;
	struct difffolded_stats st;
	int ret = 0;

	c->first[run] = 0;
	if (c->is_held[run]) {
		const struct folded_profile *p = &c->held[run];

		for (uint32_t id = 0; id < folded_profile_size(p); id++) {
			if (roots)
				roots_add(roots, run >= c->nb, intern_str(&p->stacks, id),
					  intern_len(&p->stacks, id));
			add(arg, intern_str(&p->stacks, id), intern_len(&p->stacks, id),
			    p->counts[0][id]);
		}
		return 0;
	}
	memset(&st, 0, sizeof(st));
	c->add = add;
	c->arg = arg;
	c->side = run >= c->nb;
	c->cur = roots;
	ret = difffolded_read_lines(c->paths[run], 0, 0, &st, stream_line, c);
	c->cur = NULL;
	c->weights[run] = st.weight;
	return ret;
}

/* Rank and print the runs' table. */
static int run_table(const struct diff_opts *o, const char *const *paths, size_t nb, size_t na)
{
	struct diff_table_opts to = { 0 };
	size_t nr = nb + na, r;
	struct folded_profile *held = xcalloc(nr, sizeof(*held));
	struct runs_ctx rc = { paths, held, xcalloc(nr, 1), xcalloc(nr, sizeof(*rc.weights)), NULL,
			       xcalloc(nr, sizeof(int)), nb, NULL, NULL, 0, NULL };
	struct diff_source src = { nr, paths, rc.weights, each_run_stack, &rc };
	struct roots rt;
	struct diff_table t;
	struct strbuf sb = STRBUF_INIT;
	int ret = EXIT_OK, built = 0, got;

	to.flags = (o->strip_annotations ? HOTSPOT_STRIP_ANNOTATIONS : 0) |
		   (o->strip_modules ? HOTSPOT_STRIP_MODULE : 0) |
		   (o->strip_clones ? HOTSPOT_STRIP_CLONES : 0);
	to.period = o->period;
	to.min_delta = o->min_delta / 100;
	to.confirm = o->confirm / 100;
	to.alpha = o->alpha;
	to.top = o->top == UINT64_MAX ? 0 : (size_t)o->top;
	to.measures = o->measures;
	to.basis = o->by;
	to.merge_processes = o->merge_processes;
	intern_init(&rt.names[0]);
	intern_init(&rt.names[1]);
	rc.roots = o->merge_processes ? NULL : &rt;
	for (r = 0; r < nr; r++) {
		struct stat st;
		int regular = strcmp(paths[r], "-") && !stat(paths[r], &st) && S_ISREG(st.st_mode);
		int foreign = regular ? load_is_foreign(paths[r]) : 0;

		rc.first[r] = 1;
		folded_profile_init(&held[r]);
		if (foreign < 0) {
			ret = EXIT_FAILURE_;
			goto out;
		}
		if (!regular || foreign) {
			rc.is_held[r] = 1;
			got = load_profile(&held[r], paths[r], NULL, NULL);
			rc.weights[r] = held[r].weight;
			if (got) {
				ret = got == LOAD_UNKNOWN_FORMAT ? EXIT_USAGE : EXIT_FAILURE_;
				goto out;
			}
		}
	}
	got = diff_table_build(&t, &src, nb, na, &to);
	if (got) {
		ret = got == DIFF_TABLE_READ_ERROR ? EXIT_FAILURE_ : EXIT_USAGE;
		goto out;
	}
	if (!o->merge_processes)
		roots_check(&rt);
	else {
		intern_release(&rt.names[0]);
		intern_release(&rt.names[1]);
	}
	rc.roots = NULL;
	built = 1;
	if (o->json) {
		json_table(&sb, o, &t, paths);
	} else {
		text_header(&sb, o, &t, paths);
		text_rows(&sb, &t, "hotter", t.hotter, t.nr_hotter);
		text_rows(&sb, &t, "cooler", t.cooler, t.nr_cooler);
		if (!t.nr_hotter && !t.nr_cooler)
			strbuf_addf(&sb, "# no function's %s changed by %g pp or more\n",
				    t.basis == DIFF_BY_TIME ? "time" : "share", o->min_delta);
		if (t.nr_unsure)
			strbuf_addf(&sb, "# %zu more change%s above the floor within the noise, not "
				    "listed (--alpha 1 lists every change)\n", t.nr_unsure,
				    t.nr_unsure == 1 ? "" : "s");
	}
	if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len) {
		error_errno("cannot write to standard output");
		ret = EXIT_FAILURE_;
	}
out:
	if (rc.roots) {
		intern_release(&rt.names[0]);
		intern_release(&rt.names[1]);
	}
	for (r = 0; r < nr; r++)
		folded_profile_release(&held[r]);
	free(held);
	free(rc.is_held);
	free(rc.weights);
	free(rc.first);
	if (built)
		diff_table_release(&t);
	strbuf_release(&sb);
	return ret;
}

/*
 * The three columns keep the inputs' weight header, so 'trail flamegraph'
 * knows the counts are not samples.
 */
static int write_weight_header(const char **argv, const struct difffolded_stats st[2])
{
	const struct folded_weight_info *w = &st[1].weight;
	char header[192];

	if (w->weight == FOLDED_WEIGHT_SAMPLES)
		w = &st[0].weight;
	if (w->weight == FOLDED_WEIGHT_SAMPLES) {
		/*
		 * Sample counts of one period on both sides are time: say so, and
		 * the differential graph compares time (a different period or none
		 * on one side: shares, as before).
		 */
		if (!(st[0].weight.period > 0) || st[0].weight.period != st[1].weight.period ||
		    strcmp(st[0].weight.period_unit, st[1].weight.period_unit))
			return 0;
		folded_header_format(header, sizeof(header), &st[1].weight);
		return fputs(header, stdout) < 0 ? error_errno("cannot write to standard output") : 0;
	}
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

/* --by's and --measure's words (help, errors and completion read them). */
static const struct option_choice bases[] = {
	{ "time", DIFF_BY_TIME }, { "share", DIFF_BY_SHARE }, { NULL, 0 }
};
static const struct option_choice measures[] = {
	{ "self", HOTSPOT_MEASURE_BIT(HOTSPOT_SELF) },
	{ "total", HOTSPOT_MEASURE_BIT(HOTSPOT_TOTAL) },
	{ "both", HOTSPOT_MEASURE_BIT(HOTSPOT_SELF) | HOTSPOT_MEASURE_BIT(HOTSPOT_TOTAL) },
	{ NULL, 0 }
};

int cmd_diff(int argc, const char **argv)
{
	struct diff_opts o = {
		.top = UINT64_MAX, .min_delta = 1, .confirm = 2, .alpha = 0.05,
		.period = 0, .by = -1,
		.measures = HOTSPOT_MEASURE_BIT(HOTSPOT_SELF) | HOTSPOT_MEASURE_BIT(HOTSPOT_TOTAL),
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
		OPT_CHOICE(0, "measure", &o.measures, "M", "self, total or both (default both)", measures),
		OPT_DOUBLE(0, "period", &o.period, "N",
			   "counts per sample, when counts are summed periods (default 1)", 1e-300, 1e300),
		OPT_FLAG(0, "strip-annotations", &o.strip_annotations,
			 "function names without _[k] _[j] _[i] _[w] suffixes"),
		OPT_FLAG(0, "strip-modules", &o.strip_modules,
			 "function names without a module` prefix"),
		OPT_FLAG(0, "strip-clones", &o.strip_clones,
			 "function names without .isra.N .constprop.N .part.N .cold ... suffixes"),
		OPT_CHOICE(0, "by", &o.by, "B",
			   "time (default when both sides give the sampling period) or share", bases),
		OPT_U64(0, "before-runs", &o.before_runs, "K",
			"with several runs per side: the first K files are BEFORE (default: half)",
			1, 1e9),
		OPT_GROUP("both"),
		OPT_FLAG(0, "merge-processes", &o.merge_processes,
			 "drop each stack's first (process) frame: compare differently named binaries"),
		OPT_END()
	};
	struct diffmerge m;
	struct difffolded_stats st[2];
	unsigned flags;
	int n, ret = EXIT_OK, table;
	size_t nb;

	n = cmd_parse_options(argc, argv, opts, diff_usage, 0);
	table = o.top != UINT64_MAX || o.json;
	if (n < 2 || (!table && n != 2) || (o.before_runs && o.before_runs >= (uint64_t)n) ||
	    (table && !o.before_runs && n % 2)) {
		trail_error(n >= 2 && table ? "expected as many AFTER files as BEFORE files, or "
			    "--before-runs K for the first K (got %d files)" :
			    "expected two folded files, BEFORE and AFTER (got %d argument%s)",
			    n, n == 1 ? "" : "s");
		fprintf(stderr, "see '%s --help'\n", error_program());
		return EXIT_USAGE;
	}
	nb = o.before_runs ? (size_t)o.before_runs : (size_t)n / 2;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (!strcmp(argv[i], "-") && !strcmp(argv[j], "-")) {
				trail_error("BEFORE and AFTER cannot both be standard input");
				return EXIT_USAGE;
			}
	if (table)
		return run_table(&o, argv, nb, (size_t)n - nb);
	for (int i = 0; i < 2; i++) {
		int foreign = load_is_foreign(argv[i]);

		if (foreign < 0)
			return EXIT_FAILURE_;
		if (foreign) {
			trail_error("'%s' is not folded text: the three columns are made of folded "
				    "stacks; fold it first (trail collapse '%s' > F.folded), or compare "
				    "functions with --top, which reads it", argv[i], argv[i]);
			return EXIT_USAGE;
		}
	}
	memset(st, 0, sizeof(st));
	flags = (o.strip_hex ? DIFFFOLDED_STRIP_HEX : 0) |
		(o.merge_processes ? DIFFFOLDED_MERGE_PROCESSES : 0);
	if (diffmerge_read(&m, argv[0], argv[1], flags, st)) {
		ret = EXIT_FAILURE_;
		goto out;
	}
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
	if (!o.merge_processes)
		warn_merged_roots(&m);
	if (o.normalize && (st[0].weight.weight != FOLDED_WEIGHT_SAMPLES ||
			    st[1].weight.weight != FOLDED_WEIGHT_SAMPLES)) {
		char what[64];

		folded_weight_describe(what, sizeof(what), st[0].weight.weight != FOLDED_WEIGHT_SAMPLES ?
				       &st[0].weight : &st[1].weight);
		trail_error("-n/--normalize: the counts are weighted by %s, not samples; scaling "
			    "BEFORE's time to AFTER's total would move functions that did not change. "
			    "Compare them as they are (drop -n: the differential graph compares "
			    "time), or fold both with --weight samples to compare shares", what);
		ret = EXIT_USAGE;
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
	diffmerge_release(&m);
	return ret;
}
