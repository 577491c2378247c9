/*
 * test_sampler.c - the sampler's pieces that need no kernel: ring buffer
 * reading (wrap-around, barriers' bookkeeping, bad records), sample and
 * sample_id decoding, the explanations of perf_event_open errors, and the
 * off-CPU pairing of switch-out samples with switch-in records.
 */
#include "harness.h"
#include "perf/offcpu.h"
#include "perf/sampler.h"
#include "perf/sampler_ring.h"

#include <errno.h>
#include <stdint.h>

#define PAGE 4096
#define DATA 256

struct seen {
	int n;
	uint16_t sizes[16];
	uint64_t payload[16];	/* first u64 after the header */
	int fail_at;
};

static int collect(void *ctx, const struct perf_event_header *rec)
{
	struct seen *s = ctx;

	if (s->fail_at && s->n + 1 == s->fail_at)
		return -1;
	s->sizes[s->n] = rec->size;
	memcpy(&s->payload[s->n], rec + 1, 8);
	s->n++;
	return 0;
}

/* Write a record of `size` bytes with payload v at ring position pos (may wrap). */
static void put_record(unsigned char *data, uint64_t pos, uint16_t size, uint64_t v)
{
	unsigned char rec[64];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, size };
	uint16_t i;

	memset(rec, 0xab, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &v, 8);
	for (i = 0; i < size; i++)
		data[(pos + i) % DATA] = rec[i];
}

TEST(ring_reads_records_and_wraps)
{
	static unsigned char mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (void *)mem;
	struct sampler_ring r;
	struct seen s = { 0 };
	uint64_t start = DATA - 16;	/* second record straddles the end */

	sampler_ring_init_mem(&r, mem, PAGE, DATA);
	put_record(mem + PAGE, start, 16, 11);
	put_record(mem + PAGE, start + 16, 40, 22);	/* wraps: header at the start */
	put_record(mem + PAGE, start + 56, 24, 33);
	pc->data_tail = start;
	pc->data_head = start + 80;
	CHECK_INT(sampler_ring_read(&r, collect, &s), 3);
	CHECK_INT(s.n, 3);
	CHECK_INT(s.sizes[1], 40);
	CHECK_INT(s.payload[0], 11);
	CHECK_INT(s.payload[1], 22);
	CHECK_INT(s.payload[2], 33);
	CHECK_INT(pc->data_tail, start + 80);
	/* Nothing new: nothing read. */
	CHECK_INT(sampler_ring_read(&r, collect, &s), 0);
	sampler_ring_release(&r);
}

TEST(ring_rejects_misaligned_records)
{
	static unsigned char mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (void *)mem;
	struct sampler_ring r;
	struct seen s = { 0 };

	/* The kernel keeps records 8-byte aligned; anything else is corruption. */
	sampler_ring_init_mem(&r, mem, PAGE, DATA);
	put_record(mem + PAGE, DATA - 4, 24, 77);
	pc->data_tail = DATA - 4;
	pc->data_head = DATA - 4 + 24;
	CHECK_INT(sampler_ring_read(&r, collect, &s), -1);
	CHECK_INT(s.n, 0);
	put_record(mem + PAGE, 0, 20, 78);
	pc->data_tail = 0;
	pc->data_head = 24;
	CHECK_INT(sampler_ring_read(&r, collect, &s), -1);
	CHECK_INT(s.n, 0);
	sampler_ring_release(&r);
}

TEST(ring_rejects_bad_sizes_and_stops_on_callback_error)
{
	static unsigned char mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (void *)mem;
	struct sampler_ring r;
	struct seen s = { 0 };

	sampler_ring_init_mem(&r, mem, PAGE, DATA);
	put_record(mem + PAGE, 0, 16, 1);
	put_record(mem + PAGE, 16, 64, 2);	/* claims more than was published */
	pc->data_tail = 0;
	pc->data_head = 32;
	CHECK_INT(sampler_ring_read(&r, collect, &s), -1);
	CHECK_INT(s.n, 1);
	CHECK_INT(pc->data_tail, 16);	/* the good record stays consumed */

	memset(&s, 0, sizeof(s));
	put_record(mem + PAGE, 16, 16, 2);
	put_record(mem + PAGE, 32, 16, 3);
	pc->data_head = 48;
	s.fail_at = 2;
	CHECK_INT(sampler_ring_read(&r, collect, &s), -1);
	CHECK_INT(s.n, 1);
	CHECK_INT(pc->data_tail, 48);
	sampler_ring_release(&r);
}

static struct perf_event_attr test_attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	a.sample_id_all = 1;
	return a;
}

