/*
 * fold_standin.c - STAND-IN for the collapse module (see fold_standin.h):
 * one perf script sample is a header line, then one "ADDR SYM (DSO)" line
 * per frame, leaf first, then a blank line.  Offsets (+0x..) are dropped.
 */
#include "flame/fold_standin.h"
#include "core/line_reader.h"
#include "core/string_list.h"
#include "core/strbuf.h"

#include <string.h>

static void flush(struct folded_profile *p, struct strbuf *comm, struct string_list *frames)
{
	struct strbuf stack = STRBUF_INIT;
	size_t i;

	if (!comm->len)
		return;
	strbuf_addstr(&stack, comm->buf);
	for (i = frames->nr; i-- > 0;) {
		strbuf_addch(&stack, ';');
		strbuf_addstr(&stack, frames->items[i]);
	}
	folded_profile_add(p, stack.buf, stack.len, 0, 1);
	strbuf_release(&stack);
	strbuf_reset(comm);
	string_list_clear(frames);
}

static void add_frame(struct string_list *frames, char *line)
{
	char *sym, *end, *plus;

	while (*line == ' ' || *line == '\t')
		line++;
	sym = strchr(line, ' ');
	if (!sym)
		return;
	sym++;
	end = strrchr(sym, '(');
	if (end && end > sym && end[-1] == ' ')
		end[-1] = '\0';
	plus = strstr(sym, "+0x");
	if (plus)
		*plus = '\0';
	if (!strcmp(sym, "[unknown]") && end) {
		char *close = strrchr(end, ')'), *base;

		if (close) {
			*close = '\0';
			base = strrchr(end + 1, '/');
			sym = base ? base + 1 : end + 1;
		}
	}
	for (plus = sym; *plus; plus++)
		if (*plus == ';')
			*plus = ':';
	string_list_append(frames, sym);
}

int flame_fold_perf_script(const char *path, struct folded_profile *p)
{
	struct line_reader r;
	struct strbuf comm = STRBUF_INIT;
	struct string_list frames = STRING_LIST_INIT;
	char *line;
	size_t len;
	int ret;

	if (line_reader_open(&r, path))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0) {
		if (!len) {
			flush(p, &comm, &frames);
		} else if (line[0] == ' ' || line[0] == '\t') {
			if (comm.len)
				add_frame(&frames, line);
		} else if (line[0] != '#') {
			size_t n = strcspn(line, " \t");

			flush(p, &comm, &frames);
			strbuf_add(&comm, line, n);
		}
	}
	flush(p, &comm, &frames);
	line_reader_close(&r);
	strbuf_release(&comm);
	return ret < 0 ? -1 : 0;
}
