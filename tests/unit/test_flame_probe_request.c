/*
 * test_flame_probe_request.c - the probe request's one serialised form
 * (measure/probe_request.h): read(write(r)) == r for every field of the
 * table, every byte of the struct owned by exactly one field (so a field
 * added without a table entry fails here), a session's request through its
 * command line, an old reproduce line read and written back word for word,
 * and the reader's refusals.
 */
#include "harness.h"
#include "core/strbuf.h"
#include "measure/probe_request.h"
#include "flame/session.h"
#include "flame/session_query.h"

#include <string.h>

static int field_equal(const struct flame_probe_field_info *f, const struct flame_probe_request *a,
		       const struct flame_probe_request *b)
{
	const char *pa = (const char *)a + f->offset, *pb = (const char *)b + f->offset;

	switch (f->kind) {
	case FLAME_PROBE_FIELD_STRING:
	case FLAME_PROBE_FIELD_PROFILER: {
		const char *sa = *(const char *const *)pa, *sb = *(const char *const *)pb;

		return sa && sb ? !strcmp(sa, sb) : sa == sb;
	}
	case FLAME_PROBE_FIELD_LIST: {
		const struct string_list *la = *(const struct string_list *const *)pa;
		const struct string_list *lb = *(const struct string_list *const *)pb;
		size_t na = la ? la->nr : 0, nb = lb ? lb->nr : 0, i;

		if (na != nb)
			return 0;
		for (i = 0; i < na; i++)
			if (strcmp(la->items[i], lb->items[i]))
				return 0;
		return 1;
	}
	default:	/* numbers, enums, flags: the very bits */
		return !memcmp(pa, pb, f->size);
	}
}

static const char *describe(const struct flame_probe_field_info *f, char *buf, size_t n)
{
	if (f->name)
		snprintf(buf, n, "--%s", f->name);
	else
		snprintf(buf, n, "-%c", f->short_name);
	return buf;
}

/* Read argv (as written: exe flame probe ...) into rd; 0 or -1. */
static int read_written(const struct string_list *argv, struct flame_probe_reader *rd)
{
	const char *words[64];
	size_t i;

	flame_probe_reader_init(rd);
	if (argv->nr - 2 > sizeof(words) / sizeof(words[0]))
		return -1;
	/* parse_options() takes argv[0] as the command's name ("probe") and moves words */
	for (i = 2; i < argv->nr; i++)
		words[i - 2] = argv->items[i];
	return flame_probe_request_read((int)argv->nr - 2, words, NULL, rd);
}

/* Every table field of b equals a's; returns how many fields were compared. */
static size_t compare_fields(const struct flame_probe_request *a, const struct flame_probe_request *b)
{
	const struct flame_probe_field_info *fields;
	size_t n = flame_probe_fields(&fields), i, compared = 0;
	char name[40];

	for (i = 0; i < n; i++) {
		if (fields[i].kind == FLAME_PROBE_FIELD_LOCAL)
			continue;
		compared++;
		if (!field_equal(&fields[i], a, b)) {
			fprintf(stderr, "    %s did not survive the round trip\n",
				describe(&fields[i], name, sizeof(name)));
			harness_failures_++;
		}
	}
	return compared;
}

TEST(every_byte_belongs_to_one_field)
{
	const struct flame_probe_field_info *fields;
	size_t n = flame_probe_fields(&fields), i, b;
	unsigned char owners[sizeof(struct flame_probe_request)];

	memset(owners, 0, sizeof(owners));
	for (i = 0; i < n; i++)
		for (b = fields[i].offset; b < fields[i].offset + fields[i].size && b < sizeof(owners); b++)
			owners[b]++;
	/* no padding either: a field missing from the table would hide in it */
	for (b = 0; b < sizeof(owners); b++)
		if (owners[b] != 1) {
			fprintf(stderr, "    byte %zu of struct flame_probe_request belongs to %u "
				"table fields (a field missing from probe_request.c's table?)\n",
				b, owners[b]);
			harness_failures_++;
			break;
		}
}

