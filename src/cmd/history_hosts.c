/*
 * history_hosts.c - trail history backfill --hosts: the commits to measure
 * dealt out over build hosts (trail flame's hosts file, ssh transport and
 * host setup: fleet/hosts.h, remote.h, fleet.h), each host running
 * 'trail history backfill --print' on its share in a private directory
 * that is removed afterwards (and on Ctrl-C or a lost connection), with
 * its own build cache.  Only hosts whose environment fingerprint is the
 * series' measure (docs/history.md, MANY MACHINES); a host that fails is
 * dropped and its commits go to the others.  Also the --print side: the
 * lines a host writes and this file reads back.
 */
#include "cmd/history.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/shell_quote.h"
#include "flame/fleet.h"
#include "fleet/fleet_jobs.h"
#include "fleet/remote.h"
#include "history/env_pick.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENV_PREFIX "trail-history-env "

/* One host's state during the backfill. */
struct bf_host {
	char *clone;		/* its build cache clone (here: trail flame's private clone) */
	char *key;		/* its environment key (pre-check), NULL before */
	char *desc;		/* kernel, CPU, compiler, CFLAGS: tab-separated */
	char *dropped;		/* why it is not used, or NULL */
	size_t measured;	/* commits it answered */
};

static void field(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\t');
	for (; s && *s; s++)
		strbuf_addch(sb, *s == '\t' || *s == '\n' ? ' ' : *s);
}

void history_hosts_print_env(struct history_cmd *h, enum flame_metric m)
{
	struct history_measure_opts mo;
	struct history_env env;
	struct strbuf sb = STRBUF_INIT;
	char desc[200];

	history_cmd_measure_opts(h, h->build_cmd, h->run_cmd, m, &mo);
	history_env_collect(&env, h->build_cmd, h->run_cmd,
			    flame_profiler_describe(&mo.cap, desc, sizeof(desc)), mo.cap.freq,
			    mo.cap.discard);
	strbuf_addf(&sb, ENV_PREFIX "%s", env.key);
	field(&sb, env.kernel);
	field(&sb, env.cpu);
	field(&sb, env.compiler);
	field(&sb, env.cflags);
	printf("%s\n", sb.buf);
	strbuf_release(&sb);
	history_env_release(&env);
}

void history_hosts_print_result(const char *id, const struct history_result *r)
{
	struct strbuf sb = STRBUF_INIT;

	history_result_write(r, &sb);
	printf("%s %s\n", id, sb.buf);
	strbuf_release(&sb);
}

/* The backfill command a host runs on ids[0..n-1] (none: its environment only). */
static char *host_command(struct history_cmd *h, const struct flame_host *host, const char *clone,
			  char *const *ids, size_t n)
{
	static const char *const forwarded[] = { "CC", "CFLAGS", NULL };
	struct string_list a = STRING_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	string_list_append(&a, host->dest ? h->remote_trail : h->trail_exe);
	string_list_append(&a, "history");
	string_list_append(&a, "backfill");
	string_list_append(&a, "--print");
	string_list_append(&a, "-C");
	string_list_append(&a, clone);
	string_list_append(&a, "--build");
	string_list_append(&a, h->build_cmd);
	string_list_append(&a, "--run");
	string_list_append(&a, h->run_cmd);
	string_list_append(&a, "--metric");
	string_list_append(&a, h->metric_name);
	string_list_append(&a, "--profiler");
	string_list_append(&a, h->profiler);
	string_list_append_nodup(&a, xstrfmt("--repeat=%" PRIu64, h->repeat));
	string_list_append_nodup(&a, xstrfmt("--freq=%" PRIu64, h->freq));
	string_list_append_nodup(&a, xstrfmt("--top=%" PRIu64, h->top));
	string_list_append_nodup(&a, xstrfmt("--discard=%.17g", h->discard));
	string_list_append_nodup(&a, xstrfmt("--timeout=%.17g", h->run_timeout));
	string_list_append_nodup(&a, xstrfmt("--build-timeout=%.17g", h->build_timeout));
	for (i = 0; i < n; i++)
		string_list_append_nodup(&a, xstrfmt("--commit=%s", ids[i]));
	/* the compiler and flags of this shell are part of the fingerprint: they travel */
	if (host->dest)
		strbuf_add_env_assignments(&sb, forwarded);
	strbuf_add_shell_argv(&sb, (const char *const *)a.items);
	string_list_clear(&a);
	return strbuf_detach(&sb, NULL);
}

