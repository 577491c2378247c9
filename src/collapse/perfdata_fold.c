/*
 * perfdata_fold.c - perf.data -> folding engine (see perfdata_fold.h),
 * and the "perfdata" input format of collapser.h.  Frames go to the folder
 * as the fields perf script would print (hex address, "sym+0xoff",
 * module); the event filter defaults to the first event type seen, as
 * stackcollapse-perf.pl does.
 */
#include "collapse/perfdata_fold.h"
#include "collapse/collapser.h"
#include "collapse/perf_script.h"
#include "profile/fold.h"
#include "core/alloc.h"
#include "core/error.h"
#include "perf/perfdata.h"
#include "perf/perfdata_stacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FOLD_FRAMES 4096

struct fold_ctx {
	struct folder *f;
	struct perfdata_fold *pf;
	const char *filter;
	uint64_t min_time;	/* ns: samples before it are skipped (skip_fraction) */
	struct fold_frame frames[MAX_FOLD_FRAMES];
	char addrs[MAX_FOLD_FRAMES][17];
	/* a frame's identity for the folder's frame cache: the symbolizer's
	 * name and module strings live as long as the run, so their
	 * addresses tell frames apart without hashing the text */
	struct frame_key {
		const char *func, *module;
	} keys[MAX_FOLD_FRAMES];
	int addrs_used;		/* the folder reads addresses (--addrs) */
	char texts[1 << 18];	/* "func (module)" of ambiguous frames, split again */
	size_t texts_used;	/* bytes */
	int32_t last_pid;	/* pid/tid texts of the previous sample */
	uint32_t last_tid;
	char pid[16], tid[16];
	size_t pid_len, tid_len;
};

/*
 * perf script prints a frame as "addr func (module)", and readers of that
 * text (stackcollapse-perf.pl, inferno, trail's perf script parser) split
 * it greedily: the module is what lies between the last " (" and the last
 * ")".  A module name with blanks or parentheses ("/memfd:x (deleted)")
 * therefore reaches them cut in another place; split the same joined text
 * the same way, so perf.data and its perf script output fold alike.
 * (sym is "sym+0xoff" or "[unknown]".)
 */
static void split_like_text(struct fold_ctx *c, const char *func, size_t func_len,
			    const struct perfdata_frame *fr, struct fold_frame *out)
{
	size_t len = func_len + 2 + fr->dso_len + 1, i, cut = 0;
	char *t;

	if (len > sizeof(c->texts) - c->texts_used)
		return;
	t = c->texts + c->texts_used;
	memcpy(t, func, func_len);
	memcpy(t + func_len, " (", 2);
	memcpy(t + func_len + 2, fr->dso, fr->dso_len);
	t[len - 1] = ')';
	/* the last " (" with at least one byte of function before it */
	for (i = len - 2; i-- > 1;)
		if (t[i] == ' ' && t[i + 1] == '(') {
			cut = i;
			break;
		}
	if (!cut)
		return;
	c->texts_used += len;
	out->func = t;
	out->func_len = cut;
	out->module = t + cut + 2;
	out->module_len = len - 1 - (cut + 2);
}

/* Lower-case hex without leading zeros, as perf's %lx; returns length. */
static size_t hex(char *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = 0;
	return n;
}

/* A frame whose module name perf script's text makes ambiguous (see split_like_text). */
static void ambiguous_frame(struct fold_ctx *c, const struct perfdata_frame *fr,
			    struct fold_frame *out)
{
	char func[4096 + 20];
	size_t n;

	if (fr->sym) {
		if (fr->sym_len > 4096)
			return;
		memcpy(func, fr->sym, fr->sym_len);
		n = fr->sym_len;
		memcpy(func + n, "+0x", 3);
		n += 3;
		n += hex(func + n, fr->symoff);
	} else {
		memcpy(func, "[unknown]", 9);
		n = 9;
	}
	/* the text parser's \s* eats blanks before the function */
	{
		size_t skip = 0;

		while (skip < n && (func[skip] == ' ' || func[skip] == '\t'))
			skip++;
		split_like_text(c, func + skip, n - skip, fr, out);
	}
}

/* v in decimal, as printf's %d; returns the length (at most 11). */
static size_t dec(char *out, int32_t v)
{
	char tmp[12];
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	size_t n = 0, i = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		out[i++] = '-';
	while (n)
		out[i++] = tmp[--n];
	out[i] = 0;
	return i;
}

