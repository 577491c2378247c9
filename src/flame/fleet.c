/*
 * fleet.c - trail flame's probe slots on many machines (see fleet.h):
 * set the hosts up (a git bundle of the range, or --remote-repo), measure
 * each host's ends, then run the k-ary bisection's rounds (kary.h), each
 * round's probes at once, one per slot, over ssh or on this machine;
 * failed hosts are dropped and their probes run elsewhere.  The child
 * processes and their output files are fleet_jobs.c's.
 */
#include "flame/fleet.h"
#include "core/verdict.h"
#include "fleet/fleet_jobs.h"
#include "flame/decide.h"
#include "flame/kary.h"
#include "flame/probe_json.h"
#include "fleet/remote.h"
#include "flame/session_query.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/cleanup.h"
#include "core/shell_quote.h"
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fleet_slot {
	size_t host;		/* index into hosts */
	char cpus[64];		/* taskset list for a local slot, "" = not pinned */
};

struct flame_fleet {
	struct flame_fleet_host_report *rep;	/* = s->ans.fleet.hosts */
	char **clone;				/* each host's clone; NULL until set up */
	struct fleet_slot *slots;
	size_t nslots;
	int ready;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int flame_fleet_configured(const struct flame_session *s)
{
	return s->req.hosts && s->req.hosts->nr;
}

/*
 * The probe command for host k: the session's probe request at id against
 * threshold, in the host's clone, answering in JSON; fixed: a window of
 * exactly --probe-runs runs (the ends of a host, no sequential looks).
 */
static char *probe_command(struct flame_session *s, size_t k, const char *id, double threshold,
			   int fixed)
{
	const struct flame_host *h = &s->req.hosts->items[k];
	const char *exe = h->dest ? s->req.remote_trail : s->req.trail_exe;
	struct flame_probe_request r = flame_session_probe_request(s);
	struct string_list argv = STRING_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	r.rev = id;
	r.threshold = threshold;
	r.clone = s->st.fleet->clone[k];
	r.json = 1;
	if (fixed)
		r.max_runs = r.runs;
	flame_probe_request_argv(&r, exe, &argv);
	if (h->dest) {
		/* the run's identity and --no-submodules travel with the command */
		const char *vars[] = { FLAME_RUN_ENV, FLAME_SUBMODULES_ENV, NULL };

		strbuf_add_env_assignments(&sb, vars);
	}
	strbuf_add_shell_argv(&sb, (const char *const *)argv.items);
	string_list_clear(&argv);
	return strbuf_detach(&sb, NULL);
}

static void drop_host(struct flame_session *s, size_t k, const char *why)
{
	struct flame_fleet_host_report *r = &s->st.fleet->rep[k];

	if (r->dropped)
		return;
	r->dropped = xstrdup(why);
	warning("host %s: %s; its probes go to the other hosts", r->name, why);
}

static int host_alive(const struct flame_session *s, size_t k)
{
	return s->st.fleet->clone[k] && !s->st.fleet->rep[k].dropped;
}

/* Fetch the history into every remote host's build cache, at once. */
static void setup_hosts(struct flame_session *s, const char *bundle)
{
	const struct flame_hosts *h = s->req.hosts;
	const char *key = strrchr(s->st.repo.cache, '/');
	struct flame_fleet_setup o;
	char **why = xcalloc(h->nr + 1, sizeof(*why));
	size_t i;

	o.key = key ? key + 1 : "repo";
	o.url = s->req.remote_repo;
	o.bundle = bundle;
	o.tip = s->ans.ends.bad;
	o.trail = s->req.remote_trail;
	o.scratch = s->st.scratch;
	flame_fleet_setup_hosts(h, &o, s->st.fleet->clone, why);
	for (i = 0; i < h->nr; i++) {
		if (why[i])
			drop_host(s, i, why[i]);
		free(why[i]);
	}
	free(why);
}

/* Record a probe in the answer, with its host, and say so. */
static void record(struct flame_session *s, struct flame_probe_result *r, const char *host,
		   double threshold, const char *dir)
{
	snprintf(r->host, sizeof(r->host), "%s", host);
	ALLOC_GROW(s->ans.narrow.probes, s->ans.narrow.nprobes + 1, s->ans.narrow.probes_alloc);
	s->ans.narrow.probes[s->ans.narrow.nprobes++] = *r;
	char v[32], th[32];

	note("narrow: probe %zu: %.12s %s (%s, threshold %s, %u runs%s) on %s%s%s%s%s",
	     s->ans.narrow.nprobes, r->id, trail_probe_verdict_name(r->verdict),
	     numfmt_str(v, sizeof(v), r->value, NULL, 0), numfmt_str(th, sizeof(th), threshold, NULL, 0), r->runs,
	     r->build_cached ? ", cached build" : "", host, dir[0] ? " in " : "", dir,
	     r->why[0] ? ": " : "", r->why);
}

/* An end's probe measured a value (undecided against the session's threshold is fine). */
static int end_measured(const struct flame_probe_result *r)
{
	return r->runs && (r->verdict != PROBE_SKIP || !strncmp(r->why, "undecided", 9));
}

/*
 * Every remote host measures the good and bad ends itself, at once; its
 * threshold is their midpoint (geometric for a time: decide.h).  A host whose bad end is not clearly above
 * its good one cannot judge probes and is dropped.
 */
/* Judge host k's ends from its probes' output; drop it when they do not do. */
static void judge_ends(struct flame_session *s, size_t k, const struct strbuf *out,
		       const struct fleet_job *failed)
{
	struct flame_fleet_host_report *r = &s->st.fleet->rep[k];
	struct flame_probe_result *res = NULL;
	double z = flame_z_for(s->req.confidence);
	size_t nres = 0;
	char why[400], g[32], b[32], th[32];

	/* a fixed window: "undecided" against the session's threshold is fine */
	if (flame_probe_json_read(out->buf ? out->buf : "", out->len, r->name, &res, &nres) ||
	    nres != 2 || !end_measured(&res[0]) || !end_measured(&res[1])) {
		if (nres == 2)
			snprintf(why, sizeof(why), "cannot measure the ends: %s",
				 res[end_measured(&res[0]) ? 1 : 0].why);
		else
			flame_fleet_job_failure(failed, "measuring the ends", why, sizeof(why));
		drop_host(s, k, why);
	} else if (res[1].value - res[0].value <= z * hypot(res[0].se, res[1].se)) {
		snprintf(why, sizeof(why), "its bad end (%s) is not clearly above its good end "
			 "(%s): the slowdown does not show there", numfmt_str(b, sizeof(b), res[1].value, NULL, 0),
			 numfmt_str(g, sizeof(g), res[0].value, NULL, 0));
		drop_host(s, k, why);
	} else {
		r->good = res[0].value;
		r->bad = res[1].value;
		r->threshold = flame_threshold_scaled(r->good, r->bad, s->ans.target.log_scale);
		note("narrow: host %s: good %s, bad %s: its threshold %s", r->name,
		     numfmt_str(g, sizeof(g), r->good, NULL, 0), numfmt_str(b, sizeof(b), r->bad, NULL, 0),
		     numfmt_str(th, sizeof(th), r->threshold, NULL, 0));
	}
	free(res);
}

/*
 * Every remote host measures the good and bad ends itself, all hosts at
 * once (on two of its slots when it has two, else one after the other);
 * its threshold is their midpoint.  A host whose bad end is not clearly
 * above its good one cannot judge probes and is dropped.
 */
static void measure_ends(struct flame_session *s)
{
	const struct flame_hosts *h = s->req.hosts;
	struct fleet_job *jobs = xcalloc(2 * h->nr + 1, sizeof(*jobs));
	size_t i, j, n = 0;

	for (i = 0; i < h->nr; i++) {
		const char *ends[2] = { s->ans.ends.good, s->ans.ends.bad };
		size_t e, per = h->items[i].slots >= 2 ? 1 : 2;

		if (!h->items[i].dest || !host_alive(s, i))
			continue;
		for (e = 0; e < 2; e += per) {
			struct string_list cmds = STRING_LIST_INIT;
			size_t q;

			for (q = e; q < e + per; q++)
				string_list_append_nodup(&cmds, probe_command(s, i, ends[q],
									 s->ans.target.threshold, 1));
			fleet_job_init(&jobs[n]);
			jobs[n].host = &h->items[i];
			jobs[n].host_index = i;
			jobs[n].script = flame_remote_probe_script(&cmds);
			string_list_clear(&cmds);
			n++;
		}
	}
	fleet_jobs_run(jobs, n, s->st.scratch);
	for (i = 0; i < n; i = j) {
		struct strbuf out = STRBUF_INIT;
		const struct fleet_job *failed = &jobs[i];

		/* the host's jobs are adjacent: good's output, then bad's */
		for (j = i; j < n && jobs[j].host_index == jobs[i].host_index; j++) {
			strbuf_add(&out, jobs[j].out.buf, jobs[j].out.len);
			if (jobs[j].code)
				failed = &jobs[j];
		}
		judge_ends(s, jobs[i].host_index, &out, failed);
		strbuf_release(&out);
	}
	for (i = 0; i < n; i++)
		fleet_job_release(&jobs[i]);
	free(jobs);
}

/* Set every host up, once per session; -1 when no slot is left. */
static int fleet_ready(struct flame_session *s, const char *bad)
{
	const struct flame_hosts *h = s->req.hosts;
	struct flame_fleet *f = s->st.fleet;
	size_t i;
	unsigned k;
	double t0 = now();
	int remote = 0;

	if (f && f->ready)
		return f->nslots ? 0 : -1;
	f = s->st.fleet = xcalloc(1, sizeof(*f));
	f->clone = xcalloc(h->nr, sizeof(*f->clone));
	f->rep = s->ans.fleet.hosts = xcalloc(h->nr, sizeof(*f->rep));
	s->ans.fleet.nhosts = h->nr;
	s->ans.fleet.used = 1;
	for (i = 0; i < h->nr; i++) {
		f->rep[i].name = xstrdup(h->items[i].name);
		f->rep[i].slots = h->items[i].slots;
		if (h->items[i].dest) {
			remote = 1;
			continue;
		}
		f->clone[i] = xstrdup(s->st.repo.clone);
		f->rep[i].good = s->ans.target.share[0];
		f->rep[i].bad = s->ans.target.share[1];
		f->rep[i].threshold = s->ans.target.threshold;
	}
	if (remote) {
		char *bundle = s->req.remote_repo ? NULL :
			       flame_fleet_bundle(&s->st.repo, s->st.scratch, &bad, 1);

		if (!s->req.remote_repo && !bundle)
			return -1;
		setup_hosts(s, bundle);
		free(bundle);
		measure_ends(s);
	}
	f->ready = 1;
	f->slots = xcalloc(h->slots ? h->slots : 1, sizeof(*f->slots));
	for (i = 0; i < h->nr; i++) {
		if (!host_alive(s, i))
			continue;
		for (k = 0; k < h->items[i].slots; k++) {
			f->slots[f->nslots].host = i;
			if (!h->items[i].dest)
				flame_fleet_local_cpus(k, h->items[i].slots, f->slots[f->nslots].cpus,
					   sizeof(f->slots[0].cpus));
			f->nslots++;
		}
	}
	s->ans.fleet.setup_seconds += now() - t0;
	if (!f->nslots)
		return trail_error("no host could be used for probing (see the warnings above)");
	return 0;
}

/* Slots whose host is still alive, their indices into idx (may be NULL). */
static size_t alive_slots(struct flame_session *s, size_t *idx)
{
	struct flame_fleet *f = s->st.fleet;
	size_t i, n = 0;

	for (i = 0; i < f->nslots; i++)
		if (host_alive(s, f->slots[i].host)) {
			if (idx)
				idx[n] = i;
			n++;
		}
	return n;
}

/* A point of a round still to probe, and the hosts that failed its build. */
struct pending {
	int point;		/* index into the round's points; -1 - it while a job has it */
	int answered;
	unsigned char *tried;	/* one flag a host */
};

/* One job a free slot, each with a pending point its host has not failed. */
static size_t start_wave(struct flame_session *s, const char *const *ids, const int *pts,
			 struct pending *todo, size_t ntodo, struct fleet_job *jobs)
{
	const struct flame_hosts *h = s->req.hosts;
	struct flame_fleet *f = s->st.fleet;
	size_t *slots = xcalloc(f->nslots + 1, sizeof(*slots));
	size_t nslots = alive_slots(s, slots), n = 0, i, j;

