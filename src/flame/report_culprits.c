/*
 * report_culprits.c - the list of every culprit (ans.culprits.list, culprits.c)
 * in report.md, report.html and the terminal's answer: each commit with
 * its function, its step beside its parent and its interval, the part of
 * its measure's change it explains and the p-value of its step (adjusted
 * for the looks).  Shown when more than one commit explains the change;
 * the suspect's own sections say the rest, its evidence from here too.
 */
#include "flame/report.h"
#include "core/numfmt.h"
#include "core/verdict.h"
#include "core/escape.h"

#include <math.h>
#include <string.h>

static const char *culprit_function(const struct flame_session *s, const struct flame_culprit *c)
{
	const char *f = c->function ? c->function : flame_session_named_function(s);

	return f ? f : flame_metric_name(s->req.metric);
}

static const char *culprit_subject(const struct flame_session *s, const struct flame_culprit *c)
{
	if (c->subject)
		return c->subject;
	return !strcmp(c->id, s->ans.narrow.culprit_info.id) ? s->ans.narrow.culprit_info.subject : NULL;
}

static int listed(const struct flame_session *s)
{
	return s->ans.outcome == VERDICT_REGRESSION && s->ans.culprits.count > 1;
}

static int all_culprits_have(const struct flame_session *s, int bytes)
{
	size_t i;

	for (i = 0; i < s->ans.culprits.count; i++)
		if (!((bytes ? s->ans.culprits.list[i].unit_bytes : s->ans.culprits.list[i].unit_ms) > 0))
			return 0;
	return s->ans.culprits.count > 0;
}

enum flame_sum_unit flame_culprits_sum_unit(const struct flame_session *s)
{
	if (s->ans.culprits.cpu_ms[0] > 0 && all_culprits_have(s, 0))
		return FLAME_SUM_MS;
	if (s->ans.culprits.bytes[0] > 0 && all_culprits_have(s, 1))
		return FLAME_SUM_BYTES;
	return FLAME_SUM_NONE;
}

const char *flame_culprits_sum_unit_name(const struct flame_session *s)
{
	switch (flame_culprits_sum_unit(s)) {
	case FLAME_SUM_MS:
		return "ms CPU per run";
	case FLAME_SUM_BYTES:
		return flame_metric_bytes_per_run(s->req.metric);
	default:
		return NULL;
	}
}

double flame_culprit_sum_scale(const struct flame_session *s, const struct flame_culprit *c)
{
	switch (flame_culprits_sum_unit(s)) {
	case FLAME_SUM_MS:
		return c->unit_ms;
	case FLAME_SUM_BYTES:
		return c->unit_bytes;
	default:
		return 0;
	}
}

double flame_culprits_ends(const struct flame_session *s, int side)
{
	return flame_culprits_sum_unit(s) == FLAME_SUM_BYTES ? s->ans.culprits.bytes[side] :
		s->ans.culprits.cpu_ms[side];
}

double flame_culprits_ends_se(const struct flame_session *s)
{
	return flame_culprits_sum_unit(s) == FLAME_SUM_BYTES ? s->ans.culprits.bytes_change_se :
		s->ans.culprits.cpu_change_se_ms;
}

double flame_culprits_sum(const struct flame_session *s)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < s->ans.culprits.count; i++)
		sum += s->ans.culprits.list[i].step.step * flame_culprit_sum_scale(s, &s->ans.culprits.list[i]);
	return sum;
}

/* The change between the ends, in the sum's unit per run. */
static double ends_change(const struct flame_session *s)
{
	return flame_culprits_ends(s, 1) - flame_culprits_ends(s, 0);
}

int flame_culprits_add_up(const struct flame_session *s)
{
	double lo = 0;
	size_t i;

	for (i = 0; i < s->ans.culprits.count; i++)
		lo += s->ans.culprits.list[i].step.lo * flame_culprit_sum_scale(s, &s->ans.culprits.list[i]);
	return lo <= ends_change(s);
}

