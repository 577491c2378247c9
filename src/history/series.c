/*
 * series.c - a series out of the stored notes, and its change points:
 * changepoint.c on the metric's per-commit medians and on each kept
 * function's self share (a ratio within each run, so a machine busier at
 * one commit than another moves it far less than the metric); the
 * metric's change point within one stored commit of a function's is the
 * same change, two functions' at one commit are one.  The functions that
 * moved at a change are those whose share moved beyond the common shrink
 * (or growth) of all the others.
 */
#include "history/series.h"

#include "stats/describe.h"
#include "stats/distributions.h"
#include "stats/bootstrap.h"
#include "core/alloc.h"
#include "core/error.h"
#include "history/cp_null.h"
#include "history/tip.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct key_count {
	const char *key, *metric;
	size_t n;
	double latest;
};

/* Whether r belongs to bench (NULL: any). */
static int of_bench(const struct history_result *r, const char *bench)
{
	return !bench || !strcmp(r->env.bench ? r->env.bench : "", bench);
}

static void choose(const struct history_store *st, const struct string_list *commits,
		   const char *key, const char *metric, const char *bench, struct history_series *s)
{
	struct key_count *kc = NULL;
	size_t nkc = 0, i, j, k, best = 0;

	for (i = 0; i < commits->nr; i++) {
		const struct history_entry *e = history_store_find(st, commits->items[i]);

		for (j = 0; e && j < e->nresults; j++) {
			const struct history_result *r = &e->results[j];

			if ((key && strcmp(r->env.key, key)) || (metric && strcmp(r->metric, metric)) ||
			    !of_bench(r, bench))
				continue;
			for (k = 0; k < nkc && (strcmp(kc[k].key, r->env.key) ||
						 strcmp(kc[k].metric, r->metric)); k++)
				;
			if (k == nkc) {
				kc = xreallocarray(kc, nkc + 1, sizeof(*kc));
				kc[nkc++] = (struct key_count){ r->env.key, r->metric, 0, 0 };
			}
			kc[k].n++;
			if (r->time > kc[k].latest)
				kc[k].latest = r->time;
		}
	}
	for (k = 1; k < nkc; k++)
		if (kc[k].n > kc[best].n || (kc[k].n == kc[best].n && kc[k].latest > kc[best].latest))
			best = k;
	if (nkc) {
		memcpy(s->key, kc[best].key, sizeof(s->key));
		s->metric = xstrdup(kc[best].metric);
		for (k = 0; k < nkc; k++)
			s->other_keys += k != best && !strcmp(kc[k].metric, kc[best].metric);
	}
	free(kc);
}

int history_series_build(struct history_series *s, const struct history_store *st,
			 const struct string_list *commits, const char *key, const char *metric,
			 int all_envs)
{
	return history_series_build_bench(s, st, commits, NULL, key, metric, all_envs);
}

int history_series_build_bench(struct history_series *s, const struct history_store *st,
			       const struct string_list *commits, const char *bench,
			       const char *key, const char *metric, int all_envs)
{
	size_t i, j;

	memset(s, 0, sizeof(*s));
	choose(st, commits, key, metric, bench, s);
	if (!s->metric)
		return -1;
	s->pts = xmallocarray(commits->nr + 1, sizeof(*s->pts));
	s->failed_pos = xmallocarray(commits->nr + 1, sizeof(*s->failed_pos));
	s->failed_status = xmallocarray(commits->nr + 1, sizeof(*s->failed_status));
	for (i = 0; i < commits->nr; i++) {
		const struct history_entry *e = history_store_find(st, commits->items[i]);
		const struct history_result *best = NULL;
		struct history_point *p;

		for (j = 0; e && j < e->nresults; j++) {
			const struct history_result *r = &e->results[j];

			if (strcmp(r->metric, s->metric) || (!all_envs && strcmp(r->env.key, s->key)) ||
			    !of_bench(r, bench))
				continue;
			if (!best || r->time > best->time)
				best = r;
		}
		if (!best)
			continue;
		if (best->status != HISTORY_OK || !best->nruns) {
			s->failed_pos[s->failed] = i;
			s->failed_status[s->failed++] = best->status != HISTORY_OK ? best->status
								    : HISTORY_RUN_FAILED;
			continue;
		}
		if (!s->unit)
			s->unit = xstrdup(best->unit);
		p = &s->pts[s->nr++];
		p->commit = commits->items[i];
		p->pos = i;
		p->r = best;
		p->profiles = best->profiles > 0 ? best->profiles : 1;
		history_result_median(best, &p->med, &p->lo, &p->hi);
	}
	if (!s->unit)
		s->unit = xstrdup("");
	return 0;
}

