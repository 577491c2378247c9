/*
 * culprits.c - the CULPRITS step of trail flame: every commit of the range
 * that explains a real part of the change, not only the one the narrowing
 * named.  The measure bisected on is segmented along the range (segment.h)
 * on both sides of that culprit, its probes reused as levels; then each
 * other function whose own time rose is segmented in the target's
 * quantity (its CPU time, with the library code under it when the
 * target's is so measured; its bytes per run in an allocation profile).
 * Fills ans.culprits.list, the suspect first.
 */
#include "flame/culprits.h"
#include "flame/probe.h"
#include "flame/session_query.h"
#include "core/verdict.h"
#include "flame/decide.h"
#include "flame/segment.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Functions besides the one bisected on whose rise is searched. */
#define MAX_OTHER_FUNCTIONS 3
/* Culprits in all, the suspect included. */
#define MAX_CULPRITS 4
/* A culprit explains at least this part of its measure's change. */
#define MIN_EXPLAINS 0.2

/* One measure searched: what a probe measures, and the positions' commits. */
struct seg_ctx {
	struct flame_session *s;
	struct flame_probe_request o;
	double effect_se, effect_df;
	double good;		/* the good end's level: the change starts there */
	int log_scale;		/* its steps are judged on the log scale (a time) */
	double unit_ms;		/* ms of CPU time per run per unit of the measure, 0: none */
	double unit_bytes;	/* bytes per run per unit of the measure, 0: none */
	double ends_se[2];	/* the standard errors of the ends' levels */
};

static const char *id_at(const struct flame_session *s, size_t pos)
{
	return pos ? s->st.range.items[pos - 1] : s->ans.ends.good;
}

static void keep_probe(struct flame_session *s, const struct flame_probe_result *r)
{
	ALLOC_GROW(s->ans.narrow.probes, s->ans.narrow.nprobes + 1, s->ans.narrow.probes_alloc);
	s->ans.narrow.probes[s->ans.narrow.nprobes++] = *r;
	char v[32];

	note("culprits: probe %zu: %.12s %s (%s, %u runs%s)%s%s", s->ans.narrow.nprobes, r->id,
	     trail_probe_verdict_name(r->verdict), numfmt_str(v, sizeof(v), r->value, NULL, 0), r->runs,
	     r->build_cached ? ", cached build" : "", r->why[0] ? ": " : "", r->why);
}

static void level_of(const struct flame_probe_result *r, struct flame_level *lv)
{
	lv->value = r->value;
	lv->se = r->se;
	lv->df = r->runs > 1 ? (double)r->runs - 1 : 1;
}

static int seg_probe(void *ctx, size_t pos, double threshold, struct flame_level *out)
{
	struct seg_ctx *c = ctx;
	struct flame_probe_request o = c->o;
	struct flame_probe_result r;

	o.threshold = threshold;
	if (flame_probe(&c->s->st.repo, id_at(c->s, pos), &o, &r))
		return -1;
	keep_probe(c->s, &r);
	if (!r.runs)
		return 1;	/* not built or not run: no level */
	level_of(&r, out);
	return 0;
}

static int seg_pair(void *ctx, size_t pos, double effect, double alpha,
		    struct flame_step_assessment *a, struct flame_level *slow,
		    struct flame_level *fast)
{
	struct seg_ctx *c = ctx;
	struct flame_probe_request o = c->o;
	struct flame_pair_goal goal = { effect, c->effect_se, c->effect_df, MIN_EXPLAINS, alpha,
					c->good, c->log_scale };
	struct flame_probe_result rs, rf;
	struct flame_pair_result pair;
	char parent[41];
	int rc;

