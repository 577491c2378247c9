/*
 * load.c - read any profile input into a folded_profile (see load.h).
 * Folded text (the first line that is not blank or a header ends in a
 * count) is read with folded_parse_line(); anything else goes to the
 * collapser 'trail collapse' would guess for it, with its default
 * options, and the engine hands its stacks over (folder_to_profile), so
 * every form ends in the same representation.
 */
#include "collapse/load.h"
#include "collapse/collapser.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "profile/fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_REPORTED_MALFORMED 5

static void add_folded_line(struct folded_profile *p, const char *line, size_t len,
			    const char *path, unsigned long long lineno)
{
	struct folded_line fl;

	p->lines++;
	if (!len)
		return;
	/* trail's header (folded.h): the units, not a stack */
	if (lineno == 1 && folded_header_parse(line, len, &p->weight))
		return;
	if (folded_parse_line(line, len, &fl)) {
		if (++p->malformed <= MAX_REPORTED_MALFORMED)
			warning("%s:%llu: ignoring line without a sample count: '%.80s'",
				path, lineno, line);
		return;
	}
	folded_profile_add(p, fl.stack, fl.stack_len, 0, fl.count[0]);
	if (fl.columns == 2)
		folded_profile_add(p, fl.stack, fl.stack_len, 1, fl.count[1]);
}

/* Whether the first line of the input that is not blank or a header is a folded stack. */
static int head_is_folded(const char *head, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(head + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - head) : len, n = end - pos;
		const char *line = head + pos;
		struct folded_weight_info wi;
		struct folded_line fl;

		if (n && line[n - 1] == '\r')
			n--;
		pos = end + 1;
		if (strspn(line, " \t") >= n || folded_header_parse(line, n, &wi))
			continue;
		return !folded_parse_line(line, n, &fl);
	}
	return 0;
}

/* Folded stacks, one or two columns, fractions allowed (folded_parse_line's rules). */
static int load_folded(struct folded_profile *p, struct collapse_input *in)
{
	struct line_reader r;
	char *line;
	size_t len;
	int ret;

	if (collapse_input_lines(in, &r))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0)
		add_folded_line(p, line, len, in->name, (unsigned long long)r.lineno);
	line_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

/* Any other format: the collapser folds it as 'trail collapse' would. */
static int load_collapsed(struct folded_profile *p, struct collapse_input *in,
			  const struct collapser *c, const char *sample_type)
{
	struct fold_options fo;
	struct collapse_session s;
	int ret;

	memset(&fo, 0, sizeof(fo));
	collapse_session_init(&s, &fo);
	s.opts.sample_type = sample_type;
	ret = c->read(&s, in, s.folders[0]);
	if (s.unrecognized)
		warning("%s: %llu lines of %s not understood", in->name,
			(unsigned long long)s.unrecognized, c->description);
	if (!ret) {
		folder_to_profile(s.folders, s.nr_folders, p);
		p->weight = s.weight;
	}
	collapse_session_release(&s);
	return ret;
}

const char *load_format_name(const struct collapser *c)
{
	if (!c)
		return "nothing (empty input)";
	if (!strcmp(c->name, "folded"))
		return "folded stacks";
	if (!strcmp(c->name, "perf"))
		return "perf script text";
	if (!strcmp(c->name, "perfdata"))
		return "perf.data";
	return c->name;
}

int load_has_process_root(const struct collapser *c)
{
	return c && (!strcmp(c->name, "perf") || !strcmp(c->name, "perfdata"));
}

int load_profile(struct folded_profile *p, const char *path, const struct collapser *named,
		 const struct collapser **format)
{
	const struct load_options o = { named, NULL };

	return load_profile_with(p, path, &o, format);
}

int load_profile_with(struct folded_profile *p, const char *path, const struct load_options *o,
		      const struct collapser **format)
{
	const struct collapser *named = o->named;
	struct collapse_input in;
	const struct collapser *c = NULL;
	int ret = 0;

	if (collapse_input_open(&in, path))
		return -1;
	/* folded text keeps folded_parse_line's rules (two columns, fractions) */
	if (named && strcmp(named->name, "folded")) {
		c = named;
		ret = load_collapsed(p, &in, c, o->sample_type);
	} else if (named || head_is_folded(in.head, in.head_len)) {
		c = collapser_find("folded");
		ret = load_folded(p, &in);
	} else if ((c = collapse_guess(in.head, in.head_len, NULL))) {
		ret = load_collapsed(p, &in, c, o->sample_type);
	} else if (strspn(in.head, " \t\r\n") < in.head_len) {
		trail_error("cannot tell the format of '%s': no folded stacks, and no format "
			    "'trail collapse --format list' knows", in.name);
		ret = LOAD_UNKNOWN_FORMAT;
	}
	collapse_input_close(&in);
	if (format)
		*format = c;
	return ret == LOAD_UNKNOWN_FORMAT ? ret : ret < 0 ? -1 : 0;
}

int load_is_foreign(const char *path)
{
	struct collapse_input in;
	const struct collapser *c;
	int ret = 0;

	struct stat st;

	/* only a regular file can be looked at twice (a pipe or FIFO cannot) */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (collapse_input_open(&in, path))
		return -1;	/* error printed: reading it again would say it twice */
	if (!head_is_folded(in.head, in.head_len)) {
		c = collapse_guess(in.head, in.head_len, NULL);
		ret = c && strcmp(c->name, "folded") && strcmp(c->name, "recursive");
	}
	collapse_input_close(&in);
	return ret;
}
