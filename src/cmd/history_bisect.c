/*
 * history_bisect.c - 'trail history detect --bisect': the commit inside
 * the gap of each change point.  A slowdown gets trail flame's whole
 * session between the two stored commits (the same narrowing and the
 * same report.json/md/html as 'trail flame'); its answer is kept as a
 * note under refs/notes/trail-bisect, so a second run measures nothing.
 * A speed-up (trail flame narrows slowdowns only) is bisected on the
 * series itself, each midpoint measured and stored like any record.
 */
#include "cmd/history.h"
#include "core/verdict.h"
#include "core/alloc.h"
#include "core/cache_dir.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_writer.h"
#include "core/strbuf.h"
#include "flame/report.h"
#include "flame/session.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The value bisected on at a stored result: func's self share, else the metric's median. */
static double point_value(const struct history_result *r, const char *func)
{
	double med, lo, hi;

	if (func)
		return r->samples > 0 ? history_result_count(r, func, 0) / r->samples : 0;
	return history_result_median(r, &med, &lo, &hi) ? NAN : med;
}

/*
 * The answer when commits that could not be built or run lie next to the
 * boundary: lo..hi (positions in ids) holds no commit left to test, so
 * the change is any of lo+1..hi (git bisect's "only skipped commits
 * left to test"), hi the only one measured.  Named as such, never as
 * one commit it did not build.
 */
static void set_answer(struct history_change *c, const struct string_list *ids, size_t lo, size_t hi)
{
	size_t i;

	string_list_clear(&c->candidates);
	string_list_clear(&c->untested);
	c->culprit[0] = '\0';
	if (hi - lo == 1) {
		memcpy(c->culprit, ids->items[hi], 41);
		return;
	}
	for (i = lo + 1; i <= hi; i++) {
		string_list_append(&c->candidates, ids->items[i]);
		if (i < hi)
			string_list_append(&c->untested, ids->items[i]);
	}
}

/*
 * Bisect change c on the series: measure a commit in the middle of the
 * gap between the last stored commit before it and the first after,
 * keep the half whose ends differ, until no commit is left to test.  A
 * commit that does not build or run is set aside (git bisect skip) and
 * the one nearest the middle that is not is tried instead; when only
 * such commits are left, the answer is all of them and the first after
 * (set_answer).  Without measure, only stored results are used: 1 when
 * they decide it, 0 when a commit would have to be measured.  -1 on error.
 */
static int bisect_series(struct history_cmd *h, const struct history_series *s,
			 const struct string_list *ids, struct history_change *c, int measure)
{
	const struct history_point *pa = &s->pts[c->index - 1], *pb = &s->pts[c->index];
	/*
	 * on the metric when it moved (a function's share may not: the whole
	 * run's cost can change with every share kept), else on the share of
	 * the function that moved most
	 */
	const char *func = c->nmoved && !c->metric_changed ? c->moved[0].name : NULL;
	double before = func ? c->moved[0].before : c->before, after = func ? c->moved[0].after : c->after;
	size_t lo = pa->pos, hi = pb->pos;
	unsigned char *skip = xcalloc(hi - lo + 1, 1);	/* by position - pa->pos */
	int ret = 1;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, probe = 0, d;
		const struct history_result *r;
		double x;

		/* the testable commit nearest the middle: mid, mid + 1, mid - 1, ... */
		for (d = 0; d < hi - lo && !probe; d++) {
			if (mid + d < hi && !skip[mid + d - pa->pos])
				probe = mid + d;
			else if (d && mid - d > lo && !skip[mid - d - pa->pos])
				probe = mid - d;
		}
		if (!probe)
			break;	/* only commits that did not build or run are left */
		r = history_store_get(&h->store, ids->items[probe], s->key, s->metric);
		if (!r && !measure) {
			ret = 0;
			goto out;
		}
		if (!r) {
			note("bisect: measuring %.12s (change at %.12s)", ids->items[probe], pb->commit);
			if (history_measure_store(h, ids->items[probe], pa->r, s->key, &r) || !r) {
				ret = -1;
				goto out;
			}
		}
		if (r->status != HISTORY_OK || !r->nruns) {
			skip[probe - pa->pos] = 1;
			continue;
		}
		x = point_value(r, func);
		if (fabs(x - after) < fabs(x - before))
			hi = probe;
		else
			lo = probe;
	}
	set_answer(c, ids, lo, hi);
out:
	free(skip);
	return ret;
}

/*
 * The report directory of the gap before..after: under -o DIR, else
 * trail's state directory; a bench's own (benches regressing in the same
 * gap are bisected apart, and each note names its own report).
 */
