/*
 * report.c - trail flame's report: report.json (the machine-readable
 * answer, schema in docs/flame.md) and report.md; report.html is
 * report_html.c's, the sections both share beyond the answer
 * report_handoffs.c's, from the facts of report_facts.c.
 */
#include "flame/report.h"
#include "core/verdict.h"
#include "measure/source_name.h"
#include "flame/probe_cmd.h"
#include "flame/report_facts.h"
#include "flame/report_html_parts.h"
#include "flame/fleet_report.h"
#include "flame/session_query.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/numfmt.h"
#include "core/json_writer.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *probe_commit_subject(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->ans.suspects.count; i++)
		if (!strcmp(s->ans.suspects.list[i].commit.id, id))
			return s->ans.suspects.list[i].commit.subject;
	return NULL;
}

static void reproduce_cmd(const struct flame_session *s, struct strbuf *sb)
{
	strbuf_addstr(sb, s->req.command_line ? s->req.command_line : "trail flame");
}

static void metric_side(struct json_writer *w, const char *k, double value, double lo, double hi,
			size_t runs)
{
	json_writer_key(w, k);
	json_writer_begin_object(w);
	json_writer_key_number(w, "value", value);
	json_writer_key_pair(w, "ci", lo, hi);
	json_writer_key_uint(w, "runs", runs);
	json_writer_end(w);
}

static void json_metric(const struct flame_session *s, struct json_writer *w)
{
	json_writer_key(w, "metric");
	json_writer_begin_object(w);
	json_writer_key_string(w, "name", flame_metric_name(s->req.metric));
	json_writer_key_string(w, "unit", flame_metric_unit(s->req.metric));
	json_writer_key_string(w, "statistic", s->req.metric == FLAME_METRIC_WALL && s->req.percentile != 50 ?
				"percentile" : "median");
	metric_side(w, "good", s->ans.ends.metric_med[0], s->ans.ends.metric_lo[0], s->ans.ends.metric_hi[0], s->st.nruns[0]);
	metric_side(w, "bad", s->ans.ends.metric_med[1], s->ans.ends.metric_lo[1], s->ans.ends.metric_hi[1], s->st.nruns[1]);
	/* exact counts: no test was made (p-values null) */
	json_writer_key_string(w, "test", s->ans.ends.exact_counts ? "exact counts" : "mann-whitney");
	json_writer_key_number(w, "p_value", s->ans.ends.metric_p);
	json_writer_key_number(w, "ks_p_value", s->ans.ends.metric_ks_p);
	json_writer_end(w);
}

/* key: [ {item 0}, {item 1}, ... ]; item() writes the members of one. */
static void json_object_array(struct json_writer *w, const char *key, size_t nr,
			      const struct flame_session *s,
			      void (*item)(struct json_writer *, const struct flame_session *, size_t))
{
	size_t i;

	json_writer_key(w, key);
	json_writer_begin_array(w);
	for (i = 0; i < nr; i++) {
		json_writer_begin_object(w);
		item(w, s, i);
		json_writer_end(w);
	}
	json_writer_end(w);
}

static void json_hotspot(struct json_writer *w, const struct flame_session *s, size_t i)
{
	const struct flame_hotspot *h = &s->ans.target.hot.items[i];

	json_writer_key_string(w, "function", h->name);
	json_writer_key_number(w, "good_share", h->good_self.mean);
	json_writer_key_number(w, "bad_share", h->bad_self.mean);
	json_writer_key_number(w, "delta", h->delta_self);
	/* exact counts: a share of them has no sampling error (null) */
	json_writer_key_number(w, "stderr", s->ans.ends.exact_counts ? NAN : h->se_self);
	json_writer_key_number(w, "good_total_share", h->good_total.mean);
	json_writer_key_number(w, "bad_total_share", h->bad_total.mean);
	json_writer_key_number(w, "total_delta", h->delta_total);
	json_writer_key_number(w, "total_stderr", s->ans.ends.exact_counts ? NAN : h->se_total);
	json_writer_key_bool(w, "confirmed", h->confirmed);
}

static void json_target(const struct flame_session *s, struct json_writer *w)
{
	json_writer_key(w, "target");
	json_writer_begin_object(w);
	json_writer_key_string(w, "function", s->ans.target.function);
	json_writer_key_string(w, "measure", !s->ans.target.function ? flame_metric_name(s->req.metric) :
				s->ans.target.measure_time ? (s->ans.target.measure_lib ? "self_library_time" : "self_time") :
				s->ans.target.measure_lib ? (s->ans.target.measure_share ? "self_library_share" : "self_library_samples_per_run") :
				s->ans.target.measure_share ? "self_share" : "self_samples_per_run");
	/* Where the function's extra time is spent, when not in its own code. */
	json_writer_key_string(w, "frame", s->ans.target.function ? (s->ans.target.frame ? s->ans.target.frame : s->ans.target.function) : NULL);
	/* Bisecting on the metric, the definition found is the blocked function's. */
	json_writer_key_string(w, "defined_in", s->ans.target.function ? s->ans.suspects.def_file : NULL);
	json_writer_key_uint(w, "line", s->ans.target.function ? s->ans.suspects.def_line : 0);
	json_writer_key_uint(w, "line_end", s->ans.target.function ? s->ans.suspects.def_end : 0);
	json_writer_key_string(w, "defined_by", !s->ans.target.function || !s->ans.suspects.def_file ? NULL :
				s->ans.suspects.def_by_macro ? "macro" :
				s->ans.suspects.def_from_dwarf ? "dwarf" : "text");
	/* a macro made it: the #define whose lines the suspects follow too */
	json_writer_key_string(w, "macro_defined_in", s->ans.target.function ? s->ans.suspects.def_macro_file : NULL);
	json_writer_key_uint(w, "macro_line", s->ans.target.function ? s->ans.suspects.def_macro_line : 0);
	json_writer_key_uint(w, "macro_line_end", s->ans.target.function ? s->ans.suspects.def_macro_end : 0);
	json_writer_key_number(w, "good", s->ans.target.share[0]);
	json_writer_key_number(w, "bad", s->ans.target.share[1]);
	json_writer_key_number(w, "threshold", s->ans.target.threshold);
	/* good, bad and threshold in ms of CPU time per run, when a time */
	json_writer_key_number(w, "ms_per_unit", s->ans.target.function && !s->ans.target.measure_share ?
			       s->ans.target.time_unit_ms : 0);
	json_writer_end(w);
}

