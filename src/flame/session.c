/*
 * session.c - the five steps of 'trail flame' (see session.h).  Each step
 * announces itself on stderr; stdout gets only the three-line answer
 * (printed by the command).  The user's repository is read, never written:
 * builds, worktrees and the bisect all live in the private clone.
 */
#include "flame/session.h"
#include "flame/blockers.h"
#include "bench/stats.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/progress.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void flame_session_init(struct flame_session *s)
{
	memset(s, 0, sizeof(*s));
	s->dir = ".";
	s->out_dir = "trail-flame-report";
	s->strategy = "auto";
	s->metric = FLAME_METRIC_CPU;
	s->percentile = 50;
	s->warmup_runs = 1;
	s->freq = 999;
	s->probe_runs = 3;
	s->probe_max_runs = 9;
	s->discard = 0.10;
	s->min_delta = 0.01;
	s->confirm = 0.02;
	s->confidence = 0.95;
	s->repo.lock_fd = -1;
	s->measure_share = 1;
	s->profiler = "trail";
}

/* Two-sided: the z beyond which a normal value falls with 1 - confidence. */
static double z_for(double confidence)
{
	return bench_normal_quantile((1 - confidence) / 2);
}

/* P(Z <= z) for a standard normal Z. */
static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/*
 * bench's Mann-Whitney U test of bad (b) against good (a): the two-sided
 * p-value, and whether b's values tend to be larger.
 */
static double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
			     int *b_larger)
{
	struct bench_mwu m;

	*b_larger = 0;
	if (!na || !nb || bench_mann_whitney(b, nb, a, na, &m))
		return 1;
	*b_larger = m.u_a > (double)na * (double)nb / 2;
	return m.p;
}

static struct flame_capture_opts capture_opts(struct flame_session *s)
{
	struct flame_capture_opts o;

	memset(&o, 0, sizeof(o));
	o.run_cmd = s->run_cmd;
	o.freq = s->freq;
	o.discard = s->discard;
	o.timed = s->metric != FLAME_METRIC_CPU;
	o.profile = s->offcpu_profile ? FLAME_PROFILE_OFFCPU : FLAME_PROFILE_CPU;
	o.scratch = s->scratch;
	o.profiler = s->profiler;
	o.trail_exe = s->trail_exe;
	return o;
}

static double percentile_of(const double *x, size_t n, double pct)
{
	double *c = xmallocarray(n, sizeof(double)), pos, v;
	size_t i, j, k;

	memcpy(c, x, n * sizeof(double));
	for (i = 1; i < n; i++)	/* insertion sort: n is tiny */
		for (j = i; j > 0 && c[j - 1] > c[j]; j--) {
			v = c[j];
			c[j] = c[j - 1];
			c[j - 1] = v;
		}
	pos = pct / 100 * (double)(n - 1);
	k = (size_t)pos;
	v = k + 1 < n ? c[k] + (pos - (double)k) * (c[k + 1] - c[k]) : c[n - 1];
	free(c);
	return v;
}

/* ---- CAPTURE ---- */

static int build_end(struct flame_session *s, const char *id, const char *name, char **dir)
{
	int cached, code = flame_build(&s->repo, id, s->build_cmd, dir, &cached);

	if (code < 0)
		return -1;
	s->builds++;
	s->cached_builds += cached;
	if (code) {
		char *log = flame_build_log(&s->repo, id);

		trail_error("cannot build the %s revision %.12s (log: %s)", name, id, log);
		free(log);
		return -1;
	}
	note("capture: built %s %.12s%s", name, id, cached ? " (cached)" : "");
	return 0;
}

static int capture_ends(struct flame_session *s, char *dirs[2])
{
	struct flame_capture_opts o = capture_opts(s);
	struct progress pr;
	unsigned target = s->repeat ? s->repeat : 5, i;
	/* Undecided after the first runs: add more, up to the ceiling, rather
	 * than call a real but noisy slowdown "no regression". */
	unsigned max = s->max_repeat ? s->max_repeat : target > 15 ? target : 15;
	int side;

	for (i = 0; i < s->warmup_runs; i++)
		for (side = 0; side < 2; side++) {
			struct flame_run w;
			int code = flame_capture_run(&o, dirs[side], &w);

			flame_run_release(&w);
			if (code)
				return trail_error("the workload fails at the %s revision", side ? "bad" : "good");
		}
	progress_start(&pr, "capture", (uint64_t)target * 2);
	for (;;) {
		/* Alternate good and bad so a drifting machine hits both alike. */
		while (s->nruns[0] < target) {
			for (side = 0; side < 2; side++) {
				struct flame_run *r;

				ALLOC_GROW(s->runs[side], s->nruns[side] + 1, s->runs_alloc[side]);
				r = &s->runs[side][s->nruns[side]];
				if (flame_capture_run(&o, dirs[side], r)) {
					flame_run_release(r);
					progress_stop(&pr);
					return trail_error("the workload fails at the %s revision",
						     side ? "bad" : "good");
				}
				s->nruns[side]++;
				progress_update(&pr, s->nruns[0] + s->nruns[1], side ? "bad" : "good");
			}
		}
		{
			double *v[2];
			int larger;

			for (side = 0; side < 2; side++) {
				size_t k;

				v[side] = xcalloc(s->nruns[side], sizeof(double));
				for (k = 0; k < s->nruns[side]; k++)
					v[side][k] = flame_run_metric(&s->runs[side][k], s->metric);
			}
			s->metric_p = mann_whitney_p(v[0], s->nruns[0], v[1], s->nruns[1], &larger);
			free(v[0]);
			free(v[1]);
			if (s->metric_p < 1 - s->confidence || target >= max)
				break;
		}
		target += 5;
		if (target > max)
			target = max;
		pr.total = (uint64_t)target * 2;
	}
	progress_stop(&pr);
	return 0;
}

/* ---- CONFIRM ---- */

static int confirm_metric(struct flame_session *s)
{
	double z = z_for(s->confidence);
	int side, larger = 0;
	double *v[2];

	for (side = 0; side < 2; side++) {
		size_t k, n = s->nruns[side];
		double mean = 0, var = 0, se;

		v[side] = xcalloc(n, sizeof(double));
		for (k = 0; k < n; k++) {
			v[side][k] = flame_run_metric(&s->runs[side][k], s->metric);
			mean += v[side][k];
		}
		mean /= (double)n;
		for (k = 0; k < n; k++)
			var += (v[side][k] - mean) * (v[side][k] - mean);
		se = n > 1 ? 1.2533 * sqrt(var / (double)(n - 1) / (double)n) : 0;
		s->metric_med[side] = percentile_of(v[side], n,
						    s->metric == FLAME_METRIC_WALL ? s->percentile : 50);
		s->metric_lo[side] = s->metric_med[side] - z * se;
		s->metric_hi[side] = s->metric_med[side] + z * se;
	}
	s->metric_p = mann_whitney_p(v[0], s->nruns[0], v[1], s->nruns[1], &larger);
	free(v[0]);
	free(v[1]);
	note("confirm: %s good %.4g %s, bad %.4g %s (Mann-Whitney p = %.3g, %zu+%zu runs)",
	     flame_metric_name(s->metric), s->metric_med[0], flame_metric_unit(s->metric),
	     s->metric_med[1], flame_metric_unit(s->metric), s->metric_p, s->nruns[0], s->nruns[1]);
	return s->metric_p < 1 - s->confidence && larger &&
	       s->metric_med[1] > s->metric_med[0];
}

