/*
 * test_fleet_jobs.c - src/fleet's processes for real, cheaply enough for
 * the sanitized run (77-flame-hosts' e2e runs are out of it): the local
 * probe slots' CPUs (fleet_cpus.c) under this process's own affinity,
 * two pinned jobs running at once (fleet_jobs.c, taskset), and the ssh
 * side - a git bundle of a real repository sent to two hosts, their build
 * caches set up, a host that cannot be reached dropped with why, a probe
 * script's private directory reported and removed, the caches cleaned
 * (fleet_setup.c, remote.c's scripts run by sh).  The "hosts" are
 * directories here reached through a stand-in for the ssh client (the
 * last argument run by sh with the host's TMPDIR and XDG_CACHE_HOME, as
 * tests/cli/sshd-hosts.sh's sshd's set them); real sshd's stay in
 * 77-flame-hosts and 78-history-hosts.
 */
#include "harness.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/strbuf.h"
#include "fleet/fleet_jobs.h"
#include "fleet/fleet_setup.h"
#include "fleet/hosts.h"
#include "fleet/remote.h"
#include "measure/repo.h"

#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int pin(const int *cpus, int n)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < n; i++)
		CPU_SET(cpus[i], &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* One CPU allowed: two slots are refused, with how many they need and why. */
TEST(one_cpu_refuses_two_slots)
{
	cpu_set_t saved;
	int cpu[1];
	char why[600], buf[64];

	CHECK(!sched_getaffinity(0, sizeof(saved), &saved));
	CHECK_INT(flame_fleet_allowed_cpus(cpu, 1), 1);
	CHECK(!pin(cpu, 1));
	why[0] = '\0';
	CHECK_INT(flame_fleet_check_local(1, 0, why, sizeof(why)), 0);
	CHECK_INT(flame_fleet_check_local(2, 1, why, sizeof(why)), -1);
	CHECK(strstr(why, "2 probes at once on this machine need 2 CPUs (1 each, pinned apart "
			  "with taskset), and it has 1:") != NULL);
	CHECK(strstr(why, "use at most 1 local slot, or --hosts") != NULL);
	CHECK_INT(flame_fleet_check_local(2, 0, why, sizeof(why)), -1);
	CHECK(strstr(why, "need 4 CPUs (2 each: the workload and trail's sampler, pinned") != NULL);
	/* no share to give: not pinned */
	strcpy(buf, "x");
	flame_fleet_local_cpus(0, 2, buf, sizeof(buf));
	CHECK_STREQ(buf, "");
	CHECK(!sched_setaffinity(0, sizeof(saved), &saved));
}

/*
 * Two CPUs allowed, two slots: each gets one CPU of its own, and two jobs
 * pinned to them run at once, each seeing only its CPU (the two wait for
 * each other's mark; the wait only bounds a deadlock).
 */
TEST(two_slots_pinned_apart_run_at_once)
{
	cpu_set_t saved;
	int cpu[2];
	char why[600], c0[64], c1[64], want[16];
	char *dir = tempdir_create("test-fleet-jobs");
	struct flame_host here = { 0 };
	struct fleet_job jobs[2];
	size_t k;

	CHECK(!sched_getaffinity(0, sizeof(saved), &saved));
	if (flame_fleet_allowed_cpus(cpu, 2) < 2) {
		tempdir_remove(dir);
		free(dir);
		SKIP("one CPU: no two slots to pin apart");
	}
	CHECK(!pin(cpu, 2));
	CHECK_INT(flame_fleet_check_local(2, 1, why, sizeof(why)), 0);
	CHECK_INT(flame_fleet_check_local(3, 1, why, sizeof(why)), -1);
	CHECK(strstr(why, "need 3 CPUs (1 each, pinned apart with taskset), and it has 2") != NULL);
	CHECK_INT(flame_fleet_check_local(2, 0, why, sizeof(why)), -1);
	flame_fleet_local_cpus(0, 2, c0, sizeof(c0));
	flame_fleet_local_cpus(1, 2, c1, sizeof(c1));
	snprintf(want, sizeof(want), "%d", cpu[0]);
	CHECK_STREQ(c0, want);
	snprintf(want, sizeof(want), "%d", cpu[1]);
	CHECK_STREQ(c1, want);
	/* one slot: the whole machine, not pinned */
	strcpy(c0, "x");
	flame_fleet_local_cpus(0, 1, c0, sizeof(c0));
	CHECK_STREQ(c0, "");
	flame_fleet_local_cpus(0, 2, c0, sizeof(c0));

	here.name = (char *)"local";
	here.slots = 2;
	for (k = 0; k < 2; k++) {
		fleet_job_init(&jobs[k]);
		jobs[k].host = &here;
		jobs[k].host_index = k;
		jobs[k].cpus = k ? c1 : c0;
		/* each: its CPUs, its mark, then the other's mark */
		jobs[k].script = xstrfmt(
			"sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status\n"
			"touch '%s/mark%zu'\n"
			"i=0; while [ ! -e '%s/mark%zu' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\n"
			"[ -e '%s/mark%zu' ] && echo together\n"
			"echo 'trail-flame-dir /nowhere/%zu' >&2\necho 'last words %zu' >&2\nexit %zu\n",
			dir, k, dir, 1 - k, dir, 1 - k, k, k, 3 * k);
	}
	fleet_jobs_run(jobs, 2, dir);
	for (k = 0; k < 2; k++) {
		char expect[80], d[300], last[300];

		snprintf(expect, sizeof(expect), "%s\ntogether\n", k ? c1 : c0);
		CHECK_STREQ(jobs[k].out.buf, expect);
		CHECK_INT(jobs[k].code, (int)(3 * k));
		fleet_job_dir(&jobs[k], d, sizeof(d));
		snprintf(expect, sizeof(expect), "/nowhere/%zu", k);
		CHECK_STREQ(d, expect);
		fleet_job_last_error(&jobs[k], last, sizeof(last));
		snprintf(expect, sizeof(expect), "last words %zu", k);
		CHECK_STREQ(last, expect);
		/* the output files in the scratch directory are gone */
		CHECK(access(jobs[k].out_path, F_OK) != 0);
		fleet_job_release(&jobs[k]);
	}
	CHECK(!sched_setaffinity(0, sizeof(saved), &saved));
	tempdir_remove(dir);
	free(dir);
}

/*
 * The ssh client's stand-in: "ssh -p N [options] -- dest 'exec sh -c ...'"
 * runs the last word with sh as host N's login would (tests/cli/sshd-hosts.sh:
 * its TMPDIR and XDG_CACHE_HOME under DIR/hostN); port 9 is unreachable,
 * with ssh's exit code 255.
 */
static void write_ssh(const char *dir)
{
	char *path = xstrfmt("%s/bin/ssh", dir), *cmd = xstrfmt("mkdir -p %s/bin", dir);
	FILE *f;

	CHECK(!system(cmd));
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "#!/bin/sh\nport=\nwhile [ \"$1\" != -- ]; do\n"
			"\tcase $1 in -p) port=$2; shift;; -o) shift;; esac; shift\ndone\n"
			"shift 2\n"
			"[ \"$port\" != 9 ] || { echo \"ssh: connect to host box port 9: Connection "
			"refused\" >&2; exit 255; }\n"
			"h=%s/host$port\nmkdir -p \"$h/tmp\" \"$h/cache\"\n"
			"cd \"$h\" && TMPDIR=$h/tmp XDG_CACHE_HOME=$h/cache exec sh -c \"$1\"\n", dir);
		fclose(f);
	}
	CHECK(!chmod(path, 0755));
	free(path);
	free(cmd);
}

