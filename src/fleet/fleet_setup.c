/*
 * fleet_setup.c - setting build hosts up for work over ssh, shared by
 * trail flame --hosts (fleet.c) and trail history backfill --hosts: a
 * git bundle of the history up to a tip, sent to every remote host at
 * once (or --remote-repo fetched there), each host's build cache clone
 * read back, and why a job failed, in words, for warnings and reports.
 */
#include "fleet/fleet_setup.h"
#include "fleet/fleet_jobs.h"
#include "fleet/remote.h"
#include "measure/repo.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/cleanup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void flame_fleet_job_failure(const struct fleet_job *j, const char *what, char *buf, size_t n)
{
	char last[220];

	fleet_job_last_error(j, last, sizeof(last));
	snprintf(buf, n, "%s %s (%s)%s%s", what,
		 j->code == 255 ? "failed: ssh could not reach it or lost the connection" : "failed",
		 j->code < 0 ? "not started" : child_describe_status(j->code), last[0] ? ": " : "",
		 last);
}

char *flame_fleet_bundle(struct flame_repo *repo, const char *scratch, const char *const *tips,
			 size_t n)
{
	char *path = xstrfmt("%s/range.bundle", scratch);
	struct string_list create = STRING_LIST_INIT;
	size_t i;
	int bad = 0;

	string_list_append(&create, "bundle");
	string_list_append(&create, "create");
	string_list_append(&create, "-q");
	string_list_append(&create, path);
	/* one ref a tip: a bundle carries the history of its refs */
	for (i = 0; i < n && !bad; i++) {
		char *ref = i ? xstrfmt("refs/trail-flame/tip-%zu", i) : xstrdup("refs/trail-flame/bad");
		const char *update[] = { "update-ref", ref, tips[i], NULL };

		bad = flame_git(repo, NULL, update);
		string_list_append_nodup(&create, ref);
	}
	if (bad || flame_git(repo, NULL, (const char *const *)create.items)) {
		trail_error("cannot make a git bundle of %.12s in '%s'", tips[i ? i - 1 : 0],
			    repo->clone);
		FREE_AND_NULL(path);
	}
	string_list_clear(&create);
	return path;
}

/* Read a setup job's answer: the clone into *clone, or why it failed into *why. */
static void setup_answer(const struct fleet_job *j, char **clone, char **why)
{
	const char *c = strstr(j->out.buf ? j->out.buf : "", "trail-flame-clone ");
	const char *p = strstr(j->out.buf ? j->out.buf : "", "trail-flame-nproc ");
	char buf[400], dir[300];

	fleet_job_dir(j, dir, sizeof(dir));
	if (j->code != 0 || !c) {
		flame_fleet_job_failure(j, "setting it up", buf, sizeof(buf));
		*why = xstrdup(buf);
		return;
	}
	c += strlen("trail-flame-clone ");
	*clone = xstrndup(c, strcspn(c, "\n"));
	note("host %s: build cache %s%s%s%s", j->host->name, *clone, dir[0] ? ", set up in " : "",
	     dir, dir[0] ? " (removed)" : "");
	if (p) {
		unsigned long cpus = strtoul(p + strlen("trail-flame-nproc "), NULL, 10);

		if (cpus < (unsigned long)j->host->slots * FLAME_CPUS_PER_PROBE)
			warning("host %s: %u jobs at once on %lu CPUs share them: its measurements "
				"are noisier", j->host->name, j->host->slots, cpus);
	}
}

void flame_fleet_setup_hosts(const struct flame_hosts *h, const struct flame_fleet_setup *o,
			     char **clone, char **why)
{
	struct fleet_job *jobs = xcalloc(h->nr + 1, sizeof(*jobs));
	size_t i, n = 0;

	for (i = 0; i < h->nr; i++) {
		if (!h->items[i].dest)
			continue;
		fleet_job_init(&jobs[n]);
		jobs[n].host = &h->items[i];
		jobs[n].host_index = i;
		jobs[n].script = flame_remote_setup_script(o->key, o->url, o->tip, o->trail);
		jobs[n].stdin_path = o->url ? "/dev/null" : o->bundle;
		n++;
	}
	fleet_jobs_run(jobs, n, o->scratch);
	for (i = 0; i < n; i++) {
		size_t k = jobs[i].host_index;

		setup_answer(&jobs[i], &clone[k], &why[k]);
		fleet_job_release(&jobs[i]);
	}
	free(jobs);
}

int flame_fleet_clean(const struct flame_hosts *h)
{
	struct fleet_job *jobs = xcalloc(h->nr ? h->nr : 1, sizeof(*jobs));
	char *tmp = tempdir_create("trail-flame-clean");
	size_t i, n = 0;
	int ret = 0;

	if (!tmp) {
		free(jobs);
		return -1;
	}
	for (i = 0; i < h->nr; i++) {
		if (!h->items[i].dest)
			continue;
		fleet_job_init(&jobs[n]);
		jobs[n].host = &h->items[i];
		jobs[n].script = flame_remote_clean_script(NULL);
		jobs[n].stdin_path = "/dev/null";
		n++;
	}
	fleet_jobs_run(jobs, n, tmp);
	for (i = 0; i < n; i++) {
		char why[400];

		if (jobs[i].code) {
			flame_fleet_job_failure(&jobs[i], "cleaning", why, sizeof(why));
			trail_error("host %s: %s", jobs[i].host->name, why);
			ret = -1;
		} else {
			note("host %s: %.*s", jobs[i].host->name,
			     (int)strcspn(jobs[i].out.buf ? jobs[i].out.buf : "", "\n"),
			     jobs[i].out.buf ? jobs[i].out.buf : "");
		}
		fleet_job_release(&jobs[i]);
	}
	tempdir_remove(tmp);
	free(tmp);
	free(jobs);
	return ret;
}