/*
 * CPU time unchanged: did the wall time of the same (profiled) runs rise?
 * Then the time went off-CPU and the message says which metric to use.
 */
static int wall_regressed(struct flame_session *s)
{
	double *v[2], med[2];
	int side, larger;
	double p;

	for (side = 0; side < 2; side++) {
		size_t k;

		v[side] = xcalloc(s->nruns[side], sizeof(double));
		for (k = 0; k < s->nruns[side]; k++)
			v[side][k] = s->runs[side][k].wall;
		med[side] = bench_median(v[side], s->nruns[side]);
	}
	p = mann_whitney_p(v[0], s->nruns[0], v[1], s->nruns[1], &larger);
	free(v[0]);
	free(v[1]);
	if (p >= 1 - s->confidence || !larger || med[1] < med[0] * 1.1)
		return 0;
	snprintf(s->message, sizeof(s->message),
		 "CPU samples did not change significantly (p = %.3g) but the run time rose from "
		 "%.3g s to %.3g s (Mann-Whitney p = %.3g): the CPU profile is flat and the time "
		 "is spent off-CPU (sleeping, waiting for I/O or locks); rerun with --metric wall",
		 s->metric_p, med[0], med[1], p);
	return 1;
}

/* ---- DIFF ---- */

static void merge_runs(struct flame_session *s, int side, struct folded_profile *out)
{
	size_t k;
	uint32_t id;

	folded_profile_init(out);
	for (k = 0; k < s->nruns[side]; k++) {
		const struct folded_profile *p = &s->runs[side][k].folded;

		for (id = 0; id < p->stacks.nr; id++)
			folded_profile_add(out, intern_str(&p->stacks, id), intern_len(&p->stacks, id),
					   0, p->counts[0][id]);
	}
}

static int write_folded(const struct folded_profile *a, const struct folded_profile *b,
			const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct folded_profile all;
	uint32_t *order, i;
	int ret;

	folded_profile_init(&all);
	for (i = 0; i < a->stacks.nr; i++)
		folded_profile_add(&all, intern_str(&a->stacks, i), intern_len(&a->stacks, i), 0,
				   a->counts[0][i]);
	if (b)
		for (i = 0; i < b->stacks.nr; i++)
			folded_profile_add(&all, intern_str(&b->stacks, i),
					   intern_len(&b->stacks, i), 1, b->counts[0][i]);
	order = folded_profile_sorted(&all);
	for (i = 0; i < all.stacks.nr; i++) {
		char c0[64], c1[64];
		uint32_t id = order[i];

		folded_format_count(c0, sizeof(c0), all.counts[0][id]);
		strbuf_add(&sb, intern_str(&all.stacks, id), intern_len(&all.stacks, id));
		if (b) {
			folded_format_count(c1, sizeof(c1), all.counts[1][id]);
			strbuf_addf(&sb, " %s %s\n", c0, c1);
		} else {
			strbuf_addf(&sb, " %s\n", c0);
		}
	}
	ret = strbuf_write_file(&sb, path);
	free(order);
	strbuf_release(&sb);
	folded_profile_release(&all);
	return ret;
}

/*
 * Render a folded file with 'trail flamegraph' when that command exists;
 * off-CPU profiles count microseconds, in flamegraph.pl's io palette.
 */
static void render_svg(struct flame_session *s, const char *folded, const char *svg,
		       const char *title)
{
	const char *argv[] = { s->trail_exe, "flamegraph", "--title", title, folded, NULL, NULL,
			       NULL, NULL, NULL };
	struct child c = CHILD_INIT;
	int code;

	if (!s->trail_exe)
		return;
	if (s->offcpu_profile) {
		argv[5] = "--countname";
		argv[6] = "us";
		if (!strstr(title, "differential")) {
			argv[7] = "--colors";
			argv[8] = "io";
		}
	}
	c.argv = argv;
	c.in = CHILD_DEVNULL;
	c.out_path = svg;
	c.err = CHILD_DEVNULL;
	code = child_run(&c);
	if (code) {
		unlink(svg);
		note("diff: no SVG for %s ('trail flamegraph' %s)", folded, child_describe_status(code));
	}
}

static int write_profiles(struct flame_session *s)
{
	struct folded_profile m[2];
	char *p;
	int ret = 0;

	merge_runs(s, 0, &m[0]);
	merge_runs(s, 1, &m[1]);
	if (make_dirs(s->out_dir))
		ret = -1;
#define OUT(name) (free(p), p = xstrfmt("%s/%s", s->out_dir, name))
	p = NULL;
	if (!ret) {
		char *svg;

		ret |= write_folded(&m[0], NULL, OUT("good.folded"));
		ret |= write_folded(&m[1], NULL, OUT("bad.folded"));
		ret |= write_folded(&m[0], &m[1], OUT("diff.folded"));
		/* An empty profile (a revision that never blocked) has no graph. */
		svg = xstrfmt("%s/good.svg", s->out_dir);
		if (m[0].stacks.nr)
			render_svg(s, OUT("good.folded"), svg, s->offcpu_profile ? "good: off-CPU time" : "good");
		free(svg);
		svg = xstrfmt("%s/bad.svg", s->out_dir);
		if (m[1].stacks.nr)
			render_svg(s, OUT("bad.folded"), svg, s->offcpu_profile ? "bad: off-CPU time" : "bad");
		free(svg);
		svg = xstrfmt("%s/diff.svg", s->out_dir);
		render_svg(s, OUT("diff.folded"), svg, s->offcpu_profile ?
			   "off-CPU time, good -> bad (differential)" : "good -> bad (differential)");
		free(svg);
	}
#undef OUT
	free(p);
	folded_profile_release(&m[0]);
	folded_profile_release(&m[1]);
	return ret;
}

static void note_hotspots(struct flame_session *s, const char *what)
{
	size_t k;

	for (k = 0; k < s->hot.nr && k < 5; k++) {
		const struct flame_hotspot *h = &s->hot.items[k];

		note("diff: %-28s %s %5.1f%% -> %5.1f%% (%+.1f pp +/- %.1f)%s", h->name, what,
		     100 * h->good_self.mean, 100 * h->bad_self.mean, 100 * h->delta_self,
		     100 * h->se_self, h->confirmed ? "" : "  (below the confirm threshold)");
	}
}

