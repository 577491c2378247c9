/*
 * history_suite.c - 'trail history' over the benches of .trail: each
 * subcommand runs once per bench chosen (--bench NAME, repeatable;
 * default every bench), with the bench's commands, metric and settings
 * (the command line's own --metric, --repeat, --min-effect, --timeout
 * and --profiler win), and its results in a series of its own.  Also
 * the guard's check of a bench's budget.
 */
#include "cmd/history.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line set, taken before a bench fills the rest. */
struct cli_values {
	const char *metric, *profiler, *out, *env_key;
	uint64_t repeat;
	double min_effect, run_timeout;
};

static void apply_bench(struct history_cmd *h, const struct cli_values *cli,
			const struct history_bench *b, int several)
{
	h->bench = b->name;
	h->bench_def = b;
	h->build_cmd = b->build ? b->build : "true";	/* a bench without a build builds nothing */
	h->run_cmd = b->run;
	h->metric_name = cli->metric ? cli->metric : b->metric ? b->metric : "cpu";
	h->profiler = cli->profiler ? cli->profiler : b->profiler ? b->profiler : "trail";
	/* unset (0, -1): the metric's default (5 runs and 3 %; 1 run and 0.5 % counted) */
	h->repeat = cli->repeat ? cli->repeat : b->repeat;
	h->min_effect = cli->min_effect >= 0 ? cli->min_effect : b->min_effect;
	h->run_timeout = cli->run_timeout >= 0 ? cli->run_timeout :
			 b->timeout >= 0 ? b->timeout : HISTORY_DEFAULT_TIMEOUT;
	h->out = cli->out;
	h->env_key = cli->env_key;	/* guard sets it to the series' */
	(void)several;
}

/* The benches chosen by --bench (each known), in the file's order, into sel. */
static int select_benches(struct history_cmd *h, const struct history_bench ***sel, size_t *n)
{
	size_t i, j;

	for (i = 0; i < h->benches.nr; i++)
		if (!history_suite_find(&h->suite, h->benches.items[i])) {
			struct strbuf names = STRBUF_INIT, esc = STRBUF_INIT;

			for (j = 0; j < h->suite.nr; j++)
				strbuf_addf(&names, "%s%s", j ? ", " : "", h->suite.benches[j].name);
			escape_term(&esc, h->benches.items[i], strlen(h->benches.items[i]));
			trail_error("no bench '%s' in %s (%s)", esc.buf, h->suite.path, names.buf);
			strbuf_release(&names);
			strbuf_release(&esc);
			return -1;
		}
	*sel = xmallocarray(h->suite.nr + 1, sizeof(**sel));
	*n = 0;
	for (i = 0; i < h->suite.nr; i++)
		if (!h->benches.nr || string_list_has(&h->benches, h->suite.benches[i].name))
			(*sel)[(*n)++] = &h->suite.benches[i];
	return 0;
}

/* The worse of two exit statuses: usage, failure, regression, ok. */
static int worse(int a, int b)
{
	static const int order[] = { EXIT_OK, EXIT_REGRESSION, EXIT_FAILURE_, EXIT_USAGE };
	size_t i, ra = 0, rb = 0;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (a == order[i])
			ra = i;
		if (b == order[i])
			rb = i;
	}
	return rb > ra ? b : a;
}

int history_run_suite(struct history_cmd *h, const char *sub,
		      int (*run)(struct history_cmd *, const char *))
{
	const struct history_bench **sel = NULL;
	struct cli_values cli = { h->metric_name, h->profiler, h->out, h->env_key, h->repeat,
				  h->min_effect, h->run_timeout };
	size_t n = 0, i;
	int ret = EXIT_OK, one_output = !strcmp(sub, "plot") || (!strcmp(sub, "diff") && h->out) ||
					 h->json;

	if (select_benches(h, &sel, &n))
		return EXIT_USAGE;
	if (n > 1 && one_output) {
		free(sel);
		trail_error("%s %s writes one bench's answer: choose one with --bench (%s has %zu)",
			    sub, h->json ? "--json" : "-o", h->suite.path, n);
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		int rc;

		apply_bench(h, &cli, sel[i], n > 1);
		if (n > 1 && !h->json) {
			printf("%sbench %s\n", i ? "\n" : "", sel[i]->name);
			fflush(stdout);
		}
		rc = run(h, sub);
		ret = i ? worse(ret, rc) : rc;
	}
	h->bench = NULL;
	h->bench_def = NULL;
	free(sel);
	return ret;
}

int history_guard_budget(struct history_cmd *h, const struct history_result *r, int ret)
{
	const struct history_bench *b = h->bench_def;
	double value;
	char got[64];
	int ok;

	if (!b || !b->has_budget || (ret != EXIT_OK && ret != EXIT_REGRESSION))
		return ret;
	ok = history_budget_check(&b->budget, r->runs, r->nruns, r->unit, &value);
	if (ok < 0) {
		trail_error("%s:%u: bench \"%s\": budget '%s' cannot be checked against runs in '%s'",
			    h->suite.path, b->budget_line, b->name, b->budget.text, r->unit);
		return EXIT_FAILURE_;
	}
	history_budget_format(&b->budget, value, got, sizeof(got));
	{
		char desc[96];

		snprintf(desc, sizeof(desc), "%s = %s", b->budget.stat, got);
		history_md_budget(h, b->budget.text, ok, desc);
	}
	/* with --json, stdout is the JSON answer's: the line goes to stderr */
	fprintf(h->json ? stderr : stdout, "guard: budget %s of bench %s %s: %s = %s (%s:%u)\n",
		b->budget.text, b->name, ok ? "kept" : "broken", b->budget.stat, got, h->suite.path,
		b->budget_line);
	return ok ? ret : EXIT_REGRESSION;
}
