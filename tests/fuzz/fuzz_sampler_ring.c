/*
 * fuzz_sampler_ring.c - libFuzzer target for the sampler's record
 * decoding: arbitrary bytes as the contents of a perf ring buffer (with a
 * published head the data may contradict) go through the ring reader, the
 * sample and sample_id decoders and the off-CPU filter; everything must be
 * accepted or rejected cleanly.
 */
#include "perf/offcpu.h"
#include "perf/sampler.h"
#include "perf/sampler_ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096
#define DATA 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int drop(struct perf_tool *t, const struct perf_event_header *rec)
{
	(void)t;
	(void)rec;
	return 0;
}

static int each(void *ctx, const struct perf_event_header *rec)
{
	struct offcpu *o = ctx;
	struct perf_tool_event ev = { &o->attr, "cpu-clock", NULL };
	uint32_t pid, tid;
	uint64_t t;
	const char *why;

	(void)perf_sample_parse_id(&o->attr, rec, &pid, &tid, &t);
	return perf_tool_deliver(&o->tool, &ev, rec, &why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (void *)mem;
	struct perf_tool next = { .other = drop };
	struct perf_event_attr attr;
	struct sampler_ring r;
	struct offcpu o;
	uint64_t start = 0;

	if (size < 8)
		return 0;
	memcpy(&start, data, 8);
	data += 8;
	size -= 8;
	if (size > DATA)
		size = DATA;
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	offcpu_init(&o, &attr, &next);
	sampler_ring_init_mem(&r, mem, PAGE, DATA);
	memset(mem, 0, sizeof(mem));
	start = (start % DATA) & ~(uint64_t)7;
	for (size_t i = 0; i < size; i++)
		mem[PAGE + (start + i) % DATA] = data[i];
	pc->data_tail = start;
	pc->data_head = start + size;
	(void)sampler_ring_read(&r, each, &o);
	(void)o.tool.round(&o.tool);
	(void)offcpu_flush(&o);
	offcpu_release(&o);
	sampler_ring_release(&r);
	return 0;
}
