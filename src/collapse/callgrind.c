/*
 * callgrind.c - the "callgrind" input format: valgrind --tool=callgrind and
 * --tool=cachegrind out files (callgrind.out.PID, cachegrind.out.PID; the
 * "Callgrind Format Specification" of valgrind's manual, what
 * callgrind_annotate and KCachegrind read).  The file is a call graph,
 * not stacks; callgraph.c turns it into folded stacks (the method and its
 * deviation are documented in docs/collapse.md).  Self costs per function
 * equal callgrind_annotate's; weighed in the chosen event (Ir by default).
 */
#include "collapse/callgraph.h"
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/hashmap.h"
#include "core/line_reader.h"

#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 64
#define MAX_POSITIONS 3

/* One compressed-name table ("fn=(12) name" then "fn=(12)"): id -> node. */
struct name_ids {
	struct hashmap map;
	uint64_t *ids;		/* compression id of entry i */
	uint32_t *nodes;	/* its node */
	size_t nr, alloc;
};

struct cg_reader {
	struct collapse_session *s;
	const char *name;		/* the input, for messages */
	struct callgraph g;
	struct name_ids fns;
	uint64_t coef[MAX_EVENTS];	/* the weight: sum of coef[i] x event i */
	size_t nr_events, nr_positions;
	int have_events;
	uint32_t fn, cfn;		/* current function and call target; CALLGRAPH_NONE */
	int pending_call;		/* a calls= line wants its cost line */
	uint64_t lineno;
};

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next blank-separated word of [*p, end): 1 with it set, 0 at the end. */
static int next_word(const char **p, const char *end, const char **w, size_t *wl)
{
	const char *q = *p;

	while (q < end && is_blank(*q))
		q++;
	if (q == end)
		return 0;
	*w = q;
	while (q < end && !is_blank(*q))
		q++;
	*wl = (size_t)(q - *w);
	*p = q;
	return 1;
}

/* A Number of the grammar: decimal or 0x hex, no sign. */
static int parse_number(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (len > 18)
			return 0;
		for (i = 2; i < len; i++) {
			char c = s[i];
			unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
				   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
				   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;

			if (d > 15)
				return 0;
			x = x << 4 | d;
		}
		*v = x;
		return 1;
	}
	return frames_parse_u64(s, len, v);
}

/* A subposition: a Number, "+N", "-N" or "*" (relative ones need no base here). */
static int is_subposition(const char *s, size_t len)
{
	uint64_t v;

	if (len == 1 && *s == '*')
		return 1;
	if (len > 1 && (*s == '+' || *s == '-'))
		return parse_number(s + 1, len - 1, &v);
	return parse_number(s, len, &v);
}

static int bad(struct cg_reader *r, const char *what, const char *l, size_t n)
{
	collapse_session_bad_line(r->s, r->name, r->lineno, what, l, n);
	return 0;
}

/*
 * The weight from the events: line.  Ir unless --sample-type names
 * another event, or est-cycles: Ir + 10 x L1 misses + 100 x LL misses
 * (KCachegrind's "Cycle Estimation" without its branch terms; the
 * cachegrind manual puts an L1 miss at about 10 cycles).
 */
