/*
 * measure.c - build, run and profile one commit for trail history, and
 * the environment fingerprint: kernel (uname -r), CPU model
 * (/proc/cpuinfo), compiler ($CC --version, first line), $CFLAGS, the
 * build and run commands and the sampling setup.  A different fingerprint
 * starts a different series, so a faster CI runner never looks like a
 * speed-up.
 */
#include "history/measure.h"

#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/intern.h"
#include "core/progress.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#ifndef TRAIL_VERSION
#define TRAIL_VERSION "unknown"
#endif

static char *cpu_model(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *model = NULL, *p;

	if (!strbuf_read_file(&sb, "/proc/cpuinfo") && (p = strstr(sb.buf, "model name"))) {
		char *colon = strchr(p, ':'), *nl = strchr(p, '\n');

		if (colon && (!nl || colon < nl)) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			model = nl ? xstrndup(colon, (size_t)(nl - colon)) : xstrdup(colon);
		}
	}
	strbuf_release(&sb);
	return model ? model : xstrdup("");
}

static char *compiler_version(void)
{
	const char *cc = getenv("CC");
	const char *argv[] = { cc && *cc ? cc : "cc", "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *nl;

	c.argv = argv;
	c.err = CHILD_DEVNULL;
	c.in = CHILD_DEVNULL;
	if (child_capture(&c, &out)) {
		strbuf_release(&out);
		return xstrdup("");
	}
	nl = strchr(out.buf, '\n');
	if (nl)
		strbuf_setlen(&out, (size_t)(nl - out.buf));
	return strbuf_detach(&out, NULL);
}

void history_env_collect(struct history_env *env, const char *build, const char *run,
			 const char *profiler, double freq, double discard)
{
	struct utsname u;
	const char *cflags = getenv("CFLAGS");

	memset(env, 0, sizeof(*env));
	env->kernel = xstrdup(uname(&u) ? "" : u.release);
	env->cpu = cpu_model();
	env->compiler = build && *build ? compiler_version() : xstrdup("");
	env->cflags = xstrdup(cflags ? cflags : "");
	env->trail = xstrdup(TRAIL_VERSION);
	env->build = xstrdup(build ? build : "");
	env->run = xstrdup(run ? run : "");
	env->profiler = xstrdup(profiler ? profiler : "");
	env->freq = freq;
	env->discard = discard;
	history_env_set_key(env);
}

struct func_counts {
	struct intern names;
	double *self, *total;
	size_t alloc;
};

static uint32_t func_id(struct func_counts *fc, const char *s, size_t n)
{
	uint32_t id = intern_add(&fc->names, s, n, NULL);

	if (id >= fc->alloc) {
		size_t old = fc->alloc;

		fc->alloc = (id + 1) * 2;
		fc->self = xreallocarray(fc->self, fc->alloc, sizeof(double));
		fc->total = xreallocarray(fc->total, fc->alloc, sizeof(double));
		memset(fc->self + old, 0, (fc->alloc - old) * sizeof(double));
		memset(fc->total + old, 0, (fc->alloc - old) * sizeof(double));
	}
	return id;
}

/* Count one stack: its leaf's self, and each distinct frame's total once. */
static void count_stack(struct func_counts *fc, const char *stack, size_t len, double count)
{
	uint32_t seen[256];
	size_t nseen = 0, i, start = 0, k;

	for (i = 0; i <= len; i++) {
		uint32_t id;

		if (i < len && stack[i] != ';')
			continue;
		id = func_id(fc, stack + start, i - start);
		for (k = 0; k < nseen && seen[k] != id; k++)
			;
		if (k == nseen) {
			fc->total[id] += count;
			if (nseen < 256)
				seen[nseen++] = id;
		}
		if (i == len)
			fc->self[id] += count;
		start = i + 1;
	}
}

struct rank {
	uint32_t id;
	double v;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	if (x->v != y->v)
		return (x->v < y->v) - (x->v > y->v);
	return (x->id > y->id) - (x->id < y->id);
}

static int cmp_func(const void *a, const void *b)
{
	return strcmp(((const struct history_func *)a)->name, ((const struct history_func *)b)->name);
}

void history_result_set_functions(struct history_result *out, const struct folded_profile *p,
				  unsigned top, const struct string_list *keep)
{
	struct func_counts fc;
	struct rank *rk;
	unsigned char *chosen;
	size_t i, n, pass;

	memset(&fc, 0, sizeof(fc));
	intern_init(&fc.names);
	for (i = 0; i < p->stacks.nr; i++)
		count_stack(&fc, intern_str(&p->stacks, (uint32_t)i), intern_len(&p->stacks, (uint32_t)i),
			    p->counts[0][i]);
	n = fc.names.nr;
	rk = xmallocarray(n + 1, sizeof(*rk));
	chosen = xcalloc(n + 1, 1);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			rk[i].id = (uint32_t)i;
			rk[i].v = pass ? fc.total[i] : fc.self[i];
		}
		qsort(rk, n, sizeof(*rk), cmp_rank);
		for (i = 0; i < n && i < top; i++)
			if (rk[i].v > 0)
				chosen[rk[i].id] = 1;
	}
	for (i = 0; keep && i < keep->nr; i++) {
		uint32_t id = intern_find(&fc.names, keep->items[i], strlen(keep->items[i]));

		if (id != UINT32_MAX && id < n)
			chosen[id] = 1;
	}
	out->funcs = xmallocarray(n + 1, sizeof(*out->funcs));
	out->nfuncs = 0;
	for (i = 0; i < n; i++)
		if (chosen[i]) {
			struct history_func *f = &out->funcs[out->nfuncs++];

			f->name = xstrndup(intern_str(&fc.names, (uint32_t)i), intern_len(&fc.names, (uint32_t)i));
			f->self = fc.self[i];
			f->total = fc.total[i];
			f->run_self = NULL;
		}
	qsort(out->funcs, out->nfuncs, sizeof(*out->funcs), cmp_func);
	out->samples = p->total[0];
	free(rk);
	free(chosen);
	free(fc.self);
	free(fc.total);
	intern_release(&fc.names);
}

