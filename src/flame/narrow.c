/*
 * narrow.c - the NARROW step of trail flame: probe the suspects directly
 * or git bisect run the whole range with 'trail flame probe' in the
 * private clone, then re-probe the culprit and its parent for the
 * confidence of the split.
 */
#include "flame/narrow.h"
#include "flame/session_query.h"
#include "flame/suspects.h"
#include "core/verdict.h"
#include "flame/decide.h"
#include "flame/fleet.h"
#include "core/alloc.h"
#include "core/numfmt.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void describe_value(struct flame_session *s, double v, char *buf, size_t n)
{
	if (s->ans.target.function && s->ans.target.measure_share)
		snprintf(buf, n, "%.1f%%", 100 * v);
	else if (s->ans.target.function && s->ans.target.time_unit_ms > 0)
		snprintf(buf, n, "%.1f ms CPU/run", v * s->ans.target.time_unit_ms);
	else if (s->ans.target.function)
		numfmt_str(buf, n, v, flame_metric_per_run(s->req.metric), 0);
	else
		numfmt_str(buf, n, v, flame_metric_unit(s->req.metric), 0);
}

/* A difference of two such values: shares differ by percentage points. */
static void describe_delta(struct flame_session *s, double v, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	if (s->ans.target.function && s->ans.target.measure_share)
		numfmt_pp(&sb, v, 0);
	else if (s->ans.target.function && s->ans.target.measure_time)
		numfmt_value(&sb, v, "ms", 0);	/* a CPU time per run, not samples */
	else if (s->ans.target.function)
		numfmt_value(&sb, v, flame_metric_per_run(s->req.metric), 0);
	else
		numfmt_value(&sb, v, flame_metric_unit(s->req.metric), 0);
	snprintf(buf, n, "%s", sb.buf);
	strbuf_release(&sb);
}

enum { SHOW_NONE, SHOW_THRESHOLD, SHOW_PAIRED };

/* Keep a probe's result; SHOW_PAIRED notes one side of a pair with its partner. */
static void record_probe(struct flame_session *s, const struct flame_probe_result *r, int show,
			 const char *partner)
{
	char v[48], t[48];

	ALLOC_GROW(s->ans.narrow.probes, s->ans.narrow.nprobes + 1, s->ans.narrow.probes_alloc);
	s->ans.narrow.probes[s->ans.narrow.nprobes++] = *r;
	if (!show)
		return;
	describe_value(s, r->value, v, sizeof(v));
	describe_value(s, s->ans.target.threshold, t, sizeof(t));
	if (show == SHOW_PAIRED)	/* judged against its partner, not the threshold */
		note("narrow: probe %zu: %.12s %s (%s, %u runs%s, paired with %s)%s%s", s->ans.narrow.nprobes,
		     r->id, trail_probe_verdict_name(r->verdict), v, r->runs,
		     r->build_cached ? ", cached build" : "", partner, r->why[0] ? ": " : "", r->why);
	else
		note("narrow: probe %zu: %.12s %s (%s, threshold %s, %u runs%s)%s%s", s->ans.narrow.nprobes,
		     r->id, trail_probe_verdict_name(r->verdict), v, t, r->runs,
		     r->build_cached ? ", cached build" : "", r->why[0] ? ": " : "", r->why);
}

/* "narrow (bisect): probe 3 of ~5, ETA 1m10s" on a terminal (core/progress.h). */
static void narrow_progress_start(struct progress *pr, const char *strategy, size_t candidates)
{
	char title[64];

	snprintf(title, sizeof(title), "narrow (%s)", strategy);
	progress_start(pr, title, flame_steps_left(candidates));
	pr->item = "probe";
	pr->estimated = 1;
}

/*
 * done probes finished, the answer among candidates positions now; when
 * that is one, no probe is under way and the line is erased.
 */
static void narrow_progress_update(struct progress *pr, size_t done, size_t candidates)
{
	if (candidates <= 1) {
		pr->done = done;
		progress_stop(pr);
		return;
	}
	pr->total = done + flame_steps_left(candidates);
	progress_update(pr, done, NULL);
}

/*
 * Where the finished probes of a git bisect leave the culprit: after the
 * last fast one (*lo, -1 = good) and at or before the first slow one (*hi,
 * the bad end at first), as indices of s->st.range; the number of probes.
 */
