/*
 * calibrate.c - bench/history-calibrate's program: every scenario of
 * scenarios.h over many trials (default 2,000; argument 1): the share of
 * steady histories with a change point (false alarms) next to --alpha,
 * with two Monte-Carlo standard errors, and the power on histories with
 * three changes.  Exit 1 when a false-alarm rate exceeds alpha by more.
 *   build/bench/history-calibrate [TRIALS [SEED]]
 */
#include "../../bench/history-calibrate/scenarios.h"
#include "core/parse_number.h"

int main(int argc, char **argv)
{
	uint64_t trials = 2000, seed = 17;
	int k, bad = 0;

	if ((argc > 1 && (parse_u64(argv[1], &trials) || !trials || trials > 10000000)) ||
	    (argc > 2 && parse_u64(argv[2], &seed)) || argc > 3) {
		fprintf(stderr, "usage: history-calibrate [TRIALS [SEED]]\n");
		return 2;
	}
	printf("| scenario | trials | false alarms | nominal | within | changes right (subtle, slowdown, revert) | all three, no other |\n"
	       "| --- | ---: | ---: | ---: | --- | ---: | ---: |\n");
	for (k = 0; k < HCAL_NSCENARIOS; k++) {
		struct hcal_result r;

		hcal_run((enum hcal_scenario)k, (unsigned)trials, seed, &r);
		if (r.changes)
			printf("| %s | %u | %.2f%% (extra) | | | %.1f%% (%.0f%%, %.0f%%, %.0f%%) | %.1f%% |\n",
			       r.name, r.trials, 100.0 * r.alarms / r.trials,
			       100.0 * r.right / (3.0 * r.trials), 100.0 * r.hit[0] / r.trials,
			       100.0 * r.hit[1] / r.trials, 100.0 * r.hit[2] / r.trials,
			       100.0 * r.all_right / r.trials);
		else
			printf("| %s | %u | %.2f%% | %.1f%% (+%.2f MC) | %s | | |\n", r.name, r.trials,
			       100.0 * r.alarms / r.trials, 100 * HCAL_ALPHA,
			       200 * sqrt(HCAL_ALPHA * (1 - HCAL_ALPHA) / r.trials),
			       hcal_within(&r) ? "yes" : "NO");
		fflush(stdout);
		bad |= !hcal_within(&r);
	}
	return bad;
}
