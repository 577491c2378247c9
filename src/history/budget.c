/*
 * budget.c - a bench's performance budget: "STAT < NUMBER UNIT" (or <=).
 * STAT is median, mean, max, pN (a percentile of the runs, 0 < N < 100)
 * of the bench's metric, or a metric's name (cpu, wall, rss, alloc,
 * peak-heap: the median of that metric, which must be the bench's).
 * Units: ns us ms s min, B KiB MiB GiB kB MB GB.  Anything else is an
 * error: a budget that silently reads as something else guards nothing.
 */
#include "history/budget.h"

#include "stats/describe.h"
#include "core/alloc.h"
#include "core/parse_number.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct unit {
	const char *name;
	enum history_budget_dim dim;
	double factor;		/* to seconds or bytes */
} units[] = {
	{ "ns", HISTORY_BUDGET_TIME, 1e-9 }, { "us", HISTORY_BUDGET_TIME, 1e-6 },
	{ "ms", HISTORY_BUDGET_TIME, 1e-3 }, { "s", HISTORY_BUDGET_TIME, 1 },
	{ "min", HISTORY_BUDGET_TIME, 60 },
	{ "B", HISTORY_BUDGET_BYTES, 1 }, { "bytes", HISTORY_BUDGET_BYTES, 1 },
	{ "KiB", HISTORY_BUDGET_BYTES, 1024 }, { "MiB", HISTORY_BUDGET_BYTES, 1048576 },
	{ "GiB", HISTORY_BUDGET_BYTES, 1073741824 }, { "kB", HISTORY_BUDGET_BYTES, 1e3 },
	{ "MB", HISTORY_BUDGET_BYTES, 1e6 }, { "GB", HISTORY_BUDGET_BYTES, 1e9 },
};
#define NR_UNITS (sizeof(units) / sizeof(units[0]))

/* The metrics a budget may name, and the dimension of their values. */
static const struct {
	const char *name;
	enum history_budget_dim dim;
} metric_stats[] = {
	{ "cpu", HISTORY_BUDGET_TIME }, { "wall", HISTORY_BUDGET_TIME },
	{ "rss", HISTORY_BUDGET_BYTES }, { "alloc", HISTORY_BUDGET_BYTES },
	{ "peak-heap", HISTORY_BUDGET_BYTES },
};

static const struct unit *find_unit(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < NR_UNITS; i++)
		if (strlen(units[i].name) == n && !memcmp(units[i].name, s, n))
			return &units[i];
	return NULL;
}

double history_budget_unit_factor(const char *unit, enum history_budget_dim dim)
{
	const struct unit *u = unit ? find_unit(unit, strlen(unit)) : NULL;

	return u && u->dim == dim ? u->factor : 0;
}

/* The statistic's word into b (q, metric); -1 when unknown. */
static int parse_stat(const char *s, size_t n, struct history_budget *b)
{
	size_t i;

	b->metric = NULL;
	b->q = 0.5;
	if (n == 6 && !memcmp(s, "median", 6))
		return 0;
	if (n == 4 && !memcmp(s, "mean", 4)) {
		b->q = -1;
		return 0;
	}
	if (n == 3 && !memcmp(s, "max", 3)) {
		b->q = 1;
		return 0;
	}
	if (n >= 2 && n <= 6 && s[0] == 'p' && isdigit((unsigned char)s[1])) {
		double pct;

		if (parse_double_n(s + 1, n - 1, &pct) || !(pct > 0 && pct < 100) ||
		    strspn(s + 1, "0123456789.") < n - 1)
			return -1;
		b->q = pct / 100;
		return 0;
	}
	for (i = 0; i < sizeof(metric_stats) / sizeof(metric_stats[0]); i++)
		if (strlen(metric_stats[i].name) == n && !memcmp(metric_stats[i].name, s, n)) {
			b->metric = metric_stats[i].name;
			return 0;
		}
	return -1;
}

static void skip_blank(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

int history_budget_parse(const char *s, struct history_budget *b, const char **why)
{
	const char *p = s, *w;
	const struct unit *u;
	size_t n;
	double x;

	memset(b, 0, sizeof(*b));
	skip_blank(&p);
	for (w = p; islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-' || *p == '.'; p++)
		;
	n = (size_t)(p - w);
	if (!n || n >= sizeof(b->stat) || parse_stat(w, n, b)) {
		*why = "the statistic is not median, mean, max, pN (0 < N < 100), cpu, wall, rss, "
		       "alloc or peak-heap";
		return -1;
	}
	memcpy(b->stat, w, n);
	skip_blank(&p);
	if (*p != '<') {
		*why = "expected '<' or '<=' after the statistic";
		return -1;
	}
	p++;
	if (*p == '=') {
		b->inclusive = 1;
		p++;
	}
	skip_blank(&p);
	for (w = p; isdigit((unsigned char)*p) || *p == '.'; p++)
		;
	if (p == w || parse_double_n(w, (size_t)(p - w), &x) || !isfinite(x) || x <= 0) {
		*why = "the limit is not a positive number (digits and a '.', e.g. 20 or 1.5)";
		return -1;
	}
	skip_blank(&p);
	for (w = p; isalpha((unsigned char)*p); p++)
		;
	u = find_unit(w, (size_t)(p - w));
	skip_blank(&p);
	if (!u || *p) {
		*why = "the unit is not one of ns, us, ms, s, min, B, KiB, MiB, GiB, kB, MB, GB "
		       "(or text follows it)";
		return -1;
	}
	b->dim = u->dim;
	b->limit = x * u->factor;
	for (n = 0; n < sizeof(metric_stats) / sizeof(metric_stats[0]); n++)
		if (b->metric && !strcmp(b->metric, metric_stats[n].name) && metric_stats[n].dim != b->dim) {
			*why = b->dim == HISTORY_BUDGET_TIME ? "that metric is bytes, not a time" :
			       "that metric is a time, not bytes";
			return -1;
		}
	snprintf(b->text, sizeof(b->text), "%s %s %.6g %s", b->stat, b->inclusive ? "<=" : "<", x,
		 u->name);
	return 0;
}

int history_budget_check(const struct history_budget *b, const double *runs, size_t n,
			 const char *unit, double *value)
{
	double f = history_budget_unit_factor(unit, b->dim), v = 0, *sorted;
	size_t i;

	if (!f || !n)
		return -1;
	sorted = xmallocarray(n, sizeof(double));
	memcpy(sorted, runs, n * sizeof(double));
	stats_sort(sorted, n);
	if (b->q < 0) {
		for (i = 0; i < n; i++)
			v += sorted[i] / (double)n;
	} else {
		v = stats_quantile_sorted(sorted, n, b->q);
	}
	free(sorted);
	*value = v * f;
	return b->inclusive ? *value <= b->limit : *value < b->limit;
}

void history_budget_format(const struct history_budget *b, double value, char *buf, size_t n)
{
	const char *p = strchr(b->text, '<');
	const char *unit;
	const struct unit *u;

	/* the unit the budget was written in: the text's last word */
	unit = p ? strrchr(p, ' ') : NULL;
	u = unit ? find_unit(unit + 1, strlen(unit + 1)) : NULL;
	if (!u)
		snprintf(buf, n, "%.4g", value);
	else
		snprintf(buf, n, "%.4g %s", value / u->factor, u->name);
}