static int choose_events(struct cg_reader *r, const char *l, size_t n)
{
	static const struct { const char *name; uint64_t coef; } est[] = {
		{ "Ir", 1 }, { "I1mr", 10 }, { "D1mr", 10 }, { "D1mw", 10 },
		{ "ILmr", 100 }, { "DLmr", 100 }, { "DLmw", 100 },
	};
	const char *want = r->s->opts.sample_type, *p = l, *end = l + n, *w;
	const char *names[MAX_EVENTS];
	size_t lens[MAX_EVENTS], wl, i, k, nr = 0, found = 0;
	struct folded_weight_info *wi = &r->s->weight;

	while (next_word(&p, end, &w, &wl)) {
		if (nr == MAX_EVENTS)
			return trail_error("%s:%llu: more than %d events", r->name,
					   (unsigned long long)r->lineno, MAX_EVENTS);
		names[nr] = w;
		lens[nr++] = wl;
	}
	if (!nr)
		return trail_error("%s:%llu: an events: line without events", r->name,
				   (unsigned long long)r->lineno);
	if (r->have_events) {
		if (nr != r->nr_events)
			return trail_error("%s:%llu: a part with other events than the first", r->name,
					   (unsigned long long)r->lineno);
		return 0;
	}
	memset(r->coef, 0, sizeof(r->coef));
	if (!want || !want[0])
		want = nr && lens[0] == 2 && !memcmp(names[0], "Ir", 2) ? "Ir" : NULL;
	if (want && !strcmp(want, "est-cycles")) {
		for (k = 0; k < sizeof(est) / sizeof(est[0]); k++)
			for (i = 0; i < nr; i++)
				if (lens[i] == strlen(est[k].name) && !memcmp(names[i], est[k].name, lens[i])) {
					r->coef[i] = est[k].coef;
					found++;
				}
		if (found != sizeof(est) / sizeof(est[0]))
			return trail_error("%s:%llu: est-cycles needs the events Ir I1mr D1mr D1mw ILmr "
					   "DLmr DLmw (valgrind --tool=callgrind --cache-sim=yes)",
					   r->name, (unsigned long long)r->lineno);
		folded_weight_from_words(wi, "", "");
		wi->weight = FOLDED_WEIGHT_PERIOD;
		snprintf(wi->type, sizeof(wi->type), "est-cycles");
		snprintf(wi->unit, sizeof(wi->unit), "cycles");
	} else {
		for (i = 0; i < nr && want; i++)
			if (lens[i] == strlen(want) && !memcmp(names[i], want, lens[i]))
				break;
		if (!want)
			i = 0;
		else if (i == nr)
			return trail_error("%s:%llu: no event '%s' in '%.*s' (--sample-type: an event "
					   "or est-cycles)", r->name, (unsigned long long)r->lineno,
					   want, (int)n, l);
		r->coef[i] = 1;
		folded_weight_from_words(wi, "", "");
		wi->weight = FOLDED_WEIGHT_PERIOD;
		if (lens[i] == 2 && !memcmp(names[i], "Ir", 2)) {
			snprintf(wi->type, sizeof(wi->type), "instructions");
			snprintf(wi->unit, sizeof(wi->unit), "instructions");
		} else {
			snprintf(wi->type, sizeof(wi->type), "%.*s", (int)(lens[i] < 31 ? lens[i] : 31), names[i]);
			snprintf(wi->unit, sizeof(wi->unit), "%s", wi->type);
		}
	}
	r->nr_events = nr;
	r->have_events = 1;
	return 0;
}

/*
 * "(id) name", "(id)" or "name" after fn=, cfn= or jfn=: the node of the
 * function, defining or using a compressed id.  CALLGRAPH_NONE (after a
 * bad-line report) for an id never defined.
 */
static uint32_t function_of(struct cg_reader *r, const char *v, size_t n, const char *l, size_t ln)
{
	struct name_ids *t = &r->fns;
	struct hashmap_iter it;
	uint64_t id;
	uint32_t k, h;
	const char *close;

	while (n && is_blank(*v))
		v++, n--;
	if (!(n >= 2 && v[0] == '(' && v[1] >= '0' && v[1] <= '9'))
		return callgraph_node(&r->g, v, frames_trim_end(v, n));
	close = memchr(v, ')', n);
	if (!close || !frames_parse_u64(v + 1, (size_t)(close - v - 1), &id)) {
		bad(r, "bad compressed name", l, ln);
		return CALLGRAPH_NONE;
	}
	n -= (size_t)(close + 1 - v);
	v = close + 1;
	while (n && is_blank(*v))
		v++, n--;
	n = frames_trim_end(v, n);
	h = hashmap_hash_u64(id);
	for (k = hashmap_first(&t->map, h, &it); k != HASHMAP_NONE; k = hashmap_next(&it))
		if (t->ids[k] == id)
			break;
	if (k == HASHMAP_NONE) {
		if (!n) {
			bad(r, "a compressed name used before it was defined", l, ln);
			return CALLGRAPH_NONE;
		}
		ALLOC_GROW(t->ids, t->nr + 1, t->alloc);
		t->nodes = xreallocarray(t->nodes, t->alloc, sizeof(*t->nodes));
		t->ids[t->nr] = id;
		t->nodes[t->nr] = callgraph_new_node(&r->g, v, n);
		hashmap_add_at(&t->map, &it, (uint32_t)t->nr);
		return t->nodes[t->nr++];
	}
	return t->nodes[k];
}

/* A cost line: subpositions, then up to nr_events counts. */
static int cost_line(struct cg_reader *r, const char *l, size_t n)
{
	const char *p = l, *end = l + n, *w;
	size_t wl, i;
	uint64_t v, total = 0;

	if (!r->have_events)
		return trail_error("%s:%llu: a cost line before the events: line", r->name,
				   (unsigned long long)r->lineno);
	for (i = 0; i < r->nr_positions; i++)
		if (!next_word(&p, end, &w, &wl) || !is_subposition(w, wl))
			return bad(r, "cost line without its positions", l, n);
	for (i = 0; next_word(&p, end, &w, &wl); i++) {
		if (i == r->nr_events || !parse_number(w, wl, &v))
			return bad(r, "cost line with a bad count", l, n);
		if (r->coef[i] && v > (UINT64_MAX - total) / r->coef[i])
			return bad(r, "cost line overflows 64 bits", l, n);
		total += r->coef[i] * v;
	}
	if (r->pending_call) {
		r->pending_call = 0;
		if (r->fn != CALLGRAPH_NONE && r->cfn != CALLGRAPH_NONE)
			callgraph_call(&r->g, r->fn, r->cfn, total);
		return 0;
	}
	if (r->fn == CALLGRAPH_NONE)
		r->fn = callgraph_node(&r->g, "[unknown]", 9);
	callgraph_self(&r->g, r->fn, total);
	return 0;
}

