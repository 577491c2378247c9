/*
 * hotdiff.c - the DIFF step of trail flame: merged folded profiles and
 * flame graphs of both ends, the functions whose share rose (or, off-CPU,
 * that block longer), and the target of the narrowing: the hot function's
 * share (among the functions that did not change) or the metric itself.
 */
#include "flame/hotdiff.h"
#include "flamegraph/render.h"
#include "flame/blockers.h"
#include "flame/decide.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void merge_runs(struct flame_session *s, int side, struct folded_profile *out)
{
	size_t k;
	uint32_t id;

	folded_profile_init(out);
	for (k = 0; k < s->st.nruns[side]; k++) {
		const struct folded_profile *p = &s->st.runs[side][k].folded;

		/* the units (and sampling period) of the runs, for the header */
		if (!k)
			out->weight = p->weight;

		for (id = 0; id < p->stacks.nr; id++)
			folded_profile_add(out, intern_str(&p->stacks, id), intern_len(&p->stacks, id),
					   0, p->counts[0][id]);
	}
}

/*
 * The units of a good, bad (b NULL) or differential folded profile, for
 * its header and its graph: off-CPU counts are us blocked (named, so no
 * noise test reads them as samples); CPU samples carry their period, so
 * the differential graph compares time (trail diff's default) - when both
 * sides sum the same number of runs of one period, else shares.  Samples
 * that name no period (trail's own sampler) get ns_per_sample, the runs'
 * measured CPU time per sample (0: unknown), so that a frame whose time
 * did not move is not painted cooler because another one grew; they stay
 * sample counts, so the graph's noise test still applies.
 */
static void profile_units(const struct folded_profile *a, const struct folded_profile *b,
			  int offcpu, int same_runs, double ns_per_sample,
			  struct folded_weight_info *w)
{
	memset(w, 0, sizeof(*w));
	if (offcpu && a->weight.weight == FOLDED_WEIGHT_SAMPLES) {
		w->weight = FOLDED_WEIGHT_TIME;
		snprintf(w->unit, sizeof(w->unit), "us");
	} else if (!b || (same_runs && a->weight.period == b->weight.period &&
			  a->weight.weight == b->weight.weight)) {
		*w = a->weight;
		if (b && w->weight == FOLDED_WEIGHT_SAMPLES && !(w->period > 0) && ns_per_sample > 0) {
			w->period = ns_per_sample;
			snprintf(w->period_unit, sizeof(w->period_unit), "ns");
			if (!w->type[0])
				snprintf(w->type, sizeof(w->type), "cpu");
		}
	}
}

/*
 * The CPU time per sample over both ends' runs, ns; 0 when a run has no
 * CPU time or no sample (off-CPU profiles: their counts are time already).
 */
static double ns_per_sample(const struct flame_session *s)
{
	double ns = 0, samples = 0;
	size_t k;
	int side;

	if (s->ans.ends.offcpu_profile)
		return 0;
	for (side = 0; side < 2; side++)
		for (k = 0; k < s->st.nruns[side]; k++) {
			const struct flame_run *r = &s->st.runs[side][k];

			if (!(r->cpu_us > 0) || !(r->folded.total[0] > 0))
				return 0;
			ns += r->cpu_us * 1e3;
			samples += r->folded.total[0];
		}
	return samples > 0 ? ns / samples : 0;
}

/* a in column 0 and b (unless NULL) in column 1 of all, stacks merged. */
static void combine(const struct folded_profile *a, const struct folded_profile *b,
		    struct folded_profile *all)
{
	uint32_t i;

	folded_profile_init(all);
	for (i = 0; i < a->stacks.nr; i++)
		folded_profile_add(all, intern_str(&a->stacks, i), intern_len(&a->stacks, i), 0,
				   a->counts[0][i]);
	if (b)
		for (i = 0; i < b->stacks.nr; i++)
			folded_profile_add(all, intern_str(&b->stacks, i),
					   intern_len(&b->stacks, i), 1, b->counts[0][i]);
}

