/*
 * perf_tool.c - routing one perf record to the callback of a struct
 * perf_tool (see perf_tool.h), decoded by perf_event.c on the way.
 */
#include "perf/perf_tool.h"
#include "core/unaligned.h"

static int other(struct perf_tool *t, const struct perf_event_header *rec)
{
	return t->other ? t->other(t, rec) : 0;
}

int perf_tool_deliver(struct perf_tool *t, const struct perf_tool_event *ev,
		      const struct perf_event_header *rec, const char **why)
{
	uint32_t type = rd32((const unsigned char *)rec);

	*why = NULL;
	switch (type) {
	case PERF_RECORD_SAMPLE: {
		struct perf_sample s;

		if (perf_sample_parse(ev->attr, rec, ev->buf, &s, why))
			return -1;
		s.event = ev->name;
		return t->sample ? t->sample(t, rec, &s) : other(t, rec);
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct perf_mmap m;

		if (perf_mmap_parse(rec, &m, why))
			return -1;
		return t->mmap ? t->mmap(t, rec, &m) : other(t, rec);
	}
	case PERF_RECORD_COMM: {
		struct perf_comm c;

		if (perf_comm_parse(rec, &c, why))
			return -1;
		return t->comm ? t->comm(t, rec, &c) : other(t, rec);
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct perf_fork f;

		if (perf_fork_parse(rec, &f, why))
			return -1;
		return t->fork ? t->fork(t, rec, &f) : other(t, rec);
	}
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		return t->lost ? t->lost(t, rec) : other(t, rec);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return t->context_switch ? t->context_switch(t, rec) : other(t, rec);
	}
	return other(t, rec);
}
