/*
 * tip.c - the change at a series' last stored commit (tip.h): guard's
 * one-sided test and interval rule (guard.c) on the tip's runs against
 * the pooled runs of the commits before it, for a slowdown and, on the
 * reciprocals, for a speed-up, each at half the level; and the tip's
 * median beyond all of theirs, as its runs share its build and load;
 * and the pooled runs of a range of commits, what guard, the site and
 * this test compare.
 */
#include "history/tip.h"

#include "history/guard.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

double *history_pool_runs(const struct history_series *s, size_t a, size_t b, size_t *n)
{
	size_t i, j, total = 0;
	double *x;

	for (i = a; i < b; i++)
		total += s->pts[i].r->nruns;
	x = xmallocarray(total + 1, sizeof(double));
	*n = 0;
	for (i = a; i < b; i++)
		for (j = 0; j < s->pts[i].r->nruns; j++)
			x[(*n)++] = s->pts[i].r->runs[j];
	return x;
}

/* The runs of points [a, b), or their reciprocals when inv (NULL when any is not positive). */
static double *runs_of(const struct history_series *s, size_t a, size_t b, int inv, size_t *n)
{
	double *x = history_pool_runs(s, a, b, n);
	size_t i;

	for (i = 0; inv && i < *n; i++) {
		if (!(x[i] > 0)) {
			free(x);
			return NULL;
		}
		x[i] = 1 / x[i];
	}
	return x;
}

/*
 * Whether the tip's median is beyond every one of points [from, last)'s
 * (above when slower): what a build's own speed or a load offset shared
 * by the tip's runs cannot pass for alone more often than 1 in
 * (last - from + 1), whatever its runs say.
 */
static int beyond_all(const struct history_series *s, size_t from, size_t last, int slower)
{
	size_t i;

	for (i = from; i < last; i++)
		if (slower ? !(s->pts[last].med > s->pts[i].med) : !(s->pts[last].med < s->pts[i].med))
			return 0;
	return 1;
}

int history_tip_moved(const struct history_series *s, size_t from, double alpha, double min_effect,
		      int *slower, double *p)
{
	size_t last, nb, nr, dir;
	int moved = 0;

	*p = 1;
	*slower = 0;
	if (s->nr < 3)
		return 0;
	last = s->nr - 1;
	if (last - from > HISTORY_TIP_WINDOW)
		from = last - HISTORY_TIP_WINDOW;
	if (last - from < 2 || s->pts[last].r->nruns < 3)
		return 0;
	for (dir = 0; dir < 2; dir++) {
		double *base = runs_of(s, from, last, (int)dir, &nb);
		double *rev = runs_of(s, last, s->nr, (int)dir, &nr);
		struct history_guard_metric g;

		if (base && rev && !history_guard_metric(base, nb, rev, nr, alpha / 2, min_effect, &g)) {
			if (g.slower && !moved && beyond_all(s, from, last, !dir)) {
				moved = 1;
				*slower = !dir;
			}
			*p = fmin(*p, fmin(1, 2 * g.p));
		}
		free(base);
		free(rev);
	}
	return moved;
}