/* A revert trail tried (revert_check.h), or null when it was not. */
static void json_revert(struct json_writer *w, const char *key, const struct flame_session *s,
			const struct flame_revert_check *c)
{
	struct strbuf cmd = STRBUF_INIT;
	size_t i;

	json_writer_key(w, key);
	if (c->state == FLAME_REVERT_UNTRIED) {
		json_writer_null(w);
		return;
	}
	json_writer_begin_object(w);
	flame_revert_command(c, &cmd);
	json_writer_key_string(w, "command", cmd.buf);
	json_writer_key_string(w, "onto", s->ans.ends.bad);
	json_writer_key_bool(w, "applies", c->state == FLAME_REVERT_CLEAN);
	json_writer_key(w, "conflicts");
	json_writer_begin_array(w);
	for (i = 0; i < c->conflicts.nr; i++)
		json_writer_string(w, c->conflicts.items[i]);
	json_writer_end(w);
	json_writer_key(w, "later_commits_touching_conflicts");
	json_writer_begin_array(w);
	for (i = 0; i < c->later.nr; i++) {
		char id[41];

		snprintf(id, sizeof(id), "%.40s", c->later.items[i]);
		json_writer_string(w, id);
	}
	json_writer_end(w);
	json_writer_end(w);
	strbuf_release(&cmd);
}

/*
 * "p_value" of commit id's step, 1 - confidence (adjusted for the looks),
 * or null where no test was made: exact counts (a counted metric whose
 * runs repeat), or id is the suspect and it was never re-probed.
 */
static void json_p_value(struct json_writer *w, const struct flame_session *s, const char *id,
			 double confidence)
{
	json_writer_key(w, "p_value");
	if (s->ans.ends.exact_counts ||
	    (!s->ans.narrow.pair.looks && !strcmp(id, s->ans.narrow.culprit_info.id)))
		json_writer_null(w);
	else
		json_writer_number(w, 1 - confidence);
}

static void json_suspect(const struct flame_session *s, struct json_writer *w)
{
	size_t i;

	json_writer_key(w, "candidate");
	if (flame_session_candidate(s)) {
		/* the commit the search ended at, not confirmed: never the suspect */
		json_writer_begin_object(w);
		json_writer_key_string(w, "commit", s->ans.narrow.culprit_info.id);
		json_writer_key_string(w, "subject", s->ans.narrow.culprit_info.subject);
		json_writer_key_number(w, "step", s->ans.narrow.pair.step.step);
		json_writer_key_pair(w, "step_interval", s->ans.narrow.pair.step.lo, s->ans.narrow.pair.step.hi);
		json_writer_key_number(w, "explains", s->ans.narrow.pair.step.explains);
		json_writer_key_pair(w, "interval", s->ans.narrow.pair.step.explains_lo,
				     s->ans.narrow.pair.step.explains_hi);
		json_writer_key_number(w, "interval_level", s->ans.narrow.pair.step.explains_level);
		json_writer_key_bool(w, "log_scale", s->ans.narrow.pair.step.log_scale);
		json_writer_end(w);
	} else {
		json_writer_null(w);
	}
	json_writer_key(w, "suspect");
	if (!flame_session_has_suspect(s)) {
		json_writer_null(w);
		return;
	}
	json_writer_begin_object(w);
	json_writer_key_string(w, "commit", s->ans.narrow.culprit_info.id);
	json_writer_key_string(w, "subject", s->ans.narrow.culprit_info.subject);
	json_writer_key_string(w, "author", s->ans.narrow.culprit_info.author);
	json_writer_key_string(w, "date", s->ans.narrow.culprit_info.date);
	json_writer_key_string(w, "function", flame_session_named_function(s));
	json_writer_key_string(w, "frame", s->ans.target.frame ? s->ans.target.frame : flame_session_named_function(s));
	json_writer_key_string(w, "changed_function", s->ans.suspects.changed_function);
	json_writer_key_string(w, "function_source", s->ans.target.function ? "profile" :
				s->ans.target.blocked_function ? "off-CPU profile" :
				s->ans.suspects.changed_function ? "changed by the suspect commit" : NULL);
	/*
	 * the one-sided p of the step, adjusted for the looks (null: exact counts,
	 * or never re-probed - no test was made); confidence is 1 - p (kept for
	 * scripts), not a probability that the commit is a culprit
	 */
	json_p_value(w, s, s->ans.narrow.culprit_info.id, s->ans.narrow.suspect_confidence);
	json_writer_key_number(w, "confidence", s->ans.narrow.suspect_confidence);
	json_writer_key_string(w, "confidence_method", s->ans.narrow.confidence_how);
	json_writer_key(w, "merge");
	if (s->ans.fix.is_merge) {
		json_writer_begin_object(w);
		json_writer_key(w, "merged_commits_touching_function");
		json_writer_begin_array(w);
		for (i = 0; i < s->ans.fix.merged.nr; i++)
			json_writer_string(w, s->ans.fix.merged.items[i]);
		json_writer_end(w);
		json_writer_key_uint(w, "merged_commits", s->ans.fix.merged_total);
		/* the lines the merged commits' diffs were checked against */
		json_writer_key_string(w, "file", s->ans.fix.merged_file);
		json_writer_key_uint(w, "line", s->ans.fix.merged_line);
		json_writer_key_uint(w, "line_end", s->ans.fix.merged_end);
		json_writer_end(w);
	} else {
		json_writer_null(w);
	}
	json_revert(w, "revert", s, &s->ans.fix.revert);
	json_revert(w, "revert_with_later", s, &s->ans.fix.revert_later);
	json_revert(w, "revert_all", s, &s->ans.fix.revert_all);
	json_writer_key(w, "ambiguous_with");
	json_writer_begin_array(w);
	for (i = 0; i < s->ans.narrow.ambiguous.nr; i++)
		if (strcmp(s->ans.narrow.ambiguous.items[i], s->ans.narrow.culprit))
			json_writer_string(w, s->ans.narrow.ambiguous.items[i]);
	json_writer_end(w);
	json_writer_end(w);
}