/* all (columns 1 or 2) as folded text at path, with w's header; 0 or -1. */
static int write_folded(const struct folded_profile *all, const uint32_t *order, int columns,
			const struct folded_weight_info *w, const char *path)
{
	char header[192];
	struct strbuf sb = STRBUF_INIT;
	uint32_t i;
	int ret;

	folded_header_format(header, sizeof(header), w);
	strbuf_addstr(&sb, header);
	for (i = 0; i < all->stacks.nr; i++) {
		char c0[64], c1[64];
		uint32_t id = order[i];

		folded_format_count(c0, sizeof(c0), all->counts[0][id]);
		strbuf_add(&sb, intern_str(&all->stacks, id), intern_len(&all->stacks, id));
		if (columns == 2) {
			folded_format_count(c1, sizeof(c1), all->counts[1][id]);
			strbuf_addf(&sb, " %s %s\n", c0, c1);
		} else {
			strbuf_addf(&sb, " %s\n", c0);
		}
	}
	ret = strbuf_write_file(&sb, path);
	strbuf_release(&sb);
	return ret;
}

/*
 * Draw all (in the order of its folded file) as 'trail flamegraph' draws
 * that file, in-process and from memory; off-CPU profiles count
 * microseconds, in flamegraph.pl's io palette.  A graph that cannot be
 * drawn is noted, not an error: the report stands without it.
 */
static void render_svg(struct flame_session *s, const struct folded_profile *all,
		       const uint32_t *order, int columns, const struct folded_weight_info *w,
		       const char *svg, const char *title)
{
	struct fg_input_options io = { 0 };
	struct fg_render r;
	struct fg_input in;
	uint32_t i;
	FILE *f;
	int code = EXIT_FAILURE_;

	fg_render_init(&r);
	r.svg.title = title;
	r.quiet = 1;
	if (s->ans.ends.offcpu_profile) {
		r.svg.countname = "us";
		if (!strstr(title, "differential"))
			r.svg.palette = fg_palette_find("io");
	}
	fg_input_init(&in, &io);
	for (i = 0; i < all->stacks.nr; i++) {
		uint32_t id = order[i];
		double c[2] = { all->counts[0][id], columns == 2 ? all->counts[1][id] : 0 };

		fg_input_add(&in, intern_str(&all->stacks, id), intern_len(&all->stacks, id), c,
			     columns);
	}
	in.weight = *w;
	f = fopen(svg, "w");
	/* nothing to draw (no run sampled anything): noted below, not an error */
	if (f && (in.total[0] > 0 || in.total[1] > 0))
		code = fg_render(&in, &r, f);
	if (f && fclose(f))
		code = EXIT_FAILURE_;
	fg_input_release(&in);
	if (code != EXIT_OK) {
		unlink(svg);
		note("diff: no SVG %s", svg);
	}
}

/*
 * One of good, bad (b NULL) and diff: its folded file for the user and,
 * unless it is empty (a revision that never blocked), its graph drawn
 * from the same profile.  0, or -1 when the folded file cannot be written.
 */
static int write_output(struct flame_session *s, const struct folded_profile *a,
			const struct folded_profile *b, const char *name, const char *title)
{
	char *path = xstrfmt("%s/%s.folded", s->req.out_dir, name);
	char *svg = xstrfmt("%s/%s.svg", s->req.out_dir, name);
	struct folded_weight_info w;
	struct folded_profile all;
	uint32_t *order;
	int columns = b ? 2 : 1, ret;

	profile_units(a, b, s->ans.ends.offcpu_profile, s->st.nruns[0] == s->st.nruns[1],
		      ns_per_sample(s), &w);
	if (b)
		s->ans.target.diff_by_time = folded_ns_per_count(&w) > 0;
	/* each column sums nruns runs (profile_units asked as many): tooltips per run */
	if (b && s->ans.target.diff_by_time)
		w.runs = (double)s->st.nruns[0];
	combine(a, b, &all);
	order = folded_profile_sorted(&all);
	ret = write_folded(&all, order, columns, &w, path);
	if (b || a->stacks.nr)
		render_svg(s, &all, order, columns, &w, svg, title);
	free(order);
	folded_profile_release(&all);
	free(path);
	free(svg);
	return ret;
}

int flame_step_write_profiles(struct flame_session *s)
{
	struct folded_profile m[2];
	int off = s->ans.ends.offcpu_profile, ret = 0;

	merge_runs(s, 0, &m[0]);
	merge_runs(s, 1, &m[1]);
	if (make_dirs(s->req.out_dir))
		ret = -1;
	if (!ret) {
		ret |= write_output(s, &m[0], NULL, "good", off ? "good: off-CPU time" : "good");
		ret |= write_output(s, &m[1], NULL, "bad", off ? "bad: off-CPU time" : "bad");
		ret |= write_output(s, &m[0], &m[1], "diff", off ?
				    "off-CPU time, good -> bad (differential)" :
				    "good -> bad (differential)");
	}
	folded_profile_release(&m[0]);
	folded_profile_release(&m[1]);
	return ret;
}

