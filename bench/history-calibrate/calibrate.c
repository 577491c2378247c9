/*
 * calibrate.c - bench/history-calibrate's program: every scenario of
 * scenarios.h over many trials (default 2,000; argument 1): the share of
 * steady histories with a change point (false alarms) next to --alpha,
 * with two Monte-Carlo standard errors, and the power on histories with
 * three changes.  Then guard.h's: trail history guard's metric verdict,
 * before (normal approximation, two-sided) and now (exact, one-sided).
 * Exit 1 when a false-alarm rate exceeds alpha by more.
 *   build/bench/history-calibrate [TRIALS [SEED [guard]]]   (guard: its table only)
 */
#include "../../bench/history-calibrate/guard.h"
#include "../../bench/history-calibrate/scenarios.h"
#include "core/parse_number.h"

/*
 * trail history guard: the share of trials called slower, the test alone
 * (p < alpha) and the verdict (also the 95 % interval beyond the bound),
 * before -> now: false alarms in steady scenarios, power in "power:" ones.
 */
static int guard_table(unsigned trials, uint64_t seed)
{
	size_t k;
	int bad = 0;

	printf("\n| guard scenario | trials | exact | alpha | test p < alpha | verdict, bound 0 | "
	       "verdict, bound 5 %% | within |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
	for (k = 0; k < HGRD_NSCENARIOS; k++) {
		struct hgrd_result r;
		int a, ok;

		hgrd_run(k, trials, seed, &r);
		ok = hgrd_within(k, &r);
		for (a = 0; a < HGRD_ALPHAS; a++)
			printf("| %s | %u | %.0f%% | %.2f | %.2f%% -> %.2f%% | %.2f%% -> %.2f%% | "
			       "%.2f%% -> %.2f%% | %s |\n", hgrd_setups[k].name, r.trials,
			       100.0 * r.exact / r.trials, hgrd_alpha[a],
			       100.0 * r.test[a][0] / r.trials, 100.0 * r.test[a][1] / r.trials,
			       100.0 * r.guard[a][0][0] / r.trials, 100.0 * r.guard[a][0][1] / r.trials,
			       100.0 * r.guard[a][1][0] / r.trials, 100.0 * r.guard[a][1][1] / r.trials,
			       !hgrd_setups[k].exchangeable ? "-" : ok ? "yes" : "NO");
		fflush(stdout);
		bad |= !ok;
	}
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t trials = 2000, seed = 17;
	int k, bad = 0;

	if ((argc > 1 && (parse_u64(argv[1], &trials) || !trials || trials > 10000000)) ||
	    (argc > 2 && parse_u64(argv[2], &seed)) || (argc > 3 && strcmp(argv[3], "guard")) ||
	    argc > 4) {
		fprintf(stderr, "usage: history-calibrate [TRIALS [SEED [guard]]]\n");
		return 2;
	}
	if (argc > 3)
		return guard_table((unsigned)trials, seed);
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
	bad |= guard_table((unsigned)trials, seed);
	return bad;
}
