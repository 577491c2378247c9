/*
 * test_profile_formats.c - the whole-file profile formats of
 * collapse/profile_formats.h (pprof, speedscope, .cpuprofile, JFR JSON,
 * folded) on hand-built inputs with known answers, on the real profiles
 * in tests/data/profilers, and the pprof and speedscope writers read
 * back.
 */
#include "harness.h"
#include "collapse/json_profiles.h"
#include "collapse/pprof.h"
#include "collapse/collapser.h"
#include "core/gzip_buf.h"
#include "core/protobuf.h"
#include "core/strbuf.h"
#include "profile/folded.h"
#include "profile/pprof_write.h"
#include "profile/speedscope_write.h"

#include <stdint.h>

/* The profile as sorted folded text. */
static char *folded_text(const struct folded_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	folded_profile_write(p, f);
	fclose(f);
	return buf;
}

/* Add folded text (one stack per line) to p. */
static int folded_profile_add_text(struct folded_profile *p, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		struct folded_line fl;

		if (folded_parse_line(text, n, &fl) < 0)
			return -1;
		folded_profile_add(p, fl.stack, fl.stack_len, 0, fl.count[0]);
		text += n + (nl != NULL);
	}
	return 0;
}

/*
 * The whole 'trail collapse' path on one input: guess the format, read it
 * through its collapser into a session, write the folded text.  *format
 * gets the format's name (NULL: none claimed it).  Caller frees.
 */
