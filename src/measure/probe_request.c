/*
 * probe_request.c - the probe request's one table (see probe_request.h):
 * each field once, with its option, kind, offset and help.  The writer
 * walks it in the reproduce line's order, the reader builds its option
 * table from it in --help order; both go through a field's raw value (what
 * parse_options() stores: a word, a whole number, a double, a flag).
 */
#include "measure/probe_request.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A field's value as parse_options() stores it. */
union raw_value {
	const char *s;
	uint64_t u;
	double d;
	int flag;
};

struct field {
	int kind;		/* FLAME_PROBE_FIELD_* */
	short short_name;	/* 0: none */
	const char *name;	/* long option; NULL for the local fields */
	size_t offset, size;
	int always;		/* a number written even when 0 (words: when not NULL) */
	const char *argh, *help;
	double min, max;	/* numbers' accepted range */
};

#define F(kind, s, name, member, always, argh, help, lo, hi) \
	{ FLAME_PROBE_FIELD_##kind, (s), (name), offsetof(struct flame_probe_request, member), \
	  sizeof(((struct flame_probe_request *)0)->member), (always), (argh), (help), (lo), (hi) }

/* In the reproduce line's order (a reader of old reports finds it as it was). */
static const struct field fields[] = {
	F(STRING, 0, "rev", rev, 1, "REV", "commit to probe (default HEAD; BISECT_HEAD under --no-checkout)", 0, 0),
	F(STRING, 0, "log", log, 0, "FILE", "append the result to FILE", 0, 0),
	F(STRING, 0, "build", build_cmd, 1, "CMD", "build command (sh -c, in the worktree)", 0, 0),
	F(STRING, 0, "run", run_cmd, 1, "CMD", "workload command (sh -c, in the worktree)", 0, 0),
	F(DOUBLE, 0, "threshold", threshold, 1, "X", "slow above X (share as a fraction, or metric unit)", 0, 1e300),
	F(UINT, 0, "runs", runs, 1, "N", "runs in the first window (default 3)", 1, 1000),
	F(UINT, 0, "max-runs", max_runs, 1, "N", "runs before answering skip (default 9)", 1, 1000),
	F(UINT, 'F', "freq", freq, 1, "HZ", "sampling frequency (default 999)", 1, 100000),
	F(ULL, 0, "alloc-interval", alloc_interval, 0, "BYTES", "alloc, peak-heap: one sampled allocation per BYTES (default 65536)", 1, 1099511627776.0),
	F(PERCENT, 0, "discard", discard, 1, "PERCENT", "drop the first part of each run's samples (default 10)", 0, 90),
	F(DOUBLE, 0, "confidence", confidence, 1, "P", "decide only at this confidence (default 0.95)", 0.5, 0.9999),
	F(METRIC, 0, "metric", metric, 1, NULL, "measure this metric when no --function", 0, 0),
	F(FLAG, 0, "offcpu-profile", offcpu, 0, NULL, "--metric offcpu: measure --function in off-CPU profiles (trail flame sets it when they can be recorded)", 0, 0),
	F(DOUBLE, 0, "percentile", percentile, 1, "P", "metric: compare this percentile of the runs (default 50, the median)", 1, 99.9),
	F(MEASURE, 0, "measure", measure, 1, "WHAT", "share (default: self share among samples outside --exclude), samples (self samples per run), total-share, total-samples, time (self share times the run's CPU time, ms), total-time, lib-share, lib-samples, lib-time (self with the library and kernel code under it)", 0, 0),
	F(PROFILER, 0, "profiler", profiler, 1, "NAME", "auto (trail record), trail, perf, or a command writing $TRAIL_PROFILE", 0, 0),
	F(DOUBLE, 0, "timeout", run_timeout, 1, "SECONDS", "a run that takes longer is killed and the probe skips (default 300, 0 = none)", 0, 1e9),
	F(DOUBLE, 0, "build-timeout", build_timeout, 1, "SECONDS", "a build that takes longer is killed and counts as failed (default 600, 0 = none)", 0, 1e9),
	F(STRING, 0, "function", function, 0, "NAME", "measure this function's share of samples", 0, 0),
	F(LIST, 0, "exclude", exclude, 0, "NAME", "leave samples whose leaf is NAME out of the share (repeatable)", 0, 0),
	F(STRING, 'C', NULL, clone, 0, "DIR", "the trail flame clone (default: current directory)", 0, 0),
	F(FLAG, 0, "json", json, 0, NULL, "print the result as one line of JSON on stdout (trail flame --hosts reads it)", 0, 0),
	F(LOCAL, 0, NULL, pad_, 0, NULL, NULL, 0, 0),
	F(LOCAL, 0, NULL, scratch, 0, NULL, NULL, 0, 0),
	F(LOCAL, 0, NULL, trail_exe, 0, NULL, NULL, 0, 0),
};
#undef F
#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