	if (flame_repo_parent(&c->s->st.repo, id_at(c->s, pos), parent))
		return -1;
	o.runs = o.runs > 3 ? o.runs : 3;
	/* enough runs for a full step's power at the ends' spread (narrow.c too) */
	o.max_runs = flame_session_pair_max_runs(c->s, effect, c->ends_se[0], c->ends_se[1], &rc);
	o.max_runs = o.max_runs > o.runs ? o.max_runs : o.runs;
	rc = flame_probe_pair(&c->s->st.repo, id_at(c->s, pos), parent, &o, &goal, &rs, &rf,
			      &pair);
	if (rc < 0)
		return -1;
	keep_probe(c->s, &rs);
	keep_probe(c->s, &rf);
	if (rc)
		return 1;
	*a = pair.step;
	level_of(&rs, slow);
	level_of(&rf, fast);
	return 0;
}

static void segmentation_setup(struct flame_session *s, struct flame_segmentation *g,
			       struct seg_ctx *c, const struct flame_level ends[2], int log_scale)
{
	size_t n = s->st.range.nr;

	flame_segmentation_init(g, n);
	g->level[0] = ends[0];
	g->level[n] = ends[1];
	g->level[0].state = g->level[n].state = FLAME_LEVEL_KNOWN;
	g->effect_se = hypot(ends[0].se, ends[1].se);
	g->effect_df = flame_welch_df(ends[0].se, ends[0].df, ends[1].se, ends[1].df);
	g->alpha = 1 - s->req.confidence;
	/* Bonferroni over the culprits that may be confirmed. */
	g->pair_alpha = g->alpha / MAX_CULPRITS;
	g->min_explains = MIN_EXPLAINS;
	g->max_probes = 3 * flame_steps_left(n + 1) + 2;
	c->effect_se = g->effect_se;
	c->effect_df = g->effect_df;
	g->log_scale = c->log_scale = log_scale;
	c->good = ends[0].value;
	c->ends_se[0] = ends[0].se;
	c->ends_se[1] = ends[1].se;
}

/* What a step of measure m is counted in: ms, bytes, points of a share, or samples. */
static void culprit_unit(struct flame_culprit *c, const struct seg_ctx *u)
{
	c->unit_ms = u->unit_ms;
	c->unit_bytes = u->unit_bytes;
	c->share = u->o.function && flame_measure_share(u->o.measure);
}

static struct flame_culprit *culprit_add(struct flame_session *s, const char *id,
					 const char *function, const char *frame,
					 const struct flame_step_assessment *a, const struct seg_ctx *u)
{
	struct flame_culprit *c;

	ALLOC_GROW(s->ans.culprits.list, s->ans.culprits.count + 1, s->ans.culprits.alloc);
	c = &s->ans.culprits.list[s->ans.culprits.count++];
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->function = function ? xstrdup(function) : NULL;
	c->frame = frame ? xstrdup(frame) : NULL;
	c->step = *a;
	culprit_unit(c, u);
	return c;
}

static int culprit_listed(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->ans.culprits.count; i++)
		if (!strcmp(s->ans.culprits.list[i].id, id))
			return 1;
	return 0;
}

/* ms per unit of the measure bisected on: a time or samples per run, else 0. */
static double primary_unit_ms(const struct flame_session *s)
{
	return s->ans.target.function && !s->ans.target.measure_share ? s->ans.target.time_unit_ms : 0;
}

/*
 * Bytes per run per sample of measure m: an allocation profile counts in
 * units of the sampling interval (backend_memory.c), so a function's
 * samples per run times the interval are the bytes it allocates a run
 * (alloc) or holds at the peak (peak-heap); 0 for any other profile or
 * a share.
 */
static double unit_bytes(const struct flame_session *s, enum flame_measure m)
{
	if (flame_measure_share(m) || flame_measure_time(m) ||
	    flame_metric_profile(s->req.metric, 0, s->req.profiler) != FLAME_PROFILE_ALLOC)
		return 0;
	return s->req.alloc_interval ? (double)s->req.alloc_interval : FLAME_ALLOC_INTERVAL;
}