static void drop(struct bf_host *b, const struct flame_host *host, const char *why)
{
	if (b->dropped)
		return;
	b->dropped = xstrdup(why);
	warning("host %s: %s; its commits go to the other hosts", host->name, why);
}

/* A job of host k running cmd in a private directory (remote.h). */
static void job_setup(struct fleet_job *j, const struct flame_hosts *hs, size_t k, char *cmd,
		      const char *cpus)
{
	struct string_list cmds = STRING_LIST_INIT;

	string_list_append_nodup(&cmds, cmd);
	fleet_job_init(j);
	j->host = &hs->items[k];
	j->host_index = k;
	j->cpus = cpus && *cpus ? cpus : NULL;
	j->script = flame_remote_probe_script(&cmds);
	string_list_clear(&cmds);
}

/* Every living host prints its environment; those that cannot are dropped. */
static void ask_envs(struct history_cmd *h, const struct flame_hosts *hs, struct bf_host *b)
{
	struct fleet_job *jobs = xcalloc(hs->nr + 1, sizeof(*jobs));
	size_t i, n = 0;

	for (i = 0; i < hs->nr; i++)
		if (!b[i].dropped)
			job_setup(&jobs[n++], hs, i, host_command(h, &hs->items[i], b[i].clone, NULL, 0),
				  NULL);
	fleet_jobs_run(jobs, n, h->scratch);
	for (i = 0; i < n; i++) {
		struct bf_host *bh = &b[jobs[i].host_index];
		const char *p = strstr(jobs[i].out.buf ? jobs[i].out.buf : "", ENV_PREFIX);
		char why[400];

		if (jobs[i].code || !p) {
			flame_fleet_job_failure(&jobs[i], "asking its environment", why, sizeof(why));
			drop(bh, jobs[i].host, why);
		} else {
			p += strlen(ENV_PREFIX);
			bh->key = xstrndup(p, strcspn(p, "\t\n"));
			p += strcspn(p, "\t\n");
			bh->desc = xstrndup(p + (*p == '\t'), strcspn(p + (*p == '\t'), "\n"));
		}
		fleet_job_release(&jobs[i]);
	}
	free(jobs);
}

/*
 * The environment the backfill measures in: --env KEY, else the key most
 * hosts share (ties: the first in the file).  Hosts in another one are
 * dropped: their results would make a series of their own.  0 or -1.
 */
static int choose_env(struct history_cmd *h, const struct flame_hosts *hs, struct bf_host *b,
		      char key[17])
{
	const char **keys = xcalloc(hs->nr + 1, sizeof(*keys));
	size_t i, best, best_count = 0;

	for (i = 0; i < hs->nr; i++)
		keys[i] = b[i].key;
	best = history_env_pick(keys, hs->nr, h->env_key);
	free(keys);
	if (best == hs->nr)
		return trail_error(h->env_key ? "no host measures in environment %s (see the "
			"warnings above)" : "no host could be used (see the warnings above)",
			h->env_key);
	snprintf(key, 17, "%s", b[best].key);
	for (i = 0; i < hs->nr; i++)
		best_count += b[i].key && !strcmp(b[i].key, key);
	for (i = 0; i < hs->nr; i++) {
		char diff[200], why[400];

		if (!b[i].key || !strcmp(b[i].key, key))
			continue;
		history_env_difference(b[i].desc, b[best].desc, diff, sizeof(diff));
		snprintf(why, sizeof(why), "its environment %s is not %s's %s (its %s differ%s): its "
			 "results would start a series of their own", b[i].key, hs->items[best].name,
			 key, diff, strchr(diff, ',') ? "" : "s");
		drop(&b[i], &hs->items[i], why);
	}
	note("backfill: environment %s on %zu host(s)", key, best_count);
	return 0;
}

