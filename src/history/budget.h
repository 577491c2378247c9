/*
 * budget.h - a performance budget of a bench in .trail ("p95 < 20 ms",
 * "cpu < 1.5 s", "peak-heap < 64 MiB"): parsed strictly (a statistic, <
 * or <=, a number, a unit of time or of bytes), and checked against a
 * commit's runs.  Pure functions: no git, no clock.
 */
#ifndef TRAIL_HISTORY_BUDGET_H
#define TRAIL_HISTORY_BUDGET_H

#include <stddef.h>

enum history_budget_dim { HISTORY_BUDGET_TIME, HISTORY_BUDGET_BYTES };

struct history_budget {
	char stat[16];		/* as written: "p95", "median", "cpu", "peak-heap" ... */
	const char *metric;	/* the metric it is about ("cpu" ...), or NULL: the bench's */
	double q;		/* quantile of the runs it bounds (0.5 median, 1 max, -1 mean) */
	int inclusive;		/* "<=": the limit itself passes */
	double limit;		/* seconds or bytes (dim) */
	enum history_budget_dim dim;
	char text[64];		/* normalised, for messages: "p95 < 20 ms" */
};

/* Parse s into b; -1 with *why set to a static reason. */
int history_budget_parse(const char *s, struct history_budget *b, const char **why);

/*
 * The factor that takes a value in unit (a stored result's: "us", "s",
 * "KiB", "B" ...) to the budget's base (seconds or bytes), or 0 when the
 * unit is not of dimension dim.
 */
double history_budget_unit_factor(const char *unit, enum history_budget_dim dim);

/*
 * The budget's statistic of runs[0..n) (in unit) in its base unit into
 * *value, and whether it is within the limit.  1 within, 0 broken, -1
 * when unit is not of the budget's dimension or n is 0.
 */
int history_budget_check(const struct history_budget *b, const double *runs, size_t n,
			 const char *unit, double *value);

/* value (seconds or bytes) in the budget's own unit, e.g. "23.1 ms", into buf. */
void history_budget_format(const struct history_budget *b, double value, char *buf, size_t n);

#endif