/* --help's order (as before the table): the question first, then the knobs. */
static const char *const help_order[] = {
	"build", "run", "function", "measure", "exclude", "metric", "offcpu-profile", "threshold",
	"rev", "C", "runs", "max-runs", "freq", "alloc-interval", "discard", "percentile",
	"confidence", "log", "json", "profiler", "timeout", "build-timeout", NULL
};

static const char *const measures[] = { "share", "samples", "total-share", "total-samples",
					"time", "total-time", "lib-share", "lib-samples", "lib-time" };

const char *flame_measure_name(enum flame_measure m)
{
	return (size_t)m < sizeof(measures) / sizeof(measures[0]) ? measures[m] : measures[0];
}

int flame_measure_total(enum flame_measure m)
{
	return m == FLAME_MEASURE_TOTAL_SHARE || m == FLAME_MEASURE_TOTAL_SAMPLES ||
	       m == FLAME_MEASURE_TOTAL_TIME;
}

int flame_measure_time(enum flame_measure m)
{
	return m == FLAME_MEASURE_TIME || m == FLAME_MEASURE_TOTAL_TIME || m == FLAME_MEASURE_LIB_TIME;
}

int flame_measure_share(enum flame_measure m)
{
	return m == FLAME_MEASURE_SHARE || m == FLAME_MEASURE_TOTAL_SHARE ||
	       m == FLAME_MEASURE_LIB_SHARE;
}

int flame_measure_lib(enum flame_measure m)
{
	return m == FLAME_MEASURE_LIB_SHARE || m == FLAME_MEASURE_LIB_SAMPLES ||
	       m == FLAME_MEASURE_LIB_TIME;
}

enum flame_measure flame_measure_of(int total, int share, int time, int lib)
{
	if (lib)
		return time ? FLAME_MEASURE_LIB_TIME : share ? FLAME_MEASURE_LIB_SHARE :
		       FLAME_MEASURE_LIB_SAMPLES;
	if (time)
		return total ? FLAME_MEASURE_TOTAL_TIME : FLAME_MEASURE_TIME;
	if (total)
		return share ? FLAME_MEASURE_TOTAL_SHARE : FLAME_MEASURE_TOTAL_SAMPLES;
	return share ? FLAME_MEASURE_SHARE : FLAME_MEASURE_SAMPLES;
}

int flame_profiler_parse(const char *p, const char **out)
{
	if (!strcmp(p, "auto") || !strcmp(p, "trail")) {
		*out = "trail";
		return 0;
	}
	if (!strcmp(p, "perf")) {
		*out = "perf";
		return 0;
	}
	if (flame_profiler_is_command(p)) {
		*out = p;	/* the user's own: it writes $TRAIL_PROFILE */
		return 0;
	}
	return trail_error("unknown profiler '%s' (auto, trail, perf, or a command that writes "
			   "$TRAIL_PROFILE)", p);
}