/* Store what job j answered for its commits; those without an answer stay in left. */
static void collect(struct history_cmd *h, struct fleet_job *j, struct bf_host *b,
		    const char *key, struct string_list *left, size_t *failed)
{
	struct bf_host *bh = &b[j->host_index];
	char *line = j->out.buf, *nl;
	char why[400], dir[300];
	size_t before = bh->measured;

	for (; line && (nl = strchr(line, '\n')); line = nl + 1) {
		struct history_result r;
		size_t i;

		*nl = '\0';
		if (strlen(line) < 42 || line[40] != ' ')
			continue;
		for (i = 0; i < left->nr && strncmp(left->items[i], line, 40); i++)
			;
		if (i == left->nr)
			continue;	/* not one it was given */
		if (history_result_parse(line + 41, strlen(line + 41), j->host->name, &r))
			continue;	/* reported; measured again elsewhere */
		if (strcmp(r.env.key, key))
			warning("host %s measured %.12s in environment %s, not %s: stored as such",
				j->host->name, line, r.env.key, key);
		if (!history_store_put(&h->store, left->items[i], &r)) {
			*failed += r.status != HISTORY_OK;
			bh->measured++;
			free(left->items[i]);
			memmove(left->items + i, left->items + i + 1,
				(--left->nr - i) * sizeof(*left->items));
		}
		history_result_release(&r);
	}
	fleet_job_dir(j, dir, sizeof(dir));
	note("backfill: host %s measured %zu commit(s) in %.1f s%s%s%s", j->host->name,
	     bh->measured - before, j->seconds, dir[0] ? " in " : "", dir, dir[0] ? " (removed)" : "");
	if (j->code) {
		flame_fleet_job_failure(j, "measuring", why, sizeof(why));
		drop(bh, j->host, why);
	}
}

/* Measure todo (in its order) over the living hosts' slots, in waves. */
static int measure(struct history_cmd *h, const struct flame_hosts *hs, struct bf_host *b,
		   const char *key, struct string_list *todo, size_t *failed)
{
	struct fleet_job *jobs = xcalloc(hs->slots + 1, sizeof(*jobs));
	char (*cpus)[64] = xcalloc(hs->slots + 1, sizeof(*cpus));
	size_t *slot_host = xcalloc(hs->slots + 1, sizeof(*slot_host));
	size_t i, k, s, ns;
	int ret = 0;

	while (todo->nr) {
		struct string_list left = STRING_LIST_INIT;

		for (ns = k = 0; k < hs->nr; k++)
			for (s = 0; !b[k].dropped && s < hs->items[k].slots; s++) {
				flame_fleet_local_cpus((unsigned)s, hs->items[k].slots, cpus[ns],
						       sizeof(cpus[0]));
				slot_host[ns++] = k;
			}
		if (!ns) {
			ret = trail_error("every host failed; %zu commit(s) not measured", todo->nr);
			break;
		}
		if (ns > todo->nr)
			ns = todo->nr;
		/* dealt round-robin: every slot's commits spread over the whole range */
		for (s = 0; s < ns; s++) {
			struct string_list mine = STRING_LIST_INIT;

			for (i = s; i < todo->nr; i += ns)
				string_list_append(&mine, todo->items[i]);
			k = slot_host[s];
			job_setup(&jobs[s], hs, k, host_command(h, &hs->items[k], b[k].clone,
								 mine.items, mine.nr),
				  hs->items[k].dest ? NULL : cpus[s]);
			note("backfill: %zu commit(s) on %s", mine.nr, hs->items[k].name);
			string_list_clear(&mine);
		}
		fleet_jobs_run(jobs, ns, h->scratch);
		for (i = 0; i < todo->nr; i++)
			string_list_append(&left, todo->items[i]);
		for (s = 0; s < ns; s++) {
			collect(h, &jobs[s], b, key, &left, failed);
			fleet_job_release(&jobs[s]);
		}
		string_list_clear(todo);
		*todo = left;
	}
	free(jobs);
	free(cpus);
	free(slot_host);
	return ret;
}

