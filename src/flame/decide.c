/*
 * decide.c - trail flame's decisions as pure functions (see decide.h):
 * is the metric worse, where is the threshold, did another function's
 * cost change, bisect or probe the suspects, how sure is the split, and
 * revert or patch.
 */
#include "flame/decide.h"
#include "measure/revert_check.h"
#include "stats/describe.h"
#include "stats/two_sample.h"
#include "stats/distributions.h"
#include "core/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double flame_z_for(double confidence)
{
	return stats_normal_quantile((1 - confidence) / 2);
}

double flame_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double flame_percentile(const double *x, size_t n, double pct)
{
	return stats_quantile(x, n, pct / 100);
}

void flame_metric_estimate(const double *x, size_t n, double pct, double *value, double *se)
{
	double mean = 0, var = 0, p = pct / 100, z, density;
	size_t i;

	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	*value = flame_percentile(x, n, pct);
	if (n < 2) {
		*se = fabs(mean) * 0.05;
		return;
	}
	p = p < 0.01 ? 0.01 : p > 0.99 ? 0.99 : p;
	z = stats_normal_quantile(p);
	density = exp(-z * z / 2) / sqrt(2 * M_PI);
	*se = sqrt(var / (double)(n - 1)) * sqrt(p * (1 - p) / (double)n) / density;
}

double flame_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
			    int *b_larger)
{
	struct stats_mwu m;

	*b_larger = 0;
	if (!na || !nb || stats_mann_whitney(b, nb, a, na, &m))
		return 1;
	*b_larger = m.u_a > (double)na * (double)nb / 2;
	return m.p;
}

int flame_metric_regressed(const struct flame_metric_test *t, double confidence)
{
	return t->p < 1 - confidence && t->bad_larger && t->value[1] > t->value[0];
}

int flame_wall_rose(const struct flame_metric_test *wall, double confidence)
{
	return wall->p < 1 - confidence && wall->bad_larger && wall->value[1] >= wall->value[0] * 1.1;
}

double flame_threshold(double good, double bad)
{
	return (good + bad) / 2;
}

double flame_threshold_log(double good, double bad)
{
	double lo = fmin(good, bad), hi = fmax(good, bad);

	if (!(lo > 0))
		return flame_threshold(good, bad);
	/* a near-0 end: its log is noise; the midpoint stays at a tenth of the other end */
	if (lo < hi * FLAME_LOG_FLOOR)
		lo = hi * FLAME_LOG_FLOOR;
	return sqrt(lo * hi);
}

double flame_threshold_scaled(double good, double bad, int log_scale)
{
	return log_scale ? flame_threshold_log(good, bad) : flame_threshold(good, bad);
}

int flame_cost_changed(double delta, double se, double total, double min_delta, double z)
{
	return total > 0 && fabs(delta) / total >= min_delta && fabs(delta) > z * se;
}

double flame_median_se(const double *x, size_t n)
{
	double med, *d, mad;
	size_t i;

	if (n < 2)
		return 0;
	med = flame_percentile(x, n, 50);
	d = xcalloc(n, sizeof(*d));
	for (i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	mad = flame_percentile(d, n, 50);
	free(d);
	return 1.2533 * 1.4826 * mad / sqrt((double)n);
}

int flame_share_shift_notable(double delta, double se)
{
	return delta >= 0.05 && se > 0 && delta > 4 * se;
}

int flame_run_too_short(double cpu_us)
{
	return cpu_us >= 0 && cpu_us < FLAME_SHORT_RUN_US;
}

int flame_prefer_samples(double share_good, double share_bad, double share_se,
			 double samples_good, double samples_bad, double samples_se)
{
	double zs, zn;

	if (!(samples_se > 0) || !(samples_bad > samples_good))
		return 0;
	zn = (samples_bad - samples_good) / samples_se;
	if (!(share_se > 0))
		return share_bad > share_good ? 0 : zn > 2;
	zs = (share_bad - share_good) / share_se;
	return zn > 2 * (zs > 0 ? zs : 0) && zn > 2;
}

unsigned flame_steps_left(size_t candidates)
{
	unsigned k = 0;

	while (k < 63 && ((size_t)1 << k) < candidates)
		k++;
	return k;
}

const char *flame_choose_strategy(const char *requested, size_t ncommits, size_t nsuspects,
				  char *reason, size_t n)
{
	unsigned bisect_cost = flame_steps_left(ncommits);
	unsigned suspect_cost = nsuspects ? flame_steps_left(nsuspects + 1) : 0;

	if (!strcmp(requested, "suspects") ||
	    (!strcmp(requested, "auto") && nsuspects && suspect_cost < bisect_cost)) {
		if (!nsuspects) {
			snprintf(reason, n, "no suspect set; bisecting the %zu commits", ncommits);
			return "bisect";
		}
		snprintf(reason, n, "probing the %zu suspects directly (about %u probes) is cheaper "
			 "than bisecting %zu commits (about %u)", nsuspects, suspect_cost, ncommits,
			 bisect_cost);
		return "suspects";
	}
	snprintf(reason, n, "bisecting %zu commits (about %u probes)%s", ncommits, bisect_cost,
		 nsuspects ? " is no dearer than probing the suspects" : "");
	return "bisect";
}

enum flame_pair_decision flame_pair_decide(const struct flame_step_assessment *a)
{
	return flame_pair_decide_part(a, 0.5);
}

enum flame_pair_decision flame_pair_decide_part(const struct flame_step_assessment *a,
						double part)
{
	if (a->real && a->explains >= part)
		return FLAME_PAIR_SPLIT;
	if (a->effect > 0 && a->part_hi < part)
		return FLAME_PAIR_NO_SPLIT;
	return FLAME_PAIR_UNDECIDED;
}

int flame_split_confirmed(const struct flame_pair_result *pair)
{
	return pair->decision == FLAME_PAIR_SPLIT;
}

const char *flame_recommend(size_t later, int revert, size_t conflicts, long files, long lines,
			    const char *function, char *reason, size_t n)
{
	const char *tried = revert == FLAME_REVERT_CLEAN ? "its revert applies cleanly on top of "
							   "bad (tried in trail's clone)" :
			    "its revert could not be tried";

	if (revert == FLAME_REVERT_CONFLICTS) {
		snprintf(reason, n, "its revert conflicts on top of bad in %zu file%s (tried in "
			 "trail's clone): revert it together with the later commits that touched "
			 "them, or fix the slow path in place", conflicts, conflicts == 1 ? "" : "s");
		return "patch";
	}
	if (later) {
		snprintf(reason, n, "%zu later commit%s in the range also changed %s (git log -L); "
			 "%s, but undoing it may break what they build on: fix the slow path in "
			 "place", later, later == 1 ? "" : "s", function ? function : "the code",
			 tried);
		return "patch";
	}
	if (lines > 200 || files > 5) {
		snprintf(reason, n, "the commit is large (%ld files, %ld lines changed); reverting "
			 "it would drop unrelated work", files, lines);
		return "patch";
	}
	snprintf(reason, n, "the commit is small (%ld file%s, %ld lines changed)%s%s%s; %s", files,
		 files == 1 ? "" : "s", lines, function ? ", no later commit in the range changed " : "",
		 function ? function : "", function ? " (git log -L)" : "", tried);
	return "revert";
}
