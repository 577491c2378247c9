/*
 * sequential.c - the p-value of a sequential test adjusted for its looks,
 * and Holm's adjustment of a family of p-values (see sequential.h).
 */
#include "stats/sequential.h"
#include "core/alloc.h"

#include <stdlib.h>

double stats_look_adjusted_p(double prev, double p_look, double alpha_look, double alpha)
{
	double p = alpha_look > 0 ? p_look * alpha / alpha_look : 1;

	if (p > 1)
		p = 1;
	return p < prev ? p : prev;
}

void stats_holm_adjust(const double *p, size_t m, double *adjusted)
{
	size_t *order = xmallocarray(m ? m : 1, sizeof(*order)), i, j;
	double run = 0, *q = xmallocarray(m ? m : 1, sizeof(*q));

	/* insertion sort of the indices by p: families are a few commands */
	for (i = 0; i < m; i++) {
		for (j = i; j > 0 && p[order[j - 1]] > p[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < m; i++) {
		double v = (double)(m - i) * p[order[i]];

		v = v > 1 ? 1 : v;
		run = v > run ? v : run;
		q[order[i]] = run;
	}
	for (i = 0; i < m; i++)
		adjusted[i] = q[i];
	free(order);
	free(q);
}
