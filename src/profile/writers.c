/*
 * writers.c - the table of output formats (writers.h) and the folded
 * writer; pprof and speedscope are encoded by pprof_write.c and
 * speedscope_write.c.
 */
#include "profile/writers.h"
#include "core/strbuf.h"
#include "profile/folded.h"
#include "profile/pprof_write.h"
#include "profile/speedscope_write.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Folded text: the units' header (folded.h), then "stack count" in byte order. */
static int write_folded(const struct folded_profile *p, const char *title, struct strbuf *out)
{
	uint32_t *order = folded_profile_sorted(p);
	char header[192], c0[64], c1[64];
	size_t i;

	(void)title;
	folded_header_format(header, sizeof(header), &p->weight);
	strbuf_addstr(out, header);
	for (i = 0; i < folded_profile_size(p); i++) {
		uint32_t id = order[i];

		strbuf_add(out, intern_str(&p->stacks, id), intern_len(&p->stacks, id));
		folded_format_count(c0, sizeof(c0), p->counts[0][id]);
		if (p->columns == 2) {
			folded_format_count(c1, sizeof(c1), p->counts[1][id]);
			strbuf_addf(out, " %s %s\n", c0, c1);
		} else {
			strbuf_addf(out, " %s\n", c0);
		}
	}
	free(order);
	return 0;
}

static int write_pprof(const struct folded_profile *p, const char *title, struct strbuf *out)
{
	(void)title;
	return pprof_encode(p, out);
}

static const struct profile_writer folded = {
	"folded", "folded stacks, 'stack count' per line (trail's header names the unit)", 0,
	write_folded,
};
static const struct profile_writer pprof = {
	"pprof", "gzipped profile.proto for go tool pprof, Pyroscope, Grafana", 1, write_pprof,
};
static const struct profile_writer speedscope = {
	"speedscope", "speedscope JSON (www.speedscope.app)", 0, speedscope_encode,
};

const struct profile_writer *const profile_writers[] = { &folded, &pprof, &speedscope, NULL };

const struct profile_writer *profile_writer_find(const char *name)
{
	size_t i;

	for (i = 0; profile_writers[i]; i++)
		if (!strcmp(profile_writers[i]->name, name))
			return profile_writers[i];
	return NULL;
}

const char *profile_writer_names(void)
{
	return "folded, pprof or speedscope";
}
