/*
 * alloc_read.h - turn the interposer's raw files (raw.h) into a perf.data
 * file, one sample per distinct call stack weighed by the chosen view, so
 * trail's perf.data reader symbolises the raw addresses against the maps
 * each process saved, exactly as it does for 'trail record' CPU profiles.
 *
 * Weights follow the sampling (tcmalloc's and Go's unbiasing): an allocation
 * of s bytes is sampled with probability p = 1 - exp(-s / interval), so it
 * stands for s / p bytes and 1 / p objects (p = 1 at interval 1).
 */
#ifndef TRAIL_ALLOC_ALLOC_READ_H
#define TRAIL_ALLOC_ALLOC_READ_H

#include <stddef.h>
#include <stdint.h>

struct perfdata_writer;

enum alloc_view {
	ALLOC_VIEW_SPACE,	/* bytes allocated */
	ALLOC_VIEW_OBJECTS,	/* allocations made */
	ALLOC_VIEW_INUSE_PEAK,	/* bytes live when the heap was largest (per process) */
	ALLOC_VIEW_INUSE_EXIT,	/* bytes never freed (leaks) */
	/*
	 * alloc-space in units of the sampling interval: the same shares, and
	 * counts like sample counts for trail flame's statistics (a sampled
	 * small allocation counts about 1; one of s >> interval bytes, sampled
	 * with certainty, counts s / interval, so a Poisson variance
	 * overstates its noise: conservative).  Not a --view of trail record.
	 */
	ALLOC_VIEW_INTERVALS,
	ALLOC_VIEW_PEAK_INTERVALS,	/* inuse-peak in units of the interval, as above */
};

/* "alloc-space" -> ALLOC_VIEW_SPACE ...; -1 when unknown. */
int alloc_view_parse(const char *name);
/* The view's name ("alloc-space") and unit for graphs ("bytes", "objects"). */
const char *alloc_view_name(enum alloc_view v);
const char *alloc_view_unit(enum alloc_view v);
/* The names, comma-separated, for messages. */
const char *alloc_view_names(void);

/* Totals over every file, estimated as the view weights are. */
struct alloc_totals {
	uint64_t files;		/* process images read */
	uint64_t unfinished;	/* of them, cut short (killed, or records lost) */
	uint64_t lost;		/* images whose records the interposer gave up (.lost files) */
	uint64_t samples;	/* sampled allocations */
	uint64_t interval;	/* bytes, of the first file */
	double bytes;		/* bytes allocated */
	double objects;		/* allocations */
	double peak_bytes;	/* sum over processes of each one's peak live bytes */
	double exit_bytes;	/* bytes live at exit */
	uint64_t samples_written;	/* samples with a weight in the view */
	uint64_t clock;		/* the last sample time written (a sequence number) */
};

/*
 * Append every raw file's samples to w (started, with one event whose
 * sample_type is ALLOC_SAMPLE_TYPE): COMM and MMAP2 records from each
 * process's saved maps, then its samples.  data/size is one file's bytes;
 * name is for messages.  0, or -1 after trail_error("NAME: offset N: ...").
 */
int alloc_raw_convert(const unsigned char *data, size_t size, const char *name,
		      enum alloc_view view, struct perfdata_writer *w, struct alloc_totals *t);

/* What every sample carries: IP, TID, TIME, PERIOD (the weight), CALLCHAIN. */
#define ALLOC_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

#endif