/*
 * The off-CPU profiles, each stack cut at its blocking caller and beside
 * the run's CPU time (flame/blockers.h), ranked as CPU profiles are; the
 * top confirmed function that is not the on-CPU pseudo-frame is the one
 * that blocks longer.
 */
static void rank_blockers(struct flame_session *s)
{
	struct string_list frames = STRING_LIST_INIT, defined = STRING_LIST_INIT;
	struct folded_profile *cut[2], **p[2];
	struct intern def;
	double unit = 1e6 / (double)s->freq;	/* us per sample at -F Hz */
	size_t k;
	int side;

	for (side = 0; side < 2; side++)
		for (k = 0; k < s->nruns[side]; k++)
			flame_blockers_frames(&s->runs[side][k].folded, &frames);
	if (flame_repo_defined(&s->repo, s->bad, &frames, &defined))
		note("diff: cannot tell the program's functions from library ones; "
		     "off-CPU stacks are ranked by their innermost frame");
	intern_init(&def);
	for (k = 0; k < defined.nr; k++)
		intern_add(&def, defined.items[k], strlen(defined.items[k]), NULL);
	for (side = 0; side < 2; side++) {
		cut[side] = xcalloc(s->nruns[side] ? s->nruns[side] : 1, sizeof(*cut[side]));
		p[side] = xcalloc(s->nruns[side] ? s->nruns[side] : 1, sizeof(*p[side]));
		for (k = 0; k < s->nruns[side]; k++) {
			const struct flame_run *r = &s->runs[side][k];

			flame_blockers_fold(&r->folded, r->cpu * 1e6, &def, unit, &cut[side][k]);
			p[side][k] = &cut[side][k];
		}
	}
	flame_hotspots_rank(p[0], s->nruns[0], p[1], s->nruns[1], s->min_delta, s->confirm,
			    &s->hot);
	note_hotspots(s, "blocked");
	for (k = 0; k < s->hot.nr && !s->blocked_function; k++) {
		const struct flame_hotspot *h = &s->hot.items[k];
		struct flame_share t;

		if (!h->confirmed || h->name[0] == '[')
			continue;
		s->blocked_function = xstrdup(h->name);
		for (side = 0; side < 2; side++) {
			flame_samples_over_runs(p[side], s->nruns[side], h->name, 0, &t);
			s->blocked_ms[side] = t.mean * unit / 1000;
		}
	}
	if (s->blocked_function)
		note("diff: %s blocks longer: %.1f ms -> %.1f ms off-CPU per run (it or the library "
		     "and kernel code it calls: see diff.svg)", s->blocked_function,
		     s->blocked_ms[0], s->blocked_ms[1]);
	else
		note("diff: no function's share of off-CPU time rose by %.1f points", 100 * s->confirm);
	for (side = 0; side < 2; side++) {
		for (k = 0; k < s->nruns[side]; k++)
			folded_profile_release(&cut[side][k]);
		free(cut[side]);
		free(p[side]);
	}
	intern_release(&def);
	string_list_clear(&frames);
	string_list_clear(&defined);
}

static void rank_hotspots(struct flame_session *s)
{
	struct folded_profile **p[2];
	int side;
	size_t k;

	if (s->offcpu_profile) {
		rank_blockers(s);
		return;
	}
	for (side = 0; side < 2; side++) {
		p[side] = xcalloc(s->nruns[side], sizeof(*p[side]));
		for (k = 0; k < s->nruns[side]; k++)
			p[side][k] = &s->runs[side][k].folded;
	}
	flame_hotspots_rank(p[0], s->nruns[0], p[1], s->nruns[1], s->min_delta, s->confirm,
			    &s->hot);
	free(p[0]);
	free(p[1]);
	note_hotspots(s, "self");
}

/* ---- NARROW ---- */

static void add_suspects_of(struct flame_session *s, const char *func, int is_target,
			    unsigned char *mark)
{
	struct strbuf spec = STRBUF_INIT, range = STRBUF_INIT, out = STRBUF_INIT;
	char *file = NULL, *l, *save = NULL;
	unsigned line;

	if (flame_repo_find_definition(&s->repo, func, s->bad, &file, &line))
		goto out;
	if (is_target) {
		s->def_file = xstrdup(file);
		s->def_line = line;
	}
	strbuf_addf(&spec, "-L:%s:%s", func, file);
	strbuf_addf(&range, "%s..%s", s->good, s->bad);
	{
		const char *argv[] = { "log", "-s", "--format=%H", spec.buf, range.buf, NULL };

		if (flame_git(&s->repo, &out, argv) != 0)
			goto out;
	}
	for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t i;

		for (i = 0; i < s->range.nr; i++)
			if (!strcmp(s->range.items[i], l))
				mark[i] |= is_target ? 2 : 1;
	}
out:
	free(file);
	strbuf_release(&spec);
	strbuf_release(&range);
	strbuf_release(&out);
}

/* The functions func calls, by samples in the bad profile (at most max). */
static void callees(struct flame_session *s, const char *func, struct string_list *out,
		    size_t max)
{
	size_t k, flen = strlen(func);
	struct string_list seen = STRING_LIST_INIT;

	for (k = 0; k < s->nruns[1] && seen.nr < max; k++) {
		const struct folded_profile *p = &s->runs[1][k].folded;
		uint32_t id;

		for (id = 0; id < p->stacks.nr && seen.nr < max; id++) {
			const char *st = intern_str(&p->stacks, id), *f = st, *next;

			while ((next = strchr(f, ';'))) {
				if ((size_t)(next - f) == flen && !memcmp(f, func, flen)) {
					const char *g = next + 1, *e = strchr(g, ';');
					char *name = e ? xstrndup(g, (size_t)(e - g)) : xstrdup(g);

					if (strcmp(name, func) && !string_list_has(&seen, name) &&
					    !strchr(name, '['))
						string_list_append(&seen, name);
					free(name);
					break;
				}
				f = next + 1;
			}
		}
	}
	for (k = 0; k < seen.nr; k++)
		string_list_append(out, seen.items[k]);
	string_list_clear(&seen);
}

/*
 * The functions func's body calls, read from its source at the bad end:
 * inlined callees never appear in the profile, but they are still code
 * that can make func slower.
 */