/* Set the hosts up and learn their environments; 0 with key set, or -1. */
static int prepare(struct history_cmd *h, const struct flame_hosts *hs, struct bf_host *b,
		   const struct string_list *sel, char key[17])
{
	struct flame_fleet_setup o;
	char **clone = xcalloc(hs->nr + 1, sizeof(*clone)), **why = xcalloc(hs->nr + 1, sizeof(*why));
	char *bundle = NULL;
	const char *name = strrchr(h->repo.cache, '/');
	size_t i;
	int ret = -1;

	/* a range's commits are the last one's ancestors; --commit's need not be */
	if (!h->remote_repo &&
	    !(bundle = flame_fleet_bundle(&h->repo, h->scratch, (const char *const *)sel->items +
					  (h->commits.nr ? 0 : sel->nr - 1),
					  h->commits.nr ? sel->nr : 1)))
		goto out;
	o.key = name ? name + 1 : "repo";
	o.url = h->remote_repo;
	o.bundle = bundle;
	o.tip = sel->items[sel->nr - 1];
	o.trail = h->remote_trail;
	o.scratch = h->scratch;
	flame_fleet_setup_hosts(hs, &o, clone, why);
	for (i = 0; i < hs->nr; i++) {
		b[i].clone = hs->items[i].dest ? clone[i] : xstrdup(h->repo.clone);
		if (why[i])
			drop(&b[i], &hs->items[i], why[i]);
		free(why[i]);
	}
	ask_envs(h, hs, b);
	ret = choose_env(h, hs, b, key);
out:
	free(bundle);
	free(clone);
	free(why);
	return ret;
}

int history_backfill_hosts(struct history_cmd *h, const struct string_list *sel, size_t *done,
			   size_t *skipped, size_t *failed)
{
	struct flame_hosts hs = FLAME_HOSTS_INIT;
	struct string_list todo = STRING_LIST_INIT;
	struct bf_host *b = NULL;
	char key[17], why[400];
	size_t i, local = 0;
	int ret = -1;

	if (flame_hosts_read(h->hosts_file, &hs)) {
		flame_hosts_release(&hs);
		return -2;
	}
	for (i = 0; i < hs.nr; i++)
		local += hs.items[i].dest ? 0 : hs.items[i].slots;
	if (flame_fleet_check_local((unsigned)local, 0, why, sizeof(why))) {
		flame_hosts_release(&hs);
		trail_error("%s", why);
		return -2;
	}
	b = xcalloc(hs.nr + 1, sizeof(*b));
	if (history_cmd_open_clone(h) || prepare(h, &hs, b, sel, key))
		goto out;
	for (i = 0; i < sel->nr; i++) {
		if (history_store_get(&h->store, sel->items[i], key, h->metric_name))
			(*skipped)++;
		else
			string_list_append(&todo, sel->items[i]);
	}
	history_scramble(&todo);
	*done = todo.nr;
	ret = measure(h, &hs, b, key, &todo, failed);
	*done -= todo.nr;
out:
	for (i = 0; i < hs.nr; i++) {
		free(b[i].clone);
		free(b[i].key);
		free(b[i].desc);
		free(b[i].dropped);
	}
	free(b);
	string_list_clear(&todo);
	flame_hosts_release(&hs);
	return ret;
}
