/*
 * probe.c - fast/slow/skip for one commit (see probe.h).  The decision is
 * a one-sample t test of the measured value against the threshold: slow
 * when value > threshold + t se, fast when value < threshold - t se, t at
 * the alpha the look may spend (estimate.h); otherwise more runs (up to
 * max_runs) and finally skip.
 */
#include "flame/probe.h"
#include "flame/exact.h"
#include "flame/blockers.h"
#include "core/verdict.h"
#include "flame/decide.h"
#include "flame/shares.h"
#include "stats/sequential.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/progress.h"
#include "core/strbuf.h"
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One commit's side of a probe: its build and the runs measured so far. */
struct probe_side {
	const char *id;
	struct flame_run *runs;
	size_t nr, alloc;
	char *dir;
};

static void side_release(struct probe_side *side)
{
	size_t i;

	for (i = 0; i < side->nr; i++)
		flame_run_release(&side->runs[i]);
	free(side->runs);
	free(side->dir);
	memset(side, 0, sizeof(*side));
}

static struct flame_capture_opts probe_capture_opts(const struct flame_probe_request *o)
{
	struct flame_capture_opts cap;

	flame_probe_request_capture(o, &cap);
	/* A metric from unprofiled runs needs no profile: do not record one. */
	if (!o->function && o->metric != FLAME_METRIC_CPU && !flame_metric_from_profile(o->metric))
		cap.profile = FLAME_PROFILE_NONE;
	return cap;
}

/*
 * Build the side's commit: 0 built, 1 the build failed (out->why says so,
 * out->verdict stays skip), -1 error.
 */
/* A result not measured yet: the commit's id, verdict skip. */
static void result_init(struct flame_probe_result *out, const char *id)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "%s", id);
	out->verdict = PROBE_SKIP;
}

static int side_build(struct flame_repo *r, const struct flame_probe_request *o,
		      struct probe_side *side, struct flame_probe_result *out)
{
	int code;

	result_init(out, side->id);
	code = flame_build(r, side->id, o->build_cmd, o->build_timeout, &side->dir,
			   &out->build_cached);
	if (code < 0)
		return -1;
	if (code) {
		char *log = flame_build_log(r, side->id, o->build_cmd);

		snprintf(out->why, sizeof(out->why), "build failed (log: %s)", log);
		free(log);
		return 1;
	}
	return 0;
}

/* One more run of the side's workload: 0, 1 it failed (out->why), -1 error. */
static int side_run(const struct flame_capture_opts *cap, struct probe_side *side,
		    struct flame_probe_result *out)
{
	int code;

	ALLOC_GROW(side->runs, side->nr + 1, side->alloc);
	code = flame_capture_run(cap, side->dir, &side->runs[side->nr]);
	side->nr++;
	if (!code)
		return 0;
	if (side->runs[side->nr - 1].timed_out)
		snprintf(out->why, sizeof(out->why), "the workload did not finish in %g s "
			 "(--timeout)", cap->timeout);
	else
		snprintf(out->why, sizeof(out->why), "%s", code > 0 ? "the workload failed" :
			 "the profiler failed");
	return code > 0 ? 1 : -1;
}

int flame_function_over_runs(struct flame_repo *r, const char *rev,
			     struct folded_profile *const *runs, const double *cpu_ms, size_t n,
			     const char *func, enum flame_measure m, const struct string_list *exclude,
			     struct flame_share *value, double *share)
{
	struct folded_profile **use = xcalloc(n ? n : 1, sizeof(*use)), *cut = NULL;
	int total = flame_measure_total(m), is_share = flame_measure_share(m), ret = 0;
	struct flame_share s;
	size_t i;