static char *collapse_in(struct collapse_input *in, const char *sample_type, const char **format)
{
	struct collapse_session s;
	struct fold_options fo;
	const struct collapser *c = collapse_guess(in->head, in->head_len, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	*format = c ? c->name : NULL;
	memset(&fo, 0, sizeof(fo));
	collapse_session_init(&s, &fo);
	s.opts.sample_type = sample_type;
	f = open_memstream(&buf, &len);
	if (c && c->read(&s, in, s.folders[0]) == 0)
		collapse_session_write(&s, f);
	fclose(f);
	collapse_session_release(&s);
	return buf;
}

static char *collapse_buf(const char *data, size_t len, const char *sample_type,
			  const char **format)
{
	struct collapse_input in;
	char *text;

	collapse_input_from_buffer(&in, "buf", data, len);
	text = collapse_in(&in, sample_type, format);
	collapse_input_close(&in);
	return text;
}

static char *collapse_file(const char *path, const char *sample_type, const char **format)
{
	struct collapse_input in;
	char *text;

	if (collapse_input_open(&in, path) < 0)
		return NULL;
	text = collapse_in(&in, sample_type, format);
	collapse_input_close(&in);
	return text;
}

static void put_msg(struct strbuf *sb, uint32_t field, const struct strbuf *msg)
{
	pb_put_bytes(sb, field, msg->buf, msg->len);
}

static void value_type(struct strbuf *sb, uint64_t type, uint64_t unit)
{
	struct strbuf m = STRBUF_INIT;

	pb_put_uint(&m, 1, type);
	pb_put_uint(&m, 2, unit);
	put_msg(sb, 1, &m);
	strbuf_release(&m);
}

/*
 * A profile with two sample types (strings 1..4), functions main (id 10),
 * inl (id 20, inlined into main at location 500), leaf (id 30, location
 * 7000), sparse ids, one location without lines (address 0xbeef, id 9).
 */
static void build_profile(struct strbuf *p, int with_default)
{
	struct strbuf m = STRBUF_INIT, line = STRBUF_INIT;
	static const char *const strings[] = { "", "samples", "count", "cpu", "nanoseconds",
					       "main", "inl", "leaf" };
	uint64_t locs1[] = { 7000, 500 }, vals1[] = { 2, 200 };
	uint64_t locs2[] = { 9, 500 }, vals2[] = { 1, 100 };
	uint64_t locs3[] = { 500 }, vals3[] = { 1, 0 };	/* zero cpu: dropped */
	size_t i;

	pb_put_uint(p, 9, 123456);	/* time_nanos first, as Go writes it */
	value_type(p, 1, 2);
	value_type(p, 3, 4);
#define SAMPLE(l, v) \
	strbuf_reset(&m); \
	pb_put_packed(&m, 1, l, sizeof(l) / sizeof(l[0])); \
	pb_put_packed(&m, 2, v, 2); \
	put_msg(p, 2, &m);
	SAMPLE(locs1, vals1)
	SAMPLE(locs2, vals2)
	SAMPLE(locs3, vals3)
	/* location 500: Line{inl} then Line{main}: inl inlined into main */
	strbuf_reset(&m);
	pb_put_uint(&m, 1, 500);
	strbuf_reset(&line);
	pb_put_uint(&line, 1, 20);
	put_msg(&m, 4, &line);
	strbuf_reset(&line);
	pb_put_uint(&line, 1, 10);
	put_msg(&m, 4, &line);
	put_msg(p, 4, &m);
	strbuf_reset(&m);
	pb_put_uint(&m, 1, 7000);
	strbuf_reset(&line);
	pb_put_uint(&line, 1, 30);
	put_msg(&m, 4, &line);
	put_msg(p, 4, &m);
	strbuf_reset(&m);
	pb_put_uint(&m, 1, 9);
	pb_put_uint(&m, 3, 0xbeef);
	put_msg(p, 4, &m);
	for (i = 0; i < 3; i++) {
		strbuf_reset(&m);
		pb_put_uint(&m, 1, 10 * (i + 1));
		pb_put_uint(&m, 2, 5 + i);
		put_msg(p, 5, &m);
	}
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		pb_put_bytes(p, 6, strings[i], strlen(strings[i]));
	if (with_default)
		pb_put_uint(p, 14, 1);	/* "samples" */
	strbuf_release(&m);
	strbuf_release(&line);
}

TEST(pprof_inline_and_types)
{
	struct strbuf raw = STRBUF_INIT, gz = STRBUF_INIT;
	struct folded_profile p;
	char *text;

	build_profile(&raw, 0);
	CHECK(pprof_detect(raw.buf, raw.len));
	gzip_buf_deflate(raw.buf, raw.len, &gz);
	CHECK(pprof_detect(gz.buf, gz.len));
	/* default: the last type, cpu */
	folded_profile_init(&p);
	CHECK_INT(pprof_fold(gz.buf, gz.len, "t", NULL, &p), 0);
	text = folded_text(&p);
	CHECK_STREQ(text, "main;inl;0xbeef 100\nmain;inl;leaf 200\n");
	free(text);
	folded_profile_release(&p);
	/* by name */
	folded_profile_init(&p);
	CHECK_INT(pprof_fold(raw.buf, raw.len, "t", "samples", &p), 0);
	text = folded_text(&p);
	CHECK_STREQ(text, "main;inl 1\nmain;inl;0xbeef 1\nmain;inl;leaf 2\n");
	free(text);
	CHECK_INT(pprof_fold(raw.buf, raw.len, "t", "nope", &p), -1);
	folded_profile_release(&p);
	/* by unit: sample counts */
	folded_profile_init(&p);
	CHECK_INT(pprof_fold(raw.buf, raw.len, "t", "unit=count", &p), 0);
	CHECK_INT(p.total[0], 4);
	folded_profile_release(&p);
	folded_profile_init(&p);
	CHECK_INT(pprof_fold(raw.buf, raw.len, "t", "unit=furlongs", &p), 0);
	CHECK_INT(p.total[0], 300);	/* no such unit: the last type */
	folded_profile_release(&p);
	/* default_sample_type wins over "the last one" */
	strbuf_reset(&raw);
	build_profile(&raw, 1);
	folded_profile_init(&p);
	CHECK_INT(pprof_fold(raw.buf, raw.len, "t", NULL, &p), 0);
	CHECK_INT(p.total[0], 4);
	folded_profile_release(&p);
	strbuf_release(&raw);
	strbuf_release(&gz);
}

TEST(pprof_hostile)
{
	struct strbuf raw = STRBUF_INIT;
	struct folded_profile p;
	size_t cut;

	build_profile(&raw, 0);
	folded_profile_init(&p);
	/* every truncation is an error or a smaller profile, never a crash */
	for (cut = 0; cut < raw.len; cut++)
		(void)pprof_fold(raw.buf, cut, "t", NULL, &p);
	/* a sample naming a location that does not exist */
	strbuf_reset(&raw);
	value_type(&raw, 1, 2);
	{
		struct strbuf m = STRBUF_INIT;
		uint64_t loc = 99, val = 1;

		pb_put_packed(&m, 1, &loc, 1);
		pb_put_packed(&m, 2, &val, 1);
		put_msg(&raw, 2, &m);
		strbuf_release(&m);
	}
	pb_put_bytes(&raw, 6, "", 0);
	pb_put_bytes(&raw, 6, "a", 1);
	pb_put_bytes(&raw, 6, "b", 1);
	CHECK_INT(pprof_fold(raw.buf, raw.len, "t", NULL, &p), -1);
	CHECK(!pprof_detect("hello world\n", 12));
	CHECK(!pprof_detect("", 0));
	folded_profile_release(&p);
	strbuf_release(&raw);
}

static const char speedscope_doc[] =
	"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	"\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\\nd\"}]},"
	"\"profiles\":["
	"{\"type\":\"evented\",\"name\":\"e\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":10,"
	"\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":0},{\"type\":\"O\",\"frame\":1,\"at\":2},"
	"{\"type\":\"C\",\"frame\":1,\"at\":5},{\"type\":\"O\",\"frame\":2,\"at\":5.5},"
	"{\"type\":\"C\",\"frame\":2,\"at\":6},{\"type\":\"C\",\"frame\":0,\"at\":10}]},"
	"{\"type\":\"sampled\",\"name\":\"s\",\"unit\":\"none\",\"startValue\":0,\"endValue\":3,"
	"\"samples\":[[0,1],[1]],\"weights\":[2,1]}]}";

TEST(speedscope_evented_and_sampled)
{
	struct folded_profile p;
	char *text;

	CHECK(speedscope_detect(speedscope_doc, sizeof(speedscope_doc) - 1));
	folded_profile_init(&p);
	CHECK_INT(speedscope_fold(speedscope_doc, sizeof(speedscope_doc) - 1, "t", &p), 0);
	text = folded_text(&p);
	/* in microseconds: a: 0-2, 5-5.5, 6-10 ms; a;b: 3 ms (+2 sampled); a;c d: 0.5 ms */
	CHECK_STREQ(text, "a 6500\na;b 3002\na;c d 500\nb 1\n");
	free(text);
	folded_profile_release(&p);
}

TEST(speedscope_rejects_bad_events)
{
	static const char bad[] =
		"{\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]},\"profiles\":["
		"{\"type\":\"evented\",\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":0},"
		"{\"type\":\"C\",\"frame\":1,\"at\":1}]}]}";
	static const char range[] =
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"sampled\",\"samples\":[[3]]}]}";
	struct folded_profile p;

	folded_profile_init(&p);
	CHECK_INT(speedscope_fold(bad, sizeof(bad) - 1, "t", &p), -1);
	CHECK_INT(speedscope_fold(range, sizeof(range) - 1, "t", &p), -1);
	folded_profile_release(&p);
}