static void json_suspect_item(struct json_writer *w, const struct flame_session *s, size_t i)
{
	json_writer_key_string(w, "commit", s->ans.suspects.list[i].commit.id);
	json_writer_key_string(w, "subject", s->ans.suspects.list[i].commit.subject);
	json_writer_key_bool(w, "touches_function", s->ans.suspects.list[i].touches_function);
}

static void json_probe(struct json_writer *w, const struct flame_session *s, size_t i)
{
	const struct flame_probe_result *p = &s->ans.narrow.probes[i];

	json_writer_key_string(w, "commit", p->id);
	json_writer_key_number(w, "share", s->ans.target.function ? p->share : 0);
	json_writer_key_number(w, "value", p->value);
	json_writer_key_number(w, "stderr", p->se);
	json_writer_key_string(w, "verdict", trail_probe_verdict_name(p->verdict));
	json_writer_key_uint(w, "runs", p->runs);
	json_writer_key_bool(w, "cached_build", p->build_cached);
	json_writer_key_number(w, "seconds", p->seconds);
	json_writer_key_string(w, "host", p->host[0] ? p->host : "local");
}

static void json_reproduce(const struct flame_session *s, struct json_writer *w)
{
	struct strbuf c = STRBUF_INIT;

	json_writer_key(w, "reproduce");
	json_writer_begin_array(w);
	reproduce_cmd(s, &c);
	json_writer_string(w, c.buf);
	if (s->ans.narrow.strategy_used) {
		strbuf_reset(&c);
		flame_bisect_commands(s, s->req.trail_exe ? s->req.trail_exe : "trail", &c);
		json_writer_string(w, c.buf);
	}
	json_writer_end(w);
	strbuf_release(&c);
}

/* The change between the ends and its interval (flame/estimate.h). */
static void json_change(const struct flame_session *s, struct json_writer *w)
{
	const struct flame_interval *iv = &s->ans.ends.change_iv;

	json_writer_key(w, "change");
	if (!iv->n) {
		json_writer_null(w);
		return;
	}
	json_writer_begin_object(w);
	/* estimate and interval are ratios minus 1, not logs: the label says so */
	json_writer_key_string(w, "statistic", s->req.percentile == 50 ?
			       "exp(mean paired log ratio) - 1" :
			       "paired bootstrap of the percentile's ratio - 1");
	json_writer_key_number(w, "estimate", iv->estimate);
	json_writer_key_pair(w, "interval", iv->lo, iv->hi);
	json_writer_key_number(w, "alpha", iv->alpha);
	json_writer_key_uint(w, "pairs", iv->n);
	json_writer_key_uint(w, "looks", s->ans.ends.looks);
	json_writer_key_number(w, "min_effect", s->req.min_effect);
	/* the claim "at least min_effect" is the interval's, not the estimate's */
	json_writer_key_bool(w, "at_least_min_effect", flame_change_at_least(iv, s->req.min_effect));
	json_writer_key_number(w, "min_detectable", flame_min_detectable(iv, 0.8));
	json_writer_end(w);
}

/* One entry of culprits: a commit and its step beside its parent. */
static void json_culprit(const struct flame_session *s, struct json_writer *w, const char *id,
			 const char *function, const char *frame,
			 const struct flame_step_assessment *a, double confidence, double unit_ms,
			 double unit_bytes)
{
	json_writer_begin_object(w);
	json_writer_key_string(w, "commit", id);
	json_writer_key_string(w, "function", function ? function : flame_session_named_function(s));
	json_writer_key_string(w, "frame", frame ? frame : s->ans.target.frame ? s->ans.target.frame :
			       flame_session_named_function(s));
	json_writer_key_number(w, "step", a->step);
	json_writer_key_pair(w, "step_interval", a->lo, a->hi);
	json_writer_key_number(w, "explains", a->explains);
	json_writer_key_pair(w, "interval", a->explains_lo, a->explains_hi);
	/* Fieller's interval (estimate.h) at this level; on the log scale for a time */
	json_writer_key_number(w, "interval_level", a->explains_level);
	json_writer_key_bool(w, "log_scale", a->log_scale);
	json_p_value(w, s, id, confidence);
	json_writer_key_number(w, "confidence", confidence);	/* 1 - p_value, for scripts */
	json_writer_key(w, "effect");
	if (unit_ms > 0) {
		double ends = s->ans.culprits.cpu_ms[1] - s->ans.culprits.cpu_ms[0];

		/* the step in the metric's unit: CPU time per run (culprits.c) */
		json_writer_begin_object(w);
		json_writer_key_string(w, "unit", "ms CPU per run");
		json_writer_key_number(w, "value", a->step * unit_ms);
		json_writer_key_pair(w, "interval", a->lo * unit_ms, a->hi * unit_ms);
		json_writer_key_number(w, "of_ends_change", ends > 0 ? a->step * unit_ms / ends : 0);
		json_writer_end(w);
	} else if (unit_bytes > 0) {
		double ends = s->ans.culprits.bytes[1] - s->ans.culprits.bytes[0];

		/* an allocation profile's samples per run times its interval (culprits.c) */
		json_writer_begin_object(w);
		json_writer_key_string(w, "unit", flame_metric_bytes_per_run(s->req.metric));
		json_writer_key_number(w, "value", a->step * unit_bytes);
		json_writer_key_pair(w, "interval", a->lo * unit_bytes, a->hi * unit_bytes);
		json_writer_key_number(w, "of_ends_change", ends > 0 ? a->step * unit_bytes / ends : 0);
		json_writer_end(w);
	} else {
		json_writer_null(w);
	}
	json_writer_end(w);
}