static size_t bisect_bounds(struct flame_session *s, const char *log, int *lo, int *hi)
{
	struct flame_probe_result *res = NULL;
	size_t nres = 0, i;

	*lo = -1;
	*hi = (int)s->st.range.nr - 1;
	if (access(log, F_OK) || flame_probe_log_read(log, &res, &nres))
		return 0;
	for (i = 0; i < nres; i++) {
		int k = flame_session_range_index(s, res[i].id);

		if (k < 0)
			continue;
		if (res[i].verdict == PROBE_FAST && k > *lo)
			*lo = k;
		else if (res[i].verdict == PROBE_SLOW && k < *hi)
			*hi = k;
	}
	free(res);
	return nres;
}

/*
 * Run the git bisect child with the progress line: its stderr (the
 * probes' lines) comes through a pipe and is copied line by line, the
 * progress line erased before and redrawn after, and refreshed from the
 * probe log a few times a second.  Without a terminal (or with --quiet)
 * the child simply inherits stderr.  Returns child_run()'s value.
 */
static int run_bisect_child(struct flame_session *s, struct child *c, const char *log)
{
	struct progress pr;
	struct strbuf line = STRBUF_INIT, shown = STRBUF_INIT;
	int fds[2], lo, hi, eof = 0;
	size_t done;

	narrow_progress_start(&pr, "bisect", s->st.range.nr);
	if (!pr.enabled || pipe2(fds, O_CLOEXEC))
		return child_run(c);
	c->err = fds[1];
	if (child_start(c)) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	done = bisect_bounds(s, log, &lo, &hi);
	narrow_progress_update(&pr, done, (size_t)(hi - lo));
	while (!eof) {
		struct pollfd pf = { fds[0], POLLIN, 0 };
		char buf[4096];
		ssize_t n;
		char *nl;

		if (poll(&pf, 1, 250) > 0) {
			n = read(fds[0], buf, sizeof(buf));
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				eof = 1;
			if (n == 0)
				eof = 1;
			if (n > 0)
				strbuf_add(&line, buf, (size_t)n);
		}
		/* Whole lines go out at once, above the progress line. */
		nl = line.len ? memrchr(line.buf, '\n', line.len) : NULL;
		if (nl || (eof && line.len)) {
			size_t len = nl ? (size_t)(nl - line.buf) + 1 : line.len;

			progress_stop(&pr);
			strbuf_reset(&shown);	/* git prints commit subjects */
			escape_term_lines(&shown, line.buf, len);
			fwrite(shown.buf, 1, shown.len, stderr);
			memmove(line.buf, line.buf + len, line.len - len);
			strbuf_setlen(&line, line.len - len);
		}
		done = bisect_bounds(s, log, &lo, &hi);
		narrow_progress_update(&pr, done, (size_t)(hi - lo));
	}
	progress_stop(&pr);
	close(fds[0]);
	strbuf_release(&line);
	strbuf_release(&shown);
	return child_wait(c);
}

/* git bisect run, in the private clone, with 'trail flame probe'. */
static int run_git_bisect(struct flame_session *s, const char *good, const char *bad)
{
	char *log = xstrfmt("%s/probes.log", s->st.scratch);
	char *blog = xstrfmt("%s/bisect.log", s->st.scratch);
	struct flame_probe_result *res = NULL;
	struct strbuf out = STRBUF_INIT;
	size_t nres = 0, i;
	int ret = -1, code;
	const char *reset[] = { "bisect", "reset", NULL };

	flame_git(&s->st.repo, NULL, reset);
	unlink(log);
	{
		const char *start[] = { "bisect", "start", "--term-old", "fast", "--term-new",
					"slow", "--no-checkout", bad, good, NULL };

		if (flame_git(&s->st.repo, NULL, start) != 0) {
			trail_error("cannot start git bisect in '%s'", s->st.repo.clone);
			goto out;
		}
	}
	{
		const char *head[] = { "git", "-C", s->st.repo.clone, "bisect", "run", NULL };
		struct string_list args = STRING_LIST_INIT;
		struct child c = CHILD_INIT;
		const char *const *a;

		struct flame_probe_request r = flame_session_probe_request(s);

		for (a = head; *a; a++)
			string_list_append(&args, *a);
		r.log = log;
		flame_probe_request_argv(&r, s->req.trail_exe, &args);
		c.argv = (const char *const *)args.items;
		c.in = CHILD_DEVNULL;
		c.out_path = blog;
		c.err = CHILD_INHERIT;
		code = run_bisect_child(s, &c, log);
		string_list_clear(&args);
	}
	if (!flame_probe_log_read(log, &res, &nres))
		for (i = 0; i < nres; i++)
			record_probe(s, &res[i], SHOW_NONE, NULL);
	if (strbuf_read_file(&out, blog))
		goto out;
	{
		char *p = strstr(out.buf, " is the first slow commit");

		if (p) {
			char *q = p;

			while (q > out.buf && q[-1] != '\n')
				q--;
			if (p - q == 40) {
				memcpy(s->ans.narrow.culprit, q, 40);
				s->ans.narrow.culprit[40] = '\0';
				ret = 0;
			}
		} else if ((p = strstr(out.buf, "could be any of:"))) {
			/* Untestable commits next to the culprit: keep them as ambiguous. */
			char *l, *save = NULL;

			for (l = strtok_r(strchr(p, '\n'), "\n", &save); l;
			     l = strtok_r(NULL, "\n", &save)) {
				if (strlen(l) != 40 || strspn(l, "0123456789abcdef") != 40)
					break;
				string_list_append(&s->ans.narrow.ambiguous, l);
			}
			ret = s->ans.narrow.ambiguous.nr ? 0 : -1;
		}
	}
	/*
	 * Probes that cannot decide are an answer (inconclusive, with the
	 * narrowest range), not an error; with only skipped commits left git
	 * bisect run exits 2 but still lists them.
	 */
	if (ret) {
		if (code != 0)
			note("narrow: git bisect run stopped (%s); its log: %s",
			     child_describe_status(code), blog);
		else
			note("narrow: git bisect did not name a commit; its log: %s", blog);
		tempdir_keep(s->st.scratch);
		ret = 1;
	}
out:
	flame_git(&s->st.repo, NULL, reset);
	strbuf_release(&out);
	free(res);
	free(log);
	free(blog);
	return ret;
}

