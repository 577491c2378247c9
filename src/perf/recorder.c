/*
 * recorder.c - a sampling run into a perf.data file (see recorder.h): the
 * writer tool at the end of the chain (statistics, then the perf.data
 * writer with FINISHED_ROUND marks), the off-CPU filter before it, and
 * the build ids of the modules the samples hit.
 */
#include "perf/recorder.h"
#include "core/error.h"

#include <stddef.h>
#include <string.h>

static struct recorder *recorder_of(struct perf_tool *t)
{
	return (struct recorder *)((char *)t - offsetof(struct recorder, tool));
}

static int write_sample(struct perf_tool *t, const struct perf_event_header *rec,
			const struct perf_sample *smp)
{
	struct recorder *r = recorder_of(t);

	/* the sample as decoded already, straight to the module marker's tool */
	if (r->hits.tool.sample(&r->hits.tool, rec, smp))
		return -1;
	fp_check_sample(&r->fp, &r->hits.machine, smp);	/* after: the maps know its module */
	r->samples++;
	r->since_round++;
	return perfdata_writer_add(&r->w, rec, smp->time ? smp->time : 1);
}

static int write_other(struct perf_tool *t, const struct perf_event_header *rec)
{
	struct recorder *r = recorder_of(t);

	r->since_round++;
	dso_hits_add(&r->hits, rec);
	return perfdata_writer_add(&r->w, rec, 0);
}

static int write_round(struct perf_tool *t)
{
	struct recorder *r = recorder_of(t);

	if (!r->since_round)
		return 0;
	r->since_round = 0;
	return perfdata_writer_round(&r->w);
}

static int add_build_id(void *ctx, const char *name, int kernel, const uint8_t *id, size_t size)
{
	/* pid -1: the host (perf's HOST_KERNEL_ID_PID), for user modules too */
	return perfdata_writer_add_build_id(ctx, -1, kernel ? PERF_RECORD_MISC_KERNEL
							  : PERF_RECORD_MISC_USER,
					    id, size, name);
}

void recorder_init(struct recorder *r, const struct sampler_opts *so)
{
	memset(r, 0, sizeof(*r));
	sampler_init(&r->s, so);
	r->w.fd = -1;
}

int recorder_write(struct recorder *r, const char *path, int nr, const char *const *cmdline)
{
	struct sampler *s = &r->s;
	struct perf_event_attr file_attr = s->attr;
	struct perf_tool *first = &r->tool;

	if (perfdata_writer_open(&r->w, path))
		return -1;
	r->opened = 1;
	dso_hits_init(&r->hits, &s->attr, s->opts.callchain == SAMPLER_CALLCHAIN_DWARF);
	r->hits_ready = 1;
	r->tool.sample = write_sample;
	r->tool.other = write_other;
	r->tool.round = write_round;
	if (s->offcpu) {
		/* What the file holds: samples weighted by blocked ns, as perf's offcpu-time. */
		file_attr.type = PERF_TYPE_SOFTWARE;
		file_attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	}
	perfdata_writer_add_event(&r->w, &file_attr, s->event_name, s->ids, s->nr_fds);
	if (perfdata_writer_start(&r->w))
		return -1;
	if (s->offcpu) {
		offcpu_init(&r->oc, &s->attr, &r->tool);
		r->offcpu_ready = 1;
		first = &r->oc.tool;
	}
	if (sampler_run(s, first))
		return -1;
	if (s->offcpu && offcpu_flush(&r->oc))
		return -1;
	if (write_round(&r->tool))
		return -1;
	if (dso_hits_build_ids(&r->hits, add_build_id, &r->w))
		return -1;
	if (perfdata_writer_finish(&r->w, nr, cmdline))
		return -1;
	r->finished = 1;
	return 0;
}

void recorder_release(struct recorder *r)
{
	sampler_release(&r->s);
	perfdata_writer_release(&r->w);
	if (r->hits_ready)
		dso_hits_release(&r->hits);
	r->hits_ready = 0;
	fp_check_release(&r->fp);
	if (r->offcpu_ready)
		offcpu_release(&r->oc);
	r->offcpu_ready = 0;
}