/*
 * Every culprit found (culprits.c), the suspect first, then the others
 * by the part of their measure's change they explain; empty unless the
 * verdict is regression.
 */
static void json_culprits(const struct flame_session *s, struct json_writer *w)
{
	size_t i;

	json_writer_key(w, "culprits");
	json_writer_begin_array(w);
	if (s->ans.outcome == VERDICT_REGRESSION && s->ans.narrow.culprit_info.id[0]) {
		if (!s->ans.culprits.count)
			json_culprit(s, w, s->ans.narrow.culprit_info.id, NULL, NULL, &s->ans.narrow.pair.step,
				     s->ans.narrow.suspect_confidence, 0, 0);
		for (i = 0; i < s->ans.culprits.count; i++) {
			const struct flame_culprit *c = &s->ans.culprits.list[i];

			json_culprit(s, w, c->id, c->function, c->frame, &c->step, c->confidence,
				     c->unit_ms, c->unit_bytes);
		}
	}
	json_writer_end(w);
	json_writer_key(w, "effects");
	if (s->ans.outcome == VERDICT_REGRESSION && flame_culprits_sum_unit(s)) {
		double sum = flame_culprits_sum(s), ends = flame_culprits_ends(s, 1) - flame_culprits_ends(s, 0);

		json_writer_begin_object(w);
		json_writer_key_string(w, "unit", flame_culprits_sum_unit_name(s));
		json_writer_key_number(w, "good", flame_culprits_ends(s, 0));
		json_writer_key_number(w, "bad", flame_culprits_ends(s, 1));
		json_writer_key_number(w, "ends_change", ends);
		json_writer_key_number(w, "ends_change_se", flame_culprits_ends_se(s));
		json_writer_key_number(w, "culprits", sum);
		json_writer_key_number(w, "unexplained", ends - sum);
		json_writer_key_bool(w, "adds_up", flame_culprits_add_up(s));
		json_writer_end(w);
	} else {
		json_writer_null(w);
	}
}

/* report.json; the schema is in docs/flame.md. */
static void write_json(const struct flame_session *s, struct strbuf *sb)
{
	struct json_writer w;

	json_writer_init(&w, sb, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "verdict", trail_verdict_name(s->ans.outcome));
	json_writer_key_string(&w, "message", s->ans.message);
	json_writer_key_string(&w, "good", s->ans.ends.good);
	json_writer_key_string(&w, "bad", s->ans.ends.bad);
	json_writer_key_uint(&w, "commits_in_range", s->ans.ends.commits_in_range);
	json_writer_key_string(&w, "profiler", s->ans.ends.offcpu_profile ? "trail" : s->req.profiler);
	{
		/* what the profiles counted: the view the diff and the bisection used */
		struct flame_capture_opts o;

		memset(&o, 0, sizeof(o));
		o.profile = flame_metric_profile(s->req.metric, s->ans.ends.offcpu_profile, s->req.profiler);
		o.profiler = s->req.profiler;
		json_writer_key_string(&w, "profile", s->req.metric == FLAME_METRIC_PEAK_HEAP ?
				       "inuse-peak" : flame_profile_view(&o));
	}
	json_writer_key(&w, "blocked");
	if (s->ans.target.blocked_function) {
		json_writer_begin_object(&w);
		json_writer_key_string(&w, "function", s->ans.target.blocked_function);
		json_writer_key_string(&w, "defined_in", s->ans.suspects.def_file);
		json_writer_key_uint(&w, "line", s->ans.suspects.def_line);
		json_writer_key_number(&w, "good_ms", s->ans.target.blocked_ms[0]);
		json_writer_key_number(&w, "bad_ms", s->ans.target.blocked_ms[1]);
		json_writer_end(&w);
	} else {
		json_writer_null(&w);
	}
	json_metric(s, &w);
	json_change(s, &w);
	json_object_array(&w, "hotspots", s->ans.target.hot.nr < 5 ? s->ans.target.hot.nr : 5, s, json_hotspot);
	json_target(s, &w);
	json_suspect(s, &w);
	json_culprits(s, &w);
	{
		size_t i;

		/* confirmed earlier but reverted later in the range (narrow.c) */
		json_writer_key(&w, "reverted_culprits");
		json_writer_begin_array(&w);
		for (i = 0; i < s->ans.narrow.reverted.nr; i++)
			json_writer_string(&w, s->ans.narrow.reverted.items[i]);
		json_writer_end(&w);
	}
	json_object_array(&w, "suspects", s->ans.suspects.count, s, json_suspect_item);
	json_writer_key_string(&w, "strategy", s->ans.narrow.strategy_used);
	json_writer_key_string(&w, "strategy_reason", s->ans.narrow.strategy_used ? s->ans.narrow.strategy_reason : NULL);
	json_object_array(&w, "probes", s->ans.narrow.nprobes, s, json_probe);
	flame_fleet_report_json(&w, &s->ans.fleet);
	json_writer_key(&w, "recommendation");
	/* never a recommendation (a revert) on an answer that names no commit */
	if (s->ans.fix.recommendation && s->ans.outcome == VERDICT_REGRESSION) {
		json_writer_begin_object(&w);
		json_writer_key_string(&w, "action", s->ans.fix.recommendation);
		json_writer_key_string(&w, "reason", s->ans.fix.recommendation_reason);
		json_writer_end(&w);
	} else {
		json_writer_null(&w);
	}
	json_reproduce(s, &w);
	json_writer_key_int(&w, "builds", s->ans.ends.builds);
	json_writer_key_int(&w, "cached_builds", s->ans.ends.cached_builds);
	json_writer_key_number(&w, "seconds", s->ans.seconds);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(sb, '\n');
}

