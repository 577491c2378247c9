/*
 * result.c - a commit's stored result and its one-line JSON form:
 *   {"v":1,"status":"ok","time":T,"metric":"cpu","unit":"us","runs":[..],
 *    "samples":N,"functions":[["name",self,total],..],"env":{..},
 *    "run_samples":[..],"run_self":[[..],..]}
 * The last two, each profiled run's samples and each function's self
 * samples in it (functions in order), came later: a note without them is
 * read as before.  Unknown members are ignored (a later trail may add
 * some); a member of the wrong type is an error naming the note.
 */
#include "history/result.h"

#include "stats/describe.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_writer.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = { "ok", "build-failed", "run-failed" };

const char *history_status_name(enum history_status s)
{
	return status_names[s];
}

void history_result_init(struct history_result *r)
{
	memset(r, 0, sizeof(*r));
}

void history_env_release(struct history_env *e)
{
	free(e->kernel);
	free(e->cpu);
	free(e->compiler);
	free(e->cflags);
	free(e->trail);
	free(e->build);
	free(e->run);
	free(e->profiler);
	free(e->bench);
	memset(e, 0, sizeof(*e));
}

void history_result_release(struct history_result *r)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++) {
		free(r->funcs[i].name);
		free(r->funcs[i].run_self);
	}
	free(r->funcs);
	free(r->run_samples);
	free(r->runs);
	free(r->metric);
	free(r->unit);
	history_env_release(&r->env);
	memset(r, 0, sizeof(*r));
}

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

static double *copy_doubles(const double *x, size_t n)
{
	double *y;

	if (!x)
		return NULL;
	y = xmallocarray(n + 1, sizeof(double));
	if (n)
		memcpy(y, x, n * sizeof(double));
	return y;
}

void history_result_copy(struct history_result *dst, const struct history_result *src)
{
	size_t i;

	*dst = *src;
	dst->metric = dup_or_empty(src->metric);
	dst->unit = dup_or_empty(src->unit);
	dst->runs = xmallocarray(src->nruns + 1, sizeof(double));
	if (src->nruns)
		memcpy(dst->runs, src->runs, src->nruns * sizeof(double));
	dst->funcs = xmallocarray(src->nfuncs + 1, sizeof(*dst->funcs));
	for (i = 0; i < src->nfuncs; i++) {
		dst->funcs[i] = src->funcs[i];
		dst->funcs[i].name = xstrdup(src->funcs[i].name);
		dst->funcs[i].run_self = copy_doubles(src->funcs[i].run_self, src->nrun_samples);
	}
	dst->run_samples = copy_doubles(src->run_samples, src->nrun_samples);
	dst->env.kernel = dup_or_empty(src->env.kernel);
	dst->env.cpu = dup_or_empty(src->env.cpu);
	dst->env.compiler = dup_or_empty(src->env.compiler);
	dst->env.cflags = dup_or_empty(src->env.cflags);
	dst->env.trail = dup_or_empty(src->env.trail);
	dst->env.build = dup_or_empty(src->env.build);
	dst->env.run = dup_or_empty(src->env.run);
	dst->env.profiler = dup_or_empty(src->env.profiler);
	dst->env.bench = dup_or_empty(src->env.bench);
}

static void fnv_add(uint64_t *h, const char *s)
{
	for (s = s ? s : ""; *s; s++)
		*h = (*h ^ (unsigned char)*s) * 0x100000001b3ULL;
	*h = (*h ^ 0xff) * 0x100000001b3ULL;	/* field separator */
}

void history_env_set_key(struct history_env *e)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char num[64];

	fnv_add(&h, e->kernel);
	fnv_add(&h, e->cpu);
	fnv_add(&h, e->compiler);
	fnv_add(&h, e->cflags);
	fnv_add(&h, e->build);
	fnv_add(&h, e->run);
	fnv_add(&h, e->profiler);
	snprintf(num, sizeof(num), "%.17g/%.17g", e->freq, e->discard);
	fnv_add(&h, num);
	if (e->bench && *e->bench)	/* only then: the keys of notes without benches stay */
		fnv_add(&h, e->bench);
	snprintf(e->key, sizeof(e->key), "%016llx", (unsigned long long)h);
}

void history_env_set_bench(struct history_env *e, const char *bench)
{
	free(e->bench);
	e->bench = xstrdup(bench ? bench : "");
	history_env_set_key(e);
}

/*
 * A measured number as a note keeps it: a whole number exactly (counts,
 * instructions), a fraction to 12 significant digits - the last digits of
 * a unit's conversion (137193.99999999997 us for 137.194 ms) are float
 * noise, not measurement, and a note is read by people too.
 */
static void write_measured(struct json_writer *w, double v)
{
	char buf[32];

	if (isfinite(v) && v != floor(v)) {
		snprintf(buf, sizeof(buf), "%.12g", v);
		v = strtod(buf, NULL);
	}
	json_writer_number(w, v);
}

