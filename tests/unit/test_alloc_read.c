/*
 * test_alloc_read.c - raw allocation files to perf.data: a hand-built raw
 * file whose frames are this test's own functions (with this process's
 * real /proc/self/maps) is converted, then folded by trail's perf.data
 * reader, for each view; weights are unbiased by the sampling
 * probability; an exact recording folded by the interposer (SITE
 * records) converts as its allocation records would; malformed files are
 * refused with the offset.
 */
#include "harness.h"
#include "alloc/alloc_read.h"
#include "alloc/raw.h"
#include "collapse/perfdata_fold.h"
#include "core/strbuf.h"
#include "perf/perfdata_write.h"
#include "profile/fold.h"

#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <sys/prctl.h>

__attribute__((noinline)) void alloc_site_one(void);
__attribute__((noinline)) void alloc_site_two(void);
__attribute__((noinline)) void alloc_site_one(void) { __asm__ volatile(""); }
__attribute__((noinline)) void alloc_site_two(void) { __asm__ volatile(""); }

static void put(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, 8);
}

static uint64_t next_stack;	/* STACK ids written to the file being built */

static void raw_header(struct strbuf *sb, uint64_t interval)
{
	char comm[16] = "rawtest";

	next_stack = 0;
	put(sb, ALLOC_RAW_MAGIC);
	put(sb, ALLOC_RAW_VERSION);
	put(sb, interval);
	put(sb, (uint64_t)getpid());
	put(sb, 1);
	put(sb, 0);
	strbuf_add(sb, comm, 16);
}

/* A "return address" one past fn's first byte (the reader takes 1 off). */
static uint64_t in(void (*fn)(void))
{
	return (uint64_t)(uintptr_t)fn + 1;
}

static void raw_alloc(struct strbuf *sb, uint64_t ptr, uint64_t size, void (*site)(void))
{
	/* a STACK record per allocation: the reader must not care that two match */
	put(sb, ALLOC_RAW_STACK | ((uint64_t)5 << 32));
	put(sb, next_stack);
	put(sb, 2);
	put(sb, in(site));
	put(sb, in(alloc_site_two) == in(site) ? in(alloc_site_one) : in(alloc_site_two));
	put(sb, ALLOC_RAW_ALLOC | ((uint64_t)5 << 32));
	put(sb, (uint64_t)getpid());
	put(sb, ptr);
	put(sb, size);
	put(sb, next_stack++);
}

static void raw_free(struct strbuf *sb, uint64_t ptr)
{
	put(sb, ALLOC_RAW_FREE | ((uint64_t)2 << 32));
	put(sb, ptr);
}

static void raw_maps(struct strbuf *sb)
{
	struct strbuf text = STRBUF_INIT;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	while (f && fgets(line, sizeof(line), f))
		strbuf_addstr(&text, line);
	if (f)
		fclose(f);
	put(sb, ALLOC_RAW_MAPS | ((uint64_t)(2 + (text.len + 7) / 8) << 32));
	put(sb, text.len);
	strbuf_add(sb, text.buf, text.len);
	while (sb->len % 8)
		strbuf_addch(sb, 0);
	strbuf_release(&text);
}

/* sites: one allocates 100 (freed) then 300 bytes, two 200 (kept) */
static void sample_file(struct strbuf *sb, uint64_t interval)
{
	raw_header(sb, interval);
	raw_alloc(sb, 0x1000, 100, alloc_site_one);
	raw_alloc(sb, 0x2000, 200, alloc_site_two);
	raw_free(sb, 0x1000);
	raw_alloc(sb, 0x3000, 300, alloc_site_one);
	raw_free(sb, 0x3000);
	raw_free(sb, 0x9999);	/* never sampled: ignored */
	raw_maps(sb);
}

/* A STACK record of site then the other site (as raw_alloc writes); its id. */
static uint64_t raw_stack(struct strbuf *sb, void (*site)(void))
{
	put(sb, ALLOC_RAW_STACK | ((uint64_t)5 << 32));
	put(sb, next_stack);
	put(sb, 2);
	put(sb, in(site));
	put(sb, in(alloc_site_two) == in(site) ? in(alloc_site_one) : in(alloc_site_two));
	return next_stack++;
}