static void note_hotspots(struct flame_session *s, const char *what)
{
	size_t k;

	for (k = 0; k < s->ans.target.hot.nr && k < 5; k++) {
		const struct flame_hotspot *h = &s->ans.target.hot.items[k];
		char *name = escape_term_dup(h->name);

		/* a share of exact counts has no sampling error: none is printed */
		if (s->ans.ends.exact_counts)
			note("diff: %-28s %s %5.1f%% -> %5.1f%% (%+.2f pp, exact counts)%s", name, what,
			     100 * h->good_self.mean, 100 * h->bad_self.mean, 100 * h->delta_self,
			     h->confirmed ? "" : "  (below the confirm threshold)");
		else
			note("diff: %-28s %s %5.1f%% -> %5.1f%% (%+.1f pp +/- %.1f)%s", name, what,
			     100 * h->good_self.mean, 100 * h->bad_self.mean, 100 * h->delta_self,
			     100 * h->se_self, h->confirmed ? "" : "  (below the confirm threshold)");
		free(name);
	}
}

/*
 * The functions the repository defines among every run's frames, into
 * defined; 0, or -1 when they cannot be told (flame_repo_defined()).
 */
static int repository_functions(struct flame_session *s, struct string_list *defined)
{
	struct string_list frames = STRING_LIST_INIT;
	size_t k;
	int side, ret;

	for (side = 0; side < 2; side++)
		for (k = 0; k < s->st.nruns[side]; k++)
			flame_blockers_frames(&s->st.runs[side][k].folded, &frames);
	ret = flame_repo_defined(&s->st.repo, s->ans.ends.bad, &frames, defined);
	if (!ret)	/* functions made by macros are only in the build's DWARF */
		flame_defs_defined(&s->st.repo, &s->st.defs, s->ans.ends.bad, &frames, defined);
	string_list_clear(&frames);
	return ret;
}

/*
 * Every run's profile cut after its innermost frame in defined
 * (flame_blockers_fold(): with the run's CPU time as FLAME_ON_CPU_FRAME
 * when with_cpu, counts divided by unit), into cut[side][k], and p[side][k]
 * pointing at each for the rankers.  Release with release_cut_runs().
 */
static void cut_runs(struct flame_session *s, const struct string_list *defined, int with_cpu,
		     double unit, struct folded_profile *cut[2], struct folded_profile **p[2])
{
	struct intern def;
	size_t k;
	int side;

	intern_init(&def);
	for (k = 0; k < defined->nr; k++)
		intern_add(&def, defined->items[k], strlen(defined->items[k]), NULL);
	for (side = 0; side < 2; side++) {
		size_t n = s->st.nruns[side] ? s->st.nruns[side] : 1;

		cut[side] = xcalloc(n, sizeof(*cut[side]));
		p[side] = xcalloc(n, sizeof(*p[side]));
		for (k = 0; k < s->st.nruns[side]; k++) {
			const struct flame_run *r = &s->st.runs[side][k];

			flame_blockers_fold(&r->folded, with_cpu ? r->cpu * 1e6 : 0, &def, unit,
					    &cut[side][k]);
			p[side][k] = &cut[side][k];
		}
	}
	intern_release(&def);
}

static void release_cut_runs(struct flame_session *s, struct folded_profile *cut[2],
			     struct folded_profile **p[2])
{
	size_t k;
	int side;