void history_series_release(struct history_series *s)
{
	free(s->pts);
	free(s->failed_pos);
	free(s->failed_status);
	free(s->metric);
	free(s->unit);
	memset(s, 0, sizeof(*s));
}

/* Self (or total) samples per run of func at a point. */
static double history_point_rate(const struct history_point *p, const char *func, int total)
{
	return history_result_count(p->r, func, total) / p->profiles;
}

/*
 * The profiled runs every point of s stored per-run counts for, alike,
 * or 0 (fewer than 3, or notes written before trail kept them): then a
 * function's share is judged by its spread over the commits alone.
 */
static size_t common_runs(const struct history_series *s)
{
	size_t i, n = s->nr ? s->pts[0].r->nrun_samples : 0;

	for (i = 0; i < s->nr; i++)
		if (!s->pts[i].r->run_samples || s->pts[i].r->nrun_samples != n)
			return 0;
	return n >= 3 ? n : 0;
}

static const struct history_func *find_func(const struct history_result *r, const char *func)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++)
		if (!strcmp(r->funcs[i].name, func))
			return &r->funcs[i];
	return NULL;
}

/* func's self samples in run i of p, over the run's samples when share. */
static double run_value(const struct history_point *p, const struct history_func *f, size_t i,
			int share)
{
	if (!f || !f->run_self)
		return 0;	/* no self samples in any run */
	if (!share)
		return f->run_self[i];
	return p->r->run_samples[i] > 0 ? f->run_self[i] / p->r->run_samples[i] : 0;
}

/*
 * The variance of the mean over p's runs of func's self samples per run
 * (over all samples of each run when share, and divided by each run's
 * scale[] when given): how much the point could move by its runs alone
 * (runs: common_runs()).  A share is a count of samples: its runs cannot
 * vary less than sampling does, and at one or two samples a run they can
 * seem to - three runs of 74 samples, all spin's, have no spread at all,
 * and a load burst's one interrupt sample a run then read as a change of
 * p = 0.0003 (77-history-suite beside two hogs).  So a share's variance is
 * at least the binomial one, each run's share taken as (c + 1/2) / (n + 1)
 * (never 0 or 1).  Per-run counts are backfill's own captures: samples,
 * or finer weights (us blocked, bytes) whose floor is smaller still.
 */
static double run_variance(const struct history_point *p, const char *func, size_t runs, int share,
			   const double *scale)
{
	const struct history_func *f = find_func(p->r, func);
	double mean = 0, ss = 0, floor = 0, v;
	size_t i;

	for (i = 0; i < runs; i++)
		mean += run_value(p, f, i, share) / (scale ? scale[i] : 1) / (double)runs;
	for (i = 0; i < runs; i++) {
		v = run_value(p, f, i, share) / (scale ? scale[i] : 1);
		ss += (v - mean) * (v - mean);
	}
	for (i = 0; share && i < runs; i++) {
		double n = p->r->run_samples[i], c = f && f->run_self ? f->run_self[i] : 0;
		double q = (c + 0.5) / (n + 1), sc = scale ? scale[i] : 1;

		if (n > 0)
			floor += q * (1 - q) / n / (sc * sc) / ((double)runs * (double)runs);
	}
	v = ss / (double)(runs - 1) / (double)runs;
	return v > floor ? v : floor;
}