static void raw_site(struct strbuf *sb, uint64_t id, uint64_t objects, uint64_t bytes, uint64_t live,
		     uint64_t at_peak)
{
	put(sb, ALLOC_RAW_SITE | ((uint64_t)6 << 32));
	put(sb, id);
	put(sb, objects);
	put(sb, bytes);
	put(sb, live);
	put(sb, at_peak);
}

/* sample_file(sb, 1) as the interposer folds it at interval 1 */
static void site_file(struct strbuf *sb)
{
	uint64_t one, two;

	raw_header(sb, 1);
	one = raw_stack(sb, alloc_site_one);
	raw_site(sb, one, 1, 100, 100, 100);	/* a checkpoint: the later record wins */
	two = raw_stack(sb, alloc_site_two);
	raw_site(sb, one, 2, 400, 0, 300);
	raw_site(sb, two, 1, 200, 200, 200);
	raw_maps(sb);
}

/* Convert and fold; the folded text goes to out. */
static int convert_fold(const struct strbuf *raw, enum alloc_view view, struct strbuf *out,
			struct alloc_totals *t)
{
	char path[] = "/tmp/trail-allocread.XXXXXX";
	struct perfdata_writer w;
	struct perf_event_attr attr;
	struct fold_options fo;
	struct perfdata_fold pf;
	struct folder *fd;
	uint64_t id = 1;
	char line[1024];
	FILE *f;
	int fdesc = mkstemp(path), ret;

	if (fdesc < 0)
		return -1;
	close(fdesc);
	memset(&w, 0, sizeof(w));
	memset(&attr, 0, sizeof(attr));
	memset(t, 0, sizeof(*t));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.size = PERFDATA_ATTR_SIZE;
	attr.sample_type = ALLOC_SAMPLE_TYPE;
	w.fd = -1;
	if (perfdata_writer_open(&w, path))
		return -1;
	perfdata_writer_add_event(&w, &attr, alloc_view_name(view), &id, 1);
	if (perfdata_writer_start(&w))
		return -1;
	ret = alloc_raw_convert((const unsigned char *)raw->buf, raw->len, "test.raw", view, &w, t);
	if (!ret)
		ret = perfdata_writer_finish(&w, 0, NULL);
	perfdata_writer_release(&w);
	if (ret)
		return ret;
	memset(&fo, 0, sizeof(fo));
	memset(&pf, 0, sizeof(pf));
	fd = folder_new(&fo);
	ret = perfdata_fold_file(path, fd, &pf);
	f = tmpfile();
	if (!ret && f && !folder_write(&fd, 1, f)) {
		rewind(f);
		while (fgets(line, sizeof(line), f))
			strbuf_addstr(out, line);
	}
	if (f)
		fclose(f);
	folder_free(fd);
	free(pf.chosen_event);
	free(pf.other_event);
	unlink(path);
	return ret;
}

TEST(test_alloc_space_exact)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct alloc_totals t;

	sample_file(&raw, 1);
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t), 0);
	CHECK(strstr(out.buf, "rawtest;alloc_site_two;alloc_site_one 400\n") != NULL);
	CHECK(strstr(out.buf, "rawtest;alloc_site_one;alloc_site_two 200\n") != NULL);
	CHECK_INT((int)t.samples, 3);
	CHECK_NEAR(t.bytes, 600, 1e-9);
	CHECK_NEAR(t.peak_bytes, 500, 1e-9);	/* 200 + 300 live together */
	CHECK_NEAR(t.exit_bytes, 200, 1e-9);
	strbuf_release(&raw);
	strbuf_release(&out);
}

TEST(test_views)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct alloc_totals t;

	sample_file(&raw, 1);
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_OBJECTS, &out, &t), 0);
	CHECK(strstr(out.buf, "rawtest;alloc_site_two;alloc_site_one 2\n") != NULL);
	CHECK(strstr(out.buf, "rawtest;alloc_site_one;alloc_site_two 1\n") != NULL);
	strbuf_setlen(&out, 0);
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_INUSE_EXIT, &out, &t), 0);
	CHECK_STREQ(out.buf, "rawtest;alloc_site_one;alloc_site_two 200\n");
	strbuf_setlen(&out, 0);
	/* the peak is after the third allocation: 200 (two) + 300 (one); 100 was freed */
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_INUSE_PEAK, &out, &t), 0);
	CHECK(strstr(out.buf, "rawtest;alloc_site_two;alloc_site_one 300\n") != NULL);
	CHECK(strstr(out.buf, "rawtest;alloc_site_one;alloc_site_two 200\n") != NULL);
	strbuf_release(&raw);
	strbuf_release(&out);
}