	for (i = 0; i < n; i++)
		use[i] = runs[i];
	/*
	 * lib-: the function's own time with the library and kernel code
	 * under it, what the diff ranked when it moved a library frame's time
	 * up to its caller - not its inclusive time, which holds every other
	 * program function it calls.
	 */
	if (flame_measure_lib(m)) {
		cut = xcalloc(n ? n : 1, sizeof(*cut));
		ret = flame_blockers_cut_at_repository(r, rev, func, use, n, cut);
		for (i = 0; i < n; i++)
			use[i] = &cut[i];
	}
	flame_share_over_runs(use, n, func, total, &s);
	if (share)
		*share = s.mean;
	if (flame_measure_time(m))
		flame_time_over_runs(use, cpu_ms, n, func, total, &s);
	else if (is_share && exclude && exclude->nr && !total && !cut)
		flame_relative_share_over_runs(use, n, func, exclude, &s);
	else if (!is_share)
		flame_samples_over_runs(use, n, func, total, &s);
	*value = s;
	for (i = 0; cut && i < n; i++)
		folded_profile_release(&cut[i]);
	free(cut);
	free(use);
	return ret;
}

/*
 * The value compared (share, samples per run or metric) over the side's
 * runs; 0, or -1 when a lib- measure cannot tell the repository's frames.
 */
static int side_estimate(struct flame_repo *r, const struct flame_probe_request *o,
			 const struct probe_side *side, struct flame_probe_result *out)
{
	struct folded_profile **profiles = xcalloc(side->nr ? side->nr : 1, sizeof(*profiles));
	double *values = xcalloc(side->nr ? side->nr : 1, sizeof(*values));
	double *cpu_ms = xcalloc(side->nr ? side->nr : 1, sizeof(*cpu_ms));
	size_t i;
	int ret = 0;

	for (i = 0; i < side->nr; i++) {
		profiles[i] = &side->runs[i].folded;
		values[i] = flame_run_metric(&side->runs[i], o->metric);
		cpu_ms[i] = side->runs[i].cpu_us / 1e3;
	}
	if (o->function) {
		struct flame_share s;

		ret = flame_function_over_runs(r, side->id, profiles, cpu_ms, side->nr, o->function,
					       o->measure, o->exclude, &s, &out->share);
		out->value = s.mean;
		out->se = s.se;
	} else {
		flame_metric_estimate(values, side->nr, o->percentile > 0 ? o->percentile : 50,
				      &out->value, &out->se);
		/* a counted metric whose counts repeat (exact.c): the value has no error */
		if (flame_metric_deterministic(o->metric) &&
		    flame_exact_spread(values, side->nr) <= FLAME_EXACT_TOLERANCE)
			out->se = 0;
	}
	out->runs = (unsigned)side->nr;
	free(profiles);
	free(values);
	free(cpu_ms);
	return ret;
}

/*
 * The t of a look at n runs (the previous look at prev, the budget max):
 * the look's share of the probe's alpha (1 - confidence), Student's t on
 * n - 1 degrees of freedom.
 */
static double look_t(const struct flame_probe_request *o, size_t prev, size_t n, size_t max)
{
	double a = flame_alpha_look(1 - o->confidence, prev, n, max, 0);

	return flame_t_quantile(a / 2, n > 1 ? (double)(n - 1) : 1);
}

/* fast, slow or (undecided) skip against the threshold, t standard errors wide. */
static enum trail_probe_verdict against_threshold(const struct flame_probe_request *o,
					    const struct flame_probe_result *res, double t)
{
	if (res->value > o->threshold + t * res->se)
		return PROBE_SLOW;
	if (res->value < o->threshold - t * res->se)
		return PROBE_FAST;
	return PROBE_SKIP;
}

int flame_probe(struct flame_repo *r, const char *id, const struct flame_probe_request *o,
		struct flame_probe_result *out)
{
	struct flame_capture_opts cap = probe_capture_opts(o);
	struct probe_side side = { .id = id };
	double t0 = clock_monotonic(), t = 0;
	size_t prev = 0, max = o->max_runs > o->runs ? o->max_runs : o->runs;
	int code, ret = -1;