void flame_probe_request_init(struct flame_probe_request *r)
{
	memset(r, 0, sizeof(*r));
	r->rev = "HEAD";
	r->profiler = "trail";
	r->threshold = -1;	/* required: the reader refuses a request without one */
	r->runs = 3;
	r->max_runs = 9;
	r->freq = 999;
	r->discard = 0.1;
	r->confidence = 0.95;
	r->percentile = 50;
	r->run_timeout = 300;
	r->build_timeout = 600;
	r->metric = FLAME_METRIC_CPU;
	r->measure = FLAME_MEASURE_SHARE;
}

static void *at(const struct flame_probe_request *r, const struct field *f)
{
	return (char *)r + f->offset;
}

/* The field's value as the reader's option stores it. */
static union raw_value to_raw(const struct flame_probe_request *r, const struct field *f)
{
	union raw_value v;
	void *p = at(r, f);

	memset(&v, 0, sizeof(v));
	switch (f->kind) {
	case FLAME_PROBE_FIELD_STRING:
	case FLAME_PROBE_FIELD_PROFILER:
		v.s = *(const char **)p;
		break;
	case FLAME_PROBE_FIELD_DOUBLE:
		v.d = *(double *)p;
		break;
	case FLAME_PROBE_FIELD_PERCENT:
		v.d = 100 * *(double *)p;
		break;
	case FLAME_PROBE_FIELD_ULL:
		v.u = *(unsigned long long *)p;
		break;
	case FLAME_PROBE_FIELD_UINT:
		v.u = *(unsigned *)p;
		break;
	case FLAME_PROBE_FIELD_METRIC:
		v.s = flame_metric_name(*(enum flame_metric *)p);
		break;
	case FLAME_PROBE_FIELD_MEASURE:
		v.s = flame_measure_name(*(enum flame_measure *)p);
		break;
	case FLAME_PROBE_FIELD_FLAG:
		v.flag = *(int *)p;
		break;
	}
	return v;
}

/* The raw value into the field; 0, or -1 with an error (a bad word). */
static int from_raw(struct flame_probe_request *r, const struct field *f, union raw_value v)
{
	void *p = at(r, f);
	size_t i;

	switch (f->kind) {
	case FLAME_PROBE_FIELD_STRING:
		*(const char **)p = v.s;
		break;
	case FLAME_PROBE_FIELD_PROFILER:
		return flame_profiler_parse(v.s, (const char **)p);
	case FLAME_PROBE_FIELD_DOUBLE:
		*(double *)p = v.d;
		break;
	case FLAME_PROBE_FIELD_PERCENT:
		*(double *)p = v.d / 100;
		break;
	case FLAME_PROBE_FIELD_ULL:
		*(unsigned long long *)p = v.u;
		break;
	case FLAME_PROBE_FIELD_UINT:
		*(unsigned *)p = (unsigned)v.u;	/* range-checked by the option */
		break;
	case FLAME_PROBE_FIELD_METRIC:
		return flame_metric_parse(v.s, (enum flame_metric *)p);
	case FLAME_PROBE_FIELD_MEASURE:
		for (i = 0; i < sizeof(measures) / sizeof(measures[0]); i++)
			if (!strcmp(v.s, measures[i])) {
				*(enum flame_measure *)p = (enum flame_measure)i;
				return 0;
			}
		return trail_error("--measure must be samples, share, total-samples, total-share, time, total-time, lib-share, lib-samples or lib-time");
	case FLAME_PROBE_FIELD_FLAG:
		*(int *)p = v.flag;
		break;
	}
	return 0;
}

/*
 * The shortest %g text (of 15 digits or more: %g writes 3e+02 for 300 at
 * one) that reads back through the field's kind as the very value: 0.95,
 * not 0.94999999999999996, and --discard 7 for 0.07, not 7.000000000000001
 * (people read the reproduce line).
 */
