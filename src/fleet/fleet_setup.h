/*
 * fleet_setup.h - the machines' side of running work elsewhere, shared by
 * trail flame --hosts/--jobs and trail history backfill --hosts: how many
 * local slots fit and which CPUs each gets (fleet_cpus.c), setting build
 * hosts up over ssh from a git bundle or --remote-repo, why a job failed,
 * and cleaning the hosts' build caches (fleet_setup.c).
 */
#ifndef TRAIL_FLEET_FLEET_SETUP_H
#define TRAIL_FLEET_FLEET_SETUP_H

#include <stddef.h>

#include "fleet/hosts.h"

struct flame_repo;

/*
 * Can slots probes run at once on this machine, each pinned to per CPUs
 * of its own (0: FLAME_CPUS_PER_PROBE, the workload and trail's sampler;
 * --cpus-per-job)?  0, or -1 with why saying how many CPUs there are and
 * how many are needed.
 */
int flame_fleet_check_local(unsigned slots, unsigned per, char *why, size_t n);
/* The first max CPUs this process may run on, into cpus; how many there were. */
int flame_fleet_allowed_cpus(int *cpus, int max);

/* CPUs a probe needs to itself: the workload and trail's sampler. */
#define FLAME_CPUS_PER_PROBE 2
/* The taskset CPU list of local slot k of slots ("" when not pinned). */
void flame_fleet_local_cpus(unsigned k, unsigned slots, char *buf, size_t n);

/* How to set the remote hosts up (fleet_setup.c). */
struct flame_fleet_setup {
	const char *key;	/* the build cache's name on a host: safe in a path */
	const char *url;	/* --remote-repo, or NULL: the bundle is sent */
	const char *bundle;	/* flame_fleet_bundle()'s file when url is NULL */
	const char *tip;	/* the newest commit needed there */
	const char *trail;	/* trail on the hosts (--remote-trail) */
	const char *scratch;	/* a local directory for the jobs' output */
};
/*
 * Set every remote host of h up at once (remote.h's setup script):
 * clone[i] gets host i's build cache clone, or why[i] why it failed (both
 * malloc'd, arrays of h->nr, NULL for the local machine).  Notes each
 * host's cache on stderr and warns of a host with fewer CPUs than slots
 * need.
 */
void flame_fleet_setup_hosts(const struct flame_hosts *h, const struct flame_fleet_setup *o,
			     char **clone, char **why);
/*
 * A git bundle of the history up to tips[0..n-1] (n >= 1), made in repo's
 * clone: its path (malloc'd) or NULL.
 */
char *flame_fleet_bundle(struct flame_repo *repo, const char *scratch, const char *const *tips,
			 size_t n);
struct fleet_job;
/* Why job j gave no answer, "<what> failed (...): <its last stderr line>". */
void flame_fleet_job_failure(const struct fleet_job *j, const char *what, char *buf, size_t n);

/* --clean-hosts: remove the build caches on every host of h; 0 or -1. */
int flame_fleet_clean(const struct flame_hosts *h);

#endif
