/*
 * svg.c - the SVG writer (see svg.h).  Output is buffered and numbers are
 * formatted by hand: a large graph has hundreds of thousands of frames and
 * printf per number dominated the profile.
 */
#include "flamegraph/svg.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/numfmt.h"
#include "flamegraph/diffcolor.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define XPAD 10		/* px left and right of the frames */
#define FRAMEPAD 1	/* px between levels */
#define OUT_SIZE (256 * 1024)

struct out {
	FILE *f;
	char *buf;
	size_t len;
	int failed;
};

static void out_flush(struct out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->failed = 1;
	o->len = 0;
}

static inline void out_add(struct out *o, const char *s, size_t n)
{
	if (o->len + n > OUT_SIZE) {
		out_flush(o);
		if (n > OUT_SIZE) {
			if (fwrite(s, 1, n, o->f) != n)
				o->failed = 1;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* literals only: the "" pasting rejects a pointer at compile time */
#define out_lit(o, s) out_add((o), "" s, sizeof(s) - 1)

static void out_str(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

static void out_u64(struct out *o, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_add(o, tmp + i, sizeof(tmp) - (size_t)i);
}

/* v >= 0 with at most `decimals` digits after the point, trailing zeros dropped */
static void out_fixed(struct out *o, double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
	uint64_t n, ip, fp;
	char tmp[16];
	int i;

	if (!(v > 0)) {
		out_lit(o, "0");
		return;
	}
	if (v > 1e15) {
		/*
		 * Whole digits, valid in SVG and JavaScript alike: DBL_MAX has
		 * 309 of them.  Infinity (a sum that overflowed) is written as
		 * the largest finite number.  The length written is what
		 * snprintf wrote, never what it would have liked to.
		 */
		char b[DBL_MAX_10_EXP + 8];
		int len = snprintf(b, sizeof(b), "%.0f", isinf(v) ? DBL_MAX : v);

		if (len > 0)
			out_add(o, b, (size_t)len < sizeof(b) ? (size_t)len : sizeof(b) - 1);
		return;
	}
	n = (uint64_t)(v * scale[decimals] + 0.5);
	ip = n / (uint64_t)scale[decimals];
	fp = n % (uint64_t)scale[decimals];
	out_u64(o, ip);
	if (!fp)
		return;
	for (i = decimals; i > 0; i--) {
		tmp[i] = (char)('0' + fp % 10);
		fp /= 10;
	}
	tmp[0] = '.';
	i = decimals;
	while (tmp[i] == '0')
		i--;
	out_add(o, tmp, (size_t)i + 1);
}

/* A count with thousands separators ("1,234,567" or "12.5") */
static void out_count(struct out *o, double v)
{
	char tmp[40];
	uint64_t ip;
	int i = sizeof(tmp), digits = 0;
	double frac;

	if (!(v >= 0) || v > 1e18) {
		out_add(o, tmp, (size_t)snprintf(tmp, sizeof(tmp), "%g", v));
		return;
	}
	ip = (uint64_t)v;
	frac = v - (double)ip;
	if (frac > 0.9995) {
		ip++;
		frac = 0;
	}
	do {
		if (digits && digits % 3 == 0)
			tmp[--i] = ',';
		tmp[--i] = (char)('0' + ip % 10);
		ip /= 10;
		digits++;
	} while (ip);
	out_add(o, tmp + i, sizeof(tmp) - (size_t)i);
	if (frac >= 0.0005) {
		uint64_t f = (uint64_t)(frac * 1000 + 0.5);
		char d[5] = { '.', (char)('0' + f / 100), (char)('0' + f / 10 % 10),
			      (char)('0' + f % 10), 0 };
		int n = 4;

		while (d[n - 1] == '0')
			n--;
		out_add(o, d, (size_t)n);
	}
}

static void out_signed_count(struct out *o, double v)
{
	out_add(o, v < 0 ? "-" : "+", 1);
	out_count(o, fabs(v));
}

static void out_sink(void *ctx, const char *s, size_t n)
{
	out_add(ctx, s, n);
}

/* XML text and attribute values, escaped by core/escape.h. */
static void out_escaped(struct out *o, const char *str, size_t len)
{
	escape_xml_to(out_sink, o, str, len);
}

static void out_rgb(struct out *o, struct fg_rgb c)
{
	out_lit(o, "rgb(");
	out_u64(o, c.r);
	out_lit(o, ",");
	out_u64(o, c.g);
	out_lit(o, ",");
	out_u64(o, c.b);
	out_lit(o, ")");
}

/* A JavaScript string literal safe inside CDATA and the XML around it. */
static void out_js_string(struct out *o, const char *s)
{
	out_lit(o, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&') {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			out_add(o, esc, 6);
		} else {
			out_add(o, s, 1);
		}
	}
	out_lit(o, "\"");
}

static const char *default_title(const struct fg_svg_options *o)
{
	if (o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

static void write_header(struct out *o, const struct fg_svg_options *opt, double height,
			 int scripted)
{
	out_lit(o, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		   "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		   "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		   "<svg version=\"1.1\" width=\"");
	if (opt->width > 0)
		out_fixed(o, opt->width, 0);
	else
		out_lit(o, "100%");
	out_lit(o, "\" height=\"");
	out_fixed(o, height, 2);
	out_lit(o, "\"");
	if (opt->width > 0) {
		out_lit(o, " viewBox=\"0 0 ");
		out_fixed(o, opt->width, 0);
		out_lit(o, " ");
		out_fixed(o, height, 2);
		out_lit(o, "\"");
	}
	if (scripted)
		out_lit(o, " onload=\"init(evt)\"");
	out_lit(o, " xmlns=\"http://www.w3.org/2000/svg\" "
		   "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
		   "<!-- Flame graph drawn by trail flamegraph. Click a frame to zoom, "
		   "Ctrl-F to search. -->\n<!-- NOTES: ");
	if (opt->notes) {
		/* "--" cannot appear inside an XML comment */
		for (const char *p = opt->notes; *p; p++) {
			if (*p == '-' && p[1] == '-')
				out_lit(o, "- ");
			else
				out_escaped(o, p, 1);
		}
	}
	out_lit(o, " -->\n");
}

static void write_style(struct out *o, const struct fg_svg_options *opt)
{
	out_lit(o, "<defs>\n<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		   "<stop stop-color=\"");
	out_str(o, opt->bg->from);
	out_lit(o, "\" offset=\"5%\"/><stop stop-color=\"");
	out_str(o, opt->bg->to);
	out_lit(o, "\" offset=\"95%\"/></linearGradient>\n</defs>\n"
		   "<style type=\"text/css\"><![CDATA[\n"
		   "text { font-family: \"");
	out_escaped(o, opt->fonttype, strlen(opt->fonttype));
	out_lit(o, "\", sans-serif; font-size: ");
	out_fixed(o, opt->fontsize, 2);
	out_lit(o, "px; fill: rgb(0,0,0); }\n"
		   "#title { text-anchor: middle; font-size: ");
	out_fixed(o, opt->fontsize + 5, 2);
	out_lit(o, "px; }\n"
		   "#subtitle { text-anchor: middle; fill: rgb(160,160,160); }\n"
		   "#search, #ignorecase, #unzoom, #basis { cursor: pointer; }\n"
		   "#search, #ignorecase, #matched { text-anchor: end; }\n"
		   "#ignorecase.on { font-weight: bold; }\n"
		   ".hide { display: none; }\n"
		   "#frames > * { cursor: pointer; }\n"
		   "#frames > *:hover > rect { stroke: black; stroke-width: 0.5; }\n"
		   "#frames text { pointer-events: none; }\n"
		   ".zparent > rect { opacity: 0.5; }\n"
		   "#frames.zoomed > :not(.zshow) { display: none; }\n");
	if (opt->stroke_color) {
		out_lit(o, "#frames rect { stroke: ");
		out_escaped(o, opt->stroke_color, strlen(opt->stroke_color));
		out_lit(o, "; stroke-width: 0.5; }\n");
	}
	out_lit(o, "]]></style>\n");
}

static void write_script(struct out *o, const struct fg_svg_options *opt,
			 const struct fg_layout *l, double frames_width)
{
	out_lit(o, "<script type=\"text/ecmascript\"><![CDATA[\nvar fgconf = {nametype: ");
	out_js_string(o, opt->nametype);
	out_lit(o, ", countname: ");
	out_js_string(o, opt->countname);
	out_lit(o, ", searchcolor: ");
	out_js_string(o, opt->search_color);
	out_lit(o, ", fontsize: ");
	out_fixed(o, opt->fontsize, 3);
	out_lit(o, ", fontwidth: ");
	out_fixed(o, opt->fontwidth, 4);
	out_lit(o, ", xpad: " "10" ", fluid: ");
	out_str(o, opt->width > 0 ? "false" : "true");
	out_lit(o, ", width: ");
	out_fixed(o, frames_width, 2);
	out_lit(o, ", truncright: ");
	out_str(o, opt->truncate_right ? "true" : "false");
	out_lit(o, ", frameheight: ");
	out_fixed(o, opt->frameheight, 3);
	out_lit(o, ", inverted: ");
	out_str(o, opt->inverted ? "true" : "false");
	out_lit(o, ", diff: ");
	out_str(o, opt->differential ? "true" : "false");
	out_lit(o, ", total: ");
	out_fixed(o, l->timemax[1], 3);
	out_lit(o, "};\n");
	out_str(o, fg_script_js);
	out_lit(o, "\n]]></script>\n");
}

/* Colour of a differential frame: red hotter, blue cooler, grey noise. */
/*
 * --colordiffusion: the share of the graph a frame spans picks its colour,
 * from pale yellow (narrow) to deep red (the whole width), on a square-root
 * scale so that frames of a few percent are already visibly warmer.
 */
static struct fg_rgb diffusion_rgb(const struct fg_layout *l, const struct fg_frame *f)
{
	double t = l->timemax[1] > 0 ? f->w[1] / l->timemax[1] : 0, s;
	struct fg_rgb c;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	s = sqrt(t);
	c.r = 255;
	c.g = (uint8_t)(230 * (1 - s) + 0.5);
	c.b = (uint8_t)(170 * (1 - s) + 0.5);
	return c;
}

static struct fg_rgb diff_rgb(const struct fg_diff_frame *df)
{
	int v = 210 - (int)(190 * df->saturation / 255);

	if (df->state == FG_DIFF_HOTTER)
		return (struct fg_rgb){ 255, (uint8_t)v, (uint8_t)v };
	if (df->state == FG_DIFF_COOLER)
		return (struct fg_rgb){ (uint8_t)v, (uint8_t)v, 255 };
	return (struct fg_rgb){ 235, 235, 235 };
}

static const char *diff_class(const struct fg_frame *n)
{
	if (n->w[0] <= 0 && n->w[1] > 0)
		return "new";
	if (n->w[1] <= 0 && n->w[0] > 0)
		return "gone";
	return NULL;
}

static void out_percent(struct out *o, double part, double whole)
{
	out_fixed(o, whole > 0 ? part * 100 / whole : 0, 2);
	out_lit(o, "%");
}

static void out_points(struct out *o, double fraction)
{
	out_add(o, fraction < 0 ? "-" : "+", 1);
	out_fixed(o, fabs(fraction) * 100, 2);
	out_lit(o, " pts");
}

/*
 * A frame's time (or bytes) before and after and its change, per run when
 * the counts sum several runs: "; time per run 12.5 ms -> 20 ms, +7.5 ms;
 * share " (the caller writes the share's points next).
 */
static void write_amounts(struct out *o, const struct fg_svg_options *opt, const struct fg_frame *n)
{
	double k = opt->amount_per_count / (opt->runs > 1 ? opt->runs : 1);
	int bytes = !strcmp(opt->amount_unit, "bytes");
	char b[48];

	out_str(o, bytes ? "; bytes" : "; time");
	out_str(o, opt->runs > 1 ? " per run " : " ");
	out_str(o, numfmt_str(b, sizeof(b), n->w[0] * k, opt->amount_unit, 0));
	out_lit(o, " -&gt; ");
	out_str(o, numfmt_str(b, sizeof(b), n->w[1] * k, opt->amount_unit, 0));
	out_lit(o, ", ");
	out_str(o, numfmt_str(b, sizeof(b), (n->w[1] - n->w[0]) * k, opt->amount_unit, NUMFMT_SIGN));
	out_lit(o, "; share ");
}

static void write_title(struct out *o, const struct fg_svg_options *opt,
			const struct fg_layout *l, const struct fg_frame *n,
			const struct fg_diff_frame *df, const char *name, size_t len)
{
	out_escaped(o, name, len);
	out_lit(o, " (");
	out_count(o, n->w[1]);
	out_lit(o, " ");
	out_escaped(o, opt->countname, strlen(opt->countname));
	out_lit(o, ", ");
	out_percent(o, n->w[1], l->timemax[1]);
	if (df) {
		double B = l->total[0], A = l->total[1];
		const char *cls = diff_class(n);
		char zb[32];

		out_lit(o, "; before ");
		out_count(o, n->w[0]);
		out_lit(o, ", ");
		out_percent(o, n->w[0], B);
		out_lit(o, "; delta ");
		out_signed_count(o, n->w[1] - n->w[0]);
		if (opt->diff.by_time && opt->amount_per_count > 0 && opt->amount_unit)
			write_amounts(o, opt, n);
		else
			out_lit(o, ", ");
		out_points(o, (A > 0 ? n->w[1] / A : 0) - (B > 0 ? n->w[0] / B : 0));
		if (cls) {
			out_lit(o, "; ");
			out_str(o, cls);
		}
		if (!opt->diff.untested) {
			out_str(o, opt->diff.self ? "; self z=" : "; z=");
			/* %f of a huge z would not fit: keep it short and readable */
			if (fabs(df->z) < 1e9)
				snprintf(zb, sizeof(zb), "%+.2f", df->z);
			else
				snprintf(zb, sizeof(zb), "%+.3g", df->z);
			out_str(o, zb);
		}
		if (df->state == FG_DIFF_NOISE)
			out_lit(o, ", noise");
	}
	out_lit(o, ")");
}

/* The label that fits w px: the whole name, "..tail" or "head..", or nothing. */
static void write_label(struct out *o, const struct fg_svg_options *opt, const char *name,
			size_t len, double wpx)
{
	double cw = opt->fontsize * opt->fontwidth;
	size_t fit = cw > 0 ? (size_t)(wpx / cw) : 0, cut;

	if (len <= fit) {
		out_escaped(o, name, len);
		return;
	}
	cut = fit - 2;
	if (opt->truncate_right) {
		while (cut > 0 && ((unsigned char)name[cut] & 0xc0) == 0x80)
			cut--;
		out_escaped(o, name, cut);
		out_lit(o, "..");
	} else {
		size_t start = len - cut;

		while (start < len && ((unsigned char)name[start] & 0xc0) == 0x80)
			start++;
		out_lit(o, "..");
		out_escaped(o, name + start, len - start);
	}
}

static void write_frames(struct out *o, const struct fg_svg_options *opt,
			 const struct fg_layout *l, const struct fg_diff *dc, double height,
			 double frames_width, double top)
{
	double fh = opt->frameheight, ypad2 = opt->fontsize * 2 + 10;
	double cw = opt->fontsize * opt->fontwidth;
	double tm1 = l->timemax[1] > 0 ? l->timemax[1] : 1;
	double tm0 = l->timemax[0] > 0 ? l->timemax[0] : 1;
	double text_dx = 300 / frames_width;	/* 3 px in percent */

	for (uint32_t i = 0; i < l->nr; i++) {
		const struct fg_frame *f = &l->frames[i];
		const struct fg_frame *n = f;
		const struct fg_diff_frame *df = dc ? &dc->frames[i] : NULL;
		const char *name = f->name;
		size_t len = f->len;
		char **attr = opt->nameattr ? fg_nameattr_get(opt->nameattr, name, len) : NULL;
		const char *cls = NULL;
		struct fg_rgb color;
		size_t shown = fg_display_len(name, len);	/* without _[k] etc., as flamegraph.pl shows them */
		double y, wpx, xp;
		int link = attr && attr[FG_ATTR_HREF];

		if (opt->inverted)
			y = top + f->depth * fh;
		else
			y = height - ypad2 - (f->depth + 1) * fh + FRAMEPAD;
		if (df && opt->hide_noise && i && !df->subtree_changed)
			continue;
		if (df) {
			color = diff_rgb(df);
			cls = diff_class(n);
		} else if (opt->color_diffusion)
			color = diffusion_rgb(l, f);
		else if (opt->cp)
			color = fg_palette_map_color(opt->cp, opt->palette, name, len);
		else
			color = fg_palette_color(opt->palette, name, len);

		out_str(o, link ? "<a" : "<g");
		if (link) {
			out_lit(o, " xlink:href=\"");
			out_escaped(o, attr[FG_ATTR_HREF], strlen(attr[FG_ATTR_HREF]));
			out_lit(o, "\" target=\"");
			if (attr[FG_ATTR_TARGET])
				out_escaped(o, attr[FG_ATTR_TARGET], strlen(attr[FG_ATTR_TARGET]));
			else
				out_lit(o, "_top");
			out_lit(o, "\"");
			if (attr[FG_ATTR_A_EXTRA]) {
				out_lit(o, " ");
				out_str(o, attr[FG_ATTR_A_EXTRA]);
			}
		}
		if (attr) {
			if (attr[FG_ATTR_ID]) {
				out_lit(o, " id=\"");
				out_escaped(o, attr[FG_ATTR_ID], strlen(attr[FG_ATTR_ID]));
				out_lit(o, "\"");
			}
			if (attr[FG_ATTR_CLASS]) {
				out_lit(o, " class=\"");
				out_escaped(o, attr[FG_ATTR_CLASS], strlen(attr[FG_ATTR_CLASS]));
				out_lit(o, "\"");
			}
			if (attr[FG_ATTR_G_EXTRA]) {
				out_lit(o, " ");
				out_str(o, attr[FG_ATTR_G_EXTRA]);
			}
			if (attr[FG_ATTR_TITLE]) {
				out_lit(o, " data-name=\"");
				out_escaped(o, name, shown);
				out_lit(o, "\"");
			}
		}
		if (opt->differential) {
			out_lit(o, " data-bx=\"");
			out_fixed(o, f->x[0] * 100 / tm0, 5);
			out_lit(o, "\" data-bw=\"");
			out_fixed(o, f->w[0] * 100 / tm0, 5);
			out_lit(o, "\"");
		}
		out_lit(o, "><title>");
		if (attr && attr[FG_ATTR_TITLE])
			out_escaped(o, attr[FG_ATTR_TITLE], strlen(attr[FG_ATTR_TITLE]));
		else
			write_title(o, opt, l, n, df, name, shown);
		out_lit(o, "</title><rect");
		if (cls) {
			out_lit(o, " class=\"");
			out_str(o, cls);
			out_lit(o, "\"");
		}
		xp = f->x[1] * 100 / tm1;
		out_lit(o, " x=\"");
		out_fixed(o, xp, 5);
		out_lit(o, "%\" y=\"");
		out_fixed(o, y, 2);
		out_lit(o, "\" width=\"");
		out_fixed(o, f->w[1] * 100 / tm1, 5);
		out_lit(o, "%\" height=\"");
		out_fixed(o, fh - FRAMEPAD, 2);
		out_lit(o, "\" fill=\"");
		out_rgb(o, color);
		out_lit(o, "\" rx=\"2\" ry=\"2\"/>");
		wpx = f->w[1] / tm1 * frames_width;
		if (wpx >= 3 * cw + 6) {
			out_lit(o, "<text x=\"");
			out_fixed(o, xp + text_dx, 5);
			out_lit(o, "%\" y=\"");
			out_fixed(o, y + (fh - FRAMEPAD) / 2 + opt->fontsize / 3, 2);
			out_lit(o, "\">");
			write_label(o, opt, name, shown, wpx - 6);
			out_lit(o, "</text>");
		}
		out_str(o, link ? "</a>\n" : "</g>\n");
	}
}

/* A swatch and its label at x px; returns the x after them. */
static double legend_item(struct out *o, const struct fg_svg_options *opt, double x, double y,
			  struct fg_rgb c, const char *label)
{
	double fs = opt->fontsize;

	out_lit(o, "<rect x=\"");
	out_fixed(o, x, 2);
	out_lit(o, "\" y=\"");
	out_fixed(o, y - fs * 0.8, 2);
	out_lit(o, "\" width=\"");
	out_fixed(o, fs, 2);
	out_lit(o, "\" height=\"");
	out_fixed(o, fs * 0.9, 2);
	out_lit(o, "\" fill=\"");
	out_rgb(o, c);
	out_lit(o, "\" stroke=\"rgb(150,150,150)\" stroke-width=\"0.5\" rx=\"2\" ry=\"2\"/><text x=\"");
	out_fixed(o, x + fs * 1.3, 2);
	out_lit(o, "\" y=\"");
	out_fixed(o, y, 2);
	out_lit(o, "\">");
	out_str(o, label);
	out_lit(o, "</text>\n");
	return x + fs * 1.3 + (double)strlen(label) * fs * opt->fontwidth + fs * 1.2;
}

/* "inclusive time", "self share" ...: what the colours compare. */
static const char *diff_measure(const struct fg_svg_options *opt)
{
	if (opt->diff.by_bytes)
		return opt->diff.self ? "self bytes" : "inclusive bytes";
	if (opt->diff.by_time)
		return opt->diff.self ? "self time" : "inclusive time";
	return opt->diff.self ? "self share" : "inclusive share";
}

static void write_top_change(struct out *o, const struct fg_diff_top *t)
{
	out_escaped(o, t->name, t->len);
	out_lit(o, " ");
	out_points(o, t->delta);
	if (t->is_new)
		out_lit(o, " (new)");
	else if (t->is_gone)
		out_lit(o, " (gone)");
}

/*
 * The legend of a differential graph, one line under the title: what the
 * colours mean, the test and floor behind them, what full colour stands
 * for, and the strongest changes (all of them in its tooltip).
 */
static void write_legend(struct out *o, const struct fg_svg_options *opt, const struct fg_diff *dc,
			 double y)
{
	double x = XPAD;
	struct fg_diff_frame hot = { .state = FG_DIFF_HOTTER, .saturation = 255 };
	struct fg_diff_frame cool = { .state = FG_DIFF_COOLER, .saturation = 255 };
	struct fg_diff_frame noise = { .state = FG_DIFF_NOISE };
	uint32_t i;

	out_lit(o, "<g id=\"legend\"><title>");
	out_str(o, opt->diff.by_frame ? "Colour: the frame's change in " :
		   "Colour: the function's change (in the whole profile, as trail diff --top) in ");
	out_str(o, diff_measure(opt));
	out_str(o, opt->diff.by_bytes ? ", after - before, in percent of the before total "
		   "(each sample stands for the same bytes: counts are bytes; a function whose "
		   "bytes did not change stays grey). Significant: |change| &gt;= " :
		   opt->diff.by_time ? ", after - before, in percent of the before total "
		   "(the sampling period is the same: counts are time; a function whose time did "
		   "not change stays grey). Significant: |change| &gt;= " :
		   ", after - before, in percentage points (shares: the input does not name its "
		   "sampling period). Significant: |change| &gt;= ");
	out_fixed(o, opt->diff.min_delta * 100, 3);
	out_str(o, opt->diff.untested ? " pts; no test (the counts are weighted, not samples: "
		   "every change above the floor is coloured), nominal rate " :
		   opt->diff.by_time ? " pts and a Poisson z-test on the counts with a false "
		   "discovery rate of " : " pts and a two-proportion z-test with a false discovery "
		   "rate of ");
	out_fixed(o, opt->diff.alpha * 100, 3);
	out_lit(o, "% (Benjamini-Hochberg) over the ");
	out_u64(o, dc->nr_candidates);
	out_str(o, opt->diff.by_frame ? " frames" : " functions");
	out_lit(o, " whose size before + after reaches the floor (of ");
	out_u64(o, dc->nr_tested);
	out_lit(o, "). Frames: ");
	out_u64(o, dc->nr_hotter);
	out_str(o, opt->diff.negate ? " cooler (red), " : " hotter, ");
	out_u64(o, dc->nr_cooler);
	out_str(o, opt->diff.negate ? " hotter (blue), " : " cooler, ");
	out_u64(o, dc->nr_new);
	out_lit(o, " of them new, ");
	out_u64(o, dc->nr_gone);
	out_lit(o, " gone. Grey frames are undecided: within sampling noise or under the floor, "
		   "not shown to be unchanged.");
	if (dc->nr_top) {
		out_lit(o, " Top changes:");
		for (i = 0; i < dc->nr_top; i++) {
			out_lit(o, "\n");
			out_u64(o, i + 1);
			out_lit(o, ". ");
			write_top_change(o, &dc->top[i]);
		}
	}
	out_lit(o, "</title>\n");
	x = legend_item(o, opt, x, y, diff_rgb(&hot), opt->diff.negate ? "cooler" : "hotter");
	x = legend_item(o, opt, x, y, diff_rgb(&cool), opt->diff.negate ? "hotter" : "cooler");
	x = legend_item(o, opt, x, y, diff_rgb(&noise), "undecided");
	out_lit(o, "<text id=\"legendtext\" x=\"");
	out_fixed(o, x, 2);
	out_lit(o, "\" y=\"");
	out_fixed(o, y, 2);
	out_lit(o, "\">");
	out_str(o, diff_measure(opt));
	out_lit(o, ", full colour ");
	out_points(o, dc->max_delta);
	out_lit(o, ", floor ");
	out_fixed(o, opt->diff.min_delta * 100, 3);
	out_lit(o, " pts, FDR ");
	out_fixed(o, opt->diff.alpha * 100, 3);
	out_lit(o, "%");
	if (dc->nr_top) {
		out_lit(o, "; top: ");
		for (i = 0; i < dc->nr_top && i < 3; i++) {
			if (i)
				out_lit(o, ", ");
			write_top_change(o, &dc->top[i]);
		}
	} else {
		out_lit(o, "; no change shown above the floor");
	}
	out_lit(o, "</text>\n</g>\n");
}

int fg_svg_write(FILE *f, const struct fg_layout *l, const struct fg_svg_options *opt)
{
	struct out o = { f, xmalloc(OUT_SIZE), 0, 0 };
	double fs = opt->fontsize, fh = opt->frameheight;
	double ypad1 = fs * 3, ypad2 = fs * 2 + 10, ypad3 = opt->subtitle ? fs * 2 : 0;
	double ypad4 = opt->differential ? fs * 1.8 : 0;	/* the legend */
	double height = (l->max_depth + 1) * fh + ypad1 + ypad2 + ypad3 + ypad4;
	struct fg_diff dc;
	double image_width = opt->width > 0 ? opt->width : opt->nominal_width;
	double frames_width = image_width - 2 * XPAD;
	const char *title = default_title(opt);

	if (frames_width < 1)
		frames_width = 1;
	write_header(&o, opt, height, 1);
	write_style(&o, opt);
	write_script(&o, opt, l, frames_width);
	out_lit(&o, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"url(#background)\"/>\n"
		    "<text id=\"title\" x=\"50%\" y=\"");
	out_fixed(&o, fs * 2, 2);
	out_lit(&o, "\">");
	out_escaped(&o, title, strlen(title));
	out_lit(&o, "</text>\n");
	if (opt->subtitle) {
		out_lit(&o, "<text id=\"subtitle\" x=\"50%\" y=\"");
		out_fixed(&o, fs * 4, 2);
		out_lit(&o, "\">");
		out_escaped(&o, opt->subtitle, strlen(opt->subtitle));
		out_lit(&o, "</text>\n");
	}
	out_lit(&o, "<text id=\"details\" x=\"10\" y=\"");
	out_fixed(&o, height - ypad2 / 2, 2);
	out_lit(&o, "\"> </text>\n<text id=\"unzoom\" class=\"hide\" x=\"10\" y=\"");
	out_fixed(&o, fs * 2, 2);
	out_lit(&o, "\">Reset Zoom</text>\n");
	if (opt->differential) {
		out_lit(&o, "<text id=\"basis\" x=\"110\" y=\"");
		out_fixed(&o, fs * 2, 2);
		out_lit(&o, "\">Show before</text>\n");
	}
	out_lit(&o, "<text id=\"search\" x=\"100%\" dx=\"-40\" y=\"");
	out_fixed(&o, fs * 2, 2);
	out_lit(&o, "\">Search</text>\n<text id=\"ignorecase\" x=\"100%\" dx=\"-10\" y=\"");
	out_fixed(&o, fs * 2, 2);
	out_lit(&o, "\">ic</text>\n<text id=\"matched\" x=\"100%\" dx=\"-10\" y=\"");
	out_fixed(&o, height - ypad2 / 2, 2);
	out_lit(&o, "\"> </text>\n<svg id=\"frames\" x=\"10\" width=\"");
	out_fixed(&o, frames_width, 2);
	out_lit(&o, "\" total_samples=\"");
	out_fixed(&o, l->timemax[1], 3);
	out_lit(&o, "\">\n");
	if (opt->differential)
		fg_diff_classify(&dc, l, &opt->diff);
	write_frames(&o, opt, l, opt->differential ? &dc : NULL, height, frames_width,
		     ypad1 + ypad3 + ypad4);
	out_lit(&o, "</svg>\n");
	if (opt->differential) {
		write_legend(&o, opt, &dc, ypad1 + ypad3 + fs * 0.6);
		fg_diff_release(&dc);
	}
	out_lit(&o, "</svg>\n");
	out_flush(&o);
	free(o.buf);
	if (o.failed || fflush(f) || ferror(f))
		return error_errno("cannot write the flame graph");
	return 0;
}

int fg_svg_write_error(FILE *f, const struct fg_svg_options *opt, const char *message)
{
	struct out o = { f, xmalloc(OUT_SIZE), 0, 0 };
	double w = opt->width > 0 ? opt->width : opt->nominal_width;

	write_header(&o, opt, opt->fontsize * 5, 0);
	out_lit(&o, "<text x=\"");
	out_fixed(&o, w / 2, 2);
	out_lit(&o, "\" y=\"");
	out_fixed(&o, opt->fontsize * 2, 2);
	out_lit(&o, "\" text-anchor=\"middle\" font-family=\"");
	out_escaped(&o, opt->fonttype, strlen(opt->fonttype));
	out_lit(&o, "\" font-size=\"");
	out_fixed(&o, opt->fontsize, 2);
	out_lit(&o, "\">");
	out_escaped(&o, message, strlen(message));
	out_lit(&o, "</text>\n</svg>\n");
	out_flush(&o);
	free(o.buf);
	if (o.failed || fflush(f) || ferror(f))
		return error_errno("cannot write the flame graph");
	return 0;
}
