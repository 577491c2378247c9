/*
 * baseline.c - reading saved benchmarks and the regression decision of
 * --baseline / --max-regression (see baseline.h).
 */
#include "bench/baseline.h"
#include "core/verdict.h"
#include "core/json.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* A trail bench --metric result's "count" object (absent: no counts). */
static int read_counts(const char *path, size_t idx, const struct json_value *c,
		       struct bench_baseline_entry *e)
{
	const struct json_value *metric, *values;
	size_t i;

	if (!c)
		return 0;
	metric = json_get(c, "metric");
	values = json_get(c, "values");
	if (c->type != JSON_OBJECT || !metric || metric->type != JSON_STRING || !values ||
	    values->type != JSON_ARRAY || !values->len)
		return trail_error("%s: results[%zu].count needs a \"metric\" and \"values\"",
				   path, idx);
	e->count_metric = xstrdup(metric->string);
	e->counts = xmallocarray(values->len, sizeof(double));
	for (i = 0; i < values->len; i++) {
		const struct json_value *v = &values->items[i];

		if (v->type != JSON_NUMBER || v->number < 0)
			return trail_error("%s: results[%zu].count.values[%zu] is not a non-negative "
					   "number", path, idx, i);
		e->counts[e->nr_counts++] = v->number;
	}
	return 0;
}

static int read_entry(const char *path, size_t idx, const struct json_value *r,
		      struct bench_baseline_entry *e)
{
	const struct json_value *cmd = json_get(r, "command");
	const struct json_value *times = json_get(r, "times");
	size_t i;

	if (r->type != JSON_OBJECT)
		return trail_error("%s: results[%zu] is %s, not an object", path, idx,
			     json_type_name(r->type));
	if (!cmd || cmd->type != JSON_STRING)
		return trail_error("%s: results[%zu] has no \"command\" string", path, idx);
	if (!times || times->type != JSON_ARRAY)
		return trail_error("%s: results[%zu] (\"%s\") has no \"times\" array", path, idx,
			     cmd->string);
	if (!times->len)
		return trail_error("%s: results[%zu] (\"%s\") has no runs in \"times\"", path, idx,
			     cmd->string);
	e->command = xstrdup(cmd->string);
	e->times = xmallocarray(times->len, sizeof(double));
	for (i = 0; i < times->len; i++) {
		const struct json_value *t = &times->items[i];

		if (t->type != JSON_NUMBER || t->number < 0)
			return trail_error("%s: results[%zu].times[%zu] is not a non-negative number",
				     path, idx, i);
		e->times[e->nr_times++] = t->number;
	}
	return read_counts(path, idx, json_get(r, "count"), e);
}

int bench_baseline_read(const char *path, struct bench_baseline *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_value doc;
	const struct json_value *results;
	size_t i;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (strbuf_read_file(&sb, path))
		return trail_error("cannot read the baseline '%s'", path);
	if (json_parse(sb.buf, sb.len, path, &doc)) {
		strbuf_release(&sb);
		return -1;
	}
	strbuf_release(&sb);
	results = json_get(&doc, "results");
	if (doc.type != JSON_OBJECT || !results || results->type != JSON_ARRAY) {
		trail_error("%s: not a benchmark export: expected an object with a \"results\" array "
		      "(write one with --save-baseline or --export-json)", path);
		goto out;
	}
	if (!results->len) {
		trail_error("%s: the baseline has no results", path);
		goto out;
	}
	out->entries = xcalloc(results->len, sizeof(*out->entries));
	for (i = 0; i < results->len; i++) {
		out->nr++;
		if (read_entry(path, i, &results->items[i], &out->entries[i]))
			goto out;
	}
	rc = 0;
out:
	json_release(&doc);
	if (rc)
		bench_baseline_release(out);
	return rc;
}

void bench_baseline_release(struct bench_baseline *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		free(b->entries[i].command);
		free(b->entries[i].times);
		free(b->entries[i].count_metric);
		free(b->entries[i].counts);
	}
	free(b->entries);
	memset(b, 0, sizeof(*b));
}

int bench_baseline_compare(const struct bench_baseline *b, const struct bench_result *res,
			   double max_regression, struct bench_regression **out, size_t *nr)
{
	struct bench_comparison **family;
	size_t c, i;
	int regressions = 0;

	*out = xcalloc(res->nr_commands ? res->nr_commands : 1, sizeof(**out));
	*nr = 0;
	for (c = 0; c < res->nr_commands; c++) {
		const struct bench_command_result *cr = &res->commands[c];
		const struct bench_baseline_entry *e = NULL;
		struct bench_regression *g;
		char *name;

		if (!cr->nr_runs)
			continue;
		for (i = 0; i < b->nr && !e; i++)
			if (!strcmp(b->entries[i].command, cr->command->name))
				e = &b->entries[i];
		name = escape_term_dup(cr->command->name);
		if (!e && b->nr == 1 && res->nr_commands == 1) {
			char *base = escape_term_dup(b->entries[0].command);

			/* one command each: compared, but the user must know */
			e = &b->entries[0];
			warning("comparing '%s' with a baseline of a different command, '%s' "
				"(rerun the baseline with this command, or name it alike with -n)",
				name, base);
			free(base);
		}
		if (!e)
			warning("'%s' is not in the baseline; not compared", name);
		free(name);
		if (!e)
			continue;
		g = &(*out)[(*nr)++];
		g->command = c;
		g->base = e;
		if (res->count) {
			const char *want = bench_count_name(res->count);

			if (!e->counts || strcmp(e->count_metric, want))
				return trail_error("the baseline has no %s counts for '%s' (it was saved "
						   "%s): save one with --metric %s", want, e->command,
						   e->count_metric ? "with another --metric" :
						   "without --metric", want);
			if (!bench_compare_exact(e->counts, e->nr_counts, cr->count, cr->nr_runs,
						 STATS_EXACT_TOLERANCE, &g->cmp) &&
			    bench_compare(e->counts, e->nr_counts, cr->count, cr->nr_runs,
					  res->confidence, &g->cmp))
				return -1;
		} else {
			if (e->count_metric)
				warning("the baseline of '%s' was saved with --metric %s: its times are of "
					"runs under callgrind; compare with --metric %s", e->command,
					e->count_metric, e->count_metric);
			if (bench_compare(e->times, e->nr_times, cr->wall, cr->nr_runs,
					  res->confidence, &g->cmp))
				return -1;
		}
	}
	if (!*nr)
		return trail_error("no command matches the baseline (its commands: '%s'%s)",
			     b->entries[0].command, b->nr > 1 ? ", ..." : "");
	/* the commands gated together: Holm over them, as the reference's comparisons */
	family = xmallocarray(*nr, sizeof(*family));
	for (i = 0; i < *nr; i++)
		family[i] = &(*out)[i].cmp;
	bench_compare_family(family, *nr);
	free(family);
	for (i = 0; i < *nr; i++) {
		struct bench_regression *g = &(*out)[i];

		g->regressed = g->cmp.verdict == DIRECTION_SLOWER &&
			       g->cmp.median_ratio.lo > 1 + max_regression;
		regressions += g->regressed;
	}
	return regressions;
}