	for (side = 0; side < 2; side++) {
		for (k = 0; k < s->st.nruns[side]; k++)
			folded_profile_release(&cut[side][k]);
		free(cut[side]);
		free(p[side]);
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
	struct string_list defined = STRING_LIST_INIT;
	struct folded_profile *cut[2], **p[2];
	double unit = 1e6 / (double)s->req.freq;	/* us per sample at -F Hz */
	size_t k;
	int side;

	if (repository_functions(s, &defined))
		note("diff: cannot tell the program's functions from library ones; "
		     "off-CPU stacks are ranked by their innermost frame");
	cut_runs(s, &defined, 1, unit, cut, p);
	flame_hotspots_rank(p[0], s->st.nruns[0], p[1], s->st.nruns[1], s->req.min_delta, s->req.confirm,
			    s->req.confidence,
			    &s->ans.target.hot);
	note_hotspots(s, "blocked");
	for (k = 0; k < s->ans.target.hot.nr && !s->ans.target.blocked_function; k++) {
		const struct flame_hotspot *h = &s->ans.target.hot.items[k];
		struct flame_share t;

		if (!h->confirmed || h->name[0] == '[')
			continue;
		s->ans.target.blocked_function = xstrdup(h->name);
		for (side = 0; side < 2; side++) {
			flame_samples_over_runs(p[side], s->st.nruns[side], h->name, 0, &t);
			s->ans.target.blocked_ms[side] = t.mean * unit / 1000;
		}
	}
	if (s->ans.target.blocked_function) {
		char *shown = escape_term_dup(s->ans.target.blocked_function);

		note("diff: %s blocks longer: %.1f ms -> %.1f ms off-CPU per run (it or the library "
		     "and kernel code it calls: see diff.svg)", shown,
		     s->ans.target.blocked_ms[0], s->ans.target.blocked_ms[1]);
		free(shown);
	} else
		note("diff: no function's share of off-CPU time rose by %.1f points", 100 * s->req.confirm);
	release_cut_runs(s, cut, p);
	string_list_clear(&defined);
}


/*
 * CPU profiles: the frame that got hotter may be one the user cannot act
 * on (libc's memcmp, the kernel's page clearing).  Rank again with every
 * stack cut after its innermost frame the repository defines, so a
 * library or kernel frame's time counts for the program's function that
 * called it; when the top function changes that way, it is the answer,
 * the raw top frame is kept as s->ans.target.frame, and the narrowing measures
 * what was ranked: the function's own time with the library and kernel
 * code under it (the lib- measures, probe_request.h), not its inclusive
 * time, which holds every program function it calls.  The answer is the
 * top confirmed function of the cut ranking that the repository defines:
 * stacks broken in a library (no program frame above, as under a libz
 * built without frame pointers) stay whole and may rank above it, but do
 * not hide it.  Returns 1 when the raw ranking stands.
 */
static int attribute_to_repository(struct flame_session *s)
{
	struct string_list defined = STRING_LIST_INIT;
	struct folded_profile *cut[2], **p[2];
	struct flame_hotspots hot;
	char *raw_top;
	size_t top;
	int ret = 1;

	s->ans.target.measure_lib = 0;
	if (!s->ans.target.hot.nr || !s->ans.target.hot.items[0].confirmed)
		return 1;
	raw_top = xstrdup(s->ans.target.hot.items[0].name);
	if (repository_functions(s, &defined) || string_list_has(&defined, raw_top)) {
		string_list_clear(&defined);
		free(raw_top);
		return 1;
	}
	cut_runs(s, &defined, 0, 1, cut, p);
	memset(&hot, 0, sizeof(hot));
	flame_hotspots_rank(p[0], s->st.nruns[0], p[1], s->st.nruns[1], s->req.min_delta, s->req.confirm,
			    s->req.confidence, &hot);
	top = flame_hotspots_first_in(&hot, &defined);
	if (top < hot.nr) {
		struct flame_hotspot h = hot.items[top];

		/* the answer first: the rankers and the report read items[0] */
		memmove(hot.items + 1, hot.items, top * sizeof(*hot.items));
		hot.items[0] = h;
		note_hotspots(s, "self");
		free(s->ans.target.frame);
		s->ans.target.frame = raw_top;
		raw_top = NULL;
		flame_hotspots_release(&s->ans.target.hot);
		s->ans.target.hot = hot;
		s->ans.target.measure_lib = 1;
		note("diff: %s is not the program's (library or kernel code); its time is "
		     "attributed to its innermost caller the repository defines:", s->ans.target.frame);
		note_hotspots(s, "self+library");
		ret = 0;
	} else {
		flame_hotspots_release(&hot);
	}
	release_cut_runs(s, cut, p);
	string_list_clear(&defined);
	free(raw_top);
	return ret;
}

void flame_step_rank_hotspots(struct flame_session *s)
{
	struct folded_profile **p[2];
	int side;
	size_t k;

	if (s->ans.ends.offcpu_profile) {
		rank_blockers(s);
		return;
	}
	for (side = 0; side < 2; side++) {
		p[side] = xcalloc(s->st.nruns[side], sizeof(*p[side]));
		for (k = 0; k < s->st.nruns[side]; k++)
			p[side][k] = &s->st.runs[side][k].folded;
	}
	flame_hotspots_rank(p[0], s->st.nruns[0], p[1], s->st.nruns[1], s->req.min_delta, s->req.confirm,
			    s->req.confidence,
			    &s->ans.target.hot);
	free(p[0]);
	free(p[1]);
	if (attribute_to_repository(s))
		note_hotspots(s, "self");
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

	for (i = 0; i < s->st.nruns[0]; i++)
		total += p[0][i]->total[0];
	total /= s->st.nruns[0] ? (double)s->st.nruns[0] : 1;
	for (i = 0; i < s->ans.target.hot.changed.nr; i++) {
		const char *g = s->ans.target.hot.changed.items[i];
		struct flame_share a, b;
		double delta, se;

		if (!strcmp(g, s->ans.target.function))
			continue;
		flame_samples_over_runs(p[0], s->st.nruns[0], g, 0, &a);
		flame_samples_over_runs(p[1], s->st.nruns[1], g, 0, &b);
		delta = b.mean - a.mean;
		se = sqrt(a.se * a.se + b.se * b.se);
		if (flame_cost_changed(delta, se, total, s->req.min_delta,
				       flame_z_for(s->req.confidence)))
			string_list_append(&s->st.exclude, g);
	}
}

/*
 * Bisecting on the metric itself: its values at the ends and their
 * standard errors (from the confirm step's intervals).
 */
static void metric_as_target(struct flame_session *s)
{
	double z = flame_z_for(s->req.confidence);
	int side;

	for (side = 0; side < 2; side++) {
		s->ans.target.share[side] = s->ans.ends.metric_med[side];
		s->ans.target.share_se[side] = (s->ans.ends.metric_hi[side] - s->ans.ends.metric_lo[side]) / (2 * z);
	}
}

/*
 * The probes' threshold between the ends: on the log scale when the
 * measure scales with the machine's load (decide.h), so a load that
 * changed between the ends and a probe does not flip it.
 */
static void set_threshold(struct flame_session *s, int log_scale)
{
	s->ans.target.log_scale = log_scale;
	s->ans.target.threshold = flame_threshold_scaled(s->ans.target.share[0],
							 s->ans.target.share[1], log_scale);
}

/* The metric is a time (CPU, wall, off-CPU), not a count or bytes. */
static int metric_is_time(const struct flame_session *s)
{
	return !flame_metric_deterministic(s->req.metric) &&
	       !flame_metric_counts_memory(s->req.metric, s->req.profiler);
}

/* side's runs' CPU times, ms (caller frees); NULL when a run has none. */
static double *runs_cpu_ms(const struct flame_session *s, int side)
{
	double *cpu = xcalloc(s->st.nruns[side] ? s->st.nruns[side] : 1, sizeof(*cpu));
	size_t k;

	for (k = 0; k < s->st.nruns[side]; k++) {
		cpu[k] = s->st.runs[side][k].cpu_us / 1e3;
		if (!(cpu[k] > 0)) {
			free(cpu);
			return NULL;
		}
	}
	return cpu;
}

/*
 * The hot function's own CPU time per run, when the profiles are CPU ones
 * and --measure time (the default): its share of each run's samples times
 * the run's CPU time, a quantity that adds up along the range (shares.h,
 * flame_time_over_runs()), so each commit that slows the function raises
 * it by its own step whatever other commits do to other functions.  Frees
 * p[0..1] and returns 1 when it set the target, else 0 (p kept).
 */
static int time_target(struct flame_session *s, struct folded_profile **p[2])
{
	int lib = s->ans.target.measure_lib, side;
	double *cpu[2];
	struct flame_share m;
	char *shown;

	/*
	 * A counted profile's own count per run (instructions) is exact and
	 * adds up along the range as time does: the bisection measures it
	 * (samples per run), not its share of the counted run's CPU time,
	 * which is callgrind's time, as noisy as any.
	 */
	if (!s->req.measure_time || s->ans.ends.offcpu_profile ||
	    flame_metric_counts_memory(s->req.metric, s->req.profiler) ||
	    flame_metric_deterministic(s->req.metric))
		return 0;
	cpu[0] = runs_cpu_ms(s, 0);
	cpu[1] = runs_cpu_ms(s, 1);
	if (!cpu[0] || !cpu[1]) {
		free(cpu[0]);
		free(cpu[1]);
		return 0;
	}
	s->ans.target.measure_share = 0;
	s->ans.target.measure_time = 1;
	s->ans.target.time_unit_ms = 1;
	for (side = 0; side < 2; side++) {
		flame_time_over_runs(p[side], cpu[side], s->st.nruns[side], s->ans.target.function, 0,
				     &m);
		s->ans.target.share[side] = m.mean;
		s->ans.target.share_se[side] = m.se;
		free(cpu[side]);
		free(p[side]);
	}
	shown = escape_term_dup(s->ans.target.function);
	note("diff: bisecting on %s's %sCPU time per run, %.1f ms -> %.1f ms (its share of the "
	     "samples times the run's CPU time: other functions' changes do not move it)", shown,
	     lib ? "own and library " : "own ", s->ans.target.share[0], s->ans.target.share[1]);
	free(shown);
	set_threshold(s, 1);
	return 1;
}

/* The cut runs of flame_step_target(), each side's array NULL or nruns long. */
static void release_cuts(struct flame_session *s, struct folded_profile *cut[2])
{
	size_t k;
	int side;

	for (side = 0; side < 2; side++) {
		for (k = 0; cut[side] && k < s->st.nruns[side]; k++)
			folded_profile_release(&cut[side][k]);
		free(cut[side]);
	}
}

int flame_step_target(struct flame_session *s)
{
	/*
	 * Off-CPU time is what no CPU sample sees: a function whose CPU share
	 * moved a little cannot explain it, and bisecting on that share chases
	 * noise.  That metric is bisected on itself.
	 */
	if (s->req.metric != FLAME_METRIC_OFFCPU && s->ans.target.hot.nr && s->ans.target.hot.items[0].confirmed) {
		const struct flame_hotspot *h = &s->ans.target.hot.items[0];
		struct flame_share m[2], n[2];
		struct folded_profile **p[2], *cut[2] = { NULL, NULL };
		int side, ret = 0, samples = 0;
		size_t k;

		s->ans.target.function = xstrdup(h->name);
		for (side = 0; side < 2; side++) {
			p[side] = xcalloc(s->st.nruns[side], sizeof(*p[side]));
			for (k = 0; k < s->st.nruns[side]; k++)
				p[side][k] = &s->st.runs[side][k].folded;
		}
		find_other_changes(s, p);
		/*
		 * A function that a library frame's time was moved up to is
		 * measured as it was ranked, in runs cut at the repository's
		 * frames (at each end's commit, as a probe cuts at its own).
		 */
		for (side = 0; side < 2 && s->ans.target.measure_lib; side++) {
			cut[side] = xcalloc(s->st.nruns[side] ? s->st.nruns[side] : 1, sizeof(*cut[side]));
			if (flame_blockers_cut_at_repository(&s->st.repo, side ? s->ans.ends.bad :
							     s->ans.ends.good, s->ans.target.function,
							     p[side], s->st.nruns[side], cut[side]))
				ret = -1;
			for (k = 0; k < s->st.nruns[side]; k++)
				p[side][k] = &cut[side][k];
		}
		s->ans.target.measure_share = s->req.measure_share;
		if (ret || time_target(s, p)) {
			if (ret) {
				free(p[0]);
				free(p[1]);
			}
			release_cuts(s, cut);
			return ret;
		}
		for (side = 0; side < 2; side++) {
			if (s->ans.target.measure_lib && s->ans.target.measure_share)
				flame_share_over_runs(p[side], s->st.nruns[side], s->ans.target.function, 0,
						      &m[side]);
			else if (s->ans.target.measure_share)
				flame_relative_share_over_runs(p[side], s->st.nruns[side],
							       s->ans.target.function, &s->st.exclude,
							       &m[side]);
			else
				flame_samples_over_runs(p[side], s->st.nruns[side], s->ans.target.function,
							0, &m[side]);
			flame_samples_over_runs(p[side], s->st.nruns[side], s->ans.target.function,
						0, &n[side]);
			s->ans.target.share[side] = m[side].mean;
			s->ans.target.share_se[side] = m[side].se;
			free(p[side]);
		}
		/*
		 * How clearly the share separates good from bad is judged on the
		 * ranking's self share (h): the share among unchanged functions
		 * can sit high at both ends when a speed-up elsewhere was left
		 * out, and samples per run move with a busy machine's load.
		 */
		if (s->ans.target.measure_share &&
		    flame_prefer_samples(h->good_self.mean, h->bad_self.mean, h->se_self,
					 n[0].mean, n[1].mean, hypot(n[0].se, n[1].se))) {
			note("diff: %s's samples per run (%.1f -> %.1f) separate good from bad more "
			     "clearly than its share (%.1f%% -> %.1f%%): it already took most of the "
			     "time; bisecting on its CPU time per run", s->ans.target.function, n[0].mean,
			     n[1].mean, 100 * m[0].mean, 100 * m[1].mean);
			s->ans.target.measure_share = 0;
			samples = 1;
			s->ans.target.share[0] = n[0].mean;
			s->ans.target.share[1] = n[1].mean;
			s->ans.target.share_se[0] = n[0].se;
			s->ans.target.share_se[1] = n[1].se;
		} else if (s->ans.target.measure_lib)
			note("diff: bisecting on %s's share with the library and kernel code under it "
			     "(not its inclusive share: other program functions it calls are left out)",
			     s->ans.target.function);
		else if (s->ans.target.measure_share && s->st.exclude.nr) {
			char *shown = escape_term_dup(s->ans.target.function);

			note("diff: %s's share is measured among the samples outside the %zu other "
			     "function%s that changed, so their changes cannot mislead the bisection",
			     shown, s->st.exclude.nr, s->st.exclude.nr == 1 ? "" : "s");
			free(shown);
		}
		/* samples per run scale with the load; shares do not */
		set_threshold(s, samples || !s->ans.target.measure_share);
		release_cuts(s, cut);
		return 0;
	}
	/*
	 * CPU time rose (the confirm step said so) but no share did: the
	 * program slowed evenly, or its dominant function could gain no share.
	 * The CPU time itself is bisected on; off-CPU is only suggested when
	 * the CPU time did not rise and the wall time did (session.c).
	 */
	if (s->req.metric == FLAME_METRIC_CPU) {
		metric_as_target(s);
		char g[32], b[32];

		set_threshold(s, 1);
		note("diff: the CPU time rose (%s -> %s per run) but no function's share rose "
		     "by %.1f points: the program slowed evenly; bisecting on the CPU time itself",
		     numfmt_str(g, sizeof(g), s->ans.target.share[0], flame_metric_unit(s->req.metric), 0),
		     numfmt_str(b, sizeof(b), s->ans.target.share[1], flame_metric_unit(s->req.metric), 0),
		     100 * s->req.confirm);
		return 0;
	}
	{
		metric_as_target(s);
		set_threshold(s, metric_is_time(s));
		if (s->ans.target.blocked_function) {
			char *shown = escape_term_dup(s->ans.target.blocked_function);

			note("diff: bisecting on %s itself (the workload's off-CPU time), the commits "
			     "that touched %s first", flame_metric_name(s->req.metric), shown);
			free(shown);
		} else if (s->req.metric == FLAME_METRIC_OFFCPU)
			note("diff: %s; bisecting on %s itself", s->ans.ends.offcpu_profile ?
			     "the off-CPU profiles name no function" :
			     "CPU samples cannot measure off-CPU time",
			     flame_metric_name(s->req.metric));
		else if (flame_metric_counts_memory(s->req.metric, s->req.profiler))
			note("diff: no function's share of the %s profiles rose by %.1f points; "
			     "bisecting on %s itself", s->req.metric == FLAME_METRIC_RSS ?
			     "page-fault" : "allocation-site", 100 * s->req.confirm,
			     flame_metric_name(s->req.metric));
		else if (flame_metric_deterministic(s->req.metric))
			/* counts cannot go off-CPU: the change is spread thin, or below the points */
			note("diff: no function's share of the %s profiles rose by %.1f points (a "
			     "change smaller than that, or spread over many functions); bisecting on "
			     "%s itself", flame_metric_name(s->req.metric), 100 * s->req.confirm,
			     flame_metric_name(s->req.metric));
		else
			note("diff: the CPU profile is flat (no function's share rose by %.1f points): "
			     "the time went off-CPU; bisecting on %s itself",
			     100 * s->req.confirm, flame_metric_name(s->req.metric));
		return 0;
	}
}
