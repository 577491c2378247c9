/*
 * progress.h - one self-rewriting status line on stderr for long work
 * ("capture good: 3/10 (30%), ETA 12s").  Shown only when stderr is a
 * terminal and trail_quiet is off; redrawn at most 10 times a second.
 */
#ifndef TRAIL_CORE_PROGRESS_H
#define TRAIL_CORE_PROGRESS_H

#include <stdint.h>

struct progress {
	char title[96];
	uint64_t total;		/* 0 when unknown */
	uint64_t done;
	double start;		/* seconds, monotonic */
	double last_draw;	/* seconds, monotonic */
	int enabled;
	int drawn;		/* something is on the line to erase */
};

void progress_start(struct progress *p, const char *title, uint64_t total);
/* detail (may be NULL) is printed after the counters. */
void progress_update(struct progress *p, uint64_t done, const char *detail);
/* Erase the line (the caller prints a summary if it wants one). */
void progress_stop(struct progress *p);

/* Seconds from a monotonic clock, and from the wall clock. */
double clock_monotonic(void);
double clock_wall(void);

#endif