	code = side_build(r, o, &side, out);
	if (code)
		goto out;
	for (;;) {
		unsigned want = side.nr ? (o->runs + 1) / 2 : o->runs, i;

		if (!want)
			want = 1;
		for (i = 0; i < want && side.nr < max; i++)
			if ((code = side_run(&cap, &side, out)))
				goto out;
		if (side_estimate(r, o, &side, out)) {
			code = -1;
			goto out;
		}
		t = look_t(o, prev, side.nr, max);
		prev = side.nr;
		out->verdict = against_threshold(o, out, t);
		if (out->verdict != PROBE_SKIP)
			break;
		if (side.nr >= max) {
			char v[32], th[32];

			snprintf(out->why, sizeof(out->why),
				 "undecided after %zu runs: %s within %.1f standard errors of %s",
				 side.nr, numfmt_str(v, sizeof(v), out->value, NULL, 0), t,
				 numfmt_str(th, sizeof(th), o->threshold, NULL, 0));
			break;
		}
	}
	code = 0;
out:
	ret = code < 0 ? -1 : 0;
	out->seconds = clock_monotonic() - t0;
	side_release(&side);
	return ret;
}

/*
 * The two commits' runs alternate (fast, slow, slow, fast, ...: an ABBA
 * order, so a load that rises or falls during the probe weighs on both
 * alike) until the difference decides, or the budget of runs is spent.
 */
int flame_probe_pair(struct flame_repo *r, const char *slow_id, const char *fast_id,
		     const struct flame_probe_request *o, const struct flame_pair_goal *goal,
		     struct flame_probe_result *slow, struct flame_probe_result *fast,
		     struct flame_pair_result *pair)
{
	struct flame_capture_opts cap = probe_capture_opts(o);
	struct probe_side ss = { .id = slow_id }, fs = { .id = fast_id };
	double t0 = clock_monotonic(), t = 0, p_adj = 1;
	size_t round = 0, first, max, prev = 0;
	int code, ret = -1;

	memset(pair, 0, sizeof(*pair));
	pair->decision = FLAME_PAIR_UNDECIDED;
	code = side_build(r, o, &ss, slow);
	if (code) {
		result_init(fast, fast_id);
		ret = code < 0 ? -1 : 1;
		goto out;
	}
	code = side_build(r, o, &fs, fast);
	if (code) {
		ret = code < 0 ? -1 : 2;
		goto out;
	}
	first = flame_pair_first_runs(o->runs);
	max = o->max_runs > first ? flame_even_pairs(o->max_runs) : first;
	for (;;) {
		size_t want = flame_pair_look_runs((unsigned)fs.nr, (unsigned)first), i;
		double df, a;

		for (i = 0; i < want && fs.nr < max; i++, round++) {
			struct probe_side *order[2];
			int k;

			order[0] = flame_abba_bad_first(round) ? &ss : &fs;
			order[1] = flame_abba_bad_first(round) ? &fs : &ss;
			for (k = 0; k < 2; k++) {
				if ((code = side_run(&cap, order[k], order[k] == &ss ? slow : fast))) {
					ret = code < 0 ? -1 : order[k] == &ss ? 1 : 2;
					goto out;
				}
			}
		}
		if (side_estimate(r, o, &ss, slow) || side_estimate(r, o, &fs, fast)) {
			ret = -1;
			goto out;
		}
		pair->looks++;
		pair->diff = slow->value - fast->value;
		pair->se = hypot(slow->se, fast->se);
		/* Welch's t on the per-run values: each side's run-to-run spread. */
		df = flame_welch_df(slow->se, (double)ss.nr - 1, fast->se, (double)fs.nr - 1);
		a = flame_alpha_look(goal->alpha, prev, fs.nr, max, 0);
		prev = fs.nr;
		t = flame_t_quantile(a / 2, fs.nr > 1 ? (double)fs.nr - 1 : 1);
		if (goal->log_scale)
			flame_step_assess_log(pair->diff, pair->se, df, fast->value, goal->effect,
					      goal->effect_se, goal->effect_df, goal->good, a,
					      &pair->step);
		else
			flame_step_assess(pair->diff, pair->se, df, goal->effect, goal->effect_se,
					  goal->effect_df, a, &pair->step);
		pair->decision = goal->part > 0 ? flame_pair_decide_part(&pair->step, goal->part)
						: flame_pair_decide(&pair->step);
		/* one-sided p of this look, at its two-sided alpha's half */
		p_adj = stats_look_adjusted_p(p_adj, 1 - pair->step.confidence, a / 2,
					      goal->alpha / 2);
		if (pair->decision != FLAME_PAIR_UNDECIDED || fs.nr >= max)
			break;
	}
	/* 1 - the p-value adjusted for the looks taken (the report prints that p) */
	pair->confidence = pair->step.confidence = 1 - p_adj;
	if (pair->decision == FLAME_PAIR_SPLIT) {
		slow->verdict = PROBE_SLOW;
		fast->verdict = PROBE_FAST;
	} else {
		/* Not this split: where each lies against the threshold says which way. */
		slow->verdict = against_threshold(o, slow, t);
		fast->verdict = against_threshold(o, fast, t);
		if (pair->decision == FLAME_PAIR_UNDECIDED) {
			char ex[FLAME_EXPLAINS_TEXT], d[32], lo[32], hi[32];
			struct strbuf why = STRBUF_INIT;
			size_t len;

			flame_explains_format(&pair->step, ex, sizeof(ex));
			strbuf_addf(&why, "undecided after %zu+%zu runs: step %s [%s, %s], %s "
				    "of the ends' change", ss.nr, fs.nr,
				    numfmt_str(d, sizeof(d), pair->diff, NULL, NUMFMT_SIGN),
				    numfmt_str(lo, sizeof(lo), pair->step.lo, NULL, NUMFMT_SIGN),
				    numfmt_str(hi, sizeof(hi), pair->step.hi, NULL, NUMFMT_SIGN), ex);
			len = why.len < sizeof(slow->why) - 1 ? why.len : sizeof(slow->why) - 1;
			memcpy(slow->why, why.buf, len);
			slow->why[len] = '\0';
			strbuf_release(&why);
			if (slow->verdict == PROBE_SLOW)
				slow->verdict = PROBE_SKIP;
			if (fast->verdict == PROBE_FAST)
				fast->verdict = PROBE_SKIP;
		}
	}
	ret = 0;
out:
	slow->seconds = fast->seconds = (clock_monotonic() - t0) / 2;
	side_release(&ss);
	side_release(&fs);
	return ret;
}

