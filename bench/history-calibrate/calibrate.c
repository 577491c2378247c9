/*
 * calibrate.c - bench/history-calibrate's program: every scenario of
 * scenarios.h over many trials (default 2,000; argument 1): the share of
 * steady histories with a change point (false alarms) next to --alpha,
 * with two Monte-Carlo standard errors, and the power on histories with
 * three changes.  Then guard.h's: trail history guard's metric verdict,
 * before (normal approximation, two-sided) and now (exact, one-sided).
 * Then series.h's: cp_detect on one series under heavy tails, AR(1),
 * drift and a load step, 50 / 200 / 1,000 commits.
 * Exit 1 when a false-alarm rate exceeds alpha by more.
 *   build/bench/history-calibrate [TRIALS [SEED [guard|series [COMMITS [ROWS]]]]]
 * (one table only; series: only the rows of 50, 200 or 1000 COMMITS, each
 * with TRIALS trials; ROWS, FIRST or FIRST-LAST of that size's 32 rows in
 * the table's order, so a long size can be run a row at a time)
 */
#include "../../bench/history-calibrate/guard.h"
#include "../../bench/history-calibrate/scenarios.h"
#include "../../bench/history-calibrate/series.h"
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

/*
 * cp_detect on one series (series.h): false alarms per noise model, size,
 * runs and --min-effect (TRIALS at 50 commits, a fifth at 200, a
 * twentieth at 1,000: each 1,000-commit series is O(n^2)), power at 2
 * and 3 sds on a third as many (150 at most past 50 commits).
 */
static int series_table(unsigned trials, uint64_t seed, size_t only, unsigned first, unsigned last)
{
	static const size_t sizes[] = { 50, 200, 1000 };
	struct cp_null_cache cache;
	size_t z;
	int bad = 0, runs, me0, k;
	unsigned row = 0;

	cp_null_cache_init(&cache, 4999, 0x9e3779b97f4a7c15ULL);
	printf("\n| commits | per-run counts | --min-effect | noise | trials | false alarms | within | "
	       "power 2 sd | power 3 sd |\n| ---: | --- | --- | --- | ---: | ---: | --- | ---: | ---: |\n");
	for (z = 0; z < 3; z++)
		for (runs = 0; runs < 2 && (!only || only == sizes[z]); runs++)
			for (me0 = 0; me0 < 2; me0++)
				for (k = 0; k < HSER_NNOISE; k++) {
					struct hser_setup s = { sizes[z], runs, me0 };
					unsigned tr = only || z == 0 ? trials : z == 1 ? trials / 5 : trials / 20;
					unsigned pw = k == HSER_NORMAL || k == HSER_T3 || k == HSER_AR05 ? tr / 3 : 0;

					/* a split series costs a null table per new length: power on 150 at most */
					if (z && pw > 150)
						pw = 150;
					struct hser_result r;
					int ok;

					if (only && (++row < first || row > last))
						continue;
					if (!tr)
						tr = 1;
					hser_run((enum hser_noise)k, &s, tr, pw, seed, &cache, &r);
					ok = hser_within((enum hser_noise)k, &s, &r);
					printf("| %zu | %s | %s | %s | %u | %.2f%% | %s |", s.n, runs ? "5 runs" : "no",
					       me0 ? "0" : "3 %", hser_noise_name[k], tr,
					       100.0 * r.alarms / r.trials,
					       (k == HSER_DRIFT || k == HSER_LOAD) && me0 ? "(a change)" : ok ? "yes" : "NO");
					if (pw)
						printf(" %.0f%% | %.0f%% |\n", 100.0 * r.power[0] / pw, 100.0 * r.power[1] / pw);
					else
						printf(" | |\n");
					fflush(stdout);
					bad |= !ok;
				}
	cp_null_cache_release(&cache);
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t trials = 2000, seed = 17, only = 0, first = 1, last = 32;
	int k, bad = 0;
	char *dash = argc > 5 ? strchr(argv[5], '-') : NULL;

	if (dash)
		*dash++ = 0;

	if ((argc > 1 && (parse_u64(argv[1], &trials) || !trials || trials > 10000000)) ||
	    (argc > 2 && parse_u64(argv[2], &seed)) || (argc > 3 && strcmp(argv[3], "guard") && strcmp(argv[3], "series")) ||
	    (argc > 4 && (strcmp(argv[3], "series") || parse_u64(argv[4], &only) ||
			   (only != 50 && only != 200 && only != 1000))) ||
	    (argc > 5 && (parse_u64(argv[5], &first) || parse_u64(dash ? dash : argv[5], &last) ||
			   !first || first > last || last > 32)) ||
	    argc > 6) {
		fprintf(stderr, "usage: history-calibrate [TRIALS [SEED [guard|series [50|200|1000 [ROW[-ROW]]]]]]\n");
		return 2;
	}
	if (argc > 3)
		return !strcmp(argv[3], "guard") ? guard_table((unsigned)trials, seed)
						 : series_table((unsigned)trials, seed, (size_t)only,
										(unsigned)first, (unsigned)last);
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
	bad |= series_table((unsigned)trials, seed, 0, 1, 32);
	return bad;
}