static int cmp_moved(const void *a, const void *b)
{
	const struct history_moved *x = a, *y = b;
	double dx = fabs(x->contribution), dy = fabs(y->contribution);

	if (dx != dy)
		return (dx < dy) - (dx > dy);
	return strcmp(x->name, y->name);
}

/* Self share of func at a point, fraction of all its samples. */
static double share_at(const struct history_point *p, const char *func)
{
	return p->r->samples > 0 ? history_result_count(p->r, func, 0) / p->r->samples : 0;
}

/* Every function kept at some point of s whose self share reaches min_share, once. */
static void function_names(const struct history_series *s, double min_share,
			   struct string_list *names)
{
	size_t i, j;

	for (i = 0; i < s->nr; i++)
		for (j = 0; j < s->pts[i].r->nfuncs; j++) {
			const struct history_func *f = &s->pts[i].r->funcs[j];

			if (s->pts[i].r->samples > 0 && f->self / s->pts[i].r->samples >= min_share &&
			    !string_list_has(names, f->name))
				string_list_append(names, f->name);
		}
}

/*
 * The kept functions' shares at points [a, c), raw and normalised.  When
 * one function gets slower every other share shrinks by the same factor,
 * so a change of one function would show in all.  Each point's scale is
 * the median over the functions of share / (the function's median share
 * over [a, c)): as long as fewer than half the functions changed at a
 * point, it is the others' common shrink, and share / scale moves only
 * with the function's own time.
 */
struct share_table {
	struct string_list names;
	size_t a, n;			/* points [a, a + n) */
	double *raw, *norm;		/* [k * n + (i - a)], fractions */
	double *scale;			/* [i - a] */
	double *wv;			/* [k * n + (i - a)]: norm's variance from the
					 * point's runs, or NULL (runs == 0) */
	size_t runs;			/* common_runs() */
	int flat;			/* fewer than 3 functions of min_share: scale 1 */
};

/*
 * t->wv: the variance of each normalised share from the point's runs,
 * each run's shares divided by that run's own scale (the median over the
 * functions of share / ref), so that the scale's noise is in it too.
 */
static void run_scales_variance(const struct history_series *s, struct share_table *t,
				const double *ref, double min_share)
{
	double *rs = xmallocarray(t->runs + 1, sizeof(double));
	double *tmp = xmallocarray(t->names.nr + 1, sizeof(double));
	size_t i, k, r, m;

	for (i = 0; i < t->n; i++) {
		const struct history_point *p = &s->pts[t->a + i];

		for (r = 0; r < t->runs; r++) {
			for (k = m = 0; k < t->names.nr; k++)
				if (ref[k] >= min_share)
					tmp[m++] = run_value(p, find_func(p->r, t->names.items[k]), r, 1) /
						   ref[k];
			rs[r] = m >= 3 ? stats_median_inplace(tmp, m) : 1;
			if (!(rs[r] > 0))
				rs[r] = 1;
		}
		for (k = 0; k < t->names.nr; k++)
			t->wv[k * t->n + i] = run_variance(p, t->names.items[k], t->runs, 1, rs);
	}
	free(rs);
	free(tmp);
}

static void share_table_build(const struct history_series *s, size_t a, size_t c, double min_share,
			      struct share_table *t)
{
	size_t n = c - a, i, k, m;
	double *ref, *tmp = xmallocarray(n + 1, sizeof(double));