static void format_double(char *buf, size_t n, const struct field *f, double v)
{
	struct flame_probe_request r, back;
	union raw_value raw;
	int prec;

	memset(&r, 0, sizeof(r));
	memset(&back, 0, sizeof(back));
	*(double *)at(&r, f) = v;
	raw = to_raw(&r, f);
	for (prec = 15; prec < 17; prec++) {	/* %.15g: 300, not 3e+02 */
		union raw_value text;

		snprintf(buf, n, "%.*g", prec, raw.d);
		text.d = strtod(buf, NULL);
		from_raw(&back, f, text);
		if (*(double *)at(&back, f) == v)
			return;
	}
	snprintf(buf, n, "%.17g", raw.d);
}

/* The option as written: its short form when it has one (-F 999, -C DIR). */
static void add_option(struct string_list *out, const struct field *f)
{
	char name[64];

	if (f->short_name)
		snprintf(name, sizeof(name), "-%c", f->short_name);
	else
		snprintf(name, sizeof(name), "--%s", f->name);
	string_list_append(out, name);
}

void flame_probe_request_argv(const struct flame_probe_request *r, const char *exe,
			      struct string_list *out)
{
	size_t i, k;

	string_list_append(out, exe);
	string_list_append(out, "flame");
	string_list_append(out, "probe");
	for (i = 0; i < NR_FIELDS; i++) {
		const struct field *f = &fields[i];
		union raw_value v = to_raw(r, f);
		char buf[64];

		switch (f->kind) {
		case FLAME_PROBE_FIELD_LOCAL:
			break;
		case FLAME_PROBE_FIELD_LIST: {
			const struct string_list *l = *(const struct string_list **)at(r, f);

			for (k = 0; l && k < l->nr; k++) {
				add_option(out, f);
				string_list_append(out, l->items[k]);
			}
			break;
		}
		case FLAME_PROBE_FIELD_FLAG:
			if (v.flag)
				add_option(out, f);
			break;
		case FLAME_PROBE_FIELD_DOUBLE:
		case FLAME_PROBE_FIELD_PERCENT:
			format_double(buf, sizeof(buf), f, *(double *)at(r, f));
			add_option(out, f);
			string_list_append(out, buf);
			break;
		case FLAME_PROBE_FIELD_ULL:
		case FLAME_PROBE_FIELD_UINT:
			if (!v.u && !f->always)
				break;
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v.u);
			add_option(out, f);
			string_list_append(out, buf);
			break;
		default:	/* words */
			if (!v.s)
				break;
			add_option(out, f);
			string_list_append(out, v.s);
			break;
		}
	}
}

static enum option_type option_type(int kind)
{
	switch (kind) {
	case FLAME_PROBE_FIELD_LIST:
		return OPTION_STRING_LIST;
	case FLAME_PROBE_FIELD_DOUBLE:
	case FLAME_PROBE_FIELD_PERCENT:
		return OPTION_DOUBLE;
	case FLAME_PROBE_FIELD_ULL:
	case FLAME_PROBE_FIELD_UINT:
		return OPTION_U64;
	case FLAME_PROBE_FIELD_FLAG:
		return OPTION_FLAG;
	default:
		return OPTION_STRING;
	}
}

static const struct field *field_named(const char *name)
{
	size_t i;

	for (i = 0; i < NR_FIELDS; i++)
		if (fields[i].name ? !strcmp(fields[i].name, name)
				   : fields[i].short_name && name[0] == fields[i].short_name && !name[1])
			return &fields[i];
	return NULL;
}

/* Field k as the reader's option o, over raw[k]. */
static void reader_option(struct flame_probe_reader *rd, size_t k, struct option *o)
{
	const struct field *f = &fields[k];
	union raw_value *raw = rd->raw;

	raw[k] = to_raw(&rd->req, f);
	o->type = option_type(f->kind);
	o->short_name = f->short_name;
	o->long_name = f->name;
	o->value = f->kind == FLAME_PROBE_FIELD_LIST ? (void *)&rd->exclude :
		   f->kind == FLAME_PROBE_FIELD_FLAG ? (void *)&raw[k].flag :
		   o->type == OPTION_U64 ? (void *)&raw[k].u :
		   o->type == OPTION_DOUBLE ? (void *)&raw[k].d : (void *)&raw[k].s;
	o->argh = f->kind == FLAME_PROBE_FIELD_METRIC ? flame_metric_names("|", 0) : f->argh;
	o->help = f->help;
	o->min = f->min;
	o->max = f->max;
	o->defval = 1;
}

