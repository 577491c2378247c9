/*
 * perf_script_parse.c - one parser of 'perf script' lines (one per
 * thread): the Perl script's state machine over the grammar of
 * perf_script_grammar.c, feeding a folder, and taking a parser's findings
 * (unrecognised lines, skipped events, the event filter) into the
 * collapse session.
 */
#include "collapse/perf_script.h"
#include "collapse/perf_script_parts.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/parse_number.h"
#include "core/strbuf.h"
#include "core/string_list.h"

#include <stdlib.h>
#include <string.h>

/* ---- one parser per thread ---- */

void script_parser_init(struct parser *p, struct folder *f, const char *filter)
{
	memset(p, 0, sizeof(*p));
	p->folder = f;
	p->event_filter = filter;
	p->event_filter_len = filter ? strlen(filter) : 0;
}

void script_parser_release(struct parser *p)
{
	unsigned i;

	for (i = 0; i < p->nr_warn; i++)
		free(p->warn[i].text);
	free(p->own_filter);
	free(p->other_event);
	string_list_clear(&p->skipped_events);
}

static void unrecognized(struct parser *p, const char *s, size_t len)
{
	if (p->nr_warn < COLLAPSE_MAX_WARNINGS) {
		size_t n = len > 160 ? 160 : len;
		char *t = xmalloc(n + 4);

		memcpy(t, s, n);
		if (n < len)
			memcpy(t + n, "...", 3), n += 3;
		t[n] = '\0';
		p->warn[p->nr_warn].line = p->lineno;
		p->warn[p->nr_warn].text = t;
		p->nr_warn++;
	}
	p->unrecognized++;
	if (memchr(s, '\0', len))
		p->binary++;
}

static uint64_t parse_period(const char *d, size_t n)
{
	uint64_t v;

	/* Perl: "if (not $period) { $period = 1 }": no period or "0" count once */
	if (!d || (n == 1 && d[0] == '0'))
		return 1;
	/* the grammar guarantees digits; only overflow can fail: saturate */
	if (parse_u64_n(d, n, &v))
		return UINT64_MAX;
	return v;
}

static void parse_event(struct parser *p, const char *s, size_t len,
			const struct perf_event_line *ev)
{
	const char *event, *digits;
	size_t event_len, digits_len;

	if (perf_script_match_period(s, len, &event, &event_len, &digits, &digits_len)) {
		if (!p->event_filter) {
			p->own_filter = xstrndup(event, event_len);
			p->event_filter = p->own_filter;
			p->event_filter_len = event_len;
		} else if (event_len != p->event_filter_len ||
			   memcmp(event, p->event_filter, event_len)) {
			if (!p->other_event)
				p->other_event = xstrndup(event, event_len);
			string_list_add_unique_n(&p->skipped_events, event, event_len,
						 PERF_SCRIPT_MAX_EVENT_NAMES);
			return;	/* the sample is skipped; the state is left as it is */
		}
	} else {
		digits = NULL;
		digits_len = 0;
	}
	folder_set_process(p->folder, ev->comm, ev->comm_len, ev->pid, ev->pid_len,
			   ev->tid, ev->tid_len, parse_period(digits, digits_len));
}

static void parse_line(struct parser *p, const char *s, size_t len)
{
	struct perf_event_line ev;
	struct fold_frame fr;

	p->lineno++;
	/*
	 * perf script text that went through Windows tools ends lines in
	 * CRLF; a blank "\r" line must still end the sample, or every
	 * sample merges into one stack.
	 */
	if (len && s[len - 1] == '\r')
		len--;
	if (!len) {
		folder_end_sample(p->folder);
		return;
	}
	if (s[0] == '#')
		return;
	if (!is_space((unsigned char)s[0]) && perf_script_match_event(s, len, &ev)) {
		parse_event(p, s, len, &ev);
		return;
	}
	if (perf_script_match_stack(s, len, &fr)) {
		/* function, " (" and module are one run of text: one cache key */
		folder_add_frame_text(p->folder, &fr, fr.func,
				      (size_t)(fr.module + fr.module_len - fr.func));
		return;
	}
	unrecognized(p, s, len);
}

/* Parse every line in buf; the last one may lack its '\n'. */
void script_parse_lines(struct parser *p, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;

		parse_line(p, s, (size_t)(e - s));
		s = e + 1;
	}
}

/* ---- taking a parser's findings into the collapse session ---- */

/* Report a parser's unrecognised lines (numbered from line_base) and take over its findings. */
void script_parser_absorb(struct collapse_session *s, struct parser *p, const char *name,
			  uint64_t line_base)
{
	unsigned i;

	for (i = 0; i < p->nr_warn && s->warned < COLLAPSE_MAX_WARNINGS; i++, s->warned++) {
		struct strbuf q = STRBUF_INIT;
		const char *t = p->warn[i].text;

		warning("%s:%llu: unrecognized line: %s", name,
			(unsigned long long)(line_base + p->warn[i].line),
			escape_term_excerpt(&q, t, strlen(t), strlen(t)));
		strbuf_release(&q);
	}
	s->unrecognized += p->unrecognized;
	s->binary += p->binary;
	for (i = 0; i < p->skipped_events.nr; i++)
		string_list_add_unique_n(&s->skipped_events, p->skipped_events.items[i],
					 strlen(p->skipped_events.items[i]),
					 PERF_SCRIPT_MAX_EVENT_NAMES);
	if (!s->event_filter && p->own_filter) {
		s->event_filter = p->own_filter;
		p->own_filter = NULL;
		s->filter_defaulted = 1;
	}
	if (!s->other_event && p->other_event) {
		s->other_event = p->other_event;
		p->other_event = NULL;
	}
}

/*
 * The end of an input: count a last sample that had no blank line after
 * it (inferno does; the Perl script drops it), and start the next input
 * afresh.
 */
void script_finish_input(struct folder *f)
{
	folder_end_sample(f);
	folder_reset_sample(f);
}

void perf_script_read_buffer(struct collapse_session *s, struct folder *f, const char *name,
			     const char *buf, size_t len)
{
	struct parser p;

	script_parser_init(&p, f, s->event_filter);
	script_parse_lines(&p, buf, len);
	script_finish_input(p.folder);
	script_parser_absorb(s, &p, name, 0);
	script_parser_release(&p);
}