	for (j = 0; j < nslots; j++) {
		size_t k = f->slots[slots[j]].host;
		struct string_list cmds = STRING_LIST_INIT;

		for (i = 0; i < ntodo; i++)
			if (todo[i].point >= 0 && !todo[i].tried[k])
				break;
		if (i == ntodo)
			continue;
		fleet_job_init(&jobs[n]);
		jobs[n].host = &h->items[k];
		jobs[n].host_index = k;
		jobs[n].slot = slots[j];
		jobs[n].point = todo[i].point;
		jobs[n].cpus = f->slots[slots[j]].cpus[0] ? f->slots[slots[j]].cpus : NULL;
		string_list_append_nodup(&cmds, probe_command(s, k, ids[pts[todo[i].point]],
							 f->rep[k].threshold, 0));
		jobs[n].script = flame_remote_probe_script(&cmds);
		string_list_clear(&cmds);
		todo[i].point = -1 - todo[i].point;
		n++;
	}
	free(slots);
	return n;
}

/*
 * A finished job: its verdict into v[], or its host dropped; the point
 * goes back to the pending ones when there is no answer, or when the
 * build failed there and another host may build it.
 */
static void collect(struct flame_session *s, struct fleet_job *jb, struct pending *todo,
		    size_t ntodo, enum trail_probe_verdict *v)
{
	struct flame_fleet_host_report *r = &s->st.fleet->rep[jb->host_index];
	struct flame_probe_result *res = NULL;
	size_t nres = 0, i;
	char dir[300], why[400];
	int p = jb->point, back = 0;

	fleet_job_dir(jb, dir, sizeof(dir));
	if (flame_probe_json_read(jb->out.buf ? jb->out.buf : "", jb->out.len, r->name, &res,
				  &nres) || nres != 1) {
		flame_fleet_job_failure(jb, "probing", why, sizeof(why));
		drop_host(s, jb->host_index, why);
		back = 1;
	} else {
		res[0].seconds = jb->seconds;
		record(s, &res[0], r->name, r->threshold, dir);
		r->probes++;
		s->ans.fleet.probes++;
		s->ans.fleet.probe_seconds += jb->seconds;
		v[p] = res[0].verdict;
		back = flame_probe_build_failed(&res[0]);
	}
	free(res);
	for (i = 0; i < ntodo; i++) {
		if (todo[i].point != -1 - p)
			continue;
		todo[i].point = p;
		if (!back)
			todo[i].answered = 1;
		else if (nres == 1)	/* another machine may build it */
			todo[i].tried[jb->host_index] = 1;
	}
}

/*
 * Probe ids[pts[0..m-1]] at once, one per slot, in waves: a slot whose
 * host fails hands its point to the next wave on the remaining hosts.
 * v[] gets the verdicts (skip: no living host could build it); -1 when
 * no host is left.
 */
static int run_round(struct flame_session *s, const char *const *ids, const int *pts, size_t m,
		     enum trail_probe_verdict *v)
{
	const struct flame_hosts *h = s->req.hosts;
	struct pending *todo = xcalloc(m + 1, sizeof(*todo));
	struct fleet_job *jobs = xcalloc(s->st.fleet->nslots + 1, sizeof(*jobs));
	size_t ntodo = m, i, j, n;
	int ret = 0;

