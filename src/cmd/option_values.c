/*
 * option_values.c - the values an option takes and a command's
 * subcommands, for the completion scripts ('trail help --values CMD
 * OPTION', 'trail help --subcommands CMD': one a line).  A closed choice
 * is an OPT_CHOICE in its command's option table, which answers for it;
 * this table lists the rest: words from the tables that parse them
 * (events, output writers, input formats, palettes, metrics) and options
 * that take a free form besides their words (-g dwarf,BYTES, --profiler
 * CMD).
 */
#include "cmd/commands.h"
#include "alloc/alloc_read.h"
#include "collapse/collapser.h"
#include "flamegraph/palette.h"
#include "measure/metric.h"
#include "perf/sampler.h"
#include "profile/writers.h"

#include <stdio.h>
#include <string.h>

struct option_values {
	const char *cmd;
	const char *opts;	/* the option's spellings, ' '-separated */
	const char *values;	/* names separated by blanks or ", " ... */
	const char *(*list)(void);	/* ... or computed */
};

static const char *record_events(void)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s, alloc", sampler_event_names());
	return buf;
}

static const char *writer_names(void)
{
	static char buf[128];
	size_t i, n = 0;

	for (i = 0; profile_writers[i] && n < sizeof(buf) - 32; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s ", profile_writers[i]->name);
	return buf;
}

static const char *format_names(void)
{
	static char buf[512];
	size_t i, n = 0;

	for (i = 0; collapsers[i] && n < sizeof(buf) - 32; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s ", collapsers[i]->name);
	snprintf(buf + n, sizeof(buf) - n, "list");
	return buf;
}

static const char *flame_metrics(void)
{
	return flame_metric_names(" ", 0);
}

static const char *history_metrics(void)
{
	return flame_metric_names(" ", 1);
}

static const struct option_values table[] = {
	{ "record", "-e --event", NULL, record_events },
	{ "record", "-g --call-graph", "fp dwarf none", NULL },
	{ "record", "--view", NULL, alloc_view_names },
	{ "collapse", "--output", NULL, writer_names },
	{ "collapse", "--format", NULL, format_names },
	{ "flame", "--metric", NULL, flame_metrics },
	{ "flame", "--profiler", "auto trail perf", NULL },
	{ "flamegraph", "--colors", NULL, fg_palette_names },
	{ "history", "--metric", NULL, history_metrics },
	{ "history", "--profiler", "trail perf", NULL },
};

/* Whether opt is one of the ' '-separated spellings. */
static int spelled(const char *spellings, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = spellings;

	while ((p = strstr(p, opt))) {
		if ((p == spellings || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

int cmd_print_option_values(const char *cmd, const char *opt)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const char *v, *p;

		if (strcmp(table[i].cmd, cmd) || !spelled(table[i].opts, opt))
			continue;
		v = table[i].values ? table[i].values : table[i].list();
		/* one a line: split at blanks and commas */
		for (p = v; *p;) {
			size_t n = strcspn(p, " ,");

			if (n)
				printf("%.*s\n", (int)n, p);
			p += n;
			p += strspn(p, " ,");
		}
		return 0;
	}
	return 1;	/* not listed here: a choice option's own table may know */
}

int cmd_print_subcommands(const char *cmd)
{
	if (!strcmp(cmd, "history"))
		cmd_history_print_subcommands();
	return 0;	/* a command without subcommands: nothing to offer */
}
