/*
 * count.c - the counts of trail bench --metric instructions / est-cycles:
 * the totals of the callgrind out files a counted run leaves (one per
 * process, valgrind --trace-children=yes).  Only the totals: line (the
 * sum of the file's cost lines, what trail collapse's callgrind reader
 * and so flame's counts add up to; callgrind's summary: line, its own
 * running total, can differ by a few instructions) or, without it, the
 * summary: line.  est-cycles weighs the events as collapse/callgrind.c:
 * Ir + 10 x (I1mr + D1mr + D1mw) + 100 x (ILmr + DLmr + DLmw).
 */
#include "bench/executor.h"
#include "core/alloc.h"
#include "core/error.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_EVENTS 32

const char *bench_count_name(enum bench_count count)
{
	return count == BENCH_COUNT_INSTRUCTIONS ? "instructions" :
	       count == BENCH_COUNT_EST_CYCLES ? "est-cycles" : "time";
}

const char *bench_count_unit(enum bench_count count)
{
	return count == BENCH_COUNT_EST_CYCLES ? "cycles" : "instructions";
}

/* The weight of each event of an events: line; -1 when an event the count needs is missing. */
static int weigh_events(const char *line, enum bench_count count, uint64_t *coef, size_t *nr)
{
	static const struct { const char *name; uint64_t coef; } est[] = {
		{ "Ir", 1 }, { "I1mr", 10 }, { "D1mr", 10 }, { "D1mw", 10 },
		{ "ILmr", 100 }, { "DLmr", 100 }, { "DLmw", 100 },
	};
	size_t found = 0, need = count == BENCH_COUNT_EST_CYCLES ? 7 : 1, k;
	const char *p = line;

	*nr = 0;
	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t\n");
		if (!len)
			break;
		if (*nr == MAX_EVENTS)
			return -1;
		coef[*nr] = 0;
		for (k = 0; k < need; k++)
			if (strlen(est[k].name) == len && !memcmp(est[k].name, p, len)) {
				coef[*nr] = est[k].coef;
				found++;
			}
		(*nr)++;
		p += len;
	}
	return found == need ? 0 : -1;
}

/* The weighted total of one file into *total. */
static int read_one(const char *path, enum bench_count count, int64_t *total)
{
	uint64_t coef[MAX_EVENTS], sum = 0;
	size_t nr = 0;
	int have_events = 0, have_total = 0, ret = 0;
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return error_errno("cannot read '%s'", path);
	while (getline(&buf, &cap, f) >= 0) {
		const char *v = NULL;
		int is_totals = 0;

		if (!strncmp(buf, "events:", 7)) {
			if (weigh_events(buf + 7, count, coef, &nr)) {
				buf[strcspn(buf, "\n")] = 0;
				ret = trail_error("%s: the events '%s' lack what %s needs (Ir%s)", path,
						  buf + 7, bench_count_name(count),
						  count == BENCH_COUNT_EST_CYCLES ?
						  " I1mr D1mr D1mw ILmr DLmr DLmw: --cache-sim=yes" : "");
				break;
			}
			have_events = 1;
			continue;
		}
		if (!strncmp(buf, "totals:", 7))
			v = buf + 7, is_totals = 1;
		else if (!strncmp(buf, "summary:", 8) && !have_total)
			v = buf + 8;
		if (!v || !have_events)
			continue;
		{
			const char *p = v;
			size_t i;

			sum = 0;
			for (i = 0; i < nr; i++) {
				char *end;
				unsigned long long x;

				while (*p == ' ' || *p == '\t')
					p++;
				if (!*p || *p == '\n')
					break;	/* trailing zero events may be left out */
				errno = 0;
				x = strtoull(p, &end, 10);
				if (end == p || errno) {
					buf[strcspn(buf, "\n")] = 0;
					ret = trail_error("%s: cannot read the counts '%s'", path, v);
					goto out;
				}
				sum += coef[i] * x;
				p = end;
			}
			have_total = 1;
			if (is_totals)
				break;
		}
	}
	if (!ret && !have_total)
		ret = trail_error("%s: no totals: or summary: line (a truncated callgrind file?)", path);
out:
	if (!ret)
		*total += (int64_t)sum;
	free(buf);
	fclose(f);
	return ret;
}

int bench_count_read_dir(const char *dir, enum bench_count count, int64_t *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0, found = 0;

	*out = 0;
	if (!d)
		return error_errno("cannot read '%s'", dir);
	while ((de = readdir(d))) {
		char *path;

		if (strncmp(de->d_name, "callgrind.out.", 14))
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (!ret)
			ret = read_one(path, count, out);
		found = 1;
		unlink(path);
		free(path);
	}
	closedir(d);
	if (!ret && !found)
		ret = trail_error("callgrind wrote no out file in '%s' (is valgrind installed? "
				  "Debian: apt install valgrind)", dir);
	return ret;
}