/* A sample of test_attr() with a 3-entry call chain into buf; returns its size. */
static size_t make_sample(uint64_t *buf, uint32_t tid, uint64_t time, uint64_t period)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };
	uint32_t ids[2] = { tid, tid };
	size_t n = 1;

	buf[n++] = 0x401000;			/* ip */
	memcpy(&buf[n++], ids, 8);		/* pid, tid */
	buf[n++] = time;
	buf[n++] = 1;				/* cpu 1, res 0 */
	buf[n++] = period;
	buf[n++] = 3;
	buf[n++] = PERF_CONTEXT_USER;
	buf[n++] = 0x401000;
	buf[n++] = 0x402000;
	h.size = (uint16_t)(n * 8);
	memcpy(buf, &h, sizeof(h));
	return n * 8;
}

TEST(sample_decoding)
{
	struct perf_event_attr a = test_attr();
	uint64_t buf[16];
	struct perf_sample s;
	struct perf_event_header *h = (void *)buf;
	const char *why;

	make_sample(buf, 42, 1000, 7);
	CHECK_INT(perf_sample_parse(&a, h, NULL, &s, &why), 0);
	CHECK_INT(s.tid, 42);
	CHECK_INT(s.time, 1000);
	CHECK_INT(s.cpu, 1);
	CHECK_INT(s.period, 7);
	CHECK_INT(s.nr_callchain, 3);
	CHECK(s.callchain[2] == 0x402000);
	CHECK_INT(perf_sample_period_offset(&a), 8 + 32);
	CHECK_INT(perf_sample_time_offset(&a), 8 + 16);
	/* A chain longer than the record is malformed. */
	buf[6] = 1000;
	CHECK_INT(perf_sample_parse(&a, h, NULL, &s, &why), -1);
	CHECK_STREQ(why, "callchain longer than its sample record");
	/* A field the attr announces but the record lacks is truncation, not a misread. */
	buf[6] = 3;
	a.sample_type |= PERF_SAMPLE_RAW;
	CHECK_INT(perf_sample_parse(&a, h, NULL, &s, &why), -1);
	CHECK_STREQ(why, "truncated sample record");
	/* A record that is not 8-byte aligned needs somewhere to copy its chain. */
	{
		uint64_t shifted[17];
		struct perf_sample_buf b = { { NULL, NULL }, { 0, 0 } };
		const struct perf_event_header *u = (const void *)((unsigned char *)shifted + 4);

		a.sample_type &= ~(uint64_t)PERF_SAMPLE_RAW;
		memcpy((unsigned char *)shifted + 4, buf, 8 * 10);
		CHECK_INT(perf_sample_parse(&a, u, NULL, &s, &why), -1);
		CHECK_INT(perf_sample_parse(&a, u, &b, &s, &why), 0);
		CHECK(s.callchain[2] == 0x402000);
		perf_sample_buf_release(&b);
	}
}

/* PERF_RECORD_SWITCH with the test_attr() trailer. */
static struct perf_event_header *make_switch(uint64_t *buf, uint32_t tid, uint64_t time, uint16_t misc)
{
	struct perf_event_header h = { PERF_RECORD_SWITCH, misc, 32 };
	uint32_t ids[2] = { tid, tid };

	memcpy(buf, &h, 8);
	memcpy(&buf[1], ids, 8);
	buf[2] = time;
	buf[3] = 0;
	return (void *)buf;
}

TEST(sample_id_trailer)
{
	struct perf_event_attr a = test_attr();
	uint64_t buf[4];
	uint32_t pid, tid;
	uint64_t t;

	CHECK_INT(perf_sample_id_size(&a), 24);
	CHECK_INT(perf_sample_parse_id(&a, make_switch(buf, 9, 555, 0), &pid, &tid, &t), 0);
	CHECK_INT(tid, 9);
	CHECK_INT(t, 555);
	a.sample_id_all = 0;
	CHECK_INT(perf_sample_id_size(&a), 0);
}