static void lexical_callees(struct flame_session *s, const char *func, struct string_list *out,
			    size_t max)
{
	static const char *const keywords[] = { "if", "for", "while", "switch", "return",
		"sizeof", "_Alignof", "defined", "__attribute__", NULL };
	struct strbuf spec = STRBUF_INIT, src = STRBUF_INIT;
	const char *argv[] = { "show", NULL, NULL };
	unsigned line = 1;
	char *p, *end;
	int depth = 0, started = 0;

	if (!s->def_file)
		return;
	strbuf_addf(&spec, "%s:%s", s->bad, s->def_file);
	argv[1] = spec.buf;
	if (flame_git(&s->repo, &src, argv) != 0)
		goto out;
	for (p = src.buf; *p && line < s->def_line; p++)
		line += *p == '\n';
	for (end = p; *end; end++) {
		if (*end == '{') {
			depth++;
			started = 1;
		} else if (*end == '}' && --depth == 0 && started) {
			break;
		}
	}
	while (p < end && out->nr < max) {
		char *id, *q;
		const char *const *k;
		int kw = 0;

		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		id = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		for (q = p; q < end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q >= end || *q != '(')
			continue;
		*p = '\0';
		for (k = keywords; *k; k++)
			kw |= !strcmp(*k, id);
		if (!kw && strcmp(id, func) && !string_list_has(out, id))
			string_list_append(out, id);
		*p = ' ';
	}
out:
	strbuf_release(&spec);
	strbuf_release(&src);
}

/* The commits in the range that touched func or the functions it calls. */
static void find_suspects(struct flame_session *s, const char *func)
{
	unsigned char *mark = xcalloc(s->range.nr ? s->range.nr : 1, 1);
	struct string_list calls = STRING_LIST_INIT;
	size_t i, n = 0;

	add_suspects_of(s, func, 1, mark);
	callees(s, func, &calls, 5);
	lexical_callees(s, func, &calls, 12);
	for (i = 0; i < calls.nr; i++)
		add_suspects_of(s, calls.items[i], 0, mark);
	for (i = 0; i < s->range.nr; i++)
		n += mark[i] != 0;
	s->suspects = xcalloc(n ? n : 1, sizeof(*s->suspects));
	for (i = 0; i < s->range.nr; i++) {
		if (!mark[i])
			continue;
		if (flame_repo_commit(&s->repo, s->range.items[i],
				      &s->suspects[s->nsuspects].commit))
			continue;
		s->suspects[s->nsuspects++].touches_function = (mark[i] & 2) != 0;
	}
	if (s->def_file)
		note("narrow: %s is defined in %s:%u; %zu commit%s in the range touched it or "
		     "its callees", func, s->def_file, s->def_line, s->nsuspects,
		     s->nsuspects == 1 ? "" : "s");
	else
		note("narrow: cannot find where %s is defined in the repository; no suspect set",
		     func);
	string_list_clear(&calls);
	free(mark);
}

/*
 * The other functions whose own cost changed between good and bad: their
 * samples per run moved by at least the noise floor (as a fraction of the
 * good runs' samples) and by more than two standard errors.  Shares will
 * not do here: when the hot function grows, every other share shrinks.
 */
static void find_other_changes(struct flame_session *s, struct folded_profile **p[2])
{
	double total = 0;
	size_t i;

	for (i = 0; i < s->nruns[0]; i++)
		total += p[0][i]->total[0];
	total /= s->nruns[0] ? (double)s->nruns[0] : 1;
	for (i = 0; i < s->hot.changed.nr; i++) {
		const char *g = s->hot.changed.items[i];
		struct flame_share a, b;
		double delta, se;

		if (!strcmp(g, s->function))
			continue;
		flame_samples_over_runs(p[0], s->nruns[0], g, 0, &a);
		flame_samples_over_runs(p[1], s->nruns[1], g, 0, &b);
		delta = b.mean - a.mean;
		se = sqrt(a.se * a.se + b.se * b.se);
		if (total > 0 && fabs(delta) / total >= s->min_delta && fabs(delta) > 2 * se)
			string_list_append(&s->exclude, g);
	}
}

static struct flame_probe_opts probe_opts(struct flame_session *s)
{
	struct flame_probe_opts o;

	memset(&o, 0, sizeof(o));
	o.build_cmd = s->build_cmd;
	o.cap = capture_opts(s);
	o.metric = s->metric;
	o.function = s->function;
	o.share = s->measure_share;
	o.exclude = &s->exclude;
	o.threshold = s->threshold;
	o.runs = s->probe_runs;
	o.max_runs = s->probe_max_runs;
	o.z = z_for(s->confidence);
	return o;
}

static void describe_value(struct flame_session *s, double v, char *buf, size_t n)
{
	if (s->function && s->measure_share)
		snprintf(buf, n, "%.1f%%", 100 * v);
	else if (s->function)
		snprintf(buf, n, "%.1f samples/run", v);
	else
		snprintf(buf, n, "%.4g %s", v, flame_metric_unit(s->metric));
}

static void record_probe(struct flame_session *s, const struct flame_probe_result *r, int show)
{
	char v[48], t[48];

	ALLOC_GROW(s->probes, s->nprobes + 1, s->probes_alloc);
	s->probes[s->nprobes++] = *r;
	if (!show)
		return;
	describe_value(s, r->value, v, sizeof(v));
	describe_value(s, s->threshold, t, sizeof(t));
	note("narrow: probe %zu: %.12s %s (%s, threshold %s, %u runs%s)%s%s", s->nprobes, r->id,
	     flame_verdict_name(r->verdict), v, t, r->runs, r->build_cached ? ", cached build" : "",
	     r->why[0] ? ": " : "", r->why);
}

static int index_in_range(struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->range.nr; i++)
		if (!strcmp(s->range.items[i], id))
			return (int)i;
	return -1;
}

/*
 * Probes a binary search still needs when the answer is one of candidates
 * positions: ceil(log2(candidates)), 0 for one.
 */
static unsigned steps_left(size_t candidates)
{
	unsigned k = 0;

	while (k < 63 && ((size_t)1 << k) < candidates)
		k++;
	return k;
}

/* "narrow (bisect): probe 3 of ~5, ETA 1m10s" on a terminal (core/progress.h). */
static void narrow_progress_start(struct progress *pr, const char *strategy, size_t candidates)
{
	char title[64];

	snprintf(title, sizeof(title), "narrow (%s)", strategy);
	progress_start(pr, title, steps_left(candidates));
	pr->item = "probe";
	pr->estimated = 1;
}

/*
 * done probes finished, the answer among candidates positions now; when
 * that is one, no probe is under way and the line is erased.
 */
static void narrow_progress_update(struct progress *pr, size_t done, size_t candidates)
{
	if (candidates <= 1) {
		pr->done = done;
		progress_stop(pr);
		return;
	}
	pr->total = done + steps_left(candidates);
	progress_update(pr, done, NULL);
}

/*
 * Where the finished probes of a git bisect leave the culprit: after the
 * last fast one (*lo, -1 = good) and at or before the first slow one (*hi,
 * the bad end at first), as indices of s->range; the number of probes.
 */