TEST(test_unbiased_weights)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct alloc_totals t;
	double p100 = 1 - exp(-100.0 / 1000), p200 = 1 - exp(-200.0 / 1000),
	       p300 = 1 - exp(-300.0 / 1000);

	sample_file(&raw, 1000);
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t), 0);
	CHECK_NEAR(t.bytes, 100 / p100 + 200 / p200 + 300 / p300, 1e-6);
	CHECK_NEAR(t.objects, 1 / p100 + 1 / p200 + 1 / p300, 1e-9);
	/* small allocations stand for more: 100 bytes sampled at p=0.095 is ~1051 */
	CHECK(t.bytes > 2000);
	strbuf_release(&raw);
	strbuf_release(&out);
}

/* trail flame's view: alloc-space / interval, about one per sampled small allocation */
TEST(test_intervals_view)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct alloc_totals t;
	double p100 = 1 - exp(-100.0 / 1000), p200 = 1 - exp(-200.0 / 1000),
	       p300 = 1 - exp(-300.0 / 1000);
	char want[128];

	sample_file(&raw, 1000);
	memset(&t, 0, sizeof(t));
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_INTERVALS, &out, &t), 0);
	snprintf(want, sizeof(want), "rawtest;alloc_site_two;alloc_site_one %.0f\n",
		 round((100 / p100 + 300 / p300) / 1000));
	CHECK(strstr(out.buf, want) != NULL);
	snprintf(want, sizeof(want), "rawtest;alloc_site_one;alloc_site_two %.0f\n",
		 round(200 / p200 / 1000));
	CHECK(strstr(out.buf, want) != NULL);
	/* at interval 1 it is alloc-space itself */
	strbuf_setlen(&raw, 0);
	strbuf_setlen(&out, 0);
	sample_file(&raw, 1);
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_INTERVALS, &out, &t), 0);
	CHECK(strstr(out.buf, "rawtest;alloc_site_two;alloc_site_one 400\n") != NULL);
	/* not a view users name */
	CHECK_INT(alloc_view_parse("alloc-intervals"), -1);
	strbuf_release(&raw);
	strbuf_release(&out);
}

/* Every view and total of an exact recording is the same folded by the interposer or by trail. */
TEST(test_sites_as_events)
{
	static const enum alloc_view v[] = { ALLOC_VIEW_SPACE, ALLOC_VIEW_OBJECTS, ALLOC_VIEW_INUSE_PEAK,
					     ALLOC_VIEW_INUSE_EXIT, ALLOC_VIEW_INTERVALS };
	struct strbuf events = STRBUF_INIT, sites = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct alloc_totals ta, tb;
	size_t i;

	sample_file(&events, 1);
	site_file(&sites);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		strbuf_setlen(&a, 0);
		strbuf_setlen(&b, 0);
		CHECK_INT(convert_fold(&events, v[i], &a, &ta), 0);
		CHECK_INT(convert_fold(&sites, v[i], &b, &tb), 0);
		CHECK(a.len > 0);
		CHECK_STREQ(b.buf, a.buf);
	}
	CHECK_INT((int)tb.samples, 3);
	CHECK_NEAR(tb.bytes, 600, 1e-9);
	CHECK_NEAR(tb.objects, 3, 1e-9);
	CHECK_NEAR(tb.peak_bytes, 500, 1e-9);
	CHECK_NEAR(tb.exit_bytes, 200, 1e-9);
	CHECK_INT((int)tb.unfinished, 1);	/* no END record */
	strbuf_release(&events);
	strbuf_release(&sites);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* A SITE record only where the interposer writes one, and never claiming more live than allocated. */