static uint64_t sample_weight(const struct fold_ctx *c, const struct perfdata_stack *st)
{
	return st->period && !c->pf->count_samples ? st->period : 1;
}

static int on_stack(void *ctx, const struct perfdata_stack *st)
{
	struct fold_ctx *c = ctx;
	struct fold_sample s;
	uint32_t stack;
	size_t i, nr = st->nr < MAX_FOLD_FRAMES ? st->nr : MAX_FOLD_FRAMES;

	c->pf->samples++;
	if (st->time < c->min_time) {
		c->pf->skipped++;
		return 0;
	}
	if (!c->filter) {
		c->pf->chosen_event = xstrdup(st->event);
		c->filter = c->pf->chosen_event;
	} else if (strcmp(st->event, c->filter)) {
		if (!c->pf->other_event)
			c->pf->other_event = xstrdup(st->event);
		if (c->pf->skipped_events)
			string_list_add_unique_n(c->pf->skipped_events, st->event, strlen(st->event),
						 PERF_SCRIPT_MAX_EVENT_NAMES);
		return 0;
	}
	c->pf->kept++;
	if (!st->frames && st->repeat_of) {
		folder_add_count(c->f, st->repeat_of - 1, sample_weight(c, st));
		return 0;
	}
	for (i = 0; i < nr; i++) {
		const struct perfdata_frame *fr = &st->frames[i];
		struct fold_frame *out = &c->frames[i];

		if (c->pf->frame_hook)
			c->pf->frame_hook(c->pf->hook_ctx, fr);
		if (fr->sym) {
			out->func = fr->sym;
			out->func_len = fr->sym_len;
		} else {
			out->func = "[unknown]";
			out->func_len = 9;
		}
		/* perf script prints "(inlined)" where the module goes */
		if (fr->inlined) {
			out->module = "inlined";
			out->module_len = 7;
		} else if (fr->dso) {
			out->module = fr->dso;
			out->module_len = fr->dso_len;
		} else {
			out->module = "[unknown]";
			out->module_len = 9;
		}
		out->addr = c->addrs[i];
		out->addr_len = c->addrs_used ? hex(c->addrs[i], fr->addr) : 0;
		out->key = NULL;
		out->key_len = 0;
		out->id = 0;
		if (fr->dso && !fr->inlined && fr->dso_ambiguous) {
			ambiguous_frame(c, fr, out);
		} else if (!c->addrs_used) {
			c->keys[i].func = fr->sym;
			c->keys[i].module = out->module;
			out->key = &c->keys[i];
			out->key_len = sizeof(c->keys[i]);
			out->id = fr->id;
		}
	}
	c->texts_used = 0;
	memset(&s, 0, sizeof(s));
	s.comm = st->comm;
	s.comm_len = strlen(st->comm);
	if (st->pid != c->last_pid || !c->pid_len) {
		c->last_pid = st->pid;
		c->pid_len = dec(c->pid, st->pid);
	}
	if (st->tid != c->last_tid || !c->tid_len) {
		c->last_tid = st->tid;
		c->tid_len = dec(c->tid, (int32_t)st->tid);
	}
	s.pid = c->pid;
	s.pid_len = c->pid_len;
	s.tid = c->tid;
	s.tid_len = c->tid_len;
	s.period = sample_weight(c, st);
	s.frames = c->frames;
	s.nr_frames = nr;
	stack = folder_add_sample_id(c->f, &s);
	if (st->memo && stack != FOLD_NO_STACK)
		*st->memo = stack + 1;
	return 0;
}

struct time_span {
	struct perf_tool tool;	/* first: perfdata_process() hands it back */
	uint64_t first, last;	/* ns; first == UINT64_MAX while no sample was seen */
};

static int span_sample(struct perf_tool *tool, const struct perf_event_header *rec,
		       const struct perf_sample *s)
{
	struct time_span *t = (struct time_span *)tool;

	(void)rec;
	if (s->time < t->first)
		t->first = s->time;
	if (s->time > t->last)
		t->last = s->time;
	return 0;
}

/*
 * The first time kept by skip_fraction, as perf's set_percent_time()
 * computes it for --time N%-100%: first + round(fraction * (last - first)),
 * first and last from HEADER_SAMPLE_TIME.  Recordings without that
 * feature (perf record without --timestamp-boundary, pipe mode), which
 * perf script refuses, get a pass over the samples' times instead.
 */