static size_t bisect_bounds(struct flame_session *s, const char *log, int *lo, int *hi)
{
	struct flame_probe_result *res = NULL;
	size_t nres = 0, i;

	*lo = -1;
	*hi = (int)s->range.nr - 1;
	if (access(log, F_OK) || flame_probe_log_read(log, &res, &nres))
		return 0;
	for (i = 0; i < nres; i++) {
		int k = index_in_range(s, res[i].id);

		if (k < 0)
			continue;
		if (res[i].verdict == FLAME_FAST && k > *lo)
			*lo = k;
		else if (res[i].verdict == FLAME_SLOW && k < *hi)
			*hi = k;
	}
	free(res);
	return nres;
}

/*
 * Run the git bisect child with the progress line: its stderr (the
 * probes' lines) comes through a pipe and is copied line by line, the
 * progress line erased before and redrawn after, and refreshed from the
 * probe log a few times a second.  Without a terminal (or with --quiet)
 * the child simply inherits stderr.  Returns child_run()'s value.
 */
static int run_bisect_child(struct flame_session *s, struct child *c, const char *log)
{
	struct progress pr;
	struct strbuf line = STRBUF_INIT;
	int fds[2], lo, hi, eof = 0;
	size_t done;

	narrow_progress_start(&pr, "bisect", s->range.nr);
	if (!pr.enabled || pipe2(fds, O_CLOEXEC))
		return child_run(c);
	c->err = fds[1];
	if (child_start(c)) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	done = bisect_bounds(s, log, &lo, &hi);
	narrow_progress_update(&pr, done, (size_t)(hi - lo));
	while (!eof) {
		struct pollfd pf = { fds[0], POLLIN, 0 };
		char buf[4096];
		ssize_t n;
		char *nl;

		if (poll(&pf, 1, 250) > 0) {
			n = read(fds[0], buf, sizeof(buf));
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				eof = 1;
			if (n == 0)
				eof = 1;
			if (n > 0)
				strbuf_add(&line, buf, (size_t)n);
		}
		/* Whole lines go out at once, above the progress line. */
		nl = line.len ? memrchr(line.buf, '\n', line.len) : NULL;
		if (nl || (eof && line.len)) {
			size_t len = nl ? (size_t)(nl - line.buf) + 1 : line.len;

			progress_stop(&pr);
			fwrite(line.buf, 1, len, stderr);
			memmove(line.buf, line.buf + len, line.len - len);
			strbuf_setlen(&line, line.len - len);
		}
		done = bisect_bounds(s, log, &lo, &hi);
		narrow_progress_update(&pr, done, (size_t)(hi - lo));
	}
	progress_stop(&pr);
	close(fds[0]);
	strbuf_release(&line);
	return child_wait(c);
}

/* git bisect run, in the private clone, with 'trail flame probe'. */
static int run_git_bisect(struct flame_session *s, const char *good, const char *bad)
{
	char *log = xstrfmt("%s/probes.log", s->scratch);
	char *blog = xstrfmt("%s/bisect.log", s->scratch);
	char thr[64], runs[16], maxr[16], freq[16], disc[32], z[32];
	struct flame_probe_result *res = NULL;
	struct strbuf out = STRBUF_INIT;
	size_t nres = 0, i;
	int ret = -1, code;
	const char *reset[] = { "bisect", "reset", NULL };

	flame_git(&s->repo, NULL, reset);
	unlink(log);
	{
		const char *start[] = { "bisect", "start", "--term-old", "fast", "--term-new",
					"slow", "--no-checkout", bad, good, NULL };

		if (flame_git(&s->repo, NULL, start) != 0) {
			trail_error("cannot start git bisect in '%s'", s->repo.clone);
			goto out;
		}
	}
	snprintf(thr, sizeof(thr), "%.17g", s->threshold);
	snprintf(runs, sizeof(runs), "%u", s->probe_runs);
	snprintf(maxr, sizeof(maxr), "%u", s->probe_max_runs);
	snprintf(freq, sizeof(freq), "%u", s->freq);
	snprintf(disc, sizeof(disc), "%.17g", s->discard);
	snprintf(z, sizeof(z), "%.17g", s->confidence);
	{
		const char *argv[] = { "git", "-C", s->repo.clone, "bisect", "run", s->trail_exe,
				       "flame", "probe", "--rev", "BISECT_HEAD", "--log", log,
				       "--build", s->build_cmd, "--run", s->run_cmd,
				       "--threshold", thr, "--runs", runs, "--max-runs", maxr,
				       "-F", freq, "--discard", disc, "--confidence", z,
				       "--metric", flame_metric_name(s->metric),
				       "--measure", s->measure_share ? "share" : "samples",
				       "--profiler", s->profiler, NULL };
		struct string_list args = STRING_LIST_INIT;
		struct child c = CHILD_INIT;
		const char *const *a;

		for (a = argv; *a; a++)
			string_list_append(&args, *a);
		if (s->function) {
			string_list_append(&args, "--function");
			string_list_append(&args, s->function);
		}
		for (i = 0; i < s->exclude.nr; i++) {
			string_list_append(&args, "--exclude");
			string_list_append(&args, s->exclude.items[i]);
		}
		c.argv = (const char *const *)args.items;
		c.in = CHILD_DEVNULL;
		c.out_path = blog;
		c.err = CHILD_INHERIT;
		code = run_bisect_child(s, &c, log);
		string_list_clear(&args);
	}
	if (!flame_probe_log_read(log, &res, &nres))
		for (i = 0; i < nres; i++)
			record_probe(s, &res[i], 0);
	if (strbuf_read_file(&out, blog))
		goto out;
	if (code != 0) {
		trail_error("git bisect run failed (%s); its log: %s", child_describe_status(code), blog);
		tempdir_keep(s->scratch);
		goto out;
	}
	{
		char *p = strstr(out.buf, " is the first slow commit");

		if (p) {
			char *q = p;

			while (q > out.buf && q[-1] != '\n')
				q--;
			if (p - q == 40) {
				memcpy(s->culprit, q, 40);
				s->culprit[40] = '\0';
				ret = 0;
			}
		} else if ((p = strstr(out.buf, "could be any of:"))) {
			/* Untestable commits next to the culprit: keep them as ambiguous. */
			char *l, *save = NULL;

			for (l = strtok_r(strchr(p, '\n'), "\n", &save); l;
			     l = strtok_r(NULL, "\n", &save)) {
				if (strlen(l) != 40 || strspn(l, "0123456789abcdef") != 40)
					break;
				string_list_append(&s->ambiguous, l);
			}
			ret = s->ambiguous.nr ? 0 : -1;
		}
	}
	if (ret)
		trail_error("git bisect did not name a commit; its log: %s", blog);
out:
	flame_git(&s->repo, NULL, reset);
	strbuf_release(&out);
	free(res);
	free(log);
	free(blog);
	return ret;
}

