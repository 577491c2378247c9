/*
 * offcpu.c - pairing switch-out samples with switch-in records to weigh
 * each blocking call chain by the time the thread was off the CPU (see
 * offcpu.h).
 */
#include "perf/offcpu.h"
#include "core/alloc.h"
#include "core/hashmap.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

struct offcpu_item {
	uint64_t time;		/* ns */
	uint64_t seq;
	struct perf_event_header *rec;	/* owned copy */
};

struct offcpu_pending {
	uint32_t tid;
	int preempted;
	uint64_t time;		/* ns, of the switch-out sample */
	struct perf_event_header *rec;	/* owned copy of the sample */
};

static struct offcpu *from_tool(struct perf_tool *t)
{
	return (struct offcpu *)((char *)t - offsetof(struct offcpu, tool));
}

static int cmp_item(const void *a, const void *b)
{
	const struct offcpu_item *x = a, *y = b;

	if (x->time != y->time)
		return (x->time > y->time) - (x->time < y->time);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* ---- tid -> pending sample: a dense array found through core/hashmap ---- */

static uint32_t tid_hash(uint32_t tid)
{
	return hashmap_hash_u64(tid);
}

static struct offcpu_pending *pending_find(struct offcpu *o, uint32_t tid)
{
	struct hashmap_iter it;
	uint32_t id;

	for (id = hashmap_first(&o->pending_index, tid_hash(tid), &it); id != HASHMAP_NONE;
	     id = hashmap_next(&it))
		if (o->pending[id].tid == tid)
			return &o->pending[id];
	return NULL;
}

/* The entry for tid (existing or new, tid set). */
static struct offcpu_pending *pending_get(struct offcpu *o, uint32_t tid)
{
	struct offcpu_pending *p = pending_find(o, tid);

	if (p)
		return p;
	ALLOC_GROW(o->pending, o->nr_pending + 1, o->alloc_pending);
	p = &o->pending[o->nr_pending];
	memset(p, 0, sizeof(*p));
	p->tid = tid;
	hashmap_add(&o->pending_index, tid_hash(tid), (uint32_t)o->nr_pending++);
	return p;
}

/* Drop an entry: the last one moves into its place. */
static void pending_remove(struct offcpu *o, struct offcpu_pending *p)
{
	uint32_t id = (uint32_t)(p - o->pending), last = (uint32_t)(o->nr_pending - 1);

	free(p->rec);
	hashmap_remove(&o->pending_index, tid_hash(p->tid), id);
	if (id != last) {
		*p = o->pending[last];
		hashmap_renumber(&o->pending_index, tid_hash(p->tid), last, id);
	}
	o->nr_pending--;
}

/* ---- processing in time order ---- */

/* Hand rec to the next tool, decoded again for it. */
static int pass_on(struct perf_tool *t, const struct perf_event_header *rec)
{
	struct offcpu *o = from_tool(t);
	struct perf_tool_event ev = { &o->attr, NULL, NULL };
	const char *why;

	if (perf_tool_deliver(o->next, &ev, rec, &why) && why)
		return trail_error("malformed record in off-CPU recording: %s", why);
	return 0;
}

static int process(struct offcpu *o, struct perf_event_header *rec, uint64_t time)
{
	if (rec->type == PERF_RECORD_SAMPLE) {
		struct perf_sample smp;
		struct offcpu_pending *p;
		const char *why;

		if (perf_sample_parse(&o->attr, rec, NULL, &smp, &why) || !smp.tid) {
			free(rec);
			return 0;
		}
		p = pending_get(o, smp.tid);
		free(p->rec);
		p->rec = rec;
		p->time = time;
		p->preempted = 0;
		return 0;
	}
	/* PERF_RECORD_SWITCH */
	{
		uint32_t pid, tid;
		uint64_t t;
		struct offcpu_pending *p;
		int ret = 0;

		if (perf_sample_parse_id(&o->attr, rec, &pid, &tid, &t) || !(p = pending_find(o, tid))) {
			free(rec);
			return 0;
		}
		if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT) {
			if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				p->preempted = 1;
		} else if (p->preempted) {
			o->nr_preempted++;
			pending_remove(o, p);
		} else if (t > p->time) {
			uint64_t blocked = t - p->time;
			unsigned char *b = (unsigned char *)p->rec;

			memcpy(b + perf_sample_period_offset(&o->attr), &blocked, 8);
			if (o->attr.sample_type & PERF_SAMPLE_TIME)
				memcpy(b + perf_sample_time_offset(&o->attr), &t, 8);
			o->nr_blocks++;
			o->blocked_ns += blocked;
			ret = pass_on(&o->tool, p->rec);
			pending_remove(o, p);
		}
		free(rec);
		return ret;
	}
}

static int drain(struct offcpu *o, uint64_t upto, int all)
{
	size_t i, n;
	int ret = 0;

	if (o->nr_queue)
		qsort(o->queue, o->nr_queue, sizeof(*o->queue), cmp_item);
	for (n = 0; n < o->nr_queue && (all || o->queue[n].time <= upto); n++)
		if (!ret)
			ret = process(o, o->queue[n].rec, o->queue[n].time);
		else
			free(o->queue[n].rec);
	for (i = n; i < o->nr_queue; i++)
		o->queue[i - n] = o->queue[i];
	o->nr_queue -= n;
	return ret;
}

/* Queue a copy of rec (a sample, or a switch record) until its time comes. */
static void enqueue(struct offcpu *o, const struct perf_event_header *rec, uint64_t time)
{
	struct offcpu_item *it;

	ALLOC_GROW(o->queue, o->nr_queue + 1, o->alloc_queue);
	it = &o->queue[o->nr_queue++];
	it->time = time;
	it->seq = o->seq++;
	it->rec = xmalloc(rec->size);
	memcpy(it->rec, rec, rec->size);
	if (time > o->max_time)
		o->max_time = time;
}

static int on_sample(struct perf_tool *t, const struct perf_event_header *rec,
		     const struct perf_sample *s)
{
	enqueue(from_tool(t), rec, s->time);
	return 0;
}

static int on_switch(struct perf_tool *t, const struct perf_event_header *rec)
{
	struct offcpu *o = from_tool(t);
	uint32_t pid, tid;
	uint64_t time;

	if (!perf_sample_parse_id(&o->attr, rec, &pid, &tid, &time))
		enqueue(o, rec, time);
	return 0;
}

static int on_round(struct perf_tool *t)
{
	struct offcpu *o = from_tool(t);
	int ret = drain(o, o->flush_time, 0);

	/* What the next round reads was written after this one's reads began. */
	o->flush_time = o->max_time;
	if (!ret && o->next->round)
		ret = o->next->round(o->next);
	return ret;
}

void offcpu_init(struct offcpu *o, const struct perf_event_attr *attr, struct perf_tool *next)
{
	memset(o, 0, sizeof(*o));
	o->attr = *attr;
	o->next = next;
	o->tool.sample = on_sample;
	o->tool.context_switch = on_switch;
	o->tool.other = pass_on;
	o->tool.round = on_round;
}

int offcpu_flush(struct offcpu *o)
{
	return drain(o, 0, 1);
}

void offcpu_release(struct offcpu *o)
{
	size_t i;

	for (i = 0; i < o->nr_queue; i++)
		free(o->queue[i].rec);
	free(o->queue);
	for (i = 0; i < o->nr_pending; i++)
		free(o->pending[i].rec);
	free(o->pending);
	hashmap_release(&o->pending_index);
	memset(o, 0, sizeof(*o));
}