/* Each field a value that is not its default and reads back as itself. */
static void fill(struct flame_probe_request *r, struct string_list *exclude)
{
	const struct flame_probe_field_info *fields;
	size_t n = flame_probe_fields(&fields), i;
	struct flame_probe_request def;
	struct flame_probe_reader rd;

	flame_probe_request_init(&def);
	/* the ranges the reader accepts, from its own option table */
	flame_probe_reader_init(&rd);
	string_list_append(exclude, "sort");
	string_list_append(exclude, "std::vector<int>::push_back(int const&) 'x' $y");
	for (i = 0; i < n; i++) {
		const struct flame_probe_field_info *f = &fields[i];
		char *p = (char *)r + f->offset;
		const struct option *o;
		double lo = 0, hi = 0;

		for (o = rd.opts; o->type != OPTION_END; o++)
			if (f->name ? o->long_name && !strcmp(o->long_name, f->name)
				    : o->short_name == f->short_name) {
				lo = o->min;
				hi = o->max;
			}
		switch (f->kind) {
		case FLAME_PROBE_FIELD_STRING:
			*(const char **)p = f->name ? f->name : "clone dir/with 'quotes' and $HOME";
			if (f->name && !strcmp(f->name, "run"))
				*(const char **)p = "./app 'a b' \"$HOME\" it's; echo `x`";
			break;
		case FLAME_PROBE_FIELD_PROFILER:
			*(const char **)p = "my-prof --out \"$TRAIL_PROFILE\" $TRAIL_RUN";
			break;
		case FLAME_PROBE_FIELD_LIST:
			*(const struct string_list **)p = exclude;
			break;
		case FLAME_PROBE_FIELD_DOUBLE:
			/* an awkward value: 1/3 of the range needs all 17 digits */
			*(double *)p = lo + (hi - lo) / (3 + (double)i);
			break;
		case FLAME_PROBE_FIELD_PERCENT:
			*(double *)p = (lo + (hi - lo) / (3 + (double)i)) / 100;
			break;
		case FLAME_PROBE_FIELD_ULL:
			*(unsigned long long *)p = (unsigned long long)lo + 12345 + i;
			break;
		case FLAME_PROBE_FIELD_UINT:
			*(unsigned *)p = (unsigned)lo + 10 + (unsigned)i;	/* runs < max-runs */
			break;
		case FLAME_PROBE_FIELD_METRIC:
			*(enum flame_metric *)p = FLAME_METRIC_OFFCPU;	/* --offcpu-profile needs it */
			break;
		case FLAME_PROBE_FIELD_MEASURE:
			*(enum flame_measure *)p = FLAME_MEASURE_TOTAL_SAMPLES;
			break;
		case FLAME_PROBE_FIELD_FLAG:
			*(int *)p = 1;
			break;
		case FLAME_PROBE_FIELD_LOCAL:
			break;
		default:
			fprintf(stderr, "    field kind %d has no test value: add one here\n", f->kind);
			harness_failures_++;
		}
		if (f->kind != FLAME_PROBE_FIELD_LOCAL && field_equal(f, r, &def)) {
			fprintf(stderr, "    field %zu's test value is its default\n", i);
			harness_failures_++;
		}
	}
	flame_probe_reader_release(&rd);
}

TEST(every_field_round_trips)
{
	const struct flame_probe_field_info *fields;
	size_t n = flame_probe_fields(&fields), i, local = 0;
	struct flame_probe_request r;
	struct flame_probe_reader rd;
	struct string_list exclude = STRING_LIST_INIT, argv = STRING_LIST_INIT;

	memset(&r, 0, sizeof(r));
	fill(&r, &exclude);
	flame_probe_request_argv(&r, "trail", &argv);
	CHECK_INT(read_written(&argv, &rd), 0);
	for (i = 0; i < n; i++)
		local += fields[i].kind == FLAME_PROBE_FIELD_LOCAL;
	/* every field but the process's own (scratch, trail_exe, pad_) was compared */
	CHECK_INT(compare_fields(&r, &rd.req), n - local);
	CHECK_INT(local, 3);
	flame_probe_reader_release(&rd);
	string_list_clear(&argv);
	string_list_clear(&exclude);
}

TEST(defaults_round_trip)
{
	struct flame_probe_request r;
	struct flame_probe_reader rd;
	struct string_list argv = STRING_LIST_INIT;

	flame_probe_request_init(&r);
	r.build_cmd = "make";
	r.run_cmd = "./app";
	r.threshold = 0;
	flame_probe_request_argv(&r, "trail", &argv);
	CHECK_INT(read_written(&argv, &rd), 0);
	compare_fields(&r, &rd.req);
	flame_probe_reader_release(&rd);
	string_list_clear(&argv);
}

/* What the session asks its probes is what the command line tells them. */
TEST(session_request_round_trips)
{
	struct flame_session s;
	struct flame_probe_request r;
	struct flame_probe_reader rd;
	struct string_list argv = STRING_LIST_INIT;

	flame_session_init(&s);
	s.req.build_cmd = "make CFLAGS='-O2 -g'";
	s.req.run_cmd = "./app";
	s.req.profiler = "perf";
	s.req.metric = FLAME_METRIC_OFFCPU;
	s.req.discard = 7 / 100.0;	/* --discard 7, not 7.000000000000001 */
	s.req.alloc_interval = 4096;
	s.ans.ends.offcpu_profile = 1;
	s.ans.target.threshold = 1.0 / 3;
	s.ans.target.function = strdup("hot");
	s.ans.target.measure_lib = 1;
	string_list_append(&s.st.exclude, "sort");
	r = flame_session_probe_request(&s);
	flame_probe_request_argv(&r, "trail", &argv);
	CHECK_INT(read_written(&argv, &rd), 0);
	compare_fields(&r, &rd.req);
	CHECK(string_list_has(&argv, "--offcpu-profile"));
	CHECK(string_list_has(&argv, "7"));
	CHECK(string_list_has(&argv, "lib-samples"));
	flame_probe_reader_release(&rd);
	string_list_clear(&argv);
	flame_session_release(&s);
}