/* git bisect run here, or the k-ary bisection on the hosts (fleet.h). */
static int bisect(struct flame_session *s, const char *good, const char *bad)
{
	return flame_fleet_configured(s) ? flame_fleet_bisect(s, good, bad)
					 : run_git_bisect(s, good, bad);
}

/* Binary search over the suspects alone (oldest first): the first slow one. */
static int probe_suspects(struct flame_session *s)
{
	int lo = -1, hi = (int)s->ans.suspects.count;	/* lo fast (good), hi slow (bad) */
	struct flame_probe_request o = flame_session_probe_request(s);
	struct progress pr;
	size_t done = 0;
	int ret = 0;

	if (flame_fleet_configured(s))
		return flame_fleet_suspects(s);
	narrow_progress_start(&pr, "suspects", s->ans.suspects.count + 1);
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2, probe = mid;

		/*
		 * One candidate left below the (slow) bad end: the confirmation
		 * re-probes it and its parent anyway, so do not probe it twice.
		 */
		if (hi - lo == 2 && hi == (int)s->ans.suspects.count) {
			hi = lo + 1;
			break;
		}
		struct flame_probe_result r;

		/* A skipped suspect: try its neighbours inside (lo, hi). */
		for (;;) {
			narrow_progress_update(&pr, done, (size_t)(hi - lo));
			if (flame_probe(&s->st.repo, s->ans.suspects.list[probe].commit.id, &o, &r)) {
				ret = -1;
				goto out;
			}
			progress_stop(&pr);
			record_probe(s, &r, SHOW_THRESHOLD, NULL);
			done++;
			if (r.verdict != PROBE_SKIP)
				break;
			probe = probe + 1 < hi ? probe + 1 : -1;
			if (probe < 0) {
				ret = 1;
				goto out;
			}
		}
		if (r.verdict == PROBE_SLOW)
			hi = probe;
		else
			lo = probe;
	}
	if (hi == (int)s->ans.suspects.count)
		ret = 1;	/* no suspect is slow: the suspect set missed it */
	else
		memcpy(s->ans.narrow.culprit, s->ans.suspects.list[hi].commit.id, 41);
out:
	progress_stop(&pr);
	return ret;
}

static const struct flame_probe_result *find_probe(struct flame_session *s, const char *id)
{
	size_t i;

	for (i = s->ans.narrow.nprobes; i-- > 0;)
		if (!strcmp(s->ans.narrow.probes[i].id, id))
			return &s->ans.narrow.probes[i];
	return NULL;
}