/* The measure bisected on, as a probe measures it, and its units. */
static void primary_ctx(struct flame_session *s, struct seg_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->o = flame_session_probe_request(s);
	c->unit_ms = primary_unit_ms(s);
	c->unit_bytes = s->ans.target.function ? unit_bytes(s, c->o.measure) : 0;
}

/*
 * The rest of the change of the measure bisected on: segment both sides
 * of the suspect, the narrowing's probes and re-probe as known levels.
 */
static int search_remainder(struct flame_session *s, size_t pos)
{
	struct flame_segmentation g;
	struct flame_level ends[2];
	struct seg_ctx c;
	size_t i;
	int ret = 0;

	ends[0] = (struct flame_level){ s->ans.target.share[0], s->ans.target.share_se[0],
					(double)s->st.nruns[0] - 1, FLAME_LEVEL_KNOWN };
	ends[1] = (struct flame_level){ s->ans.target.share[1], s->ans.target.share_se[1],
					(double)s->st.nruns[1] - 1, FLAME_LEVEL_KNOWN };
	primary_ctx(s, &c);
	c.o.threshold = 0;	/* each probe gets its level's (seg_probe) */
	segmentation_setup(s, &g, &c, ends, s->ans.target.log_scale);
	g.max_culprits = MAX_CULPRITS - 1;
	/* oldest first: the re-probes, recorded last, overwrite bisection probes */
	for (i = 0; i < s->ans.narrow.nprobes; i++) {
		const struct flame_probe_result *r = &s->ans.narrow.probes[i];
		int k = flame_session_range_index(s, r->id);

		if (k < 0 || (size_t)k + 1 >= g.n || !r->runs)
			continue;
		level_of(r, &g.level[k + 1]);
		g.level[k + 1].state = FLAME_LEVEL_KNOWN;
	}
	if (flame_segment_search(&g, &(struct flame_segment_ops){ &c, seg_probe, seg_pair }, 0,
				 pos - 1) ||
	    flame_segment_search(&g, &(struct flame_segment_ops){ &c, seg_probe, seg_pair }, pos,
				 g.n)) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < g.nculprits; i++)
		if (!culprit_listed(s, id_at(s, g.culprits[i].pos)))
			culprit_add(s, id_at(s, g.culprits[i].pos), s->ans.target.function, s->ans.target.frame,
				    &g.culprits[i].step, &c);
	if (g.truncated)
		note("culprits: the search of the rest of the change stopped at its budget "
		     "(%zu probes, %zu culprits)", g.probes, g.nculprits);
out:
	flame_segmentation_release(&g);
	return ret;
}

enum flame_measure flame_culprits_other_measure(const struct flame_target_result *t,
						int library_frame)
{
	int lib = t->measure_lib || library_frame;

	if (t->measure_time)
		return lib ? FLAME_MEASURE_LIB_TIME : FLAME_MEASURE_TIME;
	if (lib)
		return t->measure_share ? FLAME_MEASURE_LIB_SHARE : FLAME_MEASURE_LIB_SAMPLES;
	return t->measure_share ? FLAME_MEASURE_SHARE : FLAME_MEASURE_SAMPLES;
}

int flame_culprits_other_level(struct flame_session *s, const char *func,
			       const struct string_list *exclude, enum flame_measure m,
			       struct flame_level *ends, double *unit_ms)
{
	int side, ret = 0;

	*unit_ms = flame_measure_time(m) ? 1 : 0;
	for (side = 0; side < 2; side++) {
		size_t n = s->st.nruns[side], k;
		struct folded_profile **p = xcalloc(n + 1, sizeof(*p));
		double *cpu = xcalloc(n + 1, sizeof(*cpu));
		struct flame_share v;

		for (k = 0; k < n; k++) {
			p[k] = &s->st.runs[side][k].folded;
			cpu[k] = s->st.runs[side][k].cpu_us / 1e3;
		}
		/* as a probe measures it, at each end's own commit */
		if (flame_function_over_runs(&s->st.repo, side ? s->ans.ends.bad : s->ans.ends.good,
					     p, cpu, n, func, m, exclude, &v, NULL))
			ret = -1;
		ends[side] = (struct flame_level){ v.mean, v.se, v.df, FLAME_LEVEL_KNOWN };
		free(p);
		free(cpu);
	}
	return ret;
}