TEST(cpuprofile_tree)
{
	/* children lists for 1 and 2; node 4 names its parent instead */
	static const char doc[] =
		"{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"\",\"url\":\"file:///x/app.js\","
		"\"lineNumber\":4},\"children\":[3]},"
		"{\"id\":3,\"callFrame\":{\"functionName\":\"work\"}},"
		"{\"id\":4,\"parent\":3,\"callFrame\":{\"functionName\":\"hash\"}}],"
		"\"samples\":[3,4,4,2],\"timeDeltas\":[1,1,1,1]}";
	struct folded_profile p;
	char *text;

	CHECK(cpuprofile_detect(doc, sizeof(doc) - 1));
	CHECK(!speedscope_detect(doc, sizeof(doc) - 1));
	folded_profile_init(&p);
	CHECK_INT(cpuprofile_fold(doc, sizeof(doc) - 1, "t", &p), 0);
	text = folded_text(&p);
	CHECK_STREQ(text, "(anonymous) app.js:5 1\n(anonymous) app.js:5;work 1\n"
			  "(anonymous) app.js:5;work;hash 2\n");
	free(text);
	folded_profile_release(&p);
}

TEST(jfr_events)
{
	static const char doc[] =
		"{\"recording\":{\"events\":["
		"{\"type\":\"jdk.ExecutionSample\",\"values\":{\"stackTrace\":{\"frames\":["
		"{\"method\":{\"type\":{\"name\":\"java\\/lang\\/String\"},\"name\":\"charAt\"}},"
		"{\"method\":{\"type\":{\"name\":\"Work\"},\"name\":\"main\"}}]}}},"
		"{\"type\":\"jdk.ObjectAllocationSample\",\"values\":{\"weight\":512,"
		"\"stackTrace\":{\"frames\":[{\"method\":{\"type\":{\"name\":\"Work\"},\"name\":\"main\"}}]}}},"
		"{\"type\":\"jdk.ExecutionSample\",\"values\":{\"stackTrace\":null}}]}}";
	struct folded_profile p;
	char *text;

	CHECK(jfr_json_detect(doc, sizeof(doc) - 1));
	folded_profile_init(&p);
	CHECK_INT(jfr_json_fold(doc, sizeof(doc) - 1, "t", NULL, &p), 0);
	text = folded_text(&p);
	CHECK_STREQ(text, "Work.main;java.lang.String.charAt 1\n");
	free(text);
	folded_profile_release(&p);
	folded_profile_init(&p);
	CHECK_INT(jfr_json_fold(doc, sizeof(doc) - 1, "t", "jdk.ObjectAllocationSample", &p), 0);
	text = folded_text(&p);
	CHECK_STREQ(text, "Work.main 512\n");
	free(text);
	folded_profile_release(&p);
}

