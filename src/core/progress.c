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
	p->done_at = p->start;
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

void progress_format(const struct progress *p, double now, const char *detail, char *buf,
		     size_t n)
{
	char eta[32] = "", t[24];
	const char *sep = detail ? " " : "", *d = detail ? detail : "";

	if (p->item) {
		/* The item under way is done + 1; an estimate it outgrew is raised. */
		uint64_t total = p->total > p->done + 1 ? p->total : p->done + 1;

		if (p->done && p->done < total) {
			double left = (p->done_at - p->start) / (double)p->done * (double)(total - p->done)
				      - (now - p->done_at);

			format_eta(t, sizeof(t), left > 0 ? left : 0);
			snprintf(eta, sizeof(eta), ", ETA %s", t);
		}
		snprintf(buf, n, "%s: %s %llu of %s%llu%s%s%s", p->title, p->item,
			 (unsigned long long)p->done + 1, p->estimated ? "~" : "",
			 (unsigned long long)total, eta, sep, d);
		return;
	}
	if (p->total && p->done && p->done < p->total) {
		format_eta(t, sizeof(t),
			   (now - p->start) / (double)p->done * (double)(p->total - p->done));
		snprintf(eta, sizeof(eta), ", ETA %s", t);
	}
	if (p->total)
		snprintf(buf, n, "%s: %llu/%llu (%d%%)%s%s%s", p->title, (unsigned long long)p->done,
			 (unsigned long long)p->total,
			 (int)(100.0 * (double)p->done / (double)p->total), eta, sep, d);
	else
		snprintf(buf, n, "%s: %llu%s%s", p->title, (unsigned long long)p->done, sep, d);
}

void progress_update(struct progress *p, uint64_t done, const char *detail)
{
	char line[256];
	double now = clock_monotonic();

	if (done != p->done)
		p->done_at = now;
	p->done = done;
	if (!p->enabled)
		return;
	if (p->drawn && now - p->last_draw < 0.1 && done != p->total)
		return;
	p->last_draw = now;
	progress_format(p, now, detail, line, sizeof(line));
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	p->drawn = 1;
}

void progress_stop(struct progress *p)
{
	if (p->enabled && p->drawn)
		fputs("\r\033[K", stderr);
	p->drawn = 0;
}