/*
 * The program's function a library or kernel frame's time is spent
 * under: in the bad runs' stacks that end in frame, the innermost frame
 * the repository defines, by samples (as hotdiff.c attributes the top
 * frame); NULL when frame is the program's own or none is found.
 */
static char *repository_caller(struct flame_session *s, const char *frame)
{
	struct string_list names = STRING_LIST_INIT, defined = STRING_LIST_INIT;
	double *count = NULL;
	char *best = NULL;
	size_t k, i, pass;

	string_list_append(&names, frame);
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < s->st.nruns[1]; k++) {
			const struct folded_profile *p = &s->st.runs[1][k].folded;
			uint32_t id;

			for (id = 0; id < p->stacks.nr; id++) {
				const char *st = intern_str(&p->stacks, id);
				size_t len = intern_len(&p->stacks, id), fl = strlen(frame), end = len;

				if (len < fl || strncmp(st + len - fl, frame, fl) ||
				    (len > fl && st[len - fl - 1] != ';'))
					continue;
				end = len > fl ? len - fl - 1 : 0;
				while (end > 0) {
					size_t b = end;
					char *name;

					while (b > 0 && st[b - 1] != ';')
						b--;
					name = xstrndup(st + b, end - b);
					if (!pass) {
						string_list_add_unique_n(&names, name, strlen(name), 4096);
					} else if (string_list_has(&defined, name)) {
						for (i = 0; i < defined.nr; i++)
							if (!strcmp(defined.items[i], name))
								count[i] += (double)p->counts[0][id];
						free(name);
						break;
					}
					free(name);
					end = b > 0 ? b - 1 : 0;
				}
			}
		}
		if (!pass) {
			if (flame_repo_defined(&s->st.repo, s->ans.ends.bad, &names, &defined) ||
			    string_list_has(&defined, frame) || !defined.nr)
				goto out;
			count = xcalloc(defined.nr, sizeof(*count));
		}
	}
	for (i = 0, k = 0; i < defined.nr; i++)
		if (count[i] > count[k])
			k = i;
	best = count[k] > 0 ? xstrdup(defined.items[k]) : NULL;
out:
	free(count);
	string_list_clear(&names);
	string_list_clear(&defined);
	return best;
}

/*
 * A commit found again on another measure: it is named by the function
 * whose change it explains the larger part of (the suspect keeps its own).
 */
static void culprit_merge(struct flame_session *s, const char *id, const char *function,
			  const char *frame, const struct flame_step_assessment *a,
			  const struct seg_ctx *u)
{
	size_t i;

	for (i = 1; i < s->ans.culprits.count; i++) {
		struct flame_culprit *c = &s->ans.culprits.list[i];

		if (strcmp(c->id, id) || c->step.explains >= a->explains)
			continue;
		free(c->function);
		free(c->frame);
		c->function = xstrdup(function);
		c->frame = xstrdup(frame);
		c->step = *a;
		culprit_unit(c, u);
	}
}

/*
 * Another function whose own time rose (st.exclude holds the functions
 * whose samples per run changed): segment the whole range on its share
 * among the samples outside the other changed functions and the suspect's
 * (so neither their changes nor a speed-up elsewhere moves it), starting
 * from the suspect (suspect_pos), so that a commit which slowed several
 * functions costs one pair for each, not a search of the range.
 */
static int search_function(struct flame_session *s, const char *func, size_t suspect_pos,
			   struct string_list *searched)
{
	struct string_list ex = STRING_LIST_INIT;
	struct flame_segmentation g;
	struct flame_step_assessment a;
	struct flame_level ends[2];
	struct seg_ctx c = { .s = s };
	char *shown, *caller = NULL, b0[32], b1[32];
	const char *measured;
	enum flame_measure m;
	double unit_ms;
	size_t i;
	int ret = 0, time, share, lib;

