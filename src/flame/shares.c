/*
 * shares.c - per-run function shares and the good/bad hotspot ranking
 * (see shares.h).  The standard error combines the run-to-run spread with
 * the binomial floor (a profile sample is a Bernoulli trial "in f or not").
 */
#include "flame/shares.h"
#include "flame/estimate.h"
#include "core/alloc.h"
#include "core/intern.h"
#include "diff/hotspots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void flame_function_share(const struct folded_profile *p, const char *func,
			  double *self, double *total)
{
	struct hotspot_share hs;

	hotspot_function_share(p, 0, func, NULL, &hs);
	*self = hs.self.share;
	*total = hs.total.share;
}

static void summarise(const double *x, const double *n, size_t nr, struct flame_share *out)
{
	double sum = 0, pooled_x = 0, pooled_n = 0, var = 0, se_runs, se_binom, p;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!nr)
		return;
	for (i = 0; i < nr; i++) {
		sum += x[i];
		pooled_n += n[i];
		pooled_x += x[i] * n[i];
	}
	out->mean = sum / (double)nr;
	out->samples = pooled_n;
	for (i = 0; i < nr; i++)
		var += (x[i] - out->mean) * (x[i] - out->mean);
	se_runs = nr > 1 ? sqrt(var / (double)(nr - 1) / (double)nr) : 0;
	p = pooled_n > 0 ? pooled_x / pooled_n : 0;
	se_binom = pooled_n > 0 ? sqrt(p * (1 - p) / pooled_n) : 0;
	/* With one run the spread is unknown: at least the binomial error. */
	out->se = se_runs > se_binom ? se_runs : se_binom;
	out->df = se_runs > se_binom ? (double)nr - 1 : FLAME_SHARE_DF_SAMPLING;
}

void flame_share_over_runs(struct folded_profile *const *runs, size_t nr,
			   const char *func, int total, struct flame_share *out)
{
	double *x = xcalloc(nr ? nr : 1, sizeof(double));
	double *n = xcalloc(nr ? nr : 1, sizeof(double));
	size_t i;

	for (i = 0; i < nr; i++) {
		double s, t;

		flame_function_share(runs[i], func, &s, &t);
		x[i] = total ? t : s;
		n[i] = runs[i]->total[0];
	}
	summarise(x, n, nr, out);
	free(x);
	free(n);
}

void flame_samples_over_runs(struct folded_profile *const *runs, size_t nr,
			     const char *func, int total, struct flame_share *out)
{
	double sum = 0, var = 0, se_runs, se_poisson, *x;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!nr)
		return;
	x = xcalloc(nr, sizeof(double));

	for (i = 0; i < nr; i++) {
		double s, t;

		flame_function_share(runs[i], func, &s, &t);
		x[i] = (total ? t : s) * runs[i]->total[0];
		sum += x[i];
		out->samples += runs[i]->total[0];
	}
	out->mean = sum / (double)nr;
	for (i = 0; i < nr; i++)
		var += (x[i] - out->mean) * (x[i] - out->mean);
	se_runs = nr > 1 ? sqrt(var / (double)(nr - 1) / (double)nr) : 0;
	/* Sample counts are Poisson-like: at least sqrt(mean / runs). */
	se_poisson = sqrt(out->mean / (double)nr);
	out->se = se_runs > se_poisson ? se_runs : se_poisson;
	out->df = se_runs > se_poisson ? (double)nr - 1 : FLAME_SHARE_DF_SAMPLING;
	free(x);
}

void flame_relative_share_over_runs(struct folded_profile *const *runs, size_t nr,
				    const char *func, const struct string_list *exclude,
				    struct flame_share *out)
{
	double *x = xcalloc(nr ? nr : 1, sizeof(double));
	double *n = xcalloc(nr ? nr : 1, sizeof(double));
	size_t i, k;

	for (i = 0; i < nr; i++) {
		double s, t, es, et, kept = runs[i]->total[0];

		flame_function_share(runs[i], func, &s, &t);
		for (k = 0; exclude && k < exclude->nr; k++) {
			if (!strcmp(exclude->items[k], func))
				continue;
			flame_function_share(runs[i], exclude->items[k], &es, &et);
			kept -= es * runs[i]->total[0];
		}
		n[i] = kept > 0 ? kept : 0;
		x[i] = n[i] > 0 ? s * runs[i]->total[0] / n[i] : 0;
	}
	summarise(x, n, nr, out);
	free(x);
	free(n);
}

void flame_time_over_runs(struct folded_profile *const *runs, const double *cpu_ms, size_t nr,
			  const char *func, int total, struct flame_share *out)
{
	double sum = 0, var = 0, floor2 = 0, se_runs, se_counts, *x;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!nr)
		return;
	x = xcalloc(nr, sizeof(double));
	for (i = 0; i < nr; i++) {
		double self, tot, p, n = runs[i]->total[0];

		flame_function_share(runs[i], func, &self, &tot);
		p = total ? tot : self;
		x[i] = p * cpu_ms[i];
		/* the share's binomial error, at least one sample's worth */
		floor2 += n > 0 ? cpu_ms[i] * cpu_ms[i] * (p * (1 - p) > 1 / n ? p * (1 - p) : 1 / n) / n
				: 0;
		sum += x[i];
		out->samples += n;
	}
	out->mean = sum / (double)nr;
	for (i = 0; i < nr; i++)
		var += (x[i] - out->mean) * (x[i] - out->mean);
	se_runs = nr > 1 ? sqrt(var / (double)(nr - 1) / (double)nr) : 0;
	se_counts = sqrt(floor2 / (double)nr / (double)nr);
	out->se = se_runs > se_counts ? se_runs : se_counts;
	out->df = se_runs > se_counts ? (double)nr - 1 : FLAME_SHARE_DF_SAMPLING;
	free(x);
}