static const char sample_folded[] = "a;b;c 3\na;b 2\nx y;z 7\nsolo 1\n";

/* folded -> writer -> guess + read -> the same folded text */
static void round_trip(int speedscope)
{
	struct folded_profile in;
	struct strbuf enc = STRBUF_INIT;
	const char *format;
	char *a, *b;

	a = collapse_buf(sample_folded, sizeof(sample_folded) - 1, NULL, &format);
	CHECK_STREQ(format, "folded");
	CHECK_STREQ(a, "a;b 2\na;b;c 3\nsolo 1\nx y;z 7\n");
	folded_profile_init(&in);
	CHECK_INT(folded_profile_add_text(&in, a), 0);
	if (speedscope)
		CHECK_INT(speedscope_encode(&in, "t", &enc), 0);
	else
		CHECK_INT(pprof_encode(&in, &enc), 0);
	b = collapse_buf(enc.buf, enc.len, NULL, &format);
	CHECK_STREQ(format, speedscope ? "speedscope" : "pprof");
	CHECK_STREQ(b, a);
	free(a);
	free(b);
	strbuf_release(&enc);
	folded_profile_release(&in);
}

TEST(pprof_writer_round_trip)
{
	round_trip(0);
}

TEST(speedscope_writer_round_trip)
{
	round_trip(1);
}

TEST(guess_leaves_perf_script_alone)
{
	static const char perf[] = "perf 123 [000] 1.000: 1 cycles:\n\tffff main (/bin/x)\n\n";
	const char *format;

	free(collapse_buf(perf, sizeof(perf) - 1, NULL, &format));
	CHECK_STREQ(format, "perf");
}

/* Real profiles from real profilers (see tests/data/profilers/README.md). */
TEST(real_profiles)
{
	static const struct {
		const char *file, *sample_type, *format, *want;
	} cases[] = {
		{ "go-cpu.pb.gz", NULL, "pprof", "\nruntime.main;main.main;main.work;main.hash " },
		{ "go-cpu.pb.gz", NULL, "pprof", "main.work;main.mix" },	/* an inlined Line */
		{ "go-heap.pb.gz", "alloc_space", "pprof",
		  "main.work;main.build;strings.(*Builder).WriteString" },
		{ "node-work.cpuprofile", NULL, "cpuprofile", ";work;hash " },
		{ "java-work.jfr.json.gz", NULL, "jfr", "\nWork.main;Work.hash" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256], *text;
		const char *format = NULL;

		snprintf(path, sizeof(path), "tests/data/profilers/%s", cases[i].file);
		text = collapse_file(path, cases[i].sample_type, &format);
		CHECK(text != NULL);
		CHECK_STREQ(format, cases[i].format);
		if (text && !strstr(text, cases[i].want)) {
			fprintf(stderr, "    %s: no '%s'\n", cases[i].file, cases[i].want);
			CHECK(0);
		}
		free(text);
	}
}

TEST_MAIN("profile_formats", pprof_inline_and_types, pprof_hostile,
	  speedscope_evented_and_sampled, speedscope_rejects_bad_events, cpuprofile_tree,
	  jfr_events, pprof_writer_round_trip, speedscope_writer_round_trip,
	  guess_leaves_perf_script_alone, real_profiles)
