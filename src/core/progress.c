/*
 * progress.c - the status line (see progress.h) and the clocks it uses.
 */
#include "core/progress.h"
#include "core/error.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double clock_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double clock_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, const char *title, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->title, sizeof(p->title), "%s", title);
	p->total = total;
	p->start = clock_monotonic();
	p->enabled = !trail_quiet && isatty(2);
}

static void format_eta(char *buf, size_t n, double secs)
{
	if (secs >= 3600)
		snprintf(buf, n, "%dh%02dm", (int)(secs / 3600), (int)(secs / 60) % 60);
	else if (secs >= 60)
		snprintf(buf, n, "%dm%02ds", (int)(secs / 60), (int)secs % 60);
	else
		snprintf(buf, n, "%ds", (int)(secs + 0.5));
}

void progress_update(struct progress *p, uint64_t done, const char *detail)
{
	double now;
	char eta[32] = "";

	p->done = done;
	if (!p->enabled)
		return;
	now = clock_monotonic();
	if (p->drawn && now - p->last_draw < 0.1 && done != p->total)
		return;
	p->last_draw = now;
	if (p->total && done && done < p->total) {
		char t[24];

		format_eta(t, sizeof(t), (now - p->start) / (double)done * (double)(p->total - done));
		snprintf(eta, sizeof(eta), ", ETA %s", t);
	}
	if (p->total)
		fprintf(stderr, "\r\033[K%s: %llu/%llu (%d%%)%s%s%s", p->title,
			(unsigned long long)done, (unsigned long long)p->total,
			(int)(100.0 * (double)done / (double)p->total), eta,
			detail ? " " : "", detail ? detail : "");
	else
		fprintf(stderr, "\r\033[K%s: %llu%s%s", p->title, (unsigned long long)done,
			detail ? " " : "", detail ? detail : "");
	fflush(stderr);
	p->drawn = 1;
}

void progress_stop(struct progress *p)
{
	if (p->enabled && p->drawn)
		fputs("\r\033[K", stderr);
	p->drawn = 0;
}