	for (i = 0; i < s->st.exclude.nr; i++)
		string_list_append(&ex, s->st.exclude.items[i]);
	if (s->ans.target.function)
		string_list_append(&ex, s->ans.target.function);
	if (s->ans.target.frame)
		string_list_append(&ex, s->ans.target.frame);
	/* a library frame and its caller are one function: searched once */
	caller = repository_caller(s, func);
	if (string_list_has(searched, caller ? caller : func)) {
		free(caller);
		string_list_clear(&ex);
		return 0;
	}
	/*
	 * Measured as the target is (time that adds up), and as what it is
	 * named by: a library frame's time with its repository caller's own,
	 * not the frame's time under every caller.
	 */
	m = flame_culprits_other_measure(&s->ans.target, caller != NULL);
	time = flame_measure_time(m);
	share = flame_measure_share(m);
	lib = flame_measure_lib(m);
	measured = lib && caller ? caller : func;
	if (flame_culprits_other_level(s, measured, &ex, m, ends, &unit_ms)) {
		free(caller);
		string_list_clear(&ex);
		return 0;
	}
	/*
	 * Worth a search: a real rise of its time (the other functions changed
	 * already passed the noise floor, hotdiff.c), or of at least --confirm
	 * points of its share, as a hotspot's.
	 */
	if (!flame_segment_has_step(&ends[0], &ends[1], 1, 0, 0, 1 - s->req.confidence, 0, &a) ||
	    (share && ends[1].value - ends[0].value < s->req.confirm)) {
		free(caller);
		string_list_clear(&ex);
		return 0;
	}
	string_list_append(searched, caller ? caller : func);
	c.unit_bytes = unit_bytes(s, m);
	shown = escape_term_dup(measured);
	if (time)
		note("culprits: %s's own CPU time%s also rose, %.1f ms -> %.1f ms per run: "
		     "segmenting the range on it", shown, lib ? " with the library code under it" : "",
		     unit_ms * ends[0].value, unit_ms * ends[1].value);
	else if (share)
		note("culprits: %s's share (%s) also rose, %.1f%% -> %.1f%%: segmenting the range "
		     "on it", shown, lib ? "with the library code under it" :
		     "outside the other changed functions", 100 * ends[0].value, 100 * ends[1].value);
	else if (c.unit_bytes > 0)
		note("culprits: %s's %s%s also rose, %s -> %s: segmenting the range on it", shown,
		     flame_metric_bytes_per_run(s->req.metric), lib ? " with the library code under it" : "",
		     numfmt_str(b0, sizeof(b0), c.unit_bytes * ends[0].value, "bytes", 0),
		     numfmt_str(b1, sizeof(b1), c.unit_bytes * ends[1].value, "bytes", 0));
	else
		note("culprits: %s's %s%s also rose, %.1f -> %.1f: segmenting the range on it", shown,
		     flame_metric_per_run(s->req.metric), lib ? " with the library code under it" : "",
		     ends[0].value, ends[1].value);
	c.o = flame_session_probe_request(s);
	c.o.threshold = 0;	/* each probe gets its level's (seg_probe) */
	c.o.function = measured;
	c.o.measure = m;
	/* a lib- cut leaves no other program function to exclude (probe.c) */
	c.o.exclude = lib ? NULL : &ex;
	c.unit_ms = unit_ms;
	segmentation_setup(s, &g, &c, ends, !share);
	g.max_culprits = MAX_CULPRITS > s->ans.culprits.count ? MAX_CULPRITS - s->ans.culprits.count : 0;
	/* the suspect first: one change often slows several functions */
	if (flame_segment_search_from(&g, &(struct flame_segment_ops){ &c, seg_probe, seg_pair },
				      suspect_pos)) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < g.nculprits; i++) {
		const char *id = id_at(s, g.culprits[i].pos);

		if (culprit_listed(s, id)) {
			note("culprits: %.12s also made %s slower", id, shown);
			culprit_merge(s, id, caller ? caller : func, func, &g.culprits[i].step, &c);
		} else {
			culprit_add(s, id, caller ? caller : func, func, &g.culprits[i].step, &c);
		}
	}
