/*
 * probe.c - fast/slow/skip for one commit (see probe.h).  The decision is
 * a one-sample z-test of the measured mean against the threshold: slow when
 * value > threshold + z se, fast when value < threshold - z se, otherwise
 * measure more runs (sequentially, up to max_runs) and finally skip.
 */
#include "flame/probe.h"
#include "flame/decide.h"
#include "flame/shares.h"
#include "bench/stats.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/progress.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *flame_verdict_name(enum flame_verdict v)
{
	switch (v) {
	case FLAME_FAST: return "fast";
	case FLAME_SLOW: return "slow";
	default: return "skip";
	}
}

int flame_probe(struct flame_repo *r, const char *id, const struct flame_probe_opts *o,
		struct flame_probe_result *out)
{
	struct flame_capture_opts cap = o->cap;
	struct flame_run *runs = NULL;
	struct folded_profile **profiles = NULL;
	double *values = NULL, t0 = clock_monotonic();
	size_t nr = 0, alloc = 0, i;
	char *dir = NULL;
	int code, ret = -1;

	/* A metric from unprofiled runs needs no profile: do not record one. */
	if (!o->function && o->metric != FLAME_METRIC_CPU)
		cap.profile = FLAME_PROFILE_NONE;
	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "%s", id);
	out->verdict = FLAME_SKIP;
	code = flame_build(r, id, o->build_cmd, o->build_timeout, &dir, &out->build_cached);
	if (code < 0)
		goto out;
	if (code) {
		char *log = flame_build_log(r, id, o->build_cmd);

		snprintf(out->why, sizeof(out->why), "build failed (log: %s)", log);
		free(log);
		ret = 0;
		goto out;
	}
	for (;;) {
		unsigned want = nr ? (o->runs + 1) / 2 : o->runs;
		double lo, hi;

		if (!want)
			want = 1;
		for (i = 0; i < want && nr < o->max_runs; i++) {
			ALLOC_GROW(runs, nr + 1, alloc);
			code = flame_capture_run(&cap, dir, &runs[nr]);
			nr++;
			if (code) {
				if (runs[nr - 1].timed_out)
					snprintf(out->why, sizeof(out->why), "the workload did not "
						 "finish in %g s (--timeout)", cap.timeout);
				else
					snprintf(out->why, sizeof(out->why), "%s", code > 0 ?
						 "the workload failed" : "the profiler failed");
				ret = code > 0 ? 0 : -1;
				goto out;
			}
		}
		free(profiles);
		free(values);
		profiles = xcalloc(nr, sizeof(*profiles));
		values = xcalloc(nr, sizeof(*values));
		for (i = 0; i < nr; i++) {
			profiles[i] = &runs[i].folded;
			values[i] = flame_run_metric(&runs[i], o->metric);
		}
		if (o->function) {
			struct flame_share s;

			flame_share_over_runs(profiles, nr, o->function, o->total, &s);
			out->share = s.mean;
			if (o->share && o->exclude && o->exclude->nr && !o->total)
				flame_relative_share_over_runs(profiles, nr, o->function, o->exclude, &s);
			else if (!o->share)
				flame_samples_over_runs(profiles, nr, o->function, o->total, &s);
			out->value = s.mean;
			out->se = s.se;
		} else {
			flame_metric_estimate(values, nr, o->percentile > 0 ? o->percentile : 50,
					      &out->value, &out->se);
		}
		out->runs = (unsigned)nr;
		lo = o->threshold - o->z * out->se;
		hi = o->threshold + o->z * out->se;
		if (out->value > hi) {
			out->verdict = FLAME_SLOW;
			break;
		}
		if (out->value < lo) {
			out->verdict = FLAME_FAST;
			break;
		}
		if (nr >= o->max_runs) {
			snprintf(out->why, sizeof(out->why),
				 "undecided after %zu runs: %.4g within %.1f standard errors of %.4g",
				 nr, out->value, o->z, o->threshold);
			break;
		}
	}
	ret = 0;
out:
	out->seconds = clock_monotonic() - t0;
	for (i = 0; i < nr; i++)
		flame_run_release(&runs[i]);
	free(runs);
	free(profiles);
	free(values);
	free(dir);
	return ret;
}

int flame_probe_log_append(const char *path, const struct flame_probe_result *res)
{
	FILE *f = fopen(path, "a");

	if (!f)
		return error_errno("cannot open '%s'", path);
	fprintf(f, "%s %d %.17g %.17g %u %d %.3f %.17g\n", res->id, (int)res->verdict, res->value,
		res->se, res->runs, res->build_cached, res->seconds, res->share);
	if (fclose(f))
		return error_errno("cannot write '%s'", path);
	return 0;
}

int flame_probe_log_read(const char *path, struct flame_probe_result **out, size_t *nr)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	if (strbuf_read_file(&sb, path))
		return -1;
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct flame_probe_result res;
		char *f[8], *tok, *s2 = NULL;
		int n = 0;
		uint64_t v, runs, cached;

		for (tok = strtok_r(line, " ", &s2); tok && n < 8; tok = strtok_r(NULL, " ", &s2))
			f[n++] = tok;
		memset(&res, 0, sizeof(res));
		if (n != 8 || strlen(f[0]) != 40 || parse_u64(f[1], &v) ||
		    parse_double(f[2], &res.value) || parse_double(f[3], &res.se) ||
		    parse_u64(f[4], &runs) || parse_u64(f[5], &cached) ||
		    parse_double(f[6], &res.seconds) || parse_double(f[7], &res.share)) {
			warning("%s: malformed probe record skipped", path);
			continue;
		}
		memcpy(res.id, f[0], 41);
		res.verdict = v == 0 ? FLAME_FAST : v == 1 ? FLAME_SLOW : FLAME_SKIP;
		res.runs = (unsigned)runs;
		res.build_cached = (int)cached;
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = res;
	}
	strbuf_release(&sb);
	return 0;
}