/*
 * A value in the sum's unit: "+359 ms", "+1.25 s", "+21299461 bytes" (a
 * mean of whole bytes, to the byte); flags as numfmt_value's.
 */
static void sum_number(const struct flame_session *s, struct strbuf *sb, double v, int flags)
{
	if (flame_culprits_sum_unit(s) == FLAME_SUM_BYTES)
		numfmt_value(sb, round(v), "bytes", flags);
	else
		numfmt_value(sb, v, "ms", flags);
}

/* sum_number's, with "CPU" after a time: "+210 ms CPU" */
static void sum_text(const struct flame_session *s, struct strbuf *sb, double v, int flags)
{
	sum_number(s, sb, v, flags);
	if (flame_culprits_sum_unit(s) == FLAME_SUM_MS)
		strbuf_addstr(sb, " CPU");
}

/*
 * "+210 ms CPU [+190, +232]" for a step measured as a time, "+8192000
 * bytes [...]" for an allocation profile's samples per run, else "+12.3
 * pp [+10.1, +14.5]", "+42 samples/run [...]" or the metric's unit - all
 * through core/numfmt.h.
 */
static void step_text(const struct flame_session *s, const struct flame_culprit *c,
		      struct strbuf *sb)
{
	const struct flame_step_assessment *a = &c->step;

	if (c->unit_ms > 0) {
		/* "+210 ms [+190, +232]" with "CPU" after the unit */
		struct strbuf t = STRBUF_INIT;
		const char *br;

		numfmt_interval(&t, a->step * c->unit_ms, a->lo * c->unit_ms, a->hi * c->unit_ms,
				"ms", NUMFMT_SIGN);
		br = strstr(t.buf, " [");
		strbuf_add(sb, t.buf, br ? (size_t)(br - t.buf) : t.len);
		strbuf_addstr(sb, " CPU");
		if (br)
			strbuf_addstr(sb, br);
		strbuf_release(&t);
	} else if (c->unit_bytes > 0) {
		numfmt_interval(sb, a->step * c->unit_bytes, a->lo * c->unit_bytes,
				a->hi * c->unit_bytes, "bytes", NUMFMT_SIGN);
	} else if (c->share || (!c->function && s->ans.target.function && s->ans.target.measure_share)) {
		numfmt_pp_interval(sb, a->step, a->lo, a->hi, NUMFMT_SIGN);
	} else if (s->ans.target.function) {
		numfmt_interval(sb, a->step, a->lo, a->hi, flame_metric_per_run(s->req.metric), NUMFMT_SIGN);
	} else {
		/* the metric in its unit (core/numfmt.h): never "+1.2e+05 us" */
		const char *unit = flame_metric_unit(s->req.metric);

		numfmt_value(sb, a->step, unit, NUMFMT_SIGN);
		strbuf_addstr(sb, " [");
		numfmt_value(sb, a->lo, unit, NUMFMT_SIGN);
		strbuf_addstr(sb, ", ");
		numfmt_value(sb, a->hi, unit, NUMFMT_SIGN);
		strbuf_addch(sb, ']');
	}
}

/* The suspect's entry among the culprits, NULL when culprits.c listed none. */
static const struct flame_culprit *suspect_entry(const struct flame_session *s)
{
	size_t i;

	for (i = 0; i < s->ans.culprits.count; i++)
		if (!strcmp(s->ans.culprits.list[i].id, s->ans.narrow.culprit_info.id))
			return &s->ans.culprits.list[i];
	return NULL;
}

/* "p = 0.0003", or "exact counts" where a counted metric repeats (no test). */
static void evidence_p(const struct flame_session *s, double confidence, struct strbuf *sb)
{
	if (s->ans.ends.exact_counts)
		strbuf_addstr(sb, "exact counts");
	else
		numfmt_p(sb, 1 - confidence);
}