/* "positions: instr line": how many subpositions start a cost line. */
static int positions_line(struct cg_reader *r, const char *l, size_t n)
{
	const char *p = l, *end = l + n, *w;
	size_t wl, nr = 0;

	while (next_word(&p, end, &w, &wl)) {
		if (!(wl == 4 && !memcmp(w, "line", 4)) && !(wl == 5 && !memcmp(w, "instr", 5)) &&
		    !(wl == 2 && !memcmp(w, "bb", 2)))
			return trail_error("%s:%llu: unknown position '%.*s'", r->name,
					   (unsigned long long)r->lineno, (int)wl, w);
		if (++nr > MAX_POSITIONS)
			return trail_error("%s:%llu: too many positions", r->name,
					   (unsigned long long)r->lineno);
	}
	r->nr_positions = nr ? nr : 1;
	return 0;
}

/* One line of the file: 0, or -1 when the file cannot be read on. */
static int one_line(struct cg_reader *r, const char *l, size_t n)
{
	static const char *const ignored[] = {
		"fl=", "fi=", "fe=", "ob=", "cob=", "cfi=", "cfl=", "jfi=", "jump=", "jcnd=",
		"version:", "creator:", "pid:", "cmd:", "part:", "thread:", "desc:", "event:",
		"summary:", "totals:",
	};
	size_t i;
	uint64_t count;

	n = frames_trim_end(l, n);
	if (!n || l[0] == '#')
		return 0;
	if ((*l >= '0' && *l <= '9') || *l == '+' || *l == '-' || *l == '*')
		return cost_line(r, l, n);
	if (r->pending_call)
		bad(r, "a calls= line without its cost line", l, n), r->pending_call = 0;
	if (starts_with(l, n, "fn="))
		r->fn = function_of(r, l + 3, n - 3, l, n);
	else if (starts_with(l, n, "cfn="))
		r->cfn = function_of(r, l + 4, n - 4, l, n);
	else if (starts_with(l, n, "jfn="))
		function_of(r, l + 4, n - 4, l, n);
	else if (starts_with(l, n, "calls=")) {
		const char *p = l + 6, *w;
		size_t wl;

		if (!next_word(&p, l + n, &w, &wl) || !parse_number(w, wl, &count))
			return bad(r, "calls= without a count", l, n);
		r->pending_call = 1;
	} else if (starts_with(l, n, "events:")) {
		return choose_events(r, l + 7, n - 7);
	} else if (starts_with(l, n, "positions:")) {
		return positions_line(r, l + 10, n - 10);
	} else {
		for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
			if (starts_with(l, n, ignored[i]))
				return 0;
		return bad(r, "not a callgrind line", l, n);
	}
	return 0;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct cg_reader r;
	struct line_reader lr;
	char *line;
	size_t len;
	int ret = -1, got;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.name = in->name;
	r.nr_positions = 1;
	r.fn = r.cfn = CALLGRAPH_NONE;
	callgraph_init(&r.g);
	hashmap_init(&r.fns.map, 0);
	if (collapse_input_lines(in, &lr))
		goto out;
	while ((got = line_reader_next(&lr, &line, &len)) > 0) {
		r.lineno++;
		if (one_line(&r, line, len))
			goto out_lines;
	}
	if (got < 0)
		goto out_lines;
	if (!r.have_events) {
		trail_error("%s: no events: line; not a callgrind or cachegrind out file", in->name);
		goto out_lines;
	}
	ret = callgraph_fold(&r.g, f, in->name);
out_lines:
	line_reader_close(&lr);
out:
	callgraph_release(&r.g);
	hashmap_release(&r.fns.map);
	free(r.fns.ids);
	free(r.fns.nodes);
	return ret;
}

/*
 * "# callgrind format" (valgrind >= 3.13), else a header of the format's
 * keys ending in an events: line and a body of fl=/fn= lines.
 */
static int detect(const char *head, size_t n)
{
	if (starts_with(head, n, "# callgrind format"))
		return 100;
	if (starts_with(head, n, "version: 1\ncreator: callgrind"))
		return 95;
	if ((starts_with(head, n, "desc:") || starts_with(head, n, "version:") ||
	     starts_with(head, n, "events:")) &&
	    memmem(head, n, "events:", 7) && (memmem(head, n, "\nfn=", 4) || memmem(head, n, "\nfl=", 4)) &&
	    !memmem(head, n, "\ntime_unit:", 11))
		return 85;
	return 0;
}

const struct collapser collapse_callgrind = {
	"callgrind",
	"valgrind --tool=callgrind/cachegrind out files: call graph to stacks (--sample-type EVENT|est-cycles)",
	detect,
	read_input,
};