	for (i = 0; i < m; i++) {
		todo[i].point = (int)i;
		todo[i].tried = xcalloc(h->nr, 1);
	}
	while (ntodo) {
		if (!alive_slots(s, NULL)) {
			ret = trail_error("every host failed; no probe slot is left");
			break;
		}
		n = start_wave(s, ids, pts, todo, ntodo, jobs);
		fleet_jobs_run(jobs, n, s->st.scratch);
		for (j = 0; j < n; j++) {
			collect(s, &jobs[j], todo, ntodo, v);
			fleet_job_release(&jobs[j]);
		}
		/* keep what has no answer yet and a living host that may build it */
		for (i = j = 0; i < ntodo; i++) {
			size_t k, left = 0;

			for (k = 0; k < h->nr; k++)
				left += host_alive(s, k) && !todo[i].tried[k];
			if (!todo[i].answered && !left && alive_slots(s, NULL))
				v[todo[i].point] = PROBE_SKIP;	/* no host left can build it */
			if (todo[i].answered || (!left && alive_slots(s, NULL))) {
				free(todo[i].tried);
				continue;
			}
			todo[j++] = todo[i];
		}
		ntodo = j;
	}
	for (i = 0; i < ntodo; i++)
		free(todo[i].tried);
	free(todo);
	free(jobs);
	return ret;
}

/*
 * k-ary search over ids[0..n-1] (oldest first; position n is the bad
 * end, -1 the good): 1 with *found (n: nothing slow), 0 when skipped
 * commits next to *found could be it too (listed in ans.narrow.ambiguous), -1
 * on error.
 */
static int search(struct flame_session *s, const char *const *ids, int n, const char *bad,
		  const char *what, int *found)
{
	struct flame_kary k;
	int *pts;
	enum trail_probe_verdict *v;
	double t0 = now();
	size_t m, i;
	int rc = -1, done = -1;
	unsigned est;

	if (fleet_ready(s, bad))
		return -1;
	flame_kary_init(&k, n);
	pts = xcalloc(s->st.fleet->nslots + 1, sizeof(*pts));
	v = xcalloc(s->st.fleet->nslots + 1, sizeof(*v));
	s->ans.fleet.slots = (unsigned)s->st.fleet->nslots;
	s->ans.fleet.sequential_probes += flame_kary_rounds(n, 1);
	est = flame_kary_rounds(n, (unsigned)s->st.fleet->nslots);
	note("narrow: k-ary bisection of %d %s on %zu slot%s: about %u round%s (one slot: %u probes "
	     "in a row)", n, what, s->st.fleet->nslots, s->st.fleet->nslots == 1 ? "" : "s", est,
	     est == 1 ? "" : "s", flame_kary_rounds(n, 1));
	while ((done = flame_kary_done(&k, found)) < 0) {
		size_t alive = alive_slots(s, NULL);

		m = flame_kary_next(&k, (unsigned)alive, pts);
		note("narrow: round %u: probing %zu of the %d commits after %.12s up to %.12s at once",
		     k.rounds + 1, m, k.hi - k.lo, k.lo < 0 ? s->ans.ends.good : ids[k.lo],
		     k.hi >= n ? bad : ids[k.hi]);
		for (i = 0; i < m; i++)
			v[i] = PROBE_SKIP;
		if (run_round(s, ids, pts, m, v))
			goto out;
		flame_kary_update(&k, pts, v, m);
		s->ans.fleet.rounds++;
	}
	if (!done)
		for (i = (size_t)(k.lo + 1); (int)i < k.hi; i++)
			string_list_append(&s->ans.narrow.ambiguous, ids[i]);
	rc = done;
	note("narrow: %u round%s of up to %zu probes at once; the wall time %.1f s, the probes' own "
	     "time %.1f s", k.rounds, k.rounds == 1 ? "" : "s", s->st.fleet->nslots, now() - t0,
	     s->ans.fleet.probe_seconds);
out:
	s->ans.fleet.seconds += now() - t0;
	flame_kary_release(&k);
	free(pts);
	free(v);
	return rc;
}

int flame_fleet_bisect(struct flame_session *s, const char *good, const char *bad)
{
	struct string_list range = STRING_LIST_INIT;
	int found, rc;

	if (flame_repo_range(&s->st.repo, good, bad, &range))
		return -1;
	if (!range.nr) {
		string_list_clear(&range);
		return trail_error("no commits in %.12s..%.12s", good, bad);
	}
	/* the last commit of the range is the bad end itself */
	rc = search(s, (const char *const *)range.items, (int)range.nr - 1, bad, "commits", &found);
	if (rc >= 0) {
		const char *id = found >= (int)range.nr - 1 ? bad : range.items[found];

		if (rc == 0)	/* as git bisect's "could be any of": the slow one last */
			string_list_append(&s->ans.narrow.ambiguous, id);
		else
			memcpy(s->ans.narrow.culprit, id, 41);
		rc = 0;
	}
	string_list_clear(&range);
	return rc;
}

int flame_fleet_suspects(struct flame_session *s)
{
	const char **ids = xcalloc(s->ans.suspects.count + 1, sizeof(*ids));
	size_t i;
	int found, rc;

	for (i = 0; i < s->ans.suspects.count; i++)
		ids[i] = s->ans.suspects.list[i].commit.id;
	rc = search(s, ids, (int)s->ans.suspects.count, s->ans.ends.bad, "suspects", &found);
	free(ids);
	string_list_clear(&s->ans.narrow.ambiguous);
	if (rc < 0)
		return -1;
	if (found >= (int)s->ans.suspects.count)
		return 1;	/* no suspect is slow: the suspect set missed it */
	memcpy(s->ans.narrow.culprit, s->ans.suspects.list[found].commit.id, 41);
	return 0;
}

void flame_fleet_release(struct flame_session *s)
{
	struct flame_fleet *f = s->st.fleet;
	size_t i;

	for (i = 0; i < s->ans.fleet.nhosts; i++) {
		free(s->ans.fleet.hosts[i].name);
		free(s->ans.fleet.hosts[i].dropped);
		if (f)
			free(f->clone[i]);
	}
	free(s->ans.fleet.hosts);
	memset(&s->ans.fleet, 0, sizeof(s->ans.fleet));
	if (f) {
		free(f->clone);
		free(f->slots);
		free(f);
	}
	s->st.fleet = NULL;
}