out:
	free(caller);
	free(shown);
	flame_segmentation_release(&g);
	string_list_clear(&ex);
	return ret;
}

/*
 * The culprits of the measure bisected on together: their summed step
 * (errors added in quadrature, the smallest df) against the change; 1
 * when real and at least half of it (flame_pair_decide()'s rule; for a
 * time, the sum of their parts of the log change).
 */
static int together_explain(struct flame_session *s, size_t nprimary)
{
	double step = 0, var = 0, df = 1e9, logpart = 0;
	struct flame_step_assessment a;
	size_t i, logs = 0;

	for (i = 0; i < nprimary; i++) {
		const struct flame_step_assessment *c = &s->ans.culprits.list[i].step;

		step += c->step;
		var += c->se * c->se;
		df = c->df < df ? c->df : df;
		logpart += c->explains;
		logs += c->log_scale;
	}
	flame_step_assess(step, sqrt(var), df, s->ans.target.share[1] - s->ans.target.share[0],
			  hypot(s->ans.target.share_se[0], s->ans.target.share_se[1]),
			  flame_welch_df(s->ans.target.share_se[0], (double)s->st.nruns[0] - 1,
					 s->ans.target.share_se[1], (double)s->st.nruns[1] - 1),
			  (1 - s->req.confidence) / MAX_CULPRITS, &a);
	/*
	 * Parts of a time's log change add up (a product of ratios); each was
	 * taken at its own pair's load, so their ms would not.
	 */
	if (nprimary && logs == nprimary)
		return a.real && logpart >= 0.5;
	return a.real && a.explains >= 0.5;
}

/* The mean of a value over n runs and the variance of that mean. */
static void mean_and_var(const double *x, size_t n, double *mean, double *var)
{
	size_t k;

	*mean = 0;
	*var = 0;
	for (k = 0; k < n; k++)
		*mean += x[k] / (double)n;
	for (k = 0; n > 1 && k < n; k++)
		*var += (x[k] - *mean) * (x[k] - *mean) / (double)(n - 1) / (double)n;
}

/*
 * The ends' CPU time per profiled run (ms), and for an allocation profile
 * its bytes allocated (or live at the peak) per run, with the standard
 * errors of their changes: what the culprits' steps add up to with the
 * rest, in ms or in bytes.
 */
static void ends_totals(struct flame_session *s)
{
	int alloc = flame_metric_profile(s->req.metric, 0, s->req.profiler) == FLAME_PROFILE_ALLOC;
	double var_ms[2], var_bytes[2];
	int side;

	for (side = 0; side < 2; side++) {
		size_t n = s->st.nruns[side], k;
		double *ms = xcalloc(n ? n : 1, sizeof(*ms)), *bytes = xcalloc(n ? n : 1, sizeof(*bytes));

		for (k = 0; k < n; k++) {
			const struct flame_run *r = &s->st.runs[side][k];

			ms[k] = r->cpu_us / 1e3;
			bytes[k] = s->req.metric == FLAME_METRIC_PEAK_HEAP ? r->peak_heap : r->alloc_bytes;
		}
		mean_and_var(ms, n, &s->ans.culprits.cpu_ms[side], &var_ms[side]);
		mean_and_var(bytes, n, &s->ans.culprits.bytes[side], &var_bytes[side]);
		if (!alloc)
			s->ans.culprits.bytes[side] = var_bytes[side] = 0;
		free(ms);
		free(bytes);
	}
	s->ans.culprits.cpu_change_se_ms = sqrt(var_ms[0] + var_ms[1]);
	s->ans.culprits.bytes_change_se = sqrt(var_bytes[0] + var_bytes[1]);
}