/* Markdown escaping (core/escape.h) for strings that came from outside. */
static void md_text(struct strbuf *sb, const char *s)
{
	if (s)
		escape_md_text(sb, s, strlen(s));
}

static void md_code(struct strbuf *sb, const char *s, size_t max, int in_table)
{
	size_t len = s ? strlen(s) : 0;

	escape_md_code(sb, s ? s : "", len < max ? len : max, in_table);
}

#define WHOLE ((size_t)-1)

/* The verdict, the two ends, the metric and what the profiles count. */
static void md_summary(const struct flame_session *s, struct strbuf *sb)
{
	strbuf_addf(sb, "# trail flame report\n\n**Verdict: %s** — ",
		    trail_verdict_name(s->ans.outcome));
	md_text(sb, s->ans.message);
	strbuf_addstr(sb, "\n\n- good: ");
	md_code(sb, s->ans.ends.good, WHOLE, 0);
	strbuf_addstr(sb, "\n- bad: ");
	md_code(sb, s->ans.ends.bad, WHOLE, 0);
	strbuf_addf(sb, " (%zu commits in between)\n", s->ans.ends.commits_in_range);
	if (s->ans.ends.exact_counts) {
		strbuf_addf(sb, "- metric: %s, %.0f → %.0f %s: %+.0f, ", flame_metric_name(s->req.metric),
			    s->ans.ends.metric_med[0], s->ans.ends.metric_med[1],
			    flame_metric_unit(s->req.metric),
			    s->ans.ends.metric_med[1] - s->ans.ends.metric_med[0]);
		numfmt_percent(sb, s->ans.ends.change_iv.estimate, NUMFMT_SIGN);
		strbuf_addf(sb, " (exact counts, %zu + %zu runs alike)\n", s->st.nruns[0], s->st.nruns[1]);
	} else {
		strbuf_addf(sb, "- metric: %s, median ", flame_metric_name(s->req.metric));
		flame_html_metric(sb, s, s->ans.ends.metric_med[0]);
		strbuf_addstr(sb, " → ");
		flame_html_metric(sb, s, s->ans.ends.metric_med[1]);
		strbuf_addf(sb, " (Mann-Whitney p = %.3g, %zu + %zu runs)\n", s->ans.ends.metric_p,
			    s->st.nruns[0], s->st.nruns[1]);
	}
	{
		struct strbuf t = STRBUF_INIT;

		if (!flame_report_min_effect_text(s, &t))
			strbuf_addstr(&t, "no interval (the runs gave no ratio)");
		strbuf_addstr(sb, "- change: ");
		md_text(sb, t.buf);
		strbuf_addch(sb, '\n');
		strbuf_release(&t);
	}
	{
		struct flame_capture_opts o = flame_session_capture_opts(s);
		char what[300];

		strbuf_addstr(sb, "- profiles: ");
		md_text(sb, flame_profile_describe(&o, what, sizeof(what)));
		strbuf_addch(sb, '\n');
	}
}


/* Inconclusive: the commit the search ended at, below the headline, unconfirmed. */
static void md_candidate(const struct flame_session *s, struct strbuf *sb)
{
	const struct flame_step_assessment *a = &s->ans.narrow.pair.step;
	char ex[FLAME_EXPLAINS_TEXT];

	strbuf_addstr(sb, "\n## Candidate (not confirmed)\n\n- commit: ");
	md_code(sb, s->ans.narrow.culprit_info.id, WHOLE, 0);
	strbuf_addstr(sb, "\n- subject: ");
	md_text(sb, s->ans.narrow.culprit_info.subject);
	flame_explains_format(a, ex, sizeof(ex));
	strbuf_addf(sb, "\n- beside its parent it explains %s of the change: not enough to name "
		    "it\n", ex);
}