/* Binary search over the suspects alone (oldest first): the first slow one. */
static int probe_suspects(struct flame_session *s)
{
	int lo = -1, hi = (int)s->nsuspects;	/* lo fast (good), hi slow (bad) */
	struct flame_probe_opts o = probe_opts(s);
	struct progress pr;
	size_t done = 0;
	int ret = 0;

	narrow_progress_start(&pr, "suspects", s->nsuspects + 1);
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2, probe = mid;

		/*
		 * One candidate left below the (slow) bad end: the confirmation
		 * re-probes it and its parent anyway, so do not probe it twice.
		 */
		if (hi - lo == 2 && hi == (int)s->nsuspects) {
			hi = lo + 1;
			break;
		}
		struct flame_probe_result r;

		/* A skipped suspect: try its neighbours inside (lo, hi). */
		for (;;) {
			narrow_progress_update(&pr, done, (size_t)(hi - lo));
			if (flame_probe(&s->repo, s->suspects[probe].commit.id, &o, &r)) {
				ret = -1;
				goto out;
			}
			progress_stop(&pr);
			record_probe(s, &r, 1);
			done++;
			if (r.verdict != FLAME_SKIP)
				break;
			probe = probe + 1 < hi ? probe + 1 : -1;
			if (probe < 0) {
				ret = 1;
				goto out;
			}
		}
		if (r.verdict == FLAME_SLOW)
			hi = probe;
		else
			lo = probe;
	}
	if (hi == (int)s->nsuspects)
		ret = 1;	/* no suspect is slow: the suspect set missed it */
	else
		memcpy(s->culprit, s->suspects[hi].commit.id, 41);
out:
	progress_stop(&pr);
	return ret;
}

static const struct flame_probe_result *find_probe(struct flame_session *s, const char *id)
{
	size_t i;

	for (i = s->nprobes; i-- > 0;)
		if (!strcmp(s->probes[i].id, id))
			return &s->probes[i];
	return NULL;
}

static int choose_culprit_from_ambiguous(struct flame_session *s)
{
	size_t i;

	/* The measured-slow one among the candidates; the others could not be tested. */
	for (i = 0; i < s->ambiguous.nr; i++) {
		const struct flame_probe_result *r = find_probe(s, s->ambiguous.items[i]);

		if (r && r->verdict == FLAME_SLOW) {
			memcpy(s->culprit, r->id, 41);
			return 0;
		}
	}
	if (!strcmp(s->ambiguous.items[s->ambiguous.nr - 1], s->bad) ||
	    index_in_range(s, s->ambiguous.items[s->ambiguous.nr - 1]) >= 0) {
		memcpy(s->culprit, s->ambiguous.items[s->ambiguous.nr - 1], 41);
		return 0;
	}
	return -1;
}

/* Re-probe the culprit and its nearest testable ancestor; compute confidence. */
static int confirm_suspect(struct flame_session *s)
{
	struct flame_probe_opts o = probe_opts(s);
	char parent[41], cur[41];
	int hops, untested = 0;
	double ps, pf;

	o.runs = s->probe_runs > 3 ? s->probe_runs : 3;
	o.max_runs = o.runs > s->probe_max_runs ? o.runs : s->probe_max_runs;
	if (flame_probe(&s->repo, s->culprit, &o, &s->confirm_slow))
		return -1;
	record_probe(s, &s->confirm_slow, 1);
	memcpy(cur, s->culprit, 41);
	for (hops = 0; hops < 6; hops++) {
		if (flame_repo_parent(&s->repo, cur, parent))
			return -1;
		if (flame_probe(&s->repo, parent, &o, &s->confirm_fast))
			return -1;
		record_probe(s, &s->confirm_fast, 1);
		if (s->confirm_fast.verdict != FLAME_SKIP || !strcmp(parent, s->good))
			break;
		/* The parent cannot be built or run: it is not blamed, but noted. */
		if (!string_list_has(&s->ambiguous, parent))
			string_list_append(&s->ambiguous, parent);
		untested++;
		memcpy(cur, parent, 41);
	}
	ps = s->confirm_slow.se > 0 ? normal_cdf((s->confirm_slow.value - s->threshold) /
						       s->confirm_slow.se)
				    : (s->confirm_slow.value > s->threshold);
	pf = s->confirm_fast.se > 0 ? normal_cdf((s->threshold - s->confirm_fast.value) /
						       s->confirm_fast.se)
				    : (s->confirm_fast.value < s->threshold);
	if (s->confirm_slow.verdict != FLAME_SLOW || s->confirm_fast.verdict != FLAME_FAST) {
		ps = s->confirm_slow.verdict == FLAME_SLOW ? ps : ps * 0.5;
		pf = s->confirm_fast.verdict == FLAME_FAST ? pf : pf * 0.5;
	}
	s->suspect_confidence = ps * pf;
	{
		char v1[48], v2[48], t[48];

		describe_value(s, s->confirm_slow.value, v1, sizeof(v1));
		describe_value(s, s->confirm_fast.value, v2, sizeof(v2));
		describe_value(s, s->threshold, t, sizeof(t));
		snprintf(s->confidence_how, sizeof(s->confidence_how),
			 "re-probed the suspect (%s, %s over %u runs) and %s %.12s (%s, %s); "
			 "confidence = P(suspect above %s) x P(%s below it) = %.3f x %.3f, "
			 "normal approximation with the measured standard errors%s",
			 v1, flame_verdict_name(s->confirm_slow.verdict), s->confirm_slow.runs,
			 untested ? "its nearest testable ancestor" : "its parent",
			 s->confirm_fast.id, v2, flame_verdict_name(s->confirm_fast.verdict), t,
			 untested ? "the ancestor" : "the parent", ps, pf,
			 untested ? "; commits in between could not be built or run and are listed as ambiguous" : "");
	}
	return 0;
}

const char *flame_session_named_function(const struct flame_session *s)
{
	if (s->function)
		return s->function;
	return s->blocked_function ? s->blocked_function : s->changed_function;
}