static int choose_culprit_from_ambiguous(struct flame_session *s)
{
	size_t i;

	/* The measured-slow one among the candidates; the others could not be tested. */
	for (i = 0; i < s->ans.narrow.ambiguous.nr; i++) {
		const struct flame_probe_result *r = find_probe(s, s->ans.narrow.ambiguous.items[i]);

		if (r && r->verdict == PROBE_SLOW) {
			memcpy(s->ans.narrow.culprit, r->id, 41);
			return 0;
		}
	}
	if (!strcmp(s->ans.narrow.ambiguous.items[s->ans.narrow.ambiguous.nr - 1], s->ans.ends.bad) ||
	    flame_session_range_index(s, s->ans.narrow.ambiguous.items[s->ans.narrow.ambiguous.nr - 1]) >= 0) {
		memcpy(s->ans.narrow.culprit, s->ans.narrow.ambiguous.items[s->ans.narrow.ambiguous.nr - 1], 41);
		return 0;
	}
	return -1;
}

/*
 * Re-probe the culprit beside its nearest testable ancestor, their runs
 * interleaved (probe.h: flame_probe_pair), and take the confidence from
 * the difference between them.
 */
static int confirm_suspect(struct flame_session *s)
{
	struct flame_probe_request o = flame_session_probe_request(s);
	struct flame_pair_result pair;
	struct flame_pair_goal goal = { 0 };
	double effect = s->ans.target.share[1] - s->ans.target.share[0];
	char parent[41], cur[41], d[48], e[48], se[48], ex[FLAME_EXPLAINS_TEXT];
	struct strbuf p = STRBUF_INIT;
	int hops, untested = 0, rc = 1;

	int short_of = 0;

	if (s->req.exact_defaults) {
		/* counted metrics: one exact run a side (exact.c) */
		o.runs = s->req.probe_runs;
		o.max_runs = o.runs > s->req.probe_max_runs ? o.runs : s->req.probe_max_runs;
	} else {
		o.runs = s->req.probe_runs > 3 ? s->req.probe_runs : 3;
		o.max_runs = flame_session_pair_max_runs(s, effect, s->ans.target.share_se[0],
							 s->ans.target.share_se[1], &short_of);
		if (o.max_runs < o.runs)
			o.max_runs = o.runs;
		if (o.max_runs > s->req.probe_max_runs)
			note("narrow: the ends' runs scatter: the re-probe may take up to %u runs a side "
			     "(95%% power for a step of the whole change%s)", o.max_runs, short_of ?
			     "; even that falls short of it: a longer workload would help" : "");
	}
	goal.effect = effect;
	goal.effect_se = hypot(s->ans.target.share_se[0], s->ans.target.share_se[1]);
	goal.effect_df = flame_welch_df(s->ans.target.share_se[0], (double)s->st.nruns[0] - 1,
					s->ans.target.share_se[1], (double)s->st.nruns[1] - 1);
	goal.alpha = 1 - s->req.confidence;
	goal.good = s->ans.target.share[0];
	goal.log_scale = s->ans.target.log_scale;
	/*
	 * Suspects first, then the whole range when they fail: two chances
	 * to confirm, so each gets half of alpha (Bonferroni), not a second
	 * uncorrected one.
	 */
	if (s->st.confirmations_planned > 1)
		goal.alpha /= s->st.confirmations_planned;
	memset(&pair, 0, sizeof(pair));
	memcpy(cur, s->ans.narrow.culprit, 41);
	for (hops = 0; hops < 6; hops++) {
		if (flame_repo_parent(&s->st.repo, cur, parent))
			return -1;
		rc = flame_probe_pair(&s->st.repo, s->ans.narrow.culprit, parent, &o, &goal,
				      &s->ans.narrow.confirm_slow, &s->ans.narrow.confirm_fast, &pair);
		if (rc < 0)
			return -1;
		record_probe(s, &s->ans.narrow.confirm_slow, SHOW_PAIRED, "its parent");
		record_probe(s, &s->ans.narrow.confirm_fast, SHOW_PAIRED, "the suspect");
		if (rc != 2 || !strcmp(parent, s->ans.ends.good))
			break;
		/* The parent cannot be built or run: it is not blamed, but noted. */
		if (!string_list_has(&s->ans.narrow.ambiguous, parent))
			string_list_append(&s->ans.narrow.ambiguous, parent);
		untested++;
		memcpy(cur, parent, 41);
	}
	s->ans.narrow.pair = pair;
	s->ans.narrow.suspect_confidence = rc ? 0 : pair.confidence;
	if (rc) {
		/* nothing was measured: say why, not a difference of zero */
		const struct flame_probe_result *bad = rc == 1 ? &s->ans.narrow.confirm_slow
							       : &s->ans.narrow.confirm_fast;

		s->ans.narrow.pair.looks = 0;	/* no evidence (flame_report_evidence()) */
		snprintf(s->ans.narrow.confidence_how, sizeof(s->ans.narrow.confidence_how),
			 "could not re-probe the suspect beside %s %.12s: %.12s: %s; no evidence",
			 untested ? "its nearest testable ancestor" : "its parent",
			 s->ans.narrow.confirm_fast.id, bad->id, bad->why[0] ? bad->why : "not testable");
		return 0;
	}
	describe_delta(s, pair.diff, d, sizeof(d));
	describe_delta(s, effect, e, sizeof(e));
	describe_delta(s, pair.se, se, sizeof(se));
	flame_explains_format(&pair.step, ex, sizeof(ex));
	if (s->ans.ends.exact_counts) {
		strbuf_addstr(&p, "exact counts: each side's runs counted alike, the step has no "
			      "sampling error to test");
	} else {
		numfmt_p(&p, 1 - s->ans.narrow.suspect_confidence);
		strbuf_addf(&p, ": the one-sided Welch t test of a step of zero or less, adjusted for "
			    "the looks (a p-value, not the probability that the commit is a culprit); "
			    "alpha %.3g spent over the looks (Pocock-type)", goal.alpha);
	}
	snprintf(s->ans.narrow.confidence_how, sizeof(s->ans.narrow.confidence_how),
		 "re-probed the suspect beside %s %.12s%s (%u + %u runs, %u look%s): "
		 "it raises the value by %s (standard error %s, Welch df %.1f) of the %s "
		 "between the ends, explaining %s of the change (the ends' own error "
		 "included); %s%s",
		 untested ? "its nearest testable ancestor" : "its parent", s->ans.narrow.confirm_fast.id,
		 s->ans.narrow.confirm_fast.runs == 1 ? ", each counted once" : " in ABBA pairs",
		 s->ans.narrow.confirm_slow.runs, s->ans.narrow.confirm_fast.runs, pair.looks,
		 pair.looks == 1 ? "" : "s", d, se, pair.step.df, e, ex,
		 p.buf,
		 untested ? "; commits in between could not be built or run and are listed as ambiguous" : "");
	strbuf_release(&p);
	return 0;
}