/* The suspect commit: who, which function, how sure, what to do. */
static void md_suspect(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	strbuf_addstr(sb, "\n## Suspect\n\n- commit: ");
	md_code(sb, s->ans.narrow.culprit_info.id, WHOLE, 0);
	strbuf_addstr(sb, "\n- subject: ");
	md_text(sb, s->ans.narrow.culprit_info.subject);
	strbuf_addstr(sb, "\n- author: ");
	md_text(sb, s->ans.narrow.culprit_info.author);
	strbuf_addstr(sb, ", ");
	md_text(sb, s->ans.narrow.culprit_info.date);
	if (flame_session_named_function(s)) {
		strbuf_addstr(sb, "\n- function: ");
		md_code(sb, flame_session_named_function(s), WHOLE, 0);
	} else {
		strbuf_addstr(sb, "\n- metric: ");
		md_code(sb, flame_metric_name(s->req.metric), WHOLE, 0);
		strbuf_addstr(sb, " (bisected on the metric itself; no function is named");
		if (!s->ans.target.blocked_function) {
			strbuf_addstr(sb, ": ");
			if (!flame_report_rose_across(s, sb, FLAME_TEXT_MD))
				strbuf_addstr(sb, "no function's share rose");
		}
		strbuf_addch(sb, ')');
	}
	if (s->ans.suspects.def_file) {
		strbuf_addstr(sb, " in ");
		md_text(sb, s->ans.suspects.def_file);
		if (s->ans.suspects.def_by_macro && s->ans.suspects.def_macro_file) {
			strbuf_addf(sb, ", made by the macro invoked at line %u, whose `#define` is in ",
				    s->ans.suspects.def_line);
			md_text(sb, s->ans.suspects.def_macro_file);
			strbuf_addf(sb, " lines %u-%u: git log -L follows both, so a commit that "
				    "changes only the macro's body counts as touching it",
				    s->ans.suspects.def_macro_line, s->ans.suspects.def_macro_end);
		} else if (s->ans.suspects.def_by_macro) {
			strbuf_addf(sb, ", made by the macro invoked at line %u (its `#define` was not "
				    "found): git log -L follows that invocation, so a commit that changes "
				    "only the macro's body is not counted as touching it",
				    s->ans.suspects.def_line);
		}
	}
	/* trail's own words and numbers: nothing to escape ("[...]" with no "(" is no link) */
	strbuf_addstr(sb, "\n- evidence: ");
	flame_report_evidence(s, sb);
	strbuf_addstr(sb, " — ");
	md_text(sb, s->ans.narrow.confidence_how);
	strbuf_addch(sb, '\n');
	if (s->ans.target.function && s->ans.suspects.changed_function &&
	    !flame_same_source_name(s->ans.target.function, s->ans.suspects.changed_function)) {
		strbuf_addstr(sb, "- changed: the commit changed ");
		md_code(sb, s->ans.suspects.changed_function, WHOLE, 0);
		strbuf_addstr(sb, ", not ");
		md_code(sb, s->ans.target.function, WHOLE, 0);
		strbuf_addstr(sb, " itself, where the time rose");
		if (s->ans.target.frame) {
			strbuf_addstr(sb, " (in ");
			md_code(sb, s->ans.target.frame, WHOLE, 0);
			strbuf_addch(sb, ')');
		}
		strbuf_addstr(sb, "; how the two connect is not checked (");
		md_code(sb, s->ans.target.function, WHOLE, 0);
		strbuf_addstr(sb, " may call it, or use data it produces)\n");
	}
	if (s->ans.target.frame) {
		strbuf_addstr(sb, "- hot frame: ");
		md_code(sb, s->ans.target.frame, WHOLE, 0);
		strbuf_addstr(sb, " (library or kernel code; its time is counted to ");
		md_code(sb, s->ans.target.function, WHOLE, 0);
		strbuf_addstr(sb, ", its innermost caller the repository defines, and the "
			      "bisection measured that function's own time with the library and kernel "
			      "code under it)\n");
	}
	if (s->ans.fix.is_merge) {
		const char *fn = flame_session_named_function(s);

		strbuf_addf(sb, "- merge: the first slow commit is a merge of %zu commit%s; ",
			    s->ans.fix.merged_total, s->ans.fix.merged_total == 1 ? "" : "s");
		if (!fn) {
			strbuf_addstr(sb, "it brought in:");
		} else if (!s->ans.fix.merged_file) {
			md_code(sb, fn, WHOLE, 0);
			strbuf_addstr(sb, " is not defined in the repository, so none is named\n");
		} else if (!s->ans.fix.merged.nr) {
			strbuf_addstr(sb, "none of them changed the lines of ");
			md_code(sb, fn, WHOLE, 0);
			strbuf_addstr(sb, " (");
			md_text(sb, s->ans.fix.merged_file);
			strbuf_addf(sb, ":%u-%u), so the merge itself is the answer: the change comes "
				    "from how the two sides combine, or from a merged commit that does "
				    "not build or run alone\n", s->ans.fix.merged_line, s->ans.fix.merged_end);
		} else {
			strbuf_addstr(sb, "those whose diff changed the lines of ");
			md_code(sb, fn, WHOLE, 0);
			strbuf_addstr(sb, " (");
			md_text(sb, s->ans.fix.merged_file);
			strbuf_addf(sb, ":%u-%u):", s->ans.fix.merged_line, s->ans.fix.merged_end);
		}
		for (i = 0; (!fn || s->ans.fix.merged_file) && i < s->ans.fix.merged.nr; i++) {
			strbuf_addch(sb, ' ');
			md_code(sb, s->ans.fix.merged.items[i], 12, 0);
		}
		if (!fn || s->ans.fix.merged.nr)
			strbuf_addch(sb, '\n');
	}
	if (s->ans.fix.recommendation) {
		strbuf_addf(sb, "- recommendation: **%s** — ", s->ans.fix.recommendation);
		md_text(sb, s->ans.fix.recommendation_reason);
		strbuf_addch(sb, '\n');
	}
}

/* The culprit list, what blocks longer and the hotter functions' table. */
static void md_hotspots(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	flame_report_md_culprits(s, sb);
	if (s->ans.target.blocked_function) {
		strbuf_addstr(sb, "- blocks longer: ");
		md_code(sb, s->ans.target.blocked_function, WHOLE, 0);
		strbuf_addstr(sb, ", ");
		numfmt_value(sb, s->ans.target.blocked_ms[0], "ms", 0);
		strbuf_addstr(sb, " → ");
		numfmt_value(sb, s->ans.target.blocked_ms[1], "ms", 0);
		strbuf_addstr(sb, " off-CPU per run\n");
	}
	if (s->ans.ends.offcpu_profile)
		strbuf_addstr(sb, "\n## Functions blocking longer (off-CPU profile: share of the "
				  "workload's thread time, running or blocked, that each function "
				  "spent blocked, library and kernel frames counted to their caller; "
				  "good → bad)\n\n");
	else
		strbuf_addstr(sb, s->ans.target.measure_lib ?
			      "\n## Hotter functions (self share with the library and kernel code "
			      "under each counted to it, good → bad)\n\n" :
			      "\n## Hotter functions (self share, good → bad)\n\n");
	strbuf_addstr(sb, "| function | good | bad | delta | stderr | confirmed |\n"
			  "| --- | ---: | ---: | ---: | ---: | --- |\n");
	for (i = 0; i < s->ans.target.hot.nr && i < 10; i++) {
		const struct flame_hotspot *h = &s->ans.target.hot.items[i];

		strbuf_addstr(sb, "| ");
		md_code(sb, h->name, WHOLE, 1);
		strbuf_addstr(sb, " | ");
		numfmt_percent(sb, h->good_self.mean, 0);
		strbuf_addstr(sb, " | ");
		numfmt_percent(sb, h->bad_self.mean, 0);
		strbuf_addstr(sb, " | ");
		numfmt_pp(sb, h->delta_self, NUMFMT_SIGN);
		strbuf_addstr(sb, " | ");
		if (s->ans.ends.exact_counts)	/* no sampling error in a share of exact counts */
			strbuf_addstr(sb, "exact counts");
		else
			numfmt_pp(sb, h->se_self, 0);
		strbuf_addf(sb, " | %s |\n", h->confirmed ? "yes" : "no");
	}
	if (!s->ans.target.hot.nr)
	{
		strbuf_addstr(sb, "| (none rose by ");
		numfmt_pp(sb, s->req.min_delta, 0);
		strbuf_addstr(sb, " or more) | | | | | |\n");
	}
}

