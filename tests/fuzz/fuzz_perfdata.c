/*
 * fuzz_perfdata.c - libFuzzer target for the perf.data reader: any byte
 * string is opened as a perf.data image and every record is delivered;
 * errors are fine, crashes and sanitizer reports are not.
 */
#include "core/error.h"
#include "perf/perfdata.h"

#include <stddef.h>
#include <stdint.h>

struct sink {
	struct perf_tool tool;	/* first member: the callbacks get it back */
	uint64_t sum;
};

static int on_sample(struct perf_tool *t, const struct perf_event_header *rec,
		     const struct perf_sample *s)
{
	uint64_t *sum = &((struct sink *)t)->sum, i;

	/* touch what the reader handed out, so bad bounds show up */
	for (i = 0; i < s->nr_callchain; i++)
		*sum += s->callchain[i];
	if (s->stack && s->stack_size)
		*sum += s->stack[s->stack_size - 1];
	(void)rec;	/* may be unaligned: read it only through core/unaligned.h */
	return 0;
}

static int on_mmap(struct perf_tool *t, const struct perf_event_header *rec,
		   const struct perf_mmap *m)
{
	uint64_t *sum = &((struct sink *)t)->sum;
	const char *f;

	(void)rec;
	for (f = m->filename; *f; f++)
		*sum += (unsigned char)*f;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sink k = { { .sample = on_sample, .mmap = on_mmap }, 0 };
	struct perfdata pd;

	trail_quiet = 1;
	error_set_program("fuzz");
	if (!perfdata_open_buffer(&pd, data, size, "fuzz.data")) {
		size_t i;
		const char *f;

		/* the BUILD_ID section's names point into the image */
		for (i = 0; i < pd.nr_build_ids; i++)
			for (f = pd.build_ids[i].filename; *f; f++)
				k.sum += (unsigned char)*f + pd.build_ids[i].id[pd.build_ids[i].size ? pd.build_ids[i].size - 1 : 0];
		perfdata_process(&pd, &k.tool);
	}
	perfdata_close(&pd);
	return 0;
}
