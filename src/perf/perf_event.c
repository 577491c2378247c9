/*
 * perf_event.c - decoding perf_event records (see perf_event.h): one
 * PERF_RECORD_SAMPLE decoder for every sample_type, bounds-checked field by
 * field in the order include/uapi/linux/perf_event.h lays them out, and
 * the fixed layouts of MMAP/MMAP2, COMM and FORK/EXIT.
 */
#include "perf/perf_event.h"
#include "core/alloc.h"
#include "core/unaligned.h"

#include <stdlib.h>
#include <string.h>

#define PERF_FORMAT_LOST_ (1u << 4)	/* PERF_FORMAT_LOST, newer than some headers */
#define PERF_RECORD_MISC_FORK_EXEC_ (1u << 13)

/*
 * The header's fields read through byte loads: a record inside a pipe
 * image or a decompressed chunk need not be aligned.
 */
static uint32_t rec_type(const struct perf_event_header *rec)
{
	return rd32((const unsigned char *)rec);
}

static uint16_t rec_misc(const struct perf_event_header *rec)
{
	return rd16((const unsigned char *)rec + 4);
}

static uint16_t rec_size(const struct perf_event_header *rec)
{
	return rd16((const unsigned char *)rec + 6);
}

void perf_sample_buf_release(struct perf_sample_buf *b)
{
	free(b->words[0]);
	free(b->words[1]);
	memset(b, 0, sizeof(*b));
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

/* p itself when aligned, else a copy of its n u64s in scratch buffer k; NULL: no buffer. */
static inline const uint64_t *aligned_u64(struct perf_sample_buf *b, const unsigned char *p,
				   size_t n, int k)
{
	if (((uintptr_t)p % 8) == 0)
		return (const uint64_t *)(const void *)p;
	if (!b)
		return NULL;
	ALLOC_GROW(b->words[k], n + 1, b->alloc[k]);
	memcpy(b->words[k], p, n * 8);
	return b->words[k];
}

/* Offset of the field that follows every field of sample_type below `upto`. */
static size_t fixed_offset(const struct perf_event_attr *attr, uint64_t upto)
{
	static const uint64_t order[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD,
	};
	size_t off = sizeof(struct perf_event_header), i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]) && order[i] != upto; i++)
		if (attr->sample_type & order[i])
			off += 8;
	return off;
}

size_t perf_sample_period_offset(const struct perf_event_attr *attr)
{
	return fixed_offset(attr, PERF_SAMPLE_PERIOD);
}

size_t perf_sample_time_offset(const struct perf_event_attr *attr)
{
	return fixed_offset(attr, PERF_SAMPLE_TIME);
}

int perf_sample_peek_layout(const struct perf_event_attr *attr, struct perf_peek_layout *l)
{
	uint64_t t = attr->sample_type;

	if (!(t & PERF_SAMPLE_TID) || !(t & PERF_SAMPLE_CALLCHAIN) || (t & PERF_SAMPLE_READ))
		return -1;
	l->tid_off = fixed_offset(attr, PERF_SAMPLE_TID);
	l->chain_off = fixed_offset(attr, 0);	/* past every fixed field */
	return 0;
}