void flame_report_evidence(const struct flame_session *s, struct strbuf *sb)
{
	const struct flame_culprit *c = suspect_entry(s);
	struct flame_culprit only;

	if (!s->ans.narrow.pair.looks) {
		strbuf_addstr(sb, "none: the suspect could not be re-probed beside its parent");
		return;
	}
	if (!c) {
		memset(&only, 0, sizeof(only));
		only.step = s->ans.narrow.pair.step;
		c = &only;
	}
	step_text(s, c, sb);
	strbuf_addstr(sb, " beside its parent, ");
	evidence_p(s, s->ans.narrow.suspect_confidence, sb);
}

void flame_report_md_culprits(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	if (!listed(s))
		return;
	strbuf_addf(sb, "\n## Culprits (%zu commits, each beside its parent)\n\n"
		    "| commit | subject | function | step [interval] | explains [interval] | "
		    "evidence |\n| --- | --- | --- | --- | ---: | ---: |\n", s->ans.culprits.count);
	for (i = 0; i < s->ans.culprits.count; i++) {
		const struct flame_culprit *c = &s->ans.culprits.list[i];
		const char *subj = culprit_subject(s, c), *fn = culprit_function(s, c);
		char ex[FLAME_EXPLAINS_TEXT];

		strbuf_addstr(sb, "| `");
		escape_md_code(sb, c->id, 12, 1);
		strbuf_addstr(sb, "` | ");
		if (subj)
			escape_md_text(sb, subj, strlen(subj));
		strbuf_addstr(sb, " | `");
		escape_md_code(sb, fn, strlen(fn), 1);
		strbuf_addstr(sb, "` | ");
		step_text(s, c, sb);
		flame_explains_format(&c->step, ex, sizeof(ex));
		strbuf_addstr(sb, " | ");
		escape_md_text(sb, ex, strlen(ex));
		strbuf_addstr(sb, " | ");
		evidence_p(s, c->confidence, sb);
		strbuf_addstr(sb, " |\n");
	}
	if (flame_culprits_sum_unit(s)) {
		int add_up = flame_culprits_add_up(s);

		strbuf_addstr(sb, add_up ? "\nThe steps add up: " :
			      "\nThe steps exceed the change between the ends: they sum to ");
		sum_text(s, sb, flame_culprits_sum(s), NUMFMT_SIGN);
		strbuf_addstr(sb, add_up ? " per run by the culprits and " : " per run against the ends' ");
		if (add_up) {
			sum_number(s, sb, ends_change(s) - flame_culprits_sum(s), NUMFMT_SIGN);
			strbuf_addstr(sb, " unexplained make the ");
		}
		sum_number(s, sb, ends_change(s), NUMFMT_SIGN);
		strbuf_addstr(sb, add_up ? " between the ends (" : " (");
		sum_number(s, sb, flame_culprits_ends(s, 0), 0);
		strbuf_addstr(sb, " -> ");
		sum_number(s, sb, flame_culprits_ends(s, 1), 0);
		strbuf_addstr(sb, add_up ? ").\n" :
			      "), beyond their intervals. Other commits in the range made it faster, or "
			      "the machine's load moved between the measurements (each step is measured "
			      "beside its parent, at another time than the ends): each step is its "
			      "commit's own size.\n");
	}
	strbuf_addstr(sb, "\n\"explains\" is the commit's step as a part of its function's change "
		      "between the ends; \"evidence\" is the one-sided p-value of a step of zero "
		      "or less, adjusted for the looks its re-probe took - a p-value, not the "
		      "probability that the commit is a culprit.\n");
}

