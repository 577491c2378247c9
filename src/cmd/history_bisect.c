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
 * Name the commit of change c on the series: measure the middle of the gap
 * between the last stored commit before it and the first after, keep the
 * half whose ends differ, until they are neighbours.  A commit that does
 * not build is passed over towards the later end.
 */
static int bisect_series(struct history_cmd *h, const struct history_series *s,
			 const struct string_list *ids, struct history_change *c)
{
	const struct history_point *pa = &s->pts[c->index - 1], *pb = &s->pts[c->index];
	const char *func = c->nmoved ? c->moved[0].name : NULL;
	double before = func ? c->moved[0].before : c->before, after = func ? c->moved[0].after : c->after;
	size_t lo = pa->pos, hi = pb->pos;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, probe;
		const struct history_result *r = NULL;
		double x;

		for (probe = mid; probe < hi; probe++) {
			r = history_store_get(&h->store, ids->items[probe], s->key, s->metric);
			if (!r) {
				note("bisect: measuring %.12s (change at %.12s)", ids->items[probe], pb->commit);
				if (history_measure_store(h, ids->items[probe], pa->r, s->key, &r))
					return -1;
			}
			if (r->status == HISTORY_OK)
				break;
		}
		if (probe == hi) {
			hi = mid;	/* nothing between mid and hi can be measured */
			continue;
		}
		x = point_value(r, func);
		if (fabs(x - after) < fabs(x - before))
			hi = probe;
		else
			lo = probe;
	}
	memcpy(c->culprit, ids->items[hi], 41);
	return 0;
}

/* The report directory of the gap before..after: under -o DIR, else trail's state directory. */
static char *report_dir(const struct history_cmd *h, const char *before, const char *after)
{
	char *dir, *part, cwd[4096];
	const char *name = strrchr(h->top_dir, '/');
	uint32_t x = 2166136261u;	/* FNV-1a, 32 bits, of the repository's path */
	const char *p;

	if (h->out) {
		if (h->out[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			return xstrfmt("%s/%.12s-%.12s", h->out, before, after);
		return xstrfmt("%s/%s/%.12s-%.12s", cwd, h->out, before, after);
	}
	for (p = h->top_dir; *p; p++)
		x = (x ^ (unsigned char)*p) * 16777619u;
	name = name && name[1] ? name + 1 : "root";
	part = xstrfmt("history/%s-%08x/bisect/%.12s-%.12s", name, (unsigned)x, before, after);
	dir = state_dir(part);
	free(part);
	return dir;
}

/*
 * A stored answer for the gap before..after of this series: its culprit
 * ("" when trail flame named none) and report directory.  1 found, 0 not.
 */
static int stored_answer(const struct history_cmd *h, const struct history_series *s,
			 const char *before, const char *after, struct history_change *c)
{
	struct strbuf note = STRBUF_INIT;
	const char *line, *end;
	int found = 0;

	if (history_note_read(h->top_dir, HISTORY_BISECT_REF, after, &note)) {
		strbuf_release(&note);
		return 0;
	}
	for (line = note.buf; !found && line < note.buf + note.len; line = end + 1) {
		struct json_value v;
		const struct json_value *b, *k, *m, *cu, *rep;

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
		if (b && k && m && cu && rep && b->type == JSON_STRING && k->type == JSON_STRING &&
		    m->type == JSON_STRING && rep->type == JSON_STRING && !strcmp(b->string, before) &&
		    !strcmp(k->string, s->key) && !strcmp(m->string, s->metric)) {
			found = 1;
			if (cu->type == JSON_STRING && strlen(cu->string) == 40)
				memcpy(c->culprit, cu->string, 41);
			free(c->report);
			c->report = xstrdup(rep->string);
		}
		json_release(&v);
	}
	strbuf_release(&note);
	return found;
}

/* Keep trail flame's answer for the gap (the note's other lines are kept). */
static int store_answer(const struct history_cmd *h, const struct history_series *s,
			const char *before, const char *after, const struct flame_session *f)
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
	json_writer_key_string(&w, "culprit", f->ans.narrow.culprit[0] ? f->ans.narrow.culprit : NULL);
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

/* trail flame's session between the change's two stored commits. */
static int bisect_flame(struct history_cmd *h, const struct history_series *s,
			struct history_change *c)
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
		if (f.ans.narrow.culprit[0])
			memcpy(c->culprit, f.ans.narrow.culprit, 41);
		ret = store_answer(h, s, pa->commit, pb->commit, &f) ? -1 : 0;
	} else {
		ret = trail_error("bisect: trail flame failed between %.12s and %.12s (exit %d)",
				  pa->commit, pb->commit, ret);
	}
	free((char *)f.req.out_dir);
	flame_session_release(&f);
	return ret;
}

int history_bisect(struct history_cmd *h, const struct history_series *s,
		   const struct string_list *ids, struct history_change *c)
{
	const char *before = s->pts[c->index - 1].commit, *after = s->pts[c->index].commit;

	if (!c->slower)
		return bisect_series(h, s, ids, c);
	if (stored_answer(h, s, before, after, c)) {
		note("bisect: %.12s..%.12s bisected before: %s (report in %s)", before, after,
		     c->culprit[0] ? c->culprit : "no commit named", c->report);
		return 0;
	}
	return bisect_flame(h, s, c);
}