static int count_entries(const char *dir)
{
	char *cmd = xstrfmt("n=$(ls -A '%s' | wc -l); exit $n", dir);
	int rc = system(cmd);

	free(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

#define CI "git -c user.name=T -c user.email=t@e commit -q"

/*
 * Two hosts and one that cannot be reached: the bundle of a real history
 * reaches both, each a build cache clone with the tip in it; the third is
 * dropped with ssh's words; a probe script on a host runs in a private
 * directory it reports and removes; --clean-hosts' script removes the caches.
 */
TEST(hosts_set_up_probe_and_clean)
{
	char *dir = tempdir_create("test-fleet-hosts");
	char *setup = xstrfmt("cd %s && git init -q repo && cd repo && echo 1 >f && git add f && "
			      "%s -m one && echo 2 >f && %s -am two && echo 3 >f && %s -am three",
			      dir, CI, CI, CI);
	char *repo_dir = xstrfmt("%s/repo", dir), *cache = xstrfmt("%s/cache", dir);
	char *text = xstrfmt("2/%s/bin/ssh -p 1 box\n%s/bin/ssh -p 2 -o BatchMode=yes box\n"
			     "%s/bin/ssh -p 9 box\n:\n", dir, dir, dir);
	char *scratch = xstrfmt("%s/scratch", dir), *bundle = NULL, *clone[5] = { 0 },
	     *why[5] = { 0 }, *cmd;
	struct flame_hosts h = FLAME_HOSTS_INIT;
	struct flame_repo repo;
	struct flame_fleet_setup o;
	char tip[41];
	const char *tips[1] = { tip };
	struct string_list cmds = STRING_LIST_INIT;
	struct fleet_job job;
	char d[300];
	size_t i;

	write_ssh(dir);
	CHECK(!mkdir(scratch, 0700));
	if (system(setup) || flame_repo_open(&repo, repo_dir, cache)) {
		CHECK(!"a git repository and its clone");
		goto out;
	}
	CHECK(!flame_repo_resolve(&repo, "--rev", "HEAD", tip));
	CHECK_INT(flame_hosts_parse(text, strlen(text), "hosts", &h), 0);
	CHECK_INT(h.nr, 4);
	bundle = flame_fleet_bundle(&repo, scratch, tips, 1);
	CHECK(bundle != NULL);
	o.key = "repo-key";
	o.url = NULL;
	o.bundle = bundle;
	o.tip = tip;
	o.trail = "sh";
	o.scratch = scratch;
	flame_fleet_setup_hosts(&h, &o, clone, why);
	for (i = 0; i < 2; i++) {
		char *want = xstrfmt("%s/host%zu/cache/trail/flame-hosts/repo-key/clone", dir, i + 1);

		CHECK_STREQ(clone[i], want);
		CHECK(why[i] == NULL);
		/* the tip arrived there, and the setup's private directory is gone */
		cmd = xstrfmt("git -C '%s' cat-file -e %s^{commit}", want, tip);
		CHECK_INT(system(cmd), 0);
		free(cmd);
		free(want);
		want = xstrfmt("%s/host%zu/tmp", dir, i + 1);
		CHECK_INT(count_entries(want), 0);
		free(want);
	}
	CHECK(clone[2] == NULL);
	CHECK(why[2] && strstr(why[2], "setting it up failed: ssh could not reach it or lost "
				 "the connection (") == why[2]);
	CHECK(why[2] && strstr(why[2], "): ssh: connect to host box port 9: Connection refused"));
	CHECK(clone[3] == NULL && why[3] == NULL);	/* ':' is not set up: this machine */

	/* a trail the host does not have: refused there, with why */
	o.trail = "no-such-trail-here";
	free(why[0]);
	why[0] = NULL;
	h.nr = 1;
	flame_fleet_setup_hosts(&h, &o, clone + 4, why);
	CHECK(why[0] && strstr(why[0], "'no-such-trail-here' is not on the PATH here (--remote-trail PATH)"));
	h.nr = 4;

	/* a probe script on host 1: its commands' output, its exit code, its directory removed */
	string_list_append(&cmds, "echo \"in $TRAIL_DIR\" >&2; echo first; echo \"$TMPDIR\"");
	string_list_append(&cmds, "echo second; exit 3");
	fleet_job_init(&job);
	job.host = &h.items[0];
	job.script = flame_remote_probe_script(&cmds);
	fleet_jobs_run(&job, 1, scratch);
	CHECK_INT(job.code, 3);
	fleet_job_dir(&job, d, sizeof(d));
	cmd = xstrfmt("%s/host1/tmp/trail-flame.", dir);
	CHECK(!strncmp(d, cmd, strlen(cmd)));
	free(cmd);
	cmd = xstrfmt("first\n%s\nsecond\n", d);
	CHECK_STREQ(job.out.buf, cmd);
	free(cmd);
	cmd = xstrfmt("in %s\n", d);
	CHECK(strstr(job.err.buf, cmd) != NULL);
	free(cmd);
	CHECK(access(d, F_OK) != 0);
	fleet_job_release(&job);
	string_list_clear(&cmds);

	/* --clean-hosts: the unreachable host fails the clean, the others' caches go */
	CHECK_INT(flame_fleet_clean(&h), -1);
	for (i = 0; i < 2; i++) {
		char *c = xstrfmt("%s/host%zu/cache/trail", dir, i + 1);

		CHECK_INT(count_entries(c), 0);
		free(c);
	}
	h.nr = 2;
	CHECK_INT(flame_fleet_clean(&h), 0);	/* nothing left to remove: fine */
	h.nr = 4;
	flame_repo_release(&repo);
out:
	for (i = 0; i < 5; i++) {
		free(clone[i]);
		free(why[i]);
	}
	flame_hosts_release(&h);
	free(bundle);
	free(scratch);
	free(text);
	free(setup);
	free(repo_dir);
	free(cache);
	tempdir_remove(dir);
	free(dir);
}

TEST_MAIN("fleet-jobs", one_cpu_refuses_two_slots, two_slots_pinned_apart_run_at_once,
	  hosts_set_up_probe_and_clean)