void flame_report_html_culprits(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	if (!listed(s))
		return;
	strbuf_addf(sb, "<section id=\"culprits\"><h2>Culprits</h2>\n<p>%zu commits each explain a "
		    "real part of the change, each measured beside its parent in ABBA pairs.</p>\n"
		    "<table><tr><th>commit</th><th>subject</th><th>function</th><th>step "
		    "[interval]</th><th>explains [interval]</th><th>evidence</th></tr>\n",
		    s->ans.culprits.count);
	for (i = 0; i < s->ans.culprits.count; i++) {
		const struct flame_culprit *c = &s->ans.culprits.list[i];
		const char *subj = culprit_subject(s, c), *fn = culprit_function(s, c);
		char ex[FLAME_EXPLAINS_TEXT];
		struct strbuf st = STRBUF_INIT;

		strbuf_addstr(sb, "<tr><td><code>");
		escape_html_text(sb, c->id, strnlen(c->id, 12));
		strbuf_addstr(sb, "</code></td><td>");
		if (subj)
			escape_html_text(sb, subj, strlen(subj));
		strbuf_addstr(sb, "</td><td><code>");
		escape_html_text(sb, fn, strlen(fn));
		strbuf_addstr(sb, "</code></td><td>");
		step_text(s, c, &st);
		escape_html_text(sb, st.buf, st.len);
		flame_explains_format(&c->step, ex, sizeof(ex));
		strbuf_addstr(sb, "</td><td>");
		escape_html_text(sb, ex, strlen(ex));
		strbuf_addstr(sb, "</td><td>");
		evidence_p(s, c->confidence, sb);
		strbuf_addstr(sb, "</td></tr>\n");
		strbuf_release(&st);
	}
	strbuf_addstr(sb, "</table></section>\n");
}

void flame_report_summary_culprits(const struct flame_session *s, struct strbuf *out)
{
	size_t i;

	if (!listed(s))
		return;
	for (i = 1; i < s->ans.culprits.count; i++) {
		const struct flame_culprit *c = &s->ans.culprits.list[i];
		const char *subj = culprit_subject(s, c), *fn = culprit_function(s, c);

		strbuf_addstr(out, "also culprit:   ");
		escape_term(out, c->id, strnlen(c->id, 12));
		strbuf_addch(out, ' ');
		escape_term(out, subj ? subj : "?", strlen(subj ? subj : "?"));
		strbuf_addstr(out, " (");
		escape_term(out, fn, strlen(fn));
		/* its step here when no "effect:" line below says it */
		if (!flame_culprits_sum_unit(s)) {
			strbuf_addstr(out, ", ");
			step_text(s, c, out);
		}
		strbuf_addstr(out, ", explains ");
		numfmt_percent(out, c->step.explains, 0);
		strbuf_addstr(out, ", ");
		evidence_p(s, c->confidence, out);
		strbuf_addstr(out, ")\n");
	}
}

void flame_report_summary_effects(const struct flame_session *s, struct strbuf *out)
{
	size_t i;

	if (s->ans.outcome != VERDICT_REGRESSION || !flame_culprits_sum_unit(s))
		return;
	for (i = 0; i < s->ans.culprits.count; i++) {
		const struct flame_culprit *c = &s->ans.culprits.list[i];
		struct strbuf st = STRBUF_INIT;

		step_text(s, c, &st);
		strbuf_addstr(out, "effect:         ");
		escape_term(out, c->id, strnlen(c->id, 12));
		strbuf_addf(out, " %s", st.buf);
		if (ends_change(s) > 0) {
			strbuf_addstr(out, ", ");
			numfmt_percent(out, c->step.step * flame_culprit_sum_scale(s, c) / ends_change(s), 0);
			strbuf_addstr(out, " of the ");
			sum_number(s, out, ends_change(s), NUMFMT_SIGN);
			strbuf_addstr(out, " between the ends");
		}
		strbuf_addch(out, '\n');
		strbuf_release(&st);
	}
	if (!flame_culprits_add_up(s)) {
		strbuf_addstr(out, "rest:           ");
		sum_text(s, out, ends_change(s) - flame_culprits_sum(s), NUMFMT_SIGN);
		strbuf_addstr(out, " per run: the steps exceed the ends' change beyond their intervals "
			      "(other commits made it faster, or the load moved between the "
			      "measurements)\n");
	} else if (s->ans.culprits.count > 1 || ends_change(s) > 0) {
		strbuf_addstr(out, "unexplained:    ");
		sum_text(s, out, ends_change(s) - flame_culprits_sum(s), NUMFMT_SIGN);
		strbuf_addstr(out, " per run (the ends' change less the culprits' steps)\n");
	}
}