/* The suspects searched and the probes run. */
static void md_probes(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	if (s->ans.suspects.count) {
		strbuf_addstr(sb, "\n## Suspects (commits in the range touching the function or its callees)\n\n");
		for (i = 0; i < s->ans.suspects.count; i++) {
			strbuf_addstr(sb, "- ");
			md_code(sb, s->ans.suspects.list[i].commit.id, 12, 0);
			strbuf_addch(sb, ' ');
			md_text(sb, s->ans.suspects.list[i].commit.subject);
			strbuf_addstr(sb, s->ans.suspects.list[i].touches_function ? "\n" : " (a callee)\n");
		}
	}
	if (s->ans.narrow.nprobes) {
		strbuf_addstr(sb, "\n## Probes (");
		md_text(sb, s->ans.narrow.strategy_used);
		strbuf_addstr(sb, ": ");
		md_text(sb, s->ans.narrow.strategy_reason);
		strbuf_addstr(sb, ")\n\nThreshold between fast and slow: ");
		flame_html_value(sb, s, s->ans.target.threshold);
		strbuf_addf(sb, " (the midpoint of good and bad%s).\n\n| commit | measured | stderr | share | verdict | runs |%s\n"
			    "| --- | ---: | ---: | ---: | --- | ---: |%s\n",
			    s->ans.fleet.used ? "; each host judges its probes by the midpoint of its own ends, under Hosts" : "",
			    s->ans.fleet.used ? " host |" : "", s->ans.fleet.used ? " --- |" : "");
		for (i = 0; i < s->ans.narrow.nprobes; i++) {
			const struct flame_probe_result *p = &s->ans.narrow.probes[i];
			const char *subj = probe_commit_subject(s, p->id);

			strbuf_addstr(sb, "| ");
			md_code(sb, p->id, 12, 1);
			if (subj) {
				strbuf_addch(sb, ' ');
				md_text(sb, subj);
			}
			strbuf_addstr(sb, " | ");
			flame_html_value(sb, s, p->value);
			strbuf_addstr(sb, " | ");
			flame_html_value(sb, s, p->se);
			strbuf_addstr(sb, " | ");
			numfmt_percent(sb, p->share, 0);
			strbuf_addf(sb, " | %s | %u |", trail_probe_verdict_name(p->verdict), p->runs);
			flame_fleet_md_host_cell(&s->ans.fleet, p->host[0] ? p->host : "local", sb);
			strbuf_addch(sb, '\n');
		}
	}
	flame_fleet_report_md(&s->ans.fleet, sb);
}

/* The hand-offs, the files written and the command lines to reproduce it. */
static void md_files(const struct flame_session *s, const struct flame_report_facts *f,
		     struct strbuf *sb)
{
	struct strbuf cmd = STRBUF_INIT;

	flame_report_md_handoffs(s, f, sb);
	strbuf_addf(sb, "\n## Files\n\n- `diff.svg` differential %sflame graph (coloured by the change "
		    "of each function's %s), `good.svg`, `bad.svg`\n"
		    "- `good.folded`, `bad.folded`, `diff.folded` (stack good bad)%s\n\n## Reproduce\n\n",
		    s->ans.ends.offcpu_profile ? "off-CPU " : "",
		    s->ans.target.diff_by_time ? (s->ans.ends.offcpu_profile ? "blocked time per run" :
		    "CPU time per run") : "share",
		    s->ans.ends.offcpu_profile ? ": off-CPU stacks, counts in microseconds blocked" : "");
	/* command lines hold the user's arguments and paths: fenced so nothing breaks out */
	reproduce_cmd(s, &cmd);
	if (s->ans.narrow.strategy_used) {
		strbuf_addstr(&cmd, "\n# the bisection alone, as trail ran it:\n");
		flame_bisect_commands(s, s->req.trail_exe ? s->req.trail_exe : "trail", &cmd);
	}
	escape_md_code_block(sb, cmd.buf, cmd.len, "sh");
	strbuf_release(&cmd);
}

static void write_md(const struct flame_session *s, const struct flame_report_facts *f,
		     struct strbuf *sb)
{
	md_summary(s, sb);
	if (flame_session_has_suspect(s))
		md_suspect(s, sb);
	else if (flame_session_candidate(s))
		md_candidate(s, sb);
	md_hotspots(s, sb);
	md_probes(s, sb);
	md_files(s, f, sb);
}

/* escape_term() of s, "?" for NULL */
static void term(struct strbuf *sb, const char *s)
{
	if (!s)
		s = "?";
	escape_term(sb, s, strlen(s));
}

