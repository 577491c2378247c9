/*
 * export_svg.c - --export-svg: one row per command on a shared time axis,
 * showing the distribution of its runs as a violin (Gaussian kernel density
 * with Silverman's rule-of-thumb bandwidth, "Density Estimation for
 * Statistics and Data Analysis", 1986, eq. 3.31), a box from the first to
 * the third quartile with whiskers to min and max, every run as a dot
 * (outliers by the modified z-score in red), and the median marked and
 * labelled.  Plain SVG 1.1, no script, so it renders everywhere.
 */
#include "bench/export.h"
#include "stats/describe.h"
#include "core/alloc.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 960.0
#define LEFT 250.0		/* label column */
#define RIGHT 30.0
#define TOP 50.0
#define ROW 90.0
#define AXIS 50.0
#define KDE_POINTS 120

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#e15759",
};

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about 6 ticks. */
static double nice_step(double range)
{
	double raw = range / 6, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

struct axis {
	double lo, hi;		/* seconds at the left and right edge */
	double scale;		/* display unit per second */
	const char *unit;
};

static double xpos(const struct axis *ax, double t)
{
	return LEFT + (t - ax->lo) / (ax->hi - ax->lo) * (WIDTH - LEFT - RIGHT);
}

static void text_escaped(struct strbuf *sb, const char *s, size_t max)
{
	size_t len = strlen(s);

	if (len > max) {
		/* cut on a UTF-8 boundary */
		while (max && ((unsigned char)s[max] & 0xc0) == 0x80)
			max--;
		escape_xml_text(sb, s, max);
		strbuf_addstr(sb, "…");
	} else {
		escape_xml_text(sb, s, len);
	}
}

static void violin(struct strbuf *sb, const struct axis *ax, const double *sorted, size_t n,
		   const struct stats_summary *st, double cy, const char *color)
{
	double iqr = stats_quantile_sorted(sorted, n, 0.75) - stats_quantile_sorted(sorted, n, 0.25);
	double spread = fmin(st->stddev, iqr / 1.34), h, dens[KDE_POINTS], xs[KDE_POINTS];
	double peak = 0, from, to;
	size_t i, j;

	if (!(spread > 0))
		spread = st->stddev > 0 ? st->stddev : (ax->hi - ax->lo) / 200;
	h = 0.9 * spread * pow((double)n, -0.2);
	if (!(h > 0))
		return;
	from = fmax(ax->lo, st->min - 3 * h);
	to = fmin(ax->hi, st->max + 3 * h);
	for (i = 0; i < KDE_POINTS; i++) {
		double x = from + (to - from) * (double)i / (KDE_POINTS - 1), d = 0;

		for (j = 0; j < n; j++) {
			double u = (x - sorted[j]) / h;

			d += exp(-0.5 * u * u);
		}
		xs[i] = x;
		dens[i] = d;
		if (d > peak)
			peak = d;
	}
	if (!(peak > 0))
		return;
	strbuf_addf(sb, "<path fill=\"%s\" fill-opacity=\"0.25\" stroke=\"%s\" stroke-width=\"1\" d=\"",
		    color, color);
	for (i = 0; i < KDE_POINTS; i++)
		strbuf_addf(sb, "%c%.1f,%.1f", i ? 'L' : 'M', xpos(ax, xs[i]),
			    cy - dens[i] / peak * (ROW * 0.42));
	for (i = KDE_POINTS; i-- > 0;)
		strbuf_addf(sb, "L%.1f,%.1f", xpos(ax, xs[i]), cy + dens[i] / peak * (ROW * 0.42));
	strbuf_addstr(sb, "Z\"/>\n");
}

static void row(struct strbuf *sb, const struct axis *ax, const struct bench_command_result *cr,
		size_t idx, double cy)
{
	const char *color = palette[idx % (sizeof(palette) / sizeof(palette[0]))];
	const struct stats_summary *st = &cr->wall_stats;
	const struct stats_ratio *r = &cr->comparison.median_ratio;
	double *sorted, q1, q3, xm;
	unsigned char *out;
	size_t i;

	strbuf_addf(sb, "<g><title>");
	escape_xml_text(sb, cr->command->name, strlen(cr->command->name));
	strbuf_addf(sb, ": median %.4g %s, mean %.4g %s ± %.4g, %zu runs</title>\n",
		    st->median * ax->scale, ax->unit, st->mean * ax->scale, ax->unit,
		    st->stddev * ax->scale, cr->nr_runs);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"label\">",
		    LEFT - 12, cy - 2);
	text_escaped(sb, cr->command->name, 34);
	strbuf_addf(sb, "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"small\">"
		    "%zu runs", LEFT - 12, cy + 14, cr->nr_runs);
	if (cr->has_comparison && isfinite(r->estimate) && isfinite(r->lo) && isfinite(r->hi))
		strbuf_addf(sb, ", %.2fx [%.2f, %.2f]", r->estimate, r->lo, r->hi);
	else if (cr->has_comparison)
		strbuf_addstr(sb, ", ratio n/a");	/* a reference of 0 µs */
	strbuf_addstr(sb, "</text>\n");
	if (!cr->nr_runs) {
		strbuf_addstr(sb, "</g>\n");
		return;
	}
	sorted = xmallocarray(cr->nr_runs, sizeof(*sorted));
	memcpy(sorted, cr->wall, cr->nr_runs * sizeof(*sorted));
	stats_sort(sorted, cr->nr_runs);
	violin(sb, ax, sorted, cr->nr_runs, st, cy, color);
	q1 = stats_quantile_sorted(sorted, cr->nr_runs, 0.25);
	q3 = stats_quantile_sorted(sorted, cr->nr_runs, 0.75);
	/* whiskers to min and max, box over the quartiles */
	strbuf_addf(sb, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		    xpos(ax, st->min), xpos(ax, st->max), cy, cy);
	strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"#fff\" "
		    "stroke=\"#333\"/>\n", xpos(ax, q1), cy - 6,
		    fmax(1, xpos(ax, q3) - xpos(ax, q1)));
	/* every run, jittered deterministically so equal values stay visible */
	out = xmalloc(cr->nr_runs);
	stats_outliers(cr->wall, cr->nr_runs, out);
	for (i = 0; i < cr->nr_runs; i++) {
		double jitter = ((double)((i * 2654435761u) % 1000) / 1000 - 0.5) * ROW * 0.5;

		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\" "
			    "fill-opacity=\"0.6\"/>\n", xpos(ax, cr->wall[i]), cy + jitter,
			    out[i] ? "#d62728" : color);
	}
	free(out);
	xm = xpos(ax, st->median);
	strbuf_addf(sb, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
		    "stroke-width=\"3\"/>\n", xm, xm, cy - ROW * 0.4, cy + ROW * 0.4);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"median\" text-anchor=\"middle\">"
		    "median %.4g %s</text>\n</g>\n", xm, cy - ROW * 0.42 - 2,
		    st->median * ax->scale, ax->unit);
	free(sorted);
}