static void recommend(struct flame_session *s)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[] = { "show", "--numstat", "--format=", s->culprit, NULL };
	size_t later = 0, i;
	long lines = 0, files = 0;
	int ci = index_in_range(s, s->culprit);
	char *l, *save = NULL;

	for (i = 0; i < s->nsuspects; i++)
		if (s->suspects[i].touches_function &&
		    index_in_range(s, s->suspects[i].commit.id) > ci)
			later++;
	if (!flame_git(&s->repo, &out, argv))
		for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			files++;
			lines += strtol(l, &l, 10);
			lines += strtol(l, NULL, 10);
		}
	strbuf_release(&out);
	if (later) {
		s->recommendation = "patch";
		snprintf(s->recommendation_reason, sizeof(s->recommendation_reason),
			 "%zu later commit%s in the range also changed %s, so a revert would "
			 "conflict or undo them; fix the slow path in place", later,
			 later == 1 ? "" : "s",
			 flame_session_named_function(s) ? flame_session_named_function(s) : "the code");
	} else if (lines > 200 || files > 5) {
		s->recommendation = "patch";
		snprintf(s->recommendation_reason, sizeof(s->recommendation_reason),
			 "the commit is large (%ld files, %ld lines changed); reverting it would "
			 "drop unrelated work", files, lines);
	} else {
		s->recommendation = "revert";
		snprintf(s->recommendation_reason, sizeof(s->recommendation_reason),
			 "the commit is small (%ld file%s, %ld lines changed) and nothing later "
			 "in the range touched %s", files, files == 1 ? "" : "s", lines,
			 flame_session_named_function(s) ? flame_session_named_function(s)
							  : "the same code");
	}
}

/*
 * With a flat CPU profile there is no hot function to name; the function
 * the suspect commit changed is the next best answer: git's hunk headers
 * ("@@ -63 +63,3 @@ void flush_output(void)") name the enclosing function.
 */
static void find_changed_function(struct flame_session *s)
{
	const char *argv[] = { "show", "--format=", "-U0", s->culprit, NULL };
	struct strbuf out = STRBUF_INIT;
	char *l, *save = NULL;

	if (flame_git(&s->repo, &out, argv) != 0)
		goto out;
	for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *h, *paren, *start;

		if (strncmp(l, "@@ ", 3) || !(h = strstr(l + 3, "@@ ")))
			continue;
		/* The identifier before the first '(' that is not an attribute. */
		for (paren = strchr(h + 3, '('); paren; paren = strchr(paren + 1, '(')) {
			char *e = paren;
			int depth = 0;

			while (e > h + 3 && e[-1] == ' ')
				e--;
			start = e;
			while (start > h + 3 && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
				start--;
			if (start == e)
				continue;
			if (!strncmp(start, "__attribute__", 13) || !strncmp(start, "__declspec", 10)) {
				for (; *paren; paren++) {	/* skip the attribute's parentheses */
					depth += *paren == '(';
					depth -= *paren == ')';
					if (!depth)
						break;
				}
				if (!*paren)
					break;
				continue;
			}
			s->changed_function = xstrndup(start, (size_t)(e - start));
			break;
		}
		if (s->changed_function)
			break;
	}
out:
	strbuf_release(&out);
}

static int narrow(struct flame_session *s)
{
	size_t n = s->range.nr;
	unsigned bisect_cost = 0, suspect_cost = 0;
	int rc;

	bisect_cost = steps_left(n);
	/* Bisecting on the metric, the function that blocks longer still
	 * narrows the commits worth probing first. */
	if (s->function || s->blocked_function)
		find_suspects(s, s->function ? s->function : s->blocked_function);
	if (s->nsuspects)
		suspect_cost = steps_left(s->nsuspects + 1);
	if (!strcmp(s->strategy, "suspects") ||
	    (!strcmp(s->strategy, "auto") && s->nsuspects && suspect_cost < bisect_cost)) {
		if (!s->nsuspects) {
			s->strategy_used = "bisect";
			snprintf(s->strategy_reason, sizeof(s->strategy_reason),
				 "no suspect set; bisecting the %zu commits", n);
		} else {
			s->strategy_used = "suspects";
			snprintf(s->strategy_reason, sizeof(s->strategy_reason),
				 "probing the %zu suspects directly (about %u probes) is cheaper "
				 "than bisecting %zu commits (about %u)", s->nsuspects, suspect_cost,
				 n, bisect_cost);
		}
	} else {
		s->strategy_used = "bisect";
		snprintf(s->strategy_reason, sizeof(s->strategy_reason),
			 "bisecting %zu commits (about %u probes)%s", n, bisect_cost,
			 s->nsuspects ? " is no dearer than probing the suspects" : "");
	}
	note("narrow: %s", s->strategy_reason);
	if (!strcmp(s->strategy_used, "suspects")) {
		rc = probe_suspects(s);
		if (rc < 0)
			return -1;
		/* The split must be exact: the re-probed parent must be fast. */
		if (!rc && confirm_suspect(s))
			return -1;
		if (!rc && s->confirm_slow.verdict == FLAME_SLOW &&
		    s->confirm_fast.verdict == FLAME_FAST)
			return 0;
		note("narrow: the suspects do not explain the change; bisecting the whole range");
		s->strategy_used = "suspects+bisect";
		s->culprit[0] = '\0';
		string_list_clear(&s->ambiguous);
	string_list_clear(&s->exclude);
	}
	if (run_git_bisect(s, s->good, s->bad))
		return -1;
	if (!s->culprit[0] && choose_culprit_from_ambiguous(s))
		return -1;
	return confirm_suspect(s);
}

/* ---- the whole run ---- */