static int skip_time(struct perfdata *pd, double fraction, uint64_t *out)
{
	struct time_span t = { { 0 }, pd->first_sample_time, pd->last_sample_time };

	*out = 0;
	if (!(fraction > 0))
		return 0;
	if (!t.first || t.last < t.first) {
		t.tool.sample = span_sample;
		t.first = UINT64_MAX;
		t.last = 0;
		if (perfdata_process(pd, &t.tool))
			return -1;
		if (t.first == UINT64_MAX)
			return 0;
	}
	if (fraction > 1)
		fraction = 1;
	*out = t.first + (uint64_t)(fraction * (double)(t.last - t.first) + 0.5);
	return 0;
}

static int fold_open(struct perfdata *pd, struct folder *f, struct perfdata_fold *pf)
{
	struct perfdata_stacks_opts opts;
	struct perfdata_stacks_stats stats;
	struct fold_ctx *c;
	int ret;

	memset(&opts, 0, sizeof(opts));
	memset(&stats, 0, sizeof(stats));
	opts.max_stack = 127;	/* perf script's default (sysctl kernel.perf_event_max_stack) */
	opts.jit = 1;
	opts.memo = !pf->frame_hook;	/* the hook wants every sample's frames */
	opts.no_inline = pf->inlines < 0;
	opts.inline_fp = pf->inlines > 0;
	c = xcalloc(1, sizeof(*c));
	c->f = f;
	c->pf = pf;
	c->filter = pf->event_filter;
	c->addrs_used = folder_uses_addrs(f);
	folder_forget_frame_ids(f);	/* this run numbers its frames from 1 */
	ret = skip_time(pd, pf->skip_fraction, &c->min_time);
	if (!ret)
		ret = perfdata_stacks(pd, &opts, on_stack, c, &stats);
	pf->frames = stats.frames;
	pf->unknown_frames = stats.unknown_frames;
	pf->unwind_failed = stats.unwind_failed;
	free(c);
	return ret;
}

int perfdata_fold_file(const char *path, struct folder *f, struct perfdata_fold *pf)
{
	struct perfdata pd;
	int ret;

	if (perfdata_open(&pd, path))
		return -1;
	ret = fold_open(&pd, f, pf);
	perfdata_close(&pd);
	return ret;
}

/* perfdata_fold_file() on perf.data in memory (not copied; must outlive the call). */
static int perfdata_fold_buffer(const void *buf, size_t len, const char *name, struct folder *f,
			 struct perfdata_fold *pf)
{
	struct perfdata pd;
	int ret;

	if (perfdata_open_buffer(&pd, buf, len, name)) {
		perfdata_close(&pd);
		return -1;
	}
	ret = fold_open(&pd, f, pf);
	perfdata_close(&pd);
	return ret;
}

/* ---- the "perfdata" input format ---- */

static int detect(const char *head, size_t len)
{
	return perfdata_is_magic(head, len) ? 100 : 0;
}

/*
 * A regular file is mapped; standard input (pipe mode) and compressed
 * files are read whole first, as perf does with a pipe.
 */
static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct perfdata_fold pf;
	char *data = NULL;
	size_t len;
	int ret;

	memset(&pf, 0, sizeof(pf));
	pf.event_filter = s->event_filter;
	pf.skip_fraction = s->opts.skip_fraction;
	pf.count_samples = s->opts.count_samples;
	pf.inlines = s->opts.inlines;
	pf.skipped_events = &s->skipped_events;
	if (in->plain_path) {
		ret = perfdata_fold_file(in->plain_path, f, &pf);
	} else {
		ret = collapse_input_slurp(in, &data, &len);
		if (!ret)
			ret = perfdata_fold_buffer(data, len, in->name, f, &pf);
		free(data);
	}
	if (!s->event_filter && pf.chosen_event) {
		s->event_filter = pf.chosen_event;
		s->filter_defaulted = 1;
		pf.chosen_event = NULL;
	}
	if (!s->other_event && pf.other_event) {
		s->other_event = pf.other_event;
		pf.other_event = NULL;
	}
	free(pf.chosen_event);
	free(pf.other_event);
	return ret;
}

const struct collapser collapse_perf_data = {
	"perfdata",
	"perf.data as written by perf record (file or pipe mode), symbolized here",
	detect,
	read_input,
};