static void write_numbers(struct json_writer *w, const double *x, size_t n)
{
	size_t i;

	json_writer_begin_array(w);
	for (i = 0; i < n; i++)
		write_measured(w, x[i]);
	json_writer_end(w);
}

void history_result_write(const struct history_result *r, struct strbuf *out)
{
	struct json_writer w;
	size_t i;

	json_writer_init(&w, out, JSON_WRITER_COMPACT);
	json_writer_begin_object(&w);
	json_writer_key_int(&w, "v", HISTORY_NOTE_VERSION);
	json_writer_key_string(&w, "status", history_status_name(r->status));
	json_writer_key_number(&w, "time", r->time);
	json_writer_key_string(&w, "metric", r->metric);
	json_writer_key_string(&w, "unit", r->unit);
	json_writer_key(&w, "runs");
	write_numbers(&w, r->runs, r->nruns);
	json_writer_key(&w, "samples");
	write_measured(&w, r->samples);
	json_writer_key_number(&w, "profiles", r->profiles);
	json_writer_key(&w, "functions");
	json_writer_begin_array(&w);
	for (i = 0; i < r->nfuncs; i++) {
		json_writer_begin_array(&w);
		json_writer_string(&w, r->funcs[i].name);
		write_measured(&w, r->funcs[i].self);
		write_measured(&w, r->funcs[i].total);
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_key(&w, "env");
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "key", r->env.key);
	json_writer_key_string(&w, "kernel", r->env.kernel);
	json_writer_key_string(&w, "cpu", r->env.cpu);
	json_writer_key_string(&w, "cc", r->env.compiler);
	json_writer_key_string(&w, "cflags", r->env.cflags);
	json_writer_key_string(&w, "trail", r->env.trail);
	json_writer_key_string(&w, "build", r->env.build);
	json_writer_key_string(&w, "run", r->env.run);
	json_writer_key_string(&w, "profiler", r->env.profiler);
	json_writer_key_number(&w, "freq", r->env.freq);
	json_writer_key_number(&w, "discard", r->env.discard);
	if (r->env.bench && *r->env.bench)
		json_writer_key_string(&w, "bench", r->env.bench);
	json_writer_end(&w);
	if (r->run_samples) {
		json_writer_key(&w, "run_samples");
		write_numbers(&w, r->run_samples, r->nrun_samples);
		json_writer_key(&w, "run_self");
		json_writer_begin_array(&w);
		for (i = 0; i < r->nfuncs; i++)
			write_numbers(&w, r->funcs[i].run_self,
				      r->funcs[i].run_self && r->funcs[i].self > 0 ? r->nrun_samples : 0);
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_release(&w);
}

/* A string member, or "" when absent; -1 when it is not a string. */
static int get_string(const struct json_value *o, const char *key, char **out, const char *name)
{
	const struct json_value *v = json_get(o, key);

	if (!v || v->type == JSON_NULL) {
		*out = xstrdup("");
		return 0;
	}
	if (v->type != JSON_STRING)
		return trail_error("%s: '%s' is not a string", name, key);
	*out = xstrdup(v->string);
	return 0;
}

static int get_number(const struct json_value *o, const char *key, double *out, const char *name)
{
	const struct json_value *v = json_get(o, key);

	*out = 0;
	if (!v || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_NUMBER)
		return trail_error("%s: '%s' is not a number", name, key);
	*out = v->number;
	return 0;
}

static int parse_env(const struct json_value *e, const char *name, struct history_env *env)
{
	char *key = NULL;
	int ret = -1;

	if (!e || e->type != JSON_OBJECT)
		return trail_error("%s: no 'env' object", name);
	if (get_string(e, "key", &key, name) || get_string(e, "kernel", &env->kernel, name) ||
	    get_string(e, "cpu", &env->cpu, name) || get_string(e, "cc", &env->compiler, name) ||
	    get_string(e, "cflags", &env->cflags, name) || get_string(e, "trail", &env->trail, name) ||
	    get_string(e, "build", &env->build, name) || get_string(e, "run", &env->run, name) ||
	    get_string(e, "profiler", &env->profiler, name) ||
	    get_string(e, "bench", &env->bench, name) ||
	    get_number(e, "freq", &env->freq, name) || get_number(e, "discard", &env->discard, name))
		goto out;
	if (strlen(key) != 16 || strspn(key, "0123456789abcdef") != 16) {
		trail_error("%s: environment key '%s' is not 16 hex digits", name, key);
		goto out;
	}
	memcpy(env->key, key, sizeof(env->key));
	ret = 0;
out:
	free(key);
	return ret;
}

static int parse_funcs(const struct json_value *f, const char *name, struct history_result *r)
{
	size_t i;

	if (!f)
		return 0;
	if (f->type != JSON_ARRAY)
		return trail_error("%s: 'functions' is not an array", name);
	r->funcs = xmallocarray(f->len + 1, sizeof(*r->funcs));
	for (i = 0; i < f->len; i++) {
		const struct json_value *e = &f->items[i];

		if (e->type != JSON_ARRAY || e->len != 3 || e->items[0].type != JSON_STRING ||
		    e->items[1].type != JSON_NUMBER || e->items[2].type != JSON_NUMBER)
			return trail_error("%s: function %zu is not [name, self, total]", name, i + 1);
		r->funcs[i].name = xstrdup(e->items[0].string);
		r->funcs[i].self = e->items[1].number;
		r->funcs[i].total = e->items[2].number;
		r->funcs[i].run_self = NULL;
		r->nfuncs++;
	}
	return 0;
}

/* An array of n numbers (n == SIZE_MAX: any length, set) into a new *out. */
static int get_numbers(const struct json_value *a, size_t *n, double **out)
{
	size_t i;

	if (a->type != JSON_ARRAY || (*n != SIZE_MAX && a->len != *n))
		return -1;
	*n = a->len;
	*out = xmallocarray(a->len + 1, sizeof(double));
	for (i = 0; i < a->len; i++) {
		if (a->items[i].type != JSON_NUMBER)
			return -1;
		(*out)[i] = a->items[i].number;
	}
	return 0;
}

/* run_samples and run_self (optional; both or neither), after the functions. */
static int parse_run_counts(const struct json_value *o, const char *name, struct history_result *r)
{
	const struct json_value *rs = json_get(o, "run_samples"), *self = json_get(o, "run_self");
	size_t i, n = SIZE_MAX;

	if ((!rs || rs->type == JSON_NULL) && (!self || self->type == JSON_NULL))
		return 0;
	if (!rs || !self || get_numbers(rs, &n, &r->run_samples))
		return trail_error("%s: 'run_samples' is not an array of numbers beside 'run_self'", name);
	r->nrun_samples = n;
	if (self->type != JSON_ARRAY || self->len != r->nfuncs)
		return trail_error("%s: 'run_self' does not hold one array per function", name);
	for (i = 0; i < r->nfuncs; i++) {
		size_t m = self->items[i].type == JSON_ARRAY && !self->items[i].len ? 0 : n;

		if (!m)
			continue;	/* a function without per-run counts */
		if (get_numbers(&self->items[i], &m, &r->funcs[i].run_self))
			return trail_error("%s: run_self of function %zu is not %zu numbers", name, i + 1, n);
	}
	return 0;
}

static int parse_object(const struct json_value *o, const char *name, struct history_result *r)
{
	const struct json_value *v = json_get(o, "v"), *runs = json_get(o, "runs");
	char *status = NULL;
	size_t i;
	int ret = -1;

	if (o->type != JSON_OBJECT)
		return trail_error("%s: not a JSON object", name);
	if (!v || v->type != JSON_NUMBER || v->number != HISTORY_NOTE_VERSION)
		return trail_error("%s: not a trail history result of version %d", name,
				   HISTORY_NOTE_VERSION);
	if (get_string(o, "status", &status, name) || get_number(o, "time", &r->time, name) ||
	    get_string(o, "metric", &r->metric, name) || get_string(o, "unit", &r->unit, name) ||
	    get_number(o, "samples", &r->samples, name) ||
	    get_number(o, "profiles", &r->profiles, name))
		goto out;
	for (i = 0; i < 3 && strcmp(status, status_names[i]); i++)
		;
	if (i == 3) {
		trail_error("%s: unknown status '%s'", name, status);
		goto out;
	}
	r->status = (enum history_status)i;
	if (runs && runs->type != JSON_ARRAY) {
		trail_error("%s: 'runs' is not an array", name);
		goto out;
	}
	r->runs = xmallocarray(runs ? runs->len + 1 : 1, sizeof(double));
	for (i = 0; runs && i < runs->len; i++) {
		if (runs->items[i].type != JSON_NUMBER) {
			trail_error("%s: run %zu is not a number", name, i + 1);
			goto out;
		}
		r->runs[r->nruns++] = runs->items[i].number;
	}
	if (parse_funcs(json_get(o, "functions"), name, r) ||
	    parse_run_counts(o, name, r) || parse_env(json_get(o, "env"), name, &r->env))
		goto out;
	ret = 0;
out:
	free(status);
	return ret;
}

int history_result_parse(const char *line, size_t len, const char *name, struct history_result *r)
{
	struct json_value v;
	int ret;

	history_result_init(r);
	if (json_parse(line, len, name, &v))
		return -1;
	ret = parse_object(&v, name, r);
	json_release(&v);
	if (ret)
		history_result_release(r);
	return ret;
}

double history_result_count(const struct history_result *r, const char *func, int total)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++)
		if (!strcmp(r->funcs[i].name, func))
			return total ? r->funcs[i].total : r->funcs[i].self;
	return 0;
}

int history_result_median(const struct history_result *r, double *med, double *lo, double *hi)
{
	if (!r->nruns)
		return -1;
	*med = stats_median(r->runs, r->nruns);
	return stats_median_ci(r->runs, r->nruns, 0.95, lo, hi);
}