/* The variable part after PERIOD: read values, callchain, raw, branches, registers, stack. */
static const char *parse_tail(const struct perf_event_attr *attr, const unsigned char *p,
			      const unsigned char *end, struct perf_sample_buf *buf,
			      struct perf_sample *s)
{
	uint64_t t = attr->sample_type;

#define NEED(n) do { if ((size_t)(end - p) < (size_t)(n)) return "truncated sample record"; } while (0)
#define SKIP8() do { NEED(8); p += 8; } while (0)
#define TAKE64(dst) do { NEED(8); (dst) = rd64(p); p += 8; } while (0)
	if (t & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format, nr = 1, per;

		if (rf & PERF_FORMAT_GROUP)
			TAKE64(nr);
		else
			SKIP8();	/* value */
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			SKIP8();
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			SKIP8();
		per = !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST_);
		if (rf & PERF_FORMAT_GROUP) {
			per += 1;
			if (nr > (size_t)(end - p) / 8 / per)
				return "truncated read group in sample";
			p += nr * per * 8;
		} else {
			NEED(per * 8);
			p += per * 8;
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		TAKE64(s->nr_callchain);
		if (s->nr_callchain > (size_t)(end - p) / 8 || s->nr_callchain > PERF_SAMPLE_MAX_CALLCHAIN)
			return "callchain longer than its sample record";
		s->callchain = aligned_u64(buf, p, s->nr_callchain, 0);
		if (!s->callchain)
			return "sample record not 8-byte aligned";
		p += s->nr_callchain * 8;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t rs;

		NEED(4);
		rs = rd32(p);
		if (rs > (size_t)(end - p) - 4)
			return "raw data longer than its sample record";
		p += 4 + rs;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr;

		TAKE64(nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			SKIP8();
		if (nr > (size_t)(end - p) / 24)
			return "branch stack longer than its sample record";
		p += nr * 24;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		TAKE64(s->regs_abi);
		if (s->regs_abi) {
			size_t n = (size_t)popcount64(attr->sample_regs_user);

			NEED(n * 8);
			s->regs_mask = attr->sample_regs_user;
			s->regs = aligned_u64(buf, p, n, 1);
			if (!s->regs)
				return "sample record not 8-byte aligned";
			p += n * 8;
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		uint64_t sz;

		TAKE64(sz);
		if (sz) {
			if (sz > (size_t)(end - p))
				return "user stack longer than its sample record";
			s->stack = p;
			p += sz;
			TAKE64(s->stack_size);
			if (s->stack_size > sz)
				s->stack_size = sz;
		}
	}
	return NULL;
#undef NEED
#undef TAKE64
#undef SKIP8
}

int perf_sample_parse(const struct perf_event_attr *attr, const struct perf_event_header *rec,
		      struct perf_sample_buf *buf, struct perf_sample *s, const char **why)
{
	const unsigned char *p = (const unsigned char *)rec + 8;
	const unsigned char *end = (const unsigned char *)rec + rec_size(rec);
	uint64_t t = attr->sample_type;

	memset(s, 0, sizeof(*s));
	s->attr = attr;
	s->cpumode = rec_misc(rec) & PERF_RECORD_MISC_CPUMODE_MASK;
#define TRUNCATED() do { *why = "truncated sample record"; return -1; } while (0)
#define TAKE64(dst) do { if (end - p < 8) TRUNCATED(); (dst) = rd64(p); p += 8; } while (0)
#define SKIP8() do { if (end - p < 8) TRUNCATED(); p += 8; } while (0)
	if (rec_size(rec) < 8)
		TRUNCATED();
	if (t & PERF_SAMPLE_IDENTIFIER)
		TAKE64(s->id);
	if (t & PERF_SAMPLE_IP)
		TAKE64(s->ip);
	if (t & PERF_SAMPLE_TID) {
		if (end - p < 8)
			TRUNCATED();
		s->pid = rd32(p);
		s->tid = rd32(p + 4);
		p += 8;
	}
	if (t & PERF_SAMPLE_TIME)
		TAKE64(s->time);
	if (t & PERF_SAMPLE_ADDR)
		SKIP8();
	if (t & PERF_SAMPLE_ID)
		TAKE64(s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		SKIP8();
	if (t & PERF_SAMPLE_CPU) {
		if (end - p < 8)
			TRUNCATED();
		s->cpu = rd32(p);
		p += 8;
	}
	/* without the field, a fixed period is the attr's (as perf script reads it) */
	s->period = !attr->freq && attr->sample_period ? attr->sample_period : 1;
	if (t & PERF_SAMPLE_PERIOD)
		TAKE64(s->period);
#undef TRUNCATED
#undef TAKE64
#undef SKIP8
	*why = parse_tail(attr, p, end, buf, s);
	return *why ? -1 : 0;
}

size_t perf_sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	size_t n = 0;

	if (!attr->sample_id_all)
		return 0;
	n += t & PERF_SAMPLE_TID ? 8 : 0;
	n += t & PERF_SAMPLE_TIME ? 8 : 0;
	n += t & PERF_SAMPLE_ID ? 8 : 0;
	n += t & PERF_SAMPLE_STREAM_ID ? 8 : 0;
	n += t & PERF_SAMPLE_CPU ? 8 : 0;
	n += t & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	return n;
}

int perf_sample_parse_id(const struct perf_event_attr *attr, const struct perf_event_header *rec,
			 uint32_t *pid, uint32_t *tid, uint64_t *time)
{
	size_t n = perf_sample_id_size(attr);
	const unsigned char *p;

	*pid = *tid = 0;
	*time = 0;
	if (!n || rec_size(rec) < 8 + n)
		return -1;
	/* Trailer order: TID TIME ID STREAM_ID CPU IDENTIFIER. */
	p = (const unsigned char *)rec + rec_size(rec) - n;
	if (attr->sample_type & PERF_SAMPLE_TID) {
		*pid = rd32(p);
		*tid = rd32(p + 4);
		p += 8;
	}
	if (attr->sample_type & PERF_SAMPLE_TIME)
		*time = rd64(p);
	return 0;
}

static int check_string(const unsigned char *p, const unsigned char *end)
{
	return p < end && memchr(p, 0, (size_t)(end - p)) != NULL;
}

int perf_mmap_parse(const struct perf_event_header *rec, struct perf_mmap *m, const char **why)
{
	const unsigned char *r = (const unsigned char *)rec, *end = r + rec_size(rec), *name;
	int mmap2 = rec_type(rec) == PERF_RECORD_MMAP2;

	memset(m, 0, sizeof(*m));
	m->misc = rec_misc(rec);
	if (rec_size(rec) < 8 + 8 + 24 + (mmap2 ? 32 : 0) + 1) {
		*why = "truncated mmap record";
		return -1;
	}
	m->pid = rd32(r + 8);
	m->tid = rd32(r + 12);
	m->start = rd64(r + 16);
	m->len = rd64(r + 24);
	m->pgoff = rd64(r + 32);
	name = r + 40;
	if (mmap2) {
		if (rec_misc(rec) & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m->build_id_size = r[40];
			if (m->build_id_size > 20)
				m->build_id_size = 20;
			m->build_id = r + 44;
		}
		m->prot = rd32(r + 64);
		m->flags = rd32(r + 68);
		name = r + 72;
	}
	if (!check_string(name, end)) {
		*why = "mmap file name is not terminated";
		return -1;
	}
	m->filename = (const char *)name;
	return 0;
}

int perf_comm_parse(const struct perf_event_header *rec, struct perf_comm *c, const char **why)
{
	const unsigned char *r = (const unsigned char *)rec;

	if (rec_size(rec) < 8 + 8 + 1 || !check_string(r + 16, r + rec_size(rec))) {
		*why = "malformed comm record";
		return -1;
	}
	c->pid = rd32(r + 8);
	c->tid = rd32(r + 12);
	c->exec = !!(rec_misc(rec) & PERF_RECORD_MISC_COMM_EXEC);
	c->comm = (const char *)r + 16;
	return 0;
}

int perf_fork_parse(const struct perf_event_header *rec, struct perf_fork *f, const char **why)
{
	const unsigned char *r = (const unsigned char *)rec;

	if (rec_size(rec) < 8 + 16) {
		*why = "truncated fork/exit record";
		return -1;
	}
	f->pid = rd32(r + 8);
	f->ppid = rd32(r + 12);
	f->tid = rd32(r + 16);
	f->ptid = rd32(r + 20);
	f->is_exit = rec_type(rec) == PERF_RECORD_EXIT;
	f->synthesized = !!(rec_misc(rec) & PERF_RECORD_MISC_FORK_EXEC_);
	return 0;
}