	memset(t, 0, sizeof(*t));
	t->a = a;
	t->n = n;
	function_names(s, min_share, &t->names);
	t->raw = xmallocarray(t->names.nr * n + 1, sizeof(double));
	t->norm = xmallocarray(t->names.nr * n + 1, sizeof(double));
	t->scale = xmallocarray(n + 1, sizeof(double));
	ref = xmallocarray(t->names.nr + 1, sizeof(double));
	for (k = 0; k < t->names.nr; k++) {
		for (i = 0; i < n; i++)
			t->raw[k * n + i] = tmp[i] = share_at(&s->pts[a + i], t->names.items[k]);
		ref[k] = stats_median_inplace(tmp, n);
	}
	free(tmp);
	tmp = xmallocarray(t->names.nr + 1, sizeof(double));
	for (k = m = 0; k < t->names.nr; k++)
		m += ref[k] >= min_share;
	t->flat = m < 3;
	for (i = 0; i < n; i++) {
		for (k = m = 0; k < t->names.nr; k++)
			if (ref[k] >= min_share)
				tmp[m++] = t->raw[k * n + i] / ref[k];
		t->scale[i] = m >= 3 ? stats_median_inplace(tmp, m) : 1;
		if (!(t->scale[i] > 0))
			t->scale[i] = 1;
		for (k = 0; k < t->names.nr; k++)
			t->norm[k * n + i] = t->raw[k * n + i] / t->scale[i];
	}
	free(tmp);
	t->runs = common_runs(s);
	t->wv = t->runs ? xmallocarray(t->names.nr * n + 1, sizeof(double)) : NULL;
	if (t->wv)
		run_scales_variance(s, t, ref, min_share);
	free(ref);
}

static void share_table_release(struct share_table *t)
{
	string_list_clear(&t->names);
	free(t->raw);
	free(t->norm);
	free(t->scale);
	free(t->wv);
}

/*
 * Whether the commits' shares differ no more than their runs say, so that
 * the runs may stand in for the points' spread (see cp_split.h): for each
 * function, Fisher's F of the points' spread, from successive differences
 * (a change moves one of them, not all), over their runs'; the builds
 * agree unless the median of those p-values is below CP_BUILDS_AGREE -
 * a build's own speed (code layout) moves every function, a change one
 * or two.  When they do not, runs are not used and a function's series is
 * judged by its points alone.
 */
#define CP_BUILDS_AGREE 0.05