int flame_probe_log_append(const char *path, const struct flame_probe_result *res)
{
	FILE *f = fopen(path, "a");

	if (!f)
		return error_errno("cannot open '%s'", path);
	fprintf(f, "%s %d %.17g %.17g %u %d %.3f %.17g\n", res->id, (int)res->verdict, res->value,
		res->se, res->runs, res->build_cached, res->seconds, res->share);
	if (fclose(f))
		return error_errno("cannot write '%s'", path);
	return 0;
}

int flame_probe_log_read(const char *path, struct flame_probe_result **out, size_t *nr)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	if (strbuf_read_file(&sb, path))
		return -1;
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct flame_probe_result res;
		char *f[8], *tok, *s2 = NULL;
		int n = 0;
		uint64_t v, runs, cached;

		for (tok = strtok_r(line, " ", &s2); tok && n < 8; tok = strtok_r(NULL, " ", &s2))
			f[n++] = tok;
		memset(&res, 0, sizeof(res));
		if (n != 8 || strlen(f[0]) != 40 || parse_u64(f[1], &v) ||
		    parse_double(f[2], &res.value) || parse_double(f[3], &res.se) ||
		    parse_u64(f[4], &runs) || parse_u64(f[5], &cached) ||
		    parse_double(f[6], &res.seconds) || parse_double(f[7], &res.share)) {
			warning("%s: malformed probe record skipped", path);
			continue;
		}
		memcpy(res.id, f[0], 41);
		res.verdict = v == 0 ? PROBE_FAST : v == 1 ? PROBE_SLOW : PROBE_SKIP;
		res.runs = (unsigned)runs;
		res.build_cached = (int)cached;
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = res;
	}
	strbuf_release(&sb);
	return 0;
}