static int cmp_hotspot(const void *a, const void *b)
{
	const struct flame_hotspot *x = a, *y = b;

	if (x->delta_self != y->delta_self)
		return (x->delta_self < y->delta_self) - (x->delta_self > y->delta_self);
	if (x->delta_total != y->delta_total)
		return (x->delta_total < y->delta_total) - (x->delta_total > y->delta_total);
	return strcmp(x->name, y->name);
}

static int has_name(const struct flame_hotspots *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (!strcmp(h->items[i].name, name))
			return 1;
	return 0;
}

void flame_hotspots_rank(struct folded_profile *const *good, size_t ng,
			 struct folded_profile *const *bad, size_t nb,
			 double min_delta, double confirm, double confidence,
			 struct flame_hotspots *out)
{
	struct hotspot_options hopts = HOTSPOT_OPTIONS_INIT;
	struct hotspot_rank_options ropts = HOTSPOT_RANK_OPTIONS_INIT;
	struct hotspot_ranking rank;
	struct hotspots hs;
	size_t i, alloc = 0;

	memset(out, 0, sizeof(*out));
	/* The pooled ranking and its z-test come from diff/hotspots.h ... */
	hotspots_init(&hs, &hopts);
	for (i = 0; i < ng; i++)
		hotspots_add_profile(&hs, 0, good[i], 0);
	for (i = 0; i < nb; i++)
		hotspots_add_profile(&hs, 1, bad[i], 0);
	ropts.min_delta = min_delta;
	ropts.confirm = confirm;
	ropts.alpha = 1 - confidence;
	hotspots_rank(&hs, &ropts, &rank);
	for (i = 0; i < rank.nr_hotter + rank.nr_cooler; i++) {
		const struct hotspot_row *row = i < rank.nr_hotter ? &rank.hotter[i]
							   : &rank.cooler[i - rank.nr_hotter];
		const char *nm = hotspots_name(&hs, row->func);

		if (row->measure == HOTSPOT_SELF && !string_list_has(&out->changed, nm))
			string_list_append(&out->changed, nm);
	}
	for (i = 0; i < rank.nr_hotter; i++) {
		const struct hotspot_row *row = &rank.hotter[i];
		const char *name = hotspots_name(&hs, row->func);
		struct flame_hotspot h;

		if (has_name(out, name))
			continue;
		/* ... and the run-to-run spread of each function is added here. */
		memset(&h, 0, sizeof(h));
		h.name = xstrdup(name);
		flame_share_over_runs(good, ng, name, 0, &h.good_self);
		flame_share_over_runs(bad, nb, name, 0, &h.bad_self);
		flame_share_over_runs(good, ng, name, 1, &h.good_total);
		flame_share_over_runs(bad, nb, name, 1, &h.bad_total);
		h.delta_self = h.bad_self.mean - h.good_self.mean;
		h.delta_total = h.bad_total.mean - h.good_total.mean;
		h.se_self = sqrt(h.good_self.se * h.good_self.se + h.bad_self.se * h.bad_self.se);
		h.se_total = sqrt(h.good_total.se * h.good_total.se + h.bad_total.se * h.bad_total.se);
		hotspots_test(&hs, row->func, HOTSPOT_SELF, &h.pooled);
		/*
		 * The run-level test is Welch's t on the per-run shares (shares
		 * vary between runs several times more than binomially), with
		 * Student's quantile: t on 2-8 df is far from z.
		 */
		h.confirmed = h.pooled.p_value < ropts.alpha && h.pooled.delta >= confirm &&
			      h.delta_self > flame_t_quantile(ropts.alpha / 2,
				      flame_welch_df(h.good_self.se, h.good_self.df, h.bad_self.se,
						     h.bad_self.df)) * h.se_self;
		/*
		 * A hotter function is one whose self share rose past the noise
		 * floor: a caller whose total share rose (wrap, main) is not.
		 */
		if (!h.confirmed && !(h.delta_self > 0 && h.delta_self >= min_delta)) {
			free(h.name);
			continue;
		}
		ALLOC_GROW(out->items, out->nr + 1, alloc);
		out->items[out->nr++] = h;
	}
	if (out->nr)
		qsort(out->items, out->nr, sizeof(*out->items), cmp_hotspot);
	hotspot_ranking_release(&rank);
	hotspots_release(&hs);
}

size_t flame_hotspots_first_in(const struct flame_hotspots *h, const struct string_list *names)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (h->items[i].confirmed && string_list_has(names, h->items[i].name))
			return i;
	return h->nr;
}

void flame_hotspots_release(struct flame_hotspots *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		free(h->items[i].name);
	free(h->items);
	string_list_clear(&h->changed);
	memset(h, 0, sizeof(*h));
}
