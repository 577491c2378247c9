/*
 * load.c - read any profile input into a folded_profile (see load.h).
 * perf.data is recognised by its magic; otherwise the first non-blank
 * line decides: a line that ends in a count is folded, anything else is
 * perf script text, which is kept in memory and folded by the collapse
 * engine.  Folded results of the engine are parsed back through
 * folded_parse_line(), so every form ends in the same representation.
 */
#include "collapse/load.h"
#include "collapse/perf_script.h"
#include "collapse/perfdata_fold.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/strbuf.h"
#include "perf/perfdata.h"
#include "profile/fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTED_MALFORMED 5

static void add_folded_line(struct folded_profile *p, const char *line, size_t len,
			    const char *path, unsigned long long lineno)
{
	struct folded_line fl;

	p->lines++;
	if (!len)
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

/* The folder's sorted output, parsed back into p. */
static int add_folders(struct folded_profile *p, struct folder *const *folders, size_t n,
		       const char *path)
{
	char *buf = NULL, *at, *end;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	unsigned long long lineno = 0;

	if (!mem)
		return error_errno("cannot fold '%s' in memory", path);
	if (folder_write(folders, n, mem) < 0 || fclose(mem)) {
		free(buf);
		return trail_error("cannot fold '%s' in memory", path);
	}
	for (at = buf; at < buf + size; at = end + 1) {
		end = memchr(at, '\n', (size_t)(buf + size - at));
		if (!end)
			end = buf + size;
		*end = '\0';
		add_folded_line(p, at, (size_t)(end - at), path, ++lineno);
	}
	free(buf);
	return 0;
}

static int load_perf_data(struct folded_profile *p, const char *path)
{
	struct fold_options fo;
	struct perfdata_fold pf;
	struct folder *f;
	int ret;

	memset(&fo, 0, sizeof(fo));
	memset(&pf, 0, sizeof(pf));
	f = folder_new(&fo);
	ret = perfdata_fold_file(path, f, &pf);
	if (!ret)
		ret = add_folders(p, &f, 1, path);
	free(pf.chosen_event);
	free(pf.other_event);
	folder_free(f);
	return ret;
}

static int load_perf_script(struct folded_profile *p, const char *path, const struct strbuf *text)
{
	struct fold_options fo;
	struct perf_script_session s;
	int ret;

	memset(&fo, 0, sizeof(fo));
	perf_script_session_init(&s, &fo, 1);
	perf_script_session_read_buffer(&s, path, text->buf, text->len);
	if (s.unrecognized)
		warning("%s: %llu lines of perf script text not understood", path,
			(unsigned long long)s.unrecognized);
	ret = add_folders(p, s.folders, s.nr_folders, path);
	perf_script_session_release(&s);
	return ret;
}

const char *load_format_name(enum load_format f)
{
	switch (f) {
	case LOAD_PERF_SCRIPT:
		return "perf script text";
	case LOAD_PERF_DATA:
		return "perf.data";
	default:
		return "folded stacks";
	}
}

int load_profile(struct folded_profile *p, const char *path, enum load_format *format)
{
	struct line_reader r;
	struct strbuf text;
	enum load_format fmt = LOAD_FOLDED;
	int decided = 0, ret;
	char *line;
	size_t len;

	if (perfdata_detect(path)) {
		if (format)
			*format = LOAD_PERF_DATA;
		return load_perf_data(p, path);
	}
	if (line_reader_open(&r, path))
		return -1;
	strbuf_init(&text, 0);
	while ((ret = line_reader_next(&r, &line, &len)) > 0) {
		if (!decided && len && strspn(line, " \t") < len) {
			struct folded_line fl;

			fmt = folded_parse_line(line, len, &fl) ? LOAD_PERF_SCRIPT : LOAD_FOLDED;
			decided = 1;
		}
		if (fmt == LOAD_FOLDED) {
			add_folded_line(p, line, len, r.path, (unsigned long long)r.lineno);
		} else {
			strbuf_add(&text, line, len);
			strbuf_addch(&text, '\n');
		}
	}
	line_reader_close(&r);
	if (!ret && fmt == LOAD_PERF_SCRIPT)
		ret = load_perf_script(p, path, &text);
	strbuf_release(&text);
	if (format)
		*format = fmt;
	return ret < 0 ? -1 : 0;
}