void history_result_set_run_counts(struct history_result *out, const struct folded_profile *runs,
				   size_t n)
{
	size_t i, k;

	if (!n)
		return;
	out->run_samples = xmallocarray(n, sizeof(double));
	out->nrun_samples = n;
	for (k = 0; k < out->nfuncs; k++)
		out->funcs[k].run_self = xcalloc(n, sizeof(double));
	for (i = 0; i < n; i++) {
		const struct folded_profile *p = &runs[i];
		struct func_counts fc;
		size_t j;

		memset(&fc, 0, sizeof(fc));
		intern_init(&fc.names);
		for (j = 0; j < p->stacks.nr; j++)
			count_stack(&fc, intern_str(&p->stacks, (uint32_t)j),
				    intern_len(&p->stacks, (uint32_t)j), p->counts[0][j]);
		out->run_samples[i] = p->total[0];
		for (k = 0; k < out->nfuncs; k++) {
			uint32_t id = intern_find(&fc.names, out->funcs[k].name, strlen(out->funcs[k].name));

			if (id != UINT32_MAX && id < fc.alloc)
				out->funcs[k].run_self[i] = fc.self[id];
		}
		free(fc.self);
		free(fc.total);
		intern_release(&fc.names);
	}
}

static void add_profile(struct folded_profile *into, const struct folded_profile *p)
{
	size_t i;

	for (i = 0; i < p->stacks.nr; i++)
		folded_profile_add(into, intern_str(&p->stacks, (uint32_t)i),
				   intern_len(&p->stacks, (uint32_t)i), 0, p->counts[0][i]);
}