/* "6.9% -> 15.5%": the hottest function's self share at good and bad. */
static void hot_share_change(struct strbuf *out, const struct flame_answer *a)
{
	numfmt_percent(out, a->target.hot.items[0].good_self.mean, 0);
	strbuf_addstr(out, " -> ");
	numfmt_percent(out, a->target.hot.items[0].bad_self.mean, 0);
}

void flame_report_summary(const struct flame_session *s, struct strbuf *out)
{
	const struct flame_answer *a = &s->ans;

	if (flame_session_has_suspect(s)) {
		strbuf_addstr(out, a->target.function || a->target.blocked_function ? "hot function:   " :
			      "changed:        ");
		if (a->target.function && a->target.hot.nr && a->target.frame) {
			term(out, a->target.function);
			strbuf_addstr(out, " (its share with the library/kernel code under it ");
			hot_share_change(out, a);
			strbuf_addstr(out, "; hot frame ");
			term(out, a->target.frame);
			strbuf_addch(out, ')');
		} else if (a->target.function && a->target.hot.nr) {
			term(out, a->target.function);
			strbuf_addstr(out, " (self share ");
			hot_share_change(out, a);
			strbuf_addch(out, ')');
		} else if (a->target.blocked_function) {
			term(out, a->target.blocked_function);
			strbuf_addstr(out, " (off-CPU ");
			numfmt_value(out, a->target.blocked_ms[0], "ms", 0);
			strbuf_addstr(out, " -> ");
			numfmt_value(out, a->target.blocked_ms[1], "ms", 0);
			strbuf_addf(out, " per run; bisected on %s: ", flame_metric_name(s->req.metric));
			numfmt_value(out, a->target.share[0], flame_metric_unit(s->req.metric), 0);
			strbuf_addstr(out, " -> ");
			numfmt_value(out, a->target.share[1], flame_metric_unit(s->req.metric), 0);
			strbuf_addch(out, ')');
		} else {
			/* no hot function: what the suspect changed, and what was measured */
			if (a->suspects.changed_function) {
				term(out, a->suspects.changed_function);
				strbuf_addstr(out, " (the function the suspect changed; ");
			} else {
				strbuf_addstr(out, "no function named (the suspect's diff names none in a "
					      "source file; ");
			}
			strbuf_addf(out, "the CPU profile is flat, so the bisection measured %s: ",
				    flame_metric_name(s->req.metric));
			numfmt_value(out, a->target.share[0], flame_metric_unit(s->req.metric), 0);
			strbuf_addstr(out, " -> ");
			numfmt_value(out, a->target.share[1], flame_metric_unit(s->req.metric), 0);
			strbuf_addstr(out, "; ");
			if (!flame_report_rose_across(s, out, FLAME_TEXT_TERM))
				strbuf_addstr(out, "no function's share rose");
			strbuf_addch(out, ')');
		}
		strbuf_addstr(out, "\nsuspect commit: ");
		escape_term(out, a->narrow.culprit_info.id, strnlen(a->narrow.culprit_info.id, 12));
		strbuf_addch(out, ' ');
		term(out, a->narrow.culprit_info.subject);
		strbuf_addstr(out, " (");
		term(out, a->narrow.culprit_info.author);
		strbuf_addstr(out, ")\nevidence:       ");
		flame_report_evidence(s, out);
		strbuf_addstr(out, " (");
		term(out, trail_verdict_name(a->outcome));
		strbuf_addstr(out, ")\n");
		flame_report_summary_culprits(s, out);
		flame_report_summary_effects(s, out);
	} else {
		term(out, trail_verdict_name(a->outcome));
		strbuf_addstr(out, ": ");
		term(out, a->message);
		strbuf_addch(out, '\n');
		if (flame_session_candidate(s)) {
			/* below the headline, and never on a "suspect commit:" line */
			strbuf_addstr(out, "candidate:      ");
			escape_term(out, a->narrow.culprit_info.id, strnlen(a->narrow.culprit_info.id, 12));
			strbuf_addch(out, ' ');
			term(out, a->narrow.culprit_info.subject);
			char ex[FLAME_EXPLAINS_TEXT];

			flame_explains_format(&a->narrow.pair.step, ex, sizeof(ex));
			strbuf_addf(out, " (not confirmed: explains %s beside its parent)\n", ex);
		}
	}
	strbuf_addstr(out, "report:         ");
	term(out, s->req.out_dir);
	strbuf_addstr(out, "/report.html\n");
}

int flame_report_write(const struct flame_session *s)
{
	struct strbuf json = STRBUF_INIT, md = STRBUF_INIT, html = STRBUF_INIT, svg = STRBUF_INIT;
	struct flame_report_facts facts;
	char *p = NULL;
	int ret = -1;

	if (make_dirs(s->req.out_dir))
		return -1;
	flame_report_facts_init(&facts);
	flame_report_facts_gather(s, &facts);
	write_json(s, &json);
	write_md(s, &facts, &md);
	if (flame_report_has_file(&facts, "diff.svg")) {
		p = xstrfmt("%s/diff.svg", s->req.out_dir);
		if (strbuf_read_file(&svg, p))
			strbuf_reset(&svg);
		free(p);
	}
	flame_report_html(s, &facts, svg.len ? svg.buf : NULL, &html);
	p = xstrfmt("%s/report.json", s->req.out_dir);
	if (strbuf_write_file(&json, p))
		goto out;
	free(p);
	p = xstrfmt("%s/report.md", s->req.out_dir);
	if (strbuf_write_file(&md, p))
		goto out;
	free(p);
	p = xstrfmt("%s/report.html", s->req.out_dir);
	if (strbuf_write_file(&html, p))
		goto out;
	ret = 0;
out:
	free(p);
	strbuf_release(&json);
	strbuf_release(&md);
	strbuf_release(&html);
	strbuf_release(&svg);
	flame_report_facts_release(&facts);
	return ret;
}