int flame_session_run(struct flame_session *s)
{
	char *dirs[2] = { NULL, NULL };
	double t0 = clock_monotonic();
	int ret = FLAME_EXIT_FAILURE, is_anc;

	if (flame_repo_open(&s->repo, s->dir, s->cache_root))
		return FLAME_EXIT_FAILURE;
	if (flame_repo_resolve(&s->repo, s->good_rev, s->good) ||
	    flame_repo_resolve(&s->repo, s->bad_rev, s->bad))
		return FLAME_EXIT_FAILURE;
	is_anc = flame_repo_is_ancestor(&s->repo, s->good, s->bad);
	if (is_anc < 0)
		return FLAME_EXIT_FAILURE;
	if (!is_anc || !strcmp(s->good, s->bad)) {
		trail_error("the good revision %.12s is not an ancestor of the bad revision %.12s",
		      s->good, s->bad);
		return FLAME_EXIT_USAGE;
	}
	if (flame_repo_range(&s->repo, s->good, s->bad, &s->range))
		return FLAME_EXIT_FAILURE;
	s->scratch = tempdir_create("trail-flame");
	if (!s->scratch)
		return FLAME_EXIT_FAILURE;
	if (s->metric == FLAME_METRIC_OFFCPU) {
		/* Off-CPU profiles show where the time went; without them, CPU ones. */
		struct flame_capture_opts o = capture_opts(s);
		char why[200];

		if (!flame_capture_offcpu_check(&o, why, sizeof(why)))
			s->offcpu_profile = 1;
		else
			note("scope: off-CPU profiles are not available here ('trail record -e "
			     "offcpu': %s); capturing CPU profiles instead, and the report names "
			     "the function the suspect commit changed", why);
	}
	if (!s->offcpu_profile) {
		struct flame_capture_opts o = capture_opts(s);

		if (flame_capture_check(&o))
			return FLAME_EXIT_FAILURE;
	}
	note("scope: metric %s%s, profiler %s at %u Hz, %zu commits in %.12s..%.12s",
	     flame_metric_name(s->metric),
	     s->metric == FLAME_METRIC_WALL && s->percentile != 50 ? " (percentile)" : "",
	     s->offcpu_profile ? "trail record -e offcpu (blocked time, whatever --profiler says)" :
	     strcmp(s->profiler, "trail") ? "perf record -g" : "trail record (frame pointers)",
	     s->freq, s->range.nr, s->good, s->bad);

	if (build_end(s, s->good, "good", &dirs[0]) || build_end(s, s->bad, "bad", &dirs[1]))
		goto out;
	if (capture_ends(s, dirs))
		goto out;
	if (!confirm_metric(s) && s->metric == FLAME_METRIC_CPU && wall_regressed(s)) {
		s->verdict = "inconclusive";
		write_profiles(s);
		rank_hotspots(s);
		ret = FLAME_EXIT_INCONCLUSIVE;
		goto report;
	}
	if (s->metric_p >= 1 - s->confidence || s->metric_med[1] <= s->metric_med[0]) {
		s->verdict = "no-regression";
		snprintf(s->message, sizeof(s->message),
			 "no significant %s regression between %.12s and %.12s "
			 "(median %.4g -> %.4g %s, Mann-Whitney p = %.3g)",
			 flame_metric_name(s->metric), s->good, s->bad, s->metric_med[0],
			 s->metric_med[1], flame_metric_unit(s->metric), s->metric_p);
		write_profiles(s);
		rank_hotspots(s);
		ret = FLAME_EXIT_NO_REGRESSION;
		goto report;
	}
	if (write_profiles(s))
		goto out;
	rank_hotspots(s);
	/*
	 * Off-CPU time is what no CPU sample sees: a function whose CPU share
	 * moved a little cannot explain it, and bisecting on that share chases
	 * noise.  That metric is bisected on itself.
	 */
	if (s->metric != FLAME_METRIC_OFFCPU && s->hot.nr && s->hot.items[0].confirmed) {
		const struct flame_hotspot *h = &s->hot.items[0];

		struct flame_share m[2];
		struct folded_profile **p[2];
		int side;
		size_t k;

		s->function = xstrdup(h->name);
		for (side = 0; side < 2; side++) {
			p[side] = xcalloc(s->nruns[side], sizeof(*p[side]));
			for (k = 0; k < s->nruns[side]; k++)
				p[side][k] = &s->runs[side][k].folded;
		}
		find_other_changes(s, p);
		for (side = 0; side < 2; side++) {
			if (s->measure_share)
				flame_relative_share_over_runs(p[side], s->nruns[side], s->function,
							       &s->exclude, &m[side]);
			else
				flame_samples_over_runs(p[side], s->nruns[side], s->function, 0, &m[side]);
			s->share[side] = m[side].mean;
			free(p[side]);
		}
		if (s->measure_share && s->exclude.nr)
			note("diff: %s's share is measured among the samples outside the %zu other "
			     "function%s that changed, so their changes cannot mislead the bisection",
			     s->function, s->exclude.nr, s->exclude.nr == 1 ? "" : "s");
		s->threshold = (s->share[0] + s->share[1]) / 2;
	} else if (s->metric != FLAME_METRIC_CPU) {
		s->share[0] = s->metric_med[0];
		s->share[1] = s->metric_med[1];
		s->threshold = (s->share[0] + s->share[1]) / 2;
		if (s->blocked_function)
			note("diff: bisecting on %s itself (the workload's off-CPU time), the commits "
			     "that touched %s first", flame_metric_name(s->metric), s->blocked_function);
		else if (s->metric == FLAME_METRIC_OFFCPU)
			note("diff: %s; bisecting on %s itself", s->offcpu_profile ?
			     "the off-CPU profiles name no function" :
			     "CPU samples cannot measure off-CPU time",
			     flame_metric_name(s->metric));
		else
			note("diff: the CPU profile is flat (no function's share rose by %.1f points): "
			     "the time went off-CPU; bisecting on %s itself",
			     100 * s->confirm, flame_metric_name(s->metric));
	} else {
		s->verdict = "inconclusive";
		snprintf(s->message, sizeof(s->message),
			 "the program got slower but no function's share of CPU samples rose by "
			 "%.1f points: the CPU profile is flat, so the extra time is probably spent "
			 "off-CPU (sleeping, waiting for I/O or locks); try --metric wall",
			 100 * s->confirm);
		ret = FLAME_EXIT_INCONCLUSIVE;
		goto report;
	}
	if (narrow(s))
		goto out;
	if (flame_repo_commit(&s->repo, s->culprit, &s->culprit_info))
		goto out;
	if (!s->function)
		find_changed_function(s);
	recommend(s);
	if (s->suspect_confidence >= 0.5 && s->confirm_slow.verdict == FLAME_SLOW &&
	    s->confirm_fast.verdict == FLAME_FAST) {
		s->verdict = "regression";
		if (!s->function && s->blocked_function)
			snprintf(s->message, sizeof(s->message), "%.12s made the workload spend more "
				 "time off-CPU, in %s", s->culprit, s->blocked_function);
		else
			snprintf(s->message, sizeof(s->message), "%.12s made %s slower", s->culprit,
				 s->function ? s->function : flame_metric_name(s->metric));
		ret = FLAME_EXIT_FOUND;
	} else {
		s->verdict = "inconclusive";
		snprintf(s->message, sizeof(s->message),
			 "re-probing %.12s and its parent did not reproduce the fast/slow split",
			 s->culprit);
		ret = FLAME_EXIT_INCONCLUSIVE;
	}
report:
	s->seconds = clock_monotonic() - t0;
	if (flame_report_write(s))
		ret = FLAME_EXIT_FAILURE;
out:
	free(dirs[0]);
	free(dirs[1]);
	return ret;
}

void flame_session_release(struct flame_session *s)
{
	size_t i, k;
	int side;

	for (side = 0; side < 2; side++) {
		for (k = 0; k < s->nruns[side]; k++)
			flame_run_release(&s->runs[side][k]);
		free(s->runs[side]);
	}
	flame_hotspots_release(&s->hot);
	for (i = 0; i < s->nsuspects; i++)
		flame_commit_release(&s->suspects[i].commit);
	free(s->suspects);
	free(s->probes);
	free(s->function);
	free(s->def_file);
	free(s->changed_function);
	free(s->blocked_function);
	flame_commit_release(&s->culprit_info);
	string_list_clear(&s->range);
	string_list_clear(&s->ambiguous);
	string_list_clear(&s->exclude);
	if (s->scratch && !s->keep)
		tempdir_remove(s->scratch);
	free(s->scratch);
	flame_repo_release(&s->repo);
}
