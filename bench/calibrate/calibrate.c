/*
 * calibrate.c - bench/calibrate's program: every scenario of scenarios.h
 * over many trials (default 2,000; argument 1), printing the observed
 * rate of each wrong decision next to its nominal, with two Monte-Carlo
 * standard errors.  Exit 1 when a rate exceeds its nominal by more.
 *   build/bench/calibrate [TRIALS [SEED]]
 */
#include "../../bench/calibrate/scenarios.h"
#include "core/parse_number.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	uint64_t trials = 2000, seed = 17;
	int k, bad = 0;

	if ((argc > 1 && (parse_u64(argv[1], &trials) || !trials || trials > 10000000)) ||
	    (argc > 2 && parse_u64(argv[2], &seed)) || argc > 3) {
		fprintf(stderr, "usage: calibrate [TRIALS [SEED]]\n");
		return 2;
	}
	printf("| scenario | wrong decision counted | trials | observed | nominal | within |\n"
	       "| --- | --- | ---: | ---: | ---: | --- |\n");
	for (k = 0; k < CAL_NSCENARIOS; k++) {
		struct cal_result c;

		cal_run((enum cal_scenario)k, (unsigned)trials, seed, &c);
		if (c.nominal < 0)
			printf("| %s | %s | %u | %.1f%% | (power) | |\n", c.name, c.event, c.trials,
			       100 * cal_rate(&c));
		else
			printf("| %s | %s | %u | %.2f%% | %.1f%% (+%.2f MC) | %s |\n", c.name, c.event,
			       c.trials, 100 * cal_rate(&c), 100 * c.nominal, 100 * cal_mc_error(&c),
			       cal_within(&c) ? "yes" : "NO");
		fflush(stdout);
		bad |= !cal_within(&c);
	}
	return bad;
}