static char *report_dir(const struct history_cmd *h, const char *before, const char *after)
{
	char *dir, *part, cwd[4096];
	const char *name = strrchr(h->top_dir, '/');
	const char *dash = h->bench ? "-" : "", *bench = h->bench ? h->bench : "";
	uint32_t x = 2166136261u;	/* FNV-1a, 32 bits, of the repository's path */
	const char *p;

	if (h->out) {
		if (h->out[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			return xstrfmt("%s/%.12s-%.12s%s%s", h->out, before, after, dash, bench);
		return xstrfmt("%s/%s/%.12s-%.12s%s%s", cwd, h->out, before, after, dash, bench);
	}
	for (p = h->top_dir; *p; p++)
		x = (x ^ (unsigned char)*p) * 16777619u;
	name = name && name[1] ? name + 1 : "root";
	part = xstrfmt("history/%s-%08x/bisect/%.12s-%.12s%s%s", name, (unsigned)x, before, after,
		       dash, bench);
	dir = state_dir(part);
	free(part);
	return dir;
}

/* A full commit id: notes are untrusted, and these reach terminals and HTML. */
static int is_commit_id(const struct json_value *v)
{
	return v && v->type == JSON_STRING && strlen(v->string) == 40 &&
	       strspn(v->string, "0123456789abcdef") == 40;
}

/* The commit ids of a JSON array into l (other members are ignored). */
static void json_strings(const struct json_value *a, struct string_list *l)
{
	size_t i;

	for (i = 0; a && a->type == JSON_ARRAY && i < a->len; i++)
		if (is_commit_id(&a->items[i]))
			string_list_append(l, a->items[i].string);
}

int history_bisect_note_get(const char *top, const char *key, const char *metric,
			    const char *before, const char *after, struct history_bisect_note *out)
{
	struct strbuf note = STRBUF_INIT;
	const char *line, *end;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (history_note_read(top, HISTORY_BISECT_REF, after, &note)) {
		strbuf_release(&note);
		return 0;
	}
	for (line = note.buf; !found && line < note.buf + note.len; line = end + 1) {
		struct json_value v;
		const struct json_value *b, *k, *m, *cu, *rep, *ve, *fn;

		end = memchr(line, '\n', (size_t)(note.buf + note.len - line));
		if (!end)
			end = note.buf + note.len;
		if (end == line || json_parse(line, (size_t)(end - line), "bisect note", &v))
			continue;
		b = json_get(&v, "before");
		k = json_get(&v, "key");
		m = json_get(&v, "metric");
		cu = json_get(&v, "culprit");
		rep = json_get(&v, "report");
		ve = json_get(&v, "verdict");
		fn = json_get(&v, "function");
		if (b && k && m && cu && b->type == JSON_STRING && k->type == JSON_STRING &&
		    m->type == JSON_STRING && !strcmp(b->string, before) &&
		    !strcmp(k->string, key) && !strcmp(m->string, metric)) {
			found = 1;
			json_strings(json_get(&v, "candidates"), &out->candidates);
			json_strings(json_get(&v, "untested"), &out->untested);
			if (!out->candidates.nr && is_commit_id(cu))
				memcpy(out->culprit, cu->string, 41);
			/* no report: answered from the stored results, without trail flame */
			out->report = xstrdup(rep && rep->type == JSON_STRING ? rep->string : "");
			out->verdict = xstrdup(ve && ve->type == JSON_STRING ? ve->string : "");
			out->function = xstrdup(fn && fn->type == JSON_STRING ? fn->string : "");
		}
		json_release(&v);
	}
	strbuf_release(&note);
	return found;
}

void history_bisect_note_release(struct history_bisect_note *n)
{
	free(n->report);
	free(n->verdict);
	free(n->function);
	string_list_clear(&n->candidates);
	string_list_clear(&n->untested);
	memset(n, 0, sizeof(*n));
}

/*
 * A stored answer for the gap before..after of this series: its culprit
 * ("" when trail flame named none, or when several commits could be it:
 * then the candidates) and report directory (NULL: none).  1 found, 0 not.
 */
static int stored_answer(const struct history_cmd *h, const struct history_series *s,
			 const char *before, const char *after, struct history_change *c)
{
	struct history_bisect_note n;

	if (!history_bisect_note_get(h->top_dir, s->key, s->metric, before, after, &n))
		return 0;
	memcpy(c->culprit, n.culprit, 41);
	string_list_clear(&c->candidates);
	string_list_clear(&c->untested);
	for (size_t i = 0; i < n.candidates.nr; i++)
		string_list_append(&c->candidates, n.candidates.items[i]);
	for (size_t i = 0; i < n.untested.nr; i++)
		string_list_append(&c->untested, n.untested.items[i]);
	free(c->report);
	c->report = n.report[0] ? n.report : NULL;
	if (c->report)
		n.report = NULL;
	history_bisect_note_release(&n);
	return 1;
}

static void json_string_array(struct json_writer *w, const char *key, const struct string_list *l)
{
	size_t i;

	json_writer_key(w, key);
	json_writer_begin_array(w);
	for (i = 0; i < l->nr; i++)
		json_writer_string(w, l->items[i]);
	json_writer_end(w);
}

/* Keep trail flame's answer for the gap (the note's other lines are kept). */
static int store_answer(const struct history_cmd *h, const struct history_series *s,
			const char *before, const char *after, const struct flame_session *f,
			const struct history_change *c)
{
	struct strbuf note = STRBUF_INIT, text = STRBUF_INIT;
	struct json_writer w;
	const char *line, *end;
	int ret;

	if (!history_note_read(h->top_dir, HISTORY_BISECT_REF, after, &note))
		for (line = note.buf; line < note.buf + note.len; line = end + 1) {
			end = memchr(line, '\n', (size_t)(note.buf + note.len - line));
			if (!end)
				end = note.buf + note.len;
			/* an older answer of the same gap and series is replaced */
			if (end > line && !(memmem(line, (size_t)(end - line), before, 40) &&
					    memmem(line, (size_t)(end - line), s->key, 16))) {
				strbuf_add(&text, line, (size_t)(end - line));
				strbuf_addch(&text, '\n');
			}
		}
	json_writer_init(&w, &text, JSON_WRITER_COMPACT);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "before", before);
	json_writer_key_string(&w, "key", s->key);
	json_writer_key_string(&w, "metric", s->metric);
	json_writer_key_string(&w, "verdict", f->ans.outcome != VERDICT_NONE ?
				trail_verdict_name(f->ans.outcome) : "failed");
	json_writer_key_string(&w, "culprit", c->culprit[0] ? c->culprit : NULL);
	if (c->candidates.nr) {
		json_string_array(&w, "candidates", &c->candidates);
		json_string_array(&w, "untested", &c->untested);
	}
	json_writer_key_string(&w, "function", f->ans.target.function);
	json_writer_key_string(&w, "report", f->req.out_dir);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(&text, '\n');
	ret = history_note_write(h->top_dir, HISTORY_BISECT_REF, after, &text);
	strbuf_release(&note);
	strbuf_release(&text);
	return ret;
}

/* Position of id in ids, or SIZE_MAX (a commit off the first-parent line). */
static size_t position(const struct string_list *ids, const char *id)
{
	size_t i;

	for (i = 0; i < ids->nr; i++)
		if (!strcmp(ids->items[i], id))
			return i;
	return SIZE_MAX;
}

/* Did trail flame measure id (a probe that decided fast or slow)? */
static int flame_measured(const struct flame_session *f, const char *id)
{
	size_t i;

	for (i = 0; i < f->ans.narrow.nprobes; i++)
		if (!strcmp(f->ans.narrow.probes[i].id, id) &&
		    f->ans.narrow.probes[i].verdict != PROBE_SKIP)
			return 1;
	return 0;
}

/*
 * trail flame's answer into c: its culprit, or, when it lists commits it
 * could not build or run next to it (ans.narrow.ambiguous), all of them
 * and the culprit as candidates, oldest first - flame then picks one of them
 * (narrow.c), which may be a commit it never built; history names none.
 */
static void flame_answer(struct history_change *c, const struct string_list *ids,
			 const struct flame_session *f)
{
	struct string_list all = STRING_LIST_INIT;
	size_t i, j, others = 0;

	c->culprit[0] = '\0';
	string_list_clear(&c->candidates);
	string_list_clear(&c->untested);
	for (i = 0; i < f->ans.narrow.ambiguous.nr; i++)
		others += strcmp(f->ans.narrow.ambiguous.items[i], f->ans.narrow.culprit) != 0;
	if (!others) {
		if (f->ans.narrow.culprit[0])
			memcpy(c->culprit, f->ans.narrow.culprit, 41);
		return;
	}
	for (i = 0; i < f->ans.narrow.ambiguous.nr; i++)
		string_list_append(&all, f->ans.narrow.ambiguous.items[i]);
	if (f->ans.narrow.culprit[0] && !string_list_has(&all, f->ans.narrow.culprit))
		string_list_append(&all, f->ans.narrow.culprit);
	/* oldest first (insertion sort on the first-parent position; others last, as listed) */
	for (i = 1; i < all.nr; i++)
		for (j = i; j > 0 && position(ids, all.items[j - 1]) > position(ids, all.items[j]); j--) {
			char *t = all.items[j];

			all.items[j] = all.items[j - 1];
			all.items[j - 1] = t;
		}
	for (i = 0; i < all.nr; i++) {
		string_list_append(&c->candidates, all.items[i]);
		if (!flame_measured(f, all.items[i]))
			string_list_append(&c->untested, all.items[i]);
	}
	string_list_clear(&all);
}

/* trail flame's session between the change's two stored commits. */
static int bisect_flame(struct history_cmd *h, const struct history_series *s,
			const struct string_list *ids, struct history_change *c)
{
	const struct history_point *pa = &s->pts[c->index - 1], *pb = &s->pts[c->index];
	struct flame_session f;
	enum flame_metric m;
	int ret;

	if (!pa->r->env.build[0] || !pa->r->env.run[0])
		return trail_error("bisect: %.12s was stored from a profile (record --profile): no "
				   "build and run commands to measure the commits between", pa->commit);
	if (history_cmd_parse_metric(s->metric, &m))
		return -1;
	/* trail flame locks the build cache history may hold open */
	if (h->repo_open) {
		flame_repo_release(&h->repo);
		h->repo_open = 0;
	}
	flame_session_init(&f);
	f.req.dir = h->top_dir;
	f.req.good_rev = pa->commit;
	f.req.bad_rev = pb->commit;
	f.req.build_cmd = pa->r->env.build;
	f.req.run_cmd = pa->r->env.run;
	f.req.cache_root = h->cache_root;
	f.req.trail_exe = h->trail_exe;
	f.req.profiler = h->profiler;
	f.req.metric = m;
	f.req.freq = (unsigned)h->freq;
	f.req.build_timeout = h->build_timeout;
	f.req.run_timeout = h->run_timeout;
	f.req.min_effect = history_cmd_min_effect(h, flame_metric_name(m));
	/* detect found the change: narrow it even when it is below trail flame's own bar */
	f.req.force_narrow = 1;
	f.req.command_line = "trail history detect --bisect";
	f.req.out_dir = report_dir(h, pa->commit, pb->commit);
	note("bisect: trail flame between %.12s and %.12s (%zu commit(s)), report in %s",
	     pa->commit, pb->commit, pb->pos - pa->pos, f.req.out_dir);
	ret = flame_session_run(&f);
	if (f.ans.outcome != VERDICT_NONE) {
		free(c->report);
		c->report = xstrdup(f.req.out_dir);
		flame_answer(c, ids, &f);
		ret = store_answer(h, s, pa->commit, pb->commit, &f, c) ? -1 : 0;
	} else {
		ret = trail_error("bisect: trail flame failed between %.12s and %.12s (exit %d)",
				  pa->commit, pb->commit, ret);
	}
	free((char *)f.req.out_dir);
	flame_session_release(&f);
	return ret;
}

int history_gap_answer(struct history_cmd *h, const struct history_series *s,
		       const struct string_list *ids, struct history_change *c)
{
	const struct history_point *a = &s->pts[c->index - 1], *b = &s->pts[c->index];

	if (b->pos == a->pos + 1) {
		memcpy(c->culprit, b->commit, 41);	/* neighbours: the first after is it */
		return 1;
	}
	if (stored_answer(h, s, a->commit, b->commit, c))
		return 2;
	/* every commit between stored as failing: no bisection can do better */
	return bisect_series(h, s, ids, c, 0);
}

int history_bisect(struct history_cmd *h, const struct history_series *s,
		   const struct string_list *ids, struct history_change *c)
{
	const char *before = s->pts[c->index - 1].commit, *after = s->pts[c->index].commit;

	switch (history_gap_answer(h, s, ids, c)) {
	case 1:
		return 0;
	case 2:
		note("bisect: %.12s..%.12s bisected before: %s (report in %s)", before, after,
		     c->culprit[0] ? c->culprit : c->candidates.nr ? "several commits could be it" :
		     "no commit named", c->report ? c->report : "none");
		return 0;
	}
	if (!c->slower)
		return bisect_series(h, s, ids, c, 1) < 0 ? -1 : 0;
	return bisect_flame(h, s, ids, c);
}