TEST(test_malformed_sites)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct alloc_totals t;

	raw_header(&raw, 1000);
	raw_site(&raw, raw_stack(&raw, alloc_site_one), 1, 100, 100, 100);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);	/* sampled */
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	raw_site(&raw, 0, 1, 100, 100, 100);	/* no stack 0 yet */
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	raw_site(&raw, raw_stack(&raw, alloc_site_one), 1, 100, 101, 100);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	raw_site(&raw, raw_stack(&raw, alloc_site_one), 1, 100, 100, 101);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	raw_alloc(&raw, 0x1000, 100, alloc_site_one);
	raw_site(&raw, 0, 1, 100, 100, 100);	/* beside allocation records */
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	raw_site(&raw, raw_stack(&raw, alloc_site_one), 1, 100, 100, 100);
	raw_alloc(&raw, 0x1000, 100, alloc_site_one);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	raw_stack(&raw, alloc_site_one);
	put(&raw, ALLOC_RAW_SITE | ((uint64_t)5 << 32));	/* one word short */
	put(&raw, 0);
	put(&raw, 1);
	put(&raw, 1);
	put(&raw, 1);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_release(&raw);
	strbuf_release(&out);
}

TEST(test_malformed)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct alloc_totals t;

	raw_header(&raw, 1);
	put(&raw, ALLOC_RAW_ALLOC | ((uint64_t)9 << 32));	/* runs past the end: cut short */
	put(&raw, 1);
	memset(&t, 0, sizeof(t));
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t), 0);
	CHECK_INT((int)t.unfinished, 1);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	put(&raw, ALLOC_RAW_END | ((uint64_t)1 << 32));	/* a whole record */
	memset(&t, 0, sizeof(t));
	CHECK_INT(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t), 0);
	CHECK_INT((int)t.unfinished, 0);
	put(&raw, ALLOC_RAW_FREE | ((uint64_t)2 << 32));	/* nothing after the end */
	put(&raw, 0x10);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	put(&raw, ALLOC_RAW_FREE);	/* length 0 */
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	put(&raw, ALLOC_RAW_STACK | ((uint64_t)4 << 32));	/* says 2 frames, has 1 */
	put(&raw, 0);
	put(&raw, 2);
	put(&raw, 0x400000);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	put(&raw, ALLOC_RAW_ALLOC | ((uint64_t)5 << 32));	/* names a stack never written */
	put(&raw, 1);
	put(&raw, 0x10);
	put(&raw, 8);
	put(&raw, 0);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	raw_header(&raw, 1);
	put(&raw, ALLOC_RAW_STACK | ((uint64_t)4 << 32));	/* ids must count from 0 */
	put(&raw, 1);
	put(&raw, 1);
	put(&raw, 0x400000);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	strbuf_setlen(&raw, 0);
	put(&raw, 42);
	CHECK(convert_fold(&raw, ALLOC_VIEW_SPACE, &out, &t) < 0);
	/* an empty file: the image died before its header - cut short, not foreign */
	{
		struct perfdata_writer w;

		memset(&w, 0, sizeof(w));
		memset(&t, 0, sizeof(t));
		CHECK_INT(alloc_raw_convert((const unsigned char *)"", 0, "empty.raw", ALLOC_VIEW_SPACE,
					    &w, &t), 0);
		CHECK_INT((int)t.files, 1);
		CHECK_INT((int)t.unfinished, 1);
	}
	strbuf_release(&raw);
	strbuf_release(&out);
}

TEST(test_view_names)
{
	CHECK_INT(alloc_view_parse("inuse-peak"), ALLOC_VIEW_INUSE_PEAK);
	CHECK_INT(alloc_view_parse("alloc-objects"), ALLOC_VIEW_OBJECTS);
	CHECK_INT(alloc_view_parse("inuse"), -1);
	CHECK_STREQ(alloc_view_unit(ALLOC_VIEW_OBJECTS), "objects");
	CHECK_STREQ(alloc_view_unit(ALLOC_VIEW_INUSE_EXIT), "bytes");
}

TEST_MAIN("alloc_read", test_alloc_space_exact, test_views, test_unbiased_weights, test_intervals_view,
	  test_malformed, test_sites_as_events, test_malformed_sites,
	  test_view_names)