int flame_step_culprits(struct flame_session *s)
{
	struct string_list searched = STRING_LIST_INIT;
	struct seg_ctx primary;
	int pos = flame_session_range_index(s, s->ans.narrow.culprit), ret = 0;
	size_t i, nprimary;

	ends_totals(s);
	if (pos < 0 || !flame_culprit_accepted(&s->ans.narrow.pair.step, MIN_EXPLAINS))
		return 0;
	primary_ctx(s, &primary);
	culprit_add(s, s->ans.narrow.culprit, NULL, NULL, &s->ans.narrow.pair.step,
		    &primary)->confidence = s->ans.narrow.suspect_confidence;
	/*
	 * The rest of the change is searched unless the suspect is shown to
	 * explain all of it but a part smaller than a culprit's (its interval
	 * above 1 - MIN_EXPLAINS): a second commit of a third of the change
	 * hides inside an interval that reaches 100% (checksum_table 1 -> 2
	 * -> 4 passes: the second step alone read "explains 67% [40%, 105%]").
	 * A sub-range whose change is explained costs no probes (levels
	 * measured apart differ by the load alone).
	 */
	if (s->ans.narrow.pair.step.explains_lo < 1 - MIN_EXPLAINS && search_remainder(s, (size_t)pos + 1))
		return -1;
	nprimary = s->ans.culprits.count;
	s->ans.culprits.split = together_explain(s, nprimary);
	if (s->ans.target.function)
		string_list_append(&searched, s->ans.target.function);
	for (i = 0; i < s->st.exclude.nr && searched.nr <= MAX_OTHER_FUNCTIONS; i++) {
		if (s->ans.culprits.count >= MAX_CULPRITS)
			break;
		if (search_function(s, s->st.exclude.items[i], (size_t)pos + 1, &searched)) {
			ret = -1;
			break;
		}
	}
	string_list_clear(&searched);
	if (ret)
		return -1;
	for (i = 1; i < s->ans.culprits.count; i++) {
		struct flame_culprit *c = &s->ans.culprits.list[i];
		struct flame_commit info;

		c->confidence = c->step.confidence;
		memset(&info, 0, sizeof(info));
		if (!flame_repo_commit(&s->st.repo, c->id, &info) && info.subject)
			c->subject = xstrdup(info.subject);
		flame_commit_release(&info);
	}
	if (s->ans.culprits.count > 1)
		note("culprits: %zu commits each explain part of the change", s->ans.culprits.count);
	return 0;
}

void flame_culprits_message(struct flame_session *s)
{
	size_t i, len;

	for (i = 1; i < s->ans.culprits.count; i++) {
		const struct flame_culprit *c = &s->ans.culprits.list[i];
		const char *fn = c->function ? c->function : s->ans.target.function ? s->ans.target.function :
				 flame_metric_name(s->req.metric);

		len = strlen(s->ans.message);
		snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
			 "%s%.12s made %s slower", i == 1 ? "; " : ", ", c->id, fn);
		/* the recommendation is for the suspect: the others need theirs */
		if (!s->ans.fix.recommendation)
			continue;
		len = strlen(s->ans.fix.recommendation_reason);
		snprintf(s->ans.fix.recommendation_reason + len,
			 sizeof(s->ans.fix.recommendation_reason) - len,
			 "%s%.12s (%s)", i == 1 ? "; the other culprits need a fix of their own: "
			 : ", ", c->id, fn);
	}
}

void flame_culprits_release(struct flame_culprits_result *r)
{
	size_t i;

	for (i = 0; i < r->count; i++) {
		free(r->list[i].function);
		free(r->list[i].frame);
		free(r->list[i].subject);
	}
	free(r->list);
	r->list = NULL;
	r->count = r->alloc = 0;
}