static int builds_agree(const struct share_table *t)
{
	double *p = xmallocarray(t->names.nr + 1, sizeof(double)), med;
	size_t k, i, np = 0;

	for (k = 0; k < t->names.nr && t->n >= 3; k++) {
		const double *x = t->norm + k * t->n, *w = t->wv + k * t->n;
		double d = 0, mw = 0;

		for (i = 0; i + 1 < t->n; i++)
			d += (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
		for (i = 0; i < t->n; i++)
			mw += w[i] / (double)t->n;
		if (mw > 0)
			p[np++] = stats_f_upper_p(d / (2.0 * (double)(t->n - 1)) / mw,
						  (double)(t->n - 1),
						  (double)t->n * (double)(t->runs - 1));
	}
	med = np ? stats_median_inplace(p, np) : 1;
	free(p);
	return med >= CP_BUILDS_AGREE;
}

/*
 * The significance of a function's move over points [a, a + nl) and
 * [a + nl, a + nl + nr): Student's t of its normalised share (norm), or
 * of its samples per run when they moved the same way - a function near
 * 100 % of the run barely moves its share however much slower it gets,
 * and its samples per run say it plainly - the smaller p, doubled
 * (Bonferroni over the two).
 */
static double moved_p(const struct history_series *s, size_t a, size_t nl, size_t nr,
		      const char *func, const double *norm, const double *wv, size_t runs, double own)
{
	double *rate = xmallocarray(nl + nr, sizeof(double)), pr = 1, ps, mb = 0, ma = 0;
	double *rwv = runs ? xmallocarray(nl + nr, sizeof(double)) : NULL;
	size_t i;

	ps = cp_runs_t_p(norm, wv, nl, norm + nl, wv ? wv + nl : NULL, nr, (unsigned)runs);
	for (i = 0; i < nl + nr; i++) {
		rate[i] = history_point_rate(&s->pts[a + i], func, 0);
		if (rwv)
			rwv[i] = run_variance(&s->pts[a + i], func, runs, 0, NULL);
		if (i < nl)
			mb += rate[i] / (double)nl;
		else
			ma += rate[i] / (double)nr;
	}
	if ((ma > mb) == (own > 0))
		pr = cp_runs_t_p(rate, rwv, nl, rate + nl, rwv ? rwv + nl : NULL, nr, (unsigned)runs);
	free(rate);
	free(rwv);
	return fmin(1, 2 * fmin(ps, pr));
}

/*
 * The change of func's own time between points [a, b) and [b, c), a
 * fraction of the run before: its self samples per run, median after
 * less median before, over the median samples per run before.  What a
 * function's share cannot say when it is nearly the whole run: 2.9x
 * slower from 94.5 % of the run, its share rose to 96.4 % - less than
 * --min-share, so it was not named - while its samples per run rose by
 * 1.8 runs' worth.
 */
static double own_by_rate(const struct history_series *s, size_t a, size_t b, size_t c,
			  const char *func)
{
	double *x = xmallocarray(c - a + 1, sizeof(double)), before, after, run;
	size_t i;

	for (i = a; i < c; i++)
		x[i - a] = history_point_rate(&s->pts[i], func, 0);
	before = stats_median_inplace(x, b - a);
	after = stats_median_inplace(x + (b - a), c - b);
	for (i = a; i < b; i++)
		x[i - a] = s->pts[i].r->samples / s->pts[i].profiles;
	run = stats_median_inplace(x, b - a);
	free(x);
	return run > 0 ? (after - before) / run : 0;
}

/*
 * history_moved_between; found (NULL, or a flag per kept function, in
 * function_names() order): the functions whose own series found this
 * change, already tested on their whole segments - they move when their
 * step is large enough, without the test on [a, b) and [b, c) alone.
 */
static double moved_between(const struct history_series *s, size_t a, size_t b, size_t c,
			    const struct history_detect_opts *o, const unsigned char *found,
			    struct history_moved **out, size_t *nr)
{
	struct share_table t;
	double *x = xmallocarray(c - a + 1, sizeof(double)), top = 0, implied, ratio;
	double *nb, *na, *own;
	size_t k, nl = b - a, nrt = c - b;

	*out = NULL;
	*nr = 0;
	/* the metric's change, to weigh each mover's share by the run's length */
	for (k = a; k < c; k++)
		x[k - a] = s->pts[k].med;
	ratio = stats_median_inplace(x, nl);
	ratio = ratio > 0 ? stats_median_inplace(x + nl, nrt) / ratio : 1;
	share_table_build(s, a, c, o->min_share, &t);
	if (t.runs && !builds_agree(&t))
		t.runs = 0;
	nb = xmallocarray(t.names.nr + 1, sizeof(double));
	na = xmallocarray(t.names.nr + 1, sizeof(double));
	own = xmallocarray(t.names.nr + 1, sizeof(double));
	for (k = 0; k < t.names.nr; k++) {
		memcpy(x, t.norm + k * t.n, t.n * sizeof(double));
		nb[k] = stats_median_inplace(x, nl);
		na[k] = stats_median_inplace(x + nl, nrt);
		/*
		 * the change of its own time, beside the others' common
		 * shrink; with no shrink to measure (flat), by its samples
		 */
		own[k] = t.flat ? own_by_rate(s, a, b, c, t.names.items[k]) : na[k] - nb[k];
		top = fmax(top, fabs(own[k]));
	}
	for (k = 0; k < t.names.nr; k++) {
		/*
		 * a mover carries a real part of the change, not the others'
		 * noise; a function near 100 % can only gain what the others
		 * leave (3x slower from 90 %: 96 %), so the relative effect is of
		 * the smaller of its share and the rest
		 */
		if (fabs(own[k]) < o->min_share || fabs(own[k]) < o->cp.min_effect * fmin(nb[k], 1 - nb[k]) ||
		    fabs(own[k]) < top / 4)
			continue;
		if (found && found[k]) {
			/* its own series' change point: tested there */
		} else if ((nl >= 2 && nrt >= 2) || (t.flat && nl + nrt >= 3)) {
			/*
			 * by samples (flat), the whole run's noise is in it too (a
			 * busier machine, a slower build), which shares cancel: the
			 * test whenever a side has two commits
			 */
			if (moved_p(s, a, nl, nrt, t.names.items[k], t.norm + k * t.n,
				    t.wv ? t.wv + k * t.n : NULL, t.runs, own[k]) > o->cp.alpha)
				continue;
		} else if (fabs(own[k]) < 2 * o->min_share &&
			   (nl + nrt < 3 || moved_p(s, a, nl, nrt, t.names.items[k], t.norm + k * t.n,
						    t.wv ? t.wv + k * t.n : NULL, t.runs, own[k]) > o->cp.alpha)) {
			/* one commit on a side (guard's): a larger step, or the test with the other side's variance */
			continue;
		}
		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		(*out)[*nr].name = xstrdup(t.names.items[k]);
		memcpy(x, t.raw + k * t.n, t.n * sizeof(double));
		(*out)[*nr].before = stats_median_inplace(x, nl);
		(*out)[*nr].after = stats_median_inplace(x + nl, nrt);
		(*out)[*nr].own = own[k];
		(*out)[*nr].contribution = (*out)[*nr].after * ratio - (*out)[*nr].before;
		(*nr)++;
	}
	if (*nr)
		qsort(*out, *nr, sizeof(**out), cmp_moved);
	/* the others' shrink (scale) says how much longer the whole run got */
	memcpy(x, t.scale, t.n * sizeof(double));
	implied = stats_median_inplace(x, nl) / stats_median_inplace(x + nl, nrt) - 1;
	free(x);
	free(nb);
	free(na);
	free(own);
	share_table_release(&t);
	return implied;
}

double history_moved_between(const struct history_series *s, size_t a, size_t b, size_t c,
			     const struct history_detect_opts *o, struct history_moved **out,
			     size_t *nr)
{
	return moved_between(s, a, b, c, o, NULL, out, nr);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * The metric's change point at index b (p-value p) among the functions'
 * (idx, pv, is_metric: n of them): the change a function found at b, or
 * else one point off (the metric's split wanders by a point on a busy
 * machine; the one with the smaller p when both are), placed where the
 * evidence is stronger; else a change of its own.  Two functions' change
 * points a point apart stay two: with --every K, K commits apart.
 */
static void metric_change(size_t b, double p, size_t *idx, double *pv, int *is_metric, size_t *n)
{
	size_t j, exact = *n, near = *n;

	for (j = 0; j < *n; j++) {
		if (idx[j] == b)
			exact = j;
		else if (!is_metric[j] && idx[j] + 1 >= b && idx[j] <= b + 1 &&
			 (near == *n || pv[j] < pv[near]))
			near = j;
	}
	j = exact < *n ? exact : near;
	if (j == *n) {
		idx[*n] = b;
		pv[*n] = p;
		is_metric[(*n)++] = 1;
		return;
	}
	is_metric[j] = 1;
	if (p < pv[j]) {
		idx[j] = b;
		pv[j] = p;
	}
}

/*
 * Change indices of the metric (flag 1) and of the functions, merged.
 * alpha is the false-alarm rate of the whole detection: P(any change point
 * in a steady history).  It is split evenly over the series tested, the
 * metric and each function (Bonferroni), and each series' first test is the
 * gate of its binary segmentation, so a steady history raises an alarm
 * with probability alpha at most; p-values are given multiplied back.
 * The later splits of a series that passed its gate are tested at alpha
 * itself (they cannot raise an alarm in a steady history).  With per-run
 * counts that the builds agree with, a function's series is tested with
 * its runs and a stored commit alone can be a segment.
 */
static size_t change_indices(const struct history_series *s, const struct history_detect_opts *o,
			     size_t *idx, double *pv, int *is_metric, unsigned char **found,
			     size_t *nfound)
{
	struct share_table t;
	struct cp_point *cp = xmallocarray(s->nr + 1, sizeof(*cp));
	struct cp_params mp = o->cp, fp = o->cp;
	struct cp_null_cache cache;
	double *x = xmallocarray(s->nr + 1, sizeof(double)), nseries, tip_p;
	size_t n = 0, i, j, k, m, from = 0;
	int tip, tip_slower;

	share_table_build(s, 0, s->nr, o->min_share, &t);
	if (t.runs && !builds_agree(&t))
		t.runs = 0;
	/* the tip's own test (tip.h) is one more */
	tip = s->nr >= 3 && s->pts[s->nr - 1].r->nruns >= 3;
	nseries = 1 + (double)t.names.nr + tip;
	*nfound = t.names.nr;
	*found = xcalloc((s->nr + 1) * (t.names.nr + 1), 1);
	if (!o->cp.cache)
		cp_null_cache_init(&cache, o->cp.simulations, o->cp.seed);
	mp.cache = fp.cache = o->cp.cache ? o->cp.cache : &cache;
	mp.alpha = fp.alpha = o->cp.alpha / nseries;
	mp.alpha_next = fp.alpha_next = o->cp.alpha;
	/*
	 * A simulated p is at least 1 / (simulations + 1): with many series a
	 * small alpha is out of its reach and even a doubled metric goes
	 * unreported (76-history-live under load: 25 series, --alpha 0.001,
	 * 19,999 simulations).  Said, not hidden.
	 */
	if (!o->cp.cache && ((double)o->cp.simulations + 1) * mp.alpha <= 1)
		warning("detect: %.0f series at --alpha %g: a change needs p < %.2g, but %u "
			"simulations give p >= %.2g, so even the largest change goes unreported; "
			"raise --simulations to %.0f or more", nseries, o->cp.alpha, mp.alpha,
			o->cp.simulations, 1 / ((double)o->cp.simulations + 1), ceil(10 / mp.alpha));
	/*
	 * a median of three runs or more tames a load burst: the null's tails
	 * can be lighter (t5, not t3); bench/history-calibrate checks both
	 */
	for (i = 0, j = SIZE_MAX; i < s->nr; i++)
		j = s->pts[i].r->nruns < j ? s->pts[i].r->nruns : j;
	mp.tails = fp.tails = j >= 3 && j != SIZE_MAX ? 5 : 3;
	/* a function's (normalised) share must move by min_share of all samples */
	fp.relative = 0;
	fp.min_effect = o->min_share;
	fp.runs = (unsigned)t.runs;
	if (t.runs)
		fp.min_size = 1;	/* a stored commit's runs can show a one-commit excursion */
	for (k = 0; k < t.names.nr; k++) {
		fp.wv = t.wv ? t.wv + k * t.n : NULL;
		m = cp_detect(t.norm + k * t.n, s->nr, &fp, cp, s->nr);
		for (i = 0; i < m; i++) {
			double p = fmin(1, cp[i].p * nseries);

			(*found)[cp[i].index * t.names.nr + k] = 1;
			/* two functions' splits at one point are one change */
			for (j = 0; j < n && idx[j] != cp[i].index; j++)
				;
			if (j == n) {
				idx[n] = cp[i].index;
				pv[n] = p;
				is_metric[n++] = 0;
			} else if (p < pv[j]) {
				pv[j] = p;
			}
		}
	}
	for (i = 0; i < s->nr; i++)
		x[i] = s->pts[i].med;
	m = cp_detect(x, s->nr, &mp, cp, s->nr);
	for (i = 0; i < m; i++)
		metric_change(cp[i].index, fmin(1, cp[i].p * nseries), idx, pv, is_metric, &n);
	/* the tip against the commits since the last change before it */
	for (j = 0; j < n; j++)
		if (idx[j] > from && idx[j] + 1 < s->nr)
			from = idx[j];
	if (tip && history_tip_moved(s, from, o->cp.alpha / nseries, o->cp.min_effect, &tip_slower,
				     &tip_p))
		metric_change(s->nr - 1, fmin(1, tip_p * nseries), idx, pv, is_metric, &n);
	if (!o->cp.cache)
		cp_null_cache_release(&cache);
	free(cp);
	free(x);
	share_table_release(&t);
	return n;
}

size_t history_detect(const struct history_series *s, const struct history_detect_opts *o,
		      struct history_change **out)
{
	size_t *idx = xmallocarray(s->nr + 1, sizeof(size_t)), n, i, k;
	double *pv = xmallocarray(s->nr + 1, sizeof(double)), *runs[2];
	int *flag = xmallocarray(s->nr + 1, sizeof(int));
	unsigned char *found = NULL;
	size_t nfound = 0;
	struct history_change *c;

	*out = NULL;
	n = s->nr >= 2 ? change_indices(s, o, idx, pv, flag, &found, &nfound) : 0;
	c = xcalloc(n + 1, sizeof(*c));
	for (i = 0; i < n; i++) {
		c[i].index = idx[i];
		c[i].p = pv[i];
		c[i].metric_changed = flag[i];
	}
	/* sort by index (the metric's and the functions' were appended apart) */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && cmp_size(&c[k - 1].index, &c[k].index) > 0; k--) {
			struct history_change t = c[k];

			c[k] = c[k - 1];
			c[k - 1] = t;
		}
	for (i = 0; i < n; i++) {
		size_t a = i ? c[i - 1].index : 0, b = c[i].index, e = i + 1 < n ? c[i + 1].index : s->nr;
		size_t na = 0, nb = 0, j, q;
		struct stats_ratio ratio;

		runs[0] = xmallocarray(1, sizeof(double));
		runs[1] = xmallocarray(1, sizeof(double));
		for (j = a; j < e; j++) {
			const struct history_result *r = s->pts[j].r;
			int side = j >= b;
			size_t *cnt = side ? &nb : &na;

			runs[side] = xreallocarray(runs[side], *cnt + r->nruns + 1, sizeof(double));
			for (q = 0; q < r->nruns; q++)
				runs[side][(*cnt)++] = r->runs[q];
		}
		c[i].before = stats_median(runs[0], na);
		c[i].after = stats_median(runs[1], nb);
		c[i].change = c[i].before != 0 ? c[i].after / c[i].before - 1 : 0;
		c[i].lo = c[i].hi = c[i].change;
		if (!stats_bootstrap_ratio(runs[0], na, runs[1], nb, 0, 0.95, 1000,
					   STATS_BOOTSTRAP_SEED, &ratio)) {
			c[i].lo = ratio.lo - 1;
			c[i].hi = ratio.hi - 1;
		}
		c[i].slower = c[i].after > c[i].before;
		c[i].implied = moved_between(s, a, b, e, o, found ? found + b * nfound : NULL,
					     &c[i].moved, &c[i].nmoved);
		/*
		 * which way: the metric's, when its interval says; else the
		 * profile's, when a function moved (the metric is noisier)
		 */
		if (c[i].nmoved && !(c[i].lo > 0) && !(c[i].hi < 0))
			c[i].slower = c[i].moved[0].own > 0;
		/* one to act on: a function moved, or the metric beyond the minimum effect */
		c[i].possible = !c[i].nmoved &&
				!(c[i].metric_changed && fabs(c[i].change) >= o->cp.min_effect);
		free(runs[0]);
		free(runs[1]);
	}
	free(idx);
	free(pv);
	free(flag);
	free(found);
	*out = c;
	return n;
}

size_t history_changes_actionable(struct history_change *c, size_t nr)
{
	struct history_change *tmp = xmallocarray(nr + 1, sizeof(*c));
	size_t i, k = 0;

	for (i = 0; i < nr; i++)
		if (!c[i].possible)
			tmp[k++] = c[i];
	for (i = 0; i < nr; i++)
		if (c[i].possible)
			tmp[k++] = c[i];
	memcpy(c, tmp, nr * sizeof(*c));
	free(tmp);
	for (i = k = 0; i < nr; i++)
		k += !c[i].possible;
	return k;
}

void history_changes_free(struct history_change *c, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < c[i].nmoved; j++)
			free(c[i].moved[j].name);
		free(c[i].moved);
		free(c[i].report);
		string_list_clear(&c[i].candidates);
		string_list_clear(&c[i].untested);
	}
	free(c);
}
