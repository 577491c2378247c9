/*
 * calibrate.c - bench/calibrate's program: every scenario of scenarios.h
 * over many trials (default 2,000; argument 1), printing the observed
 * rate of each wrong decision next to its nominal, with two Monte-Carlo
 * standard errors.  Exit 1 when a rate exceeds its nominal by more.
 *   build/bench/calibrate [TRIALS [SEED [TEXT]]]
 * TEXT runs only the scenarios whose name contains it.
 */
#include "../../bench/calibrate/scenarios.h"
#include "core/parse_number.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	uint64_t trials = 2000, seed = 17;
	int k, bad = 0;

	if ((argc > 1 && (parse_u64(argv[1], &trials) || !trials || trials > 10000000)) ||
	    (argc > 2 && parse_u64(argv[2], &seed)) || argc > 4) {
		fprintf(stderr, "usage: calibrate [TRIALS [SEED [TEXT]]]\n");
		return 2;
	}
	printf("| scenario | wrong decision counted | trials | observed | nominal | within |\n"
	       "| --- | --- | ---: | ---: | ---: | --- |\n");
	for (k = 0; k < CAL_NSCENARIOS; k++) {
		struct cal_result c;

		if (argc > 3) {
			cal_run((enum cal_scenario)k, 1, seed, &c);	/* its name */
			if (!strstr(c.name, argv[3]))
				continue;
		}
		cal_run((enum cal_scenario)k, (unsigned)trials, seed, &c);
		if (c.nominal < 0 && c.min_power > 0)
			printf("| %s | %s | %u | %.1f%% | (power) >= %.0f%% | %s |\n", c.name, c.event,
			       c.trials, 100 * cal_rate(&c), 100 * c.min_power,
			       cal_within(&c) ? "yes" : "NO");
		else if (c.nominal < 0)
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