static void join(const struct string_list *l, size_t from, struct strbuf *sb)
{
	size_t i;

	for (i = from; i < l->nr; i++)
		strbuf_addf(sb, "%s%s", i > from ? " " : "", l->items[i]);
}

/*
 * A reproduce line from a report of before the table reads as it says,
 * and the request writes it back word for word: old bisect scripts keep
 * working and reports keep their line.
 */
TEST(an_old_reproduce_line_reads_and_writes_back)
{
	static const char *const old[] = {
		"trail", "flame", "probe", "--rev", "BISECT_HEAD", "--log", "/tmp/p.log",
		"--build", "make", "--run", "./app", "--threshold", "0.25", "--runs", "3",
		"--max-runs", "9", "-F", "999", "--discard", "10", "--confidence", "0.95",
		"--metric", "wall", "--percentile", "99", "--measure", "share", "--profiler",
		"trail", "--timeout", "300", "--build-timeout", "600", "--function", "hot",
		"--exclude", "sort", NULL
	};
	struct string_list in = STRING_LIST_INIT, out = STRING_LIST_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct flame_probe_reader rd;
	size_t i;

	for (i = 0; old[i]; i++)
		string_list_append(&in, old[i]);
	CHECK_INT(read_written(&in, &rd), 0);
	CHECK_STREQ(rd.req.rev, "BISECT_HEAD");
	CHECK_INT(rd.req.metric, FLAME_METRIC_WALL);
	CHECK_NEAR(rd.req.discard, 0.1, 0);
	CHECK_NEAR(rd.req.percentile, 99, 0);
	CHECK_INT(rd.req.measure, FLAME_MEASURE_SHARE);
	CHECK_INT(rd.req.exclude->nr, 1);
	flame_probe_request_argv(&rd.req, "trail", &out);
	join(&in, 0, &a);
	join(&out, 0, &b);
	CHECK_STREQ(b.buf, a.buf);
	flame_probe_reader_release(&rd);
	string_list_clear(&in);
	string_list_clear(&out);
	strbuf_release(&a);
	strbuf_release(&b);
}

static int read_words(const char *const *words)
{
	struct string_list in = STRING_LIST_INIT;
	struct flame_probe_reader rd;
	int ret;

	string_list_append(&in, "trail");
	string_list_append(&in, "flame");
	for (; *words; words++)
		string_list_append(&in, *words);
	ret = read_written(&in, &rd);
	flame_probe_reader_release(&rd);
	string_list_clear(&in);
	return ret;
}

TEST(the_reader_refuses_bad_requests)
{
	static const char *const no_threshold[] = { "probe", "--build", "make", "--run", "x", NULL };
	static const char *const bad_measure[] = { "probe", "--build", "make", "--run", "x",
		"--threshold", "1", "--measure", "self", NULL };
	static const char *const bad_metric[] = { "probe", "--build", "make", "--run", "x",
		"--threshold", "1", "--metric", "cycles", NULL };
	static const char *const bad_profiler[] = { "probe", "--build", "make", "--run", "x",
		"--threshold", "1", "--profiler", "gprof", NULL };
	static const char *const offcpu_alone[] = { "probe", "--build", "make", "--run", "x",
		"--threshold", "1", "--offcpu-profile", NULL };
	static const char *const stray[] = { "probe", "--build", "make", "--run", "x",
		"--threshold", "1", "extra", NULL };
	static const char *const good[] = { "probe", "--build", "make", "--run", "x",
		"--threshold", "1", "--profiler", "auto", NULL };

	CHECK_INT(read_words(no_threshold), -1);
	CHECK_INT(read_words(bad_measure), -1);
	CHECK_INT(read_words(bad_metric), -1);
	CHECK_INT(read_words(bad_profiler), -1);
	CHECK_INT(read_words(offcpu_alone), -1);
	CHECK_INT(read_words(stray), -1);
	CHECK_INT(read_words(good), 0);
}

TEST_MAIN("flame_probe_request", every_byte_belongs_to_one_field, every_field_round_trips,
	  defaults_round_trip, session_request_round_trips,
	  an_old_reproduce_line_reads_and_writes_back, the_reader_refuses_bad_requests)
