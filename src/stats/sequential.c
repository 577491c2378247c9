/*
 * sequential.c - the p-value of a sequential test adjusted for its looks
 * (see sequential.h).
 */
#include "stats/sequential.h"

double stats_look_adjusted_p(double prev, double p_look, double alpha_look, double alpha)
{
	double p = alpha_look > 0 ? p_look * alpha / alpha_look : 1;

	if (p > 1)
		p = 1;
	return p < prev ? p : prev;
}