static void release_each(struct history_measurement *m)
{
	size_t i;

	for (i = 0; i < m->nruns_each; i++)
		folded_profile_release(&m->each[i]);
	free(m->each);
	m->each = NULL;
	m->nruns_each = 0;
}

int history_measure_start(struct flame_repo *r, const char *id, const struct history_measure_opts *o,
			  struct history_measurement *m)
{
	struct history_result *out = &m->res;
	char desc[200];
	int cached, code;

	memset(m, 0, sizeof(*m));
	history_result_init(out);
	folded_profile_init(&m->pooled);
	/* stored with what a count stands for: trail diff then compares time or bytes */
	flame_profile_weight(&o->cap, &m->pooled.weight);
	snprintf(m->commit, sizeof(m->commit), "%s", id);
	out->time = clock_wall();
	out->metric = xstrdup(flame_metric_name(o->metric));
	out->unit = xstrdup(flame_metric_unit(o->metric));
	out->runs = xmallocarray(o->repeat + 1, sizeof(double));
	history_env_collect(&out->env, o->build_cmd, o->cap.run_cmd,
			    flame_profiler_describe(&o->cap, desc, sizeof(desc)), o->cap.freq,
			    o->cap.discard);
	if (o->bench)
		history_env_set_bench(&out->env, o->bench);
	code = flame_build(r, id, o->build_cmd, o->build_timeout, &m->dir, &cached);
	if (code < 0) {
		history_measurement_release(m);
		return -1;
	}
	if (code) {
		out->status = HISTORY_BUILD_FAILED;
		m->done = 1;
	}
	return 0;
}

int history_measure_run(const struct history_measure_opts *o, struct history_measurement *m)
{
	struct flame_run run;
	int code;

	if (m->done || m->res.nruns >= o->repeat)
		return 0;
	code = flame_capture_run(&o->cap, m->dir, &run);
	if (!code) {
		m->res.runs[m->res.nruns++] = flame_run_metric(&run, o->metric);
		add_profile(&m->pooled, &run.folded);
		if (run.folded.weight.weight != FOLDED_WEIGHT_SAMPLES || run.folded.weight.period > 0)
			m->pooled.weight = run.folded.weight;	/* the capture named its units */
		m->each = xreallocarray(m->each, m->nruns_each + 1, sizeof(*m->each));
		folded_profile_init(&m->each[m->nruns_each]);
		add_profile(&m->each[m->nruns_each++], &run.folded);
	}
	flame_run_release(&run);
	if (code > 0) {
		m->res.status = HISTORY_RUN_FAILED;
		m->res.nruns = 0;
		m->done = 1;
	}
	return code < 0 ? -1 : 0;
}

void history_measure_finish(const struct history_measure_opts *o, struct history_measurement *m)
{
	if (m->res.status == HISTORY_OK) {
		history_result_set_functions(&m->res, &m->pooled, o->top, o->keep);
		history_result_set_run_counts(&m->res, m->each, m->nruns_each);
		m->res.profiles = (double)m->res.nruns;
		if (o->on_profile)
			o->on_profile(o->ctx, m->commit, &m->res, &m->pooled);
	}
	release_each(m);
	folded_profile_release(&m->pooled);	/* leaves it empty: releasing again is harmless */
	free(m->dir);
	m->dir = NULL;
}

void history_measurement_release(struct history_measurement *m)
{
	release_each(m);
	history_result_release(&m->res);
	folded_profile_release(&m->pooled);
	free(m->dir);
	m->dir = NULL;
}

int history_measure(struct flame_repo *r, const char *id, const struct history_measure_opts *o,
		    struct history_result *out)
{
	struct history_measurement m;
	unsigned i;

	history_result_init(out);
	if (history_measure_start(r, id, o, &m))
		return -1;
	for (i = 0; i < o->repeat; i++)
		if (history_measure_run(o, &m))
			goto fail;
	history_measure_finish(o, &m);
	*out = m.res;
	return 0;
fail:
	history_measurement_release(&m);
	return -1;
}