static int svg_write(const struct bench_export_context *ctx, struct strbuf *sb)
{
	const struct bench_result *res = ctx->res;
	double height = TOP + ROW * (double)(res->nr_commands ? res->nr_commands : 1) + AXIS;
	double lo = INFINITY, hi = -INFINITY, step, t, pad;
	struct axis ax;
	size_t c;

	for (c = 0; c < res->nr_commands; c++)
		if (res->commands[c].nr_runs) {
			lo = fmin(lo, res->commands[c].wall_stats.min);
			hi = fmax(hi, res->commands[c].wall_stats.max);
		}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	if (!(hi > lo)) {
		pad = lo > 0 ? lo * 0.05 : 1e-3;
		lo -= pad;
		hi += pad;
	}
	pad = (hi - lo) * 0.05;
	ax.lo = fmax(0, lo - pad);
	ax.hi = hi + pad;
	bench_time_unit(ax.hi, &ax.scale, &ax.unit);
	strbuf_addf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"Verdana, sans-serif\">\n"
		    "<style>.label{font-size:13px}.small{font-size:11px;fill:#555}"
		    ".median{font-size:11px;fill:#c00}.tick{font-size:11px;fill:#333}</style>\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n"
		    "<text x=\"%.0f\" y=\"28\" font-size=\"17\" text-anchor=\"middle\">"
		    "trail bench: wall time per run (violin, quartile box, runs, median)</text>\n",
		    WIDTH, height, WIDTH, height, WIDTH / 2);
	/* grid and axis */
	step = nice_step(ax.hi - ax.lo);
	for (t = ceil(ax.lo / step) * step; t <= ax.hi + step * 1e-9; t += step) {
		double x = xpos(&ax, t);

		strbuf_addf(sb, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
			    "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%.4g</text>\n",
			    x, x, TOP, height - AXIS + 5, x, height - AXIS + 20, t * ax.scale);
	}
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\">"
		    "wall time [%s]</text>\n", (LEFT + WIDTH - RIGHT) / 2, height - 10, ax.unit);
	for (c = 0; c < res->nr_commands; c++)
		row(sb, &ax, &res->commands[c], c, TOP + ROW * ((double)c + 0.5));
	strbuf_addstr(sb, "</svg>\n");
	return 0;
}

const struct bench_exporter bench_export_svg = { "svg", svg_write };