void flame_probe_reader_init(struct flame_probe_reader *rd)
{
	unsigned char placed[NR_FIELDS];
	size_t i, k, n = 0;

	memset(rd, 0, sizeof(*rd));
	memset(placed, 0, sizeof(placed));
	flame_probe_request_init(&rd->req);
	rd->raw = xcalloc(NR_FIELDS, sizeof(union raw_value));
	rd->opts = xcalloc(NR_FIELDS + 1, sizeof(*rd->opts));
	for (i = 0; help_order[i]; i++) {
		const struct field *f = field_named(help_order[i]);

		if (f && !placed[k = (size_t)(f - fields)]) {
			reader_option(rd, k, &rd->opts[n++]);
			placed[k] = 1;
		}
	}
	/* a field help_order forgot is still read, listed last */
	for (k = 0; k < NR_FIELDS; k++)
		if (!placed[k] && fields[k].kind != FLAME_PROBE_FIELD_LOCAL)
			reader_option(rd, k, &rd->opts[n++]);
	rd->opts[n].type = OPTION_END;
}

int flame_probe_reader_finish(struct flame_probe_reader *rd)
{
	union raw_value *raw = rd->raw;
	size_t i;

	for (i = 0; i < NR_FIELDS; i++) {
		const struct field *f = &fields[i];

		if (f->kind == FLAME_PROBE_FIELD_LOCAL)
			continue;
		if (f->kind == FLAME_PROBE_FIELD_LIST)
			*(const struct string_list **)at(&rd->req, f) = &rd->exclude;
		else if (from_raw(&rd->req, f, raw[i]))
			return -1;
	}
	if (!rd->req.build_cmd || !rd->req.run_cmd || rd->req.threshold < 0)
		return trail_error("--build, --run and --threshold are required");
	if (rd->req.offcpu && rd->req.metric != FLAME_METRIC_OFFCPU)
		return trail_error("--offcpu-profile goes with --metric offcpu");
	if (rd->req.max_runs < rd->req.runs)
		rd->req.max_runs = rd->req.runs;
	return 0;
}

void flame_probe_reader_release(struct flame_probe_reader *rd)
{
	string_list_clear(&rd->exclude);
	free(rd->opts);
	free(rd->raw);
	memset(rd, 0, sizeof(*rd));
}

int flame_probe_request_read(int argc, const char **argv, const char *const *usage,
			     struct flame_probe_reader *rd)
{
	int n = parse_options(argc, argv, rd->opts, usage, 0);

	if (n < 0)
		return -1;
	if (n > 0)
		return trail_error("unexpected argument '%s'", argv[0]);
	return flame_probe_reader_finish(rd);
}

void flame_probe_request_capture(const struct flame_probe_request *r,
				 struct flame_capture_opts *cap)
{
	memset(cap, 0, sizeof(*cap));
	cap->run_cmd = r->run_cmd;
	cap->freq = r->freq;
	cap->discard = r->discard;
	cap->timeout = r->run_timeout;
	flame_metric_capture(r->metric, r->offcpu, r->profiler, cap);
	cap->alloc_interval = r->alloc_interval;
	cap->scratch = r->scratch;
	cap->profiler = r->profiler;
	cap->trail_exe = r->trail_exe;
}

size_t flame_probe_fields(const struct flame_probe_field_info **out)
{
	static struct flame_probe_field_info info[NR_FIELDS];
	size_t i;

	for (i = 0; i < NR_FIELDS; i++) {
		info[i].name = fields[i].name;
		info[i].short_name = fields[i].short_name;
		info[i].offset = fields[i].offset;
		info[i].size = fields[i].size;
		info[i].kind = fields[i].kind;
	}
	*out = info;
	return NR_FIELDS;
}
