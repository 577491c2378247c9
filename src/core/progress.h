/*
 * progress.h - one self-rewriting status line on stderr for long work
 * ("capture good: 3/10 (30%), ETA 12s", or counting items one at a time,
 * "narrow (bisect): probe 3 of ~5, ETA 1m10s").  Shown only when stderr is
 * a terminal and trail_quiet is off; redrawn at most 10 times a second.
 */
#ifndef TRAIL_CORE_PROGRESS_H
#define TRAIL_CORE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct progress {
	char title[96];
	uint64_t total;		/* 0 when unknown */
	uint64_t done;
	double start;		/* seconds, monotonic */
	double done_at;		/* seconds, monotonic: when done last changed */
	double last_draw;	/* seconds, monotonic */
	/*
	 * Item mode: when set ("probe"), the line names the item under way,
	 * done + 1, "of total" ("of ~total" when estimated), and the ETA is the
	 * mean time per finished item times the items left, less the time the
	 * current one has run already.
	 */
	const char *item;
	int estimated;		/* total is an estimate: "~" */
	int enabled;
	int drawn;		/* something is on the line to erase */
};

void progress_start(struct progress *p, const char *title, uint64_t total);
/* detail (may be NULL) is printed after the counters. */
void progress_update(struct progress *p, uint64_t done, const char *detail);
/* Erase the line (the caller prints a summary if it wants one). */
void progress_stop(struct progress *p);
/*
 * The text progress_update draws at time now (monotonic seconds), without
 * the terminal codes, into buf (always terminated).  Pure: tests drive it.
 */
void progress_format(const struct progress *p, double now, const char *detail, char *buf,
		     size_t n);

/* Seconds from a monotonic clock, and from the wall clock (since the epoch). */
double clock_monotonic(void);
double clock_wall(void);

#endif