TEST(open_errors_say_the_fix)
{
	struct perf_event_attr a = test_attr();
	struct strbuf sb = STRBUF_INIT;

	a.type = PERF_TYPE_SOFTWARE;
	sampler_explain_open_error(&sb, EACCES, &a, 1, 0, 3);
	CHECK(strstr(sb.buf, "sysctl kernel.perf_event_paranoid=1") != NULL);
	CHECK(strstr(sb.buf, "is 3") != NULL);
	CHECK(strstr(sb.buf, "user-space profiling of your own processes") != NULL);
	strbuf_reset(&sb);
	a.type = PERF_TYPE_HARDWARE;
	sampler_explain_open_error(&sb, ENOENT, &a, 1, 0, 2);
	CHECK(strstr(sb.buf, "-e cpu-clock") != NULL);
	strbuf_reset(&sb);
	sampler_explain_open_error(&sb, ESRCH, &a, 1234, 1, 2);
	CHECK(strstr(sb.buf, "no process 1234") != NULL);
	strbuf_reset(&sb);
	a.freq = 1;
	a.sample_freq = 1000000;
	sampler_explain_open_error(&sb, EINVAL, &a, 1, 0, 2);
	CHECK(strstr(sb.buf, "perf_event_max_sample_rate") != NULL);
	strbuf_release(&sb);
}

struct sink_tool {
	struct perf_tool tool;
	int n;
	uint64_t period[8], time[8];
	uint32_t tid[8];
};

static int sink_sample(struct perf_tool *t, const struct perf_event_header *rec,
		       const struct perf_sample *s)
{
	struct sink_tool *k = (struct sink_tool *)t;

	(void)rec;
	if (k->n >= 8)
		return -1;
	k->period[k->n] = s->period;
	k->time[k->n] = s->time;
	k->tid[k->n] = s->tid;
	k->n++;
	return 0;
}

/* What the sampler does with each record it reads. */
static int dispatch(struct offcpu *o, const void *rec)
{
	struct perf_tool_event ev = { &o->attr, "offcpu-time", NULL };
	const char *why;

	return perf_tool_deliver(&o->tool, &ev, rec, &why);
}

TEST(offcpu_weights_blocked_time)
{
	struct perf_event_attr a = test_attr();
	struct sink_tool k;
	struct offcpu o;
	uint64_t buf[16];

	memset(&k, 0, sizeof(k));
	k.tool.sample = sink_sample;
	offcpu_init(&o, &a, &k.tool);
	/* Thread 5 blocks at 100, runs again at 1100 (seen out of order). */
	make_sample(buf, 5, 100, 1);
	CHECK_INT(dispatch(&o, (void *)buf), 0);
	CHECK_INT(dispatch(&o, make_switch(buf, 5, 1100, 0)), 0);
	CHECK_INT(dispatch(&o, make_switch(buf, 5, 101, PERF_RECORD_MISC_SWITCH_OUT)), 0);
	/* Thread 6 is preempted at 200 (still runnable): not off-CPU time. */
	make_sample(buf, 6, 200, 1);
	dispatch(&o, (void *)buf);
	dispatch(&o, make_switch(buf, 6, 201,
			      PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT));
	dispatch(&o, make_switch(buf, 6, 900, 0));
	/* Thread 7 blocks and never comes back before the end. */
	make_sample(buf, 7, 300, 1);
	dispatch(&o, (void *)buf);
	CHECK_INT(o.tool.round(&o.tool), 0);
	CHECK_INT(k.n, 0);		/* nothing is final after one round */
	CHECK_INT(offcpu_flush(&o), 0);
	CHECK_INT(k.n, 1);
	CHECK_INT(k.tid[0], 5);
	CHECK_INT(k.period[0], 1000);
	CHECK_INT(k.time[0], 1100);
	CHECK_INT(o.nr_preempted, 1);
	CHECK_INT(o.blocked_ns, 1000);
	offcpu_release(&o);
}

TEST(offcpu_many_threads)
{
	struct perf_event_attr a = test_attr();
	struct sink_tool k;
	struct offcpu o;
	uint64_t buf[16];
	uint32_t tid;

	memset(&k, 0, sizeof(k));
	k.tool.sample = sink_sample;
	offcpu_init(&o, &a, &k.tool);
	/* Enough threads to grow the tid map several times; all but 8 never return. */
	for (tid = 1; tid <= 500; tid++) {
		make_sample(buf, tid, tid * 10, 1);
		dispatch(&o, (void *)buf);
	}
	for (tid = 1; tid <= 8; tid++)
		dispatch(&o, make_switch(buf, tid * 50, 100000 + tid, 0));
	CHECK_INT(offcpu_flush(&o), 0);
	CHECK_INT(k.n, 8);
	CHECK_INT(k.period[0], 100000 + 1 - 500);
	offcpu_release(&o);
}

TEST_MAIN("sampler", ring_reads_records_and_wraps, ring_rejects_misaligned_records,
	  ring_rejects_bad_sizes_and_stops_on_callback_error, sample_decoding, sample_id_trailer,
	  open_errors_say_the_fix, offcpu_weights_blocked_time, offcpu_many_threads)