void flame_step_narrow_restart(struct flame_session *s)
{
	/*
	 * The threshold was set from the share among the samples outside
	 * st.exclude: the bisection must measure that same share, so the
	 * exclusions stay.
	 */
	s->ans.narrow.strategy_used = "suspects+bisect";
	s->ans.narrow.culprit[0] = '\0';
	string_list_clear(&s->ans.narrow.ambiguous);
}

/* Was the culprit reverted later in the range?  (narrow.h) */
int flame_find_revert(struct flame_session *s, char revert[41])
{
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT, subj = STRBUF_INIT;
	struct flame_commit c;
	char *range = xstrfmt("%s..%s", s->ans.narrow.culprit, s->ans.ends.bad), *rec, *save = NULL;
	const char *argv[] = { "log", "--format=%H%n%s%n%b%x01", range, NULL };
	int found = 0;

	memset(&c, 0, sizeof(c));
	if (flame_git(&s->st.repo, &out, argv) != 0 ||
	    flame_repo_commit(&s->st.repo, s->ans.narrow.culprit, &c)) {
		found = -1;
		goto out;
	}
	strbuf_addf(&want, "This reverts commit %s", s->ans.narrow.culprit);
	strbuf_addf(&subj, "Revert \"%s\"", c.subject ? c.subject : "");
	/* newest first: the first match is the last revert */
	for (rec = strtok_r(out.buf, "\001", &save); rec && !found; rec = strtok_r(NULL, "\001", &save)) {
		char *id = rec + strspn(rec, "\n"), *nl = strchr(id, '\n');
		size_t len;

		if (!nl || nl - id != 40)
			continue;
		len = strcspn(nl + 1, "\n");
		if (strstr(nl + 1, want.buf) ||
		    (len == subj.len && !strncmp(nl + 1, subj.buf, len))) {
			memcpy(revert, id, 40);
			revert[40] = '\0';
			found = 1;
		}
	}
out:
	flame_commit_release(&c);
	strbuf_release(&out);
	strbuf_release(&want);
	strbuf_release(&subj);
	free(range);
	return found;
}

/*
 * The probes could not decide: the narrowest range they established
 * (after the last fast probe, up to the first slow one) goes into the
 * message, the verdict is inconclusive.
 */
static void narrow_undecided(struct flame_session *s)
{
	int lo = -1, hi = (int)s->st.range.nr - 1;
	size_t i, skipped = 0;

	for (i = 0; i < s->ans.narrow.nprobes; i++) {
		int k = flame_session_range_index(s, s->ans.narrow.probes[i].id);

		skipped += s->ans.narrow.probes[i].verdict == PROBE_SKIP;
		if (k < 0)
			continue;
		if (s->ans.narrow.probes[i].verdict == PROBE_FAST && k > lo)
			lo = k;
		else if (s->ans.narrow.probes[i].verdict == PROBE_SLOW && k < hi)
			hi = k;
	}
	if (hi < lo)
		hi = (int)s->st.range.nr - 1;
	s->ans.narrow.culprit[0] = '\0';
	s->ans.narrow.narrow_lo = lo;
	s->ans.narrow.narrow_hi = hi;
	snprintf(s->ans.message, sizeof(s->ans.message),
		 "the change is real, but the probes could not single out a commit (%zu of %zu "
		 "undecided): it lies in the %d commit%s after %.12s up to %.12s; measure with more "
		 "runs per probe (--probe-max-runs), on a quieter machine, or a longer workload",
		 skipped, s->ans.narrow.nprobes, hi - lo, hi - lo == 1 ? "" : "s",
		 lo < 0 ? s->ans.ends.good : s->st.range.items[lo], s->st.range.items[hi]);
}

/*
 * A confirmed culprit that a later commit reverted is not the live
 * regression: bisect again after the revert, whose level is the good
 * one, up to the bad end (the reland is found there).  0, 1 undecided
 * (message set), -1 error.
 */
static int narrow_after_revert(struct flame_session *s)
{
	char revert[41];
	int rc, hops;

	for (hops = 0; hops < 3; hops++) {
		rc = flame_find_revert(s, revert);
		if (rc <= 0)
			return rc < 0 ? -1 : 0;
		note("narrow: %.12s was reverted by %.12s later in the range: its change does not "
		     "persist to the bad end; bisecting %.12s..%.12s for the one that does",
		     s->ans.narrow.culprit, revert, revert, s->ans.ends.bad);
		if (!string_list_has(&s->ans.narrow.reverted, s->ans.narrow.culprit))
			string_list_append(&s->ans.narrow.reverted, s->ans.narrow.culprit);
		s->ans.narrow.culprit[0] = '\0';
		string_list_clear(&s->ans.narrow.ambiguous);
		rc = bisect(s, revert, s->ans.ends.bad);
		if (rc < 0)
			return -1;
		if (rc || (!s->ans.narrow.culprit[0] && choose_culprit_from_ambiguous(s))) {
			narrow_undecided(s);
			return 1;
		}
		if (confirm_suspect(s))
			return -1;
		if (!flame_split_confirmed(&s->ans.narrow.pair))
			return 0;
	}
	return 0;
}

int flame_step_narrow(struct flame_session *s)
{
	int rc;

	/* Bisecting on the metric, the function that blocks longer still
	 * narrows the commits worth probing first. */
	if (s->ans.target.function || s->ans.target.blocked_function)
		flame_step_find_suspects(s, s->ans.target.function ? s->ans.target.function
							    : s->ans.target.blocked_function);
	s->ans.narrow.strategy_used = flame_choose_strategy(s->req.strategy, s->st.range.nr,
						     s->ans.suspects.count, s->ans.narrow.strategy_reason,
						     sizeof(s->ans.narrow.strategy_reason));
	note("narrow: %s", s->ans.narrow.strategy_reason);
	s->st.confirmations_planned = !strcmp(s->ans.narrow.strategy_used, "suspects") ? 2 : 1;
	if (!strcmp(s->ans.narrow.strategy_used, "suspects")) {
		rc = probe_suspects(s);
		if (rc < 0)
			return -1;
		/* The split must be exact: the re-probed parent must be fast. */
		if (!rc && confirm_suspect(s))
			return -1;
		if (!rc && flame_split_confirmed(&s->ans.narrow.pair))
			return narrow_after_revert(s);
		note("narrow: the suspects do not explain the change; bisecting the whole range");
		flame_step_narrow_restart(s);
	}
	rc = bisect(s, s->ans.ends.good, s->ans.ends.bad);
	if (rc < 0)
		return -1;
	if (rc || (!s->ans.narrow.culprit[0] && choose_culprit_from_ambiguous(s))) {
		narrow_undecided(s);
		return 1;
	}
	return confirm_suspect(s) ? -1 : narrow_after_revert(s);
}
