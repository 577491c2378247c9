/*
 * fleet_cpus.c - which CPUs the local probe slots of trail flame --jobs K
 * get: K equal shares of the CPUs this process may run on
 * (sched_getaffinity), each at least FLAME_CPUS_PER_PROBE (or
 * --cpus-per-job's), pinned with taskset; fewer CPUs than that is refused
 * (fleet.h).
 */
#include "fleet/fleet_setup.h"

#include <sched.h>
#include <stdio.h>

int flame_fleet_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	return n;
}

int flame_fleet_check_local(unsigned slots, unsigned per, char *why, size_t n)
{
	int cpus[CPU_SETSIZE];
	int have = flame_fleet_allowed_cpus(cpus, CPU_SETSIZE);

	if (slots <= 1)
		return 0;
	if (!per)
		per = FLAME_CPUS_PER_PROBE;
	if ((unsigned)have >= slots * per)
		return 0;
	snprintf(why, n, "%u probes at once on this machine need %u CPUs (%u each%s, pinned apart "
		 "with taskset), and it has %d: probes sharing CPUs slow each other down unevenly "
		 "and corrupt each other's measurements; use at most %d local slot%s, or --hosts "
		 "with other machines", slots, slots * per, per,
		 per == FLAME_CPUS_PER_PROBE ? ": the workload and trail's sampler" : "", have,
		 have / (int)per > 1 ? have / (int)per : 1, have / (int)per > 1 ? "s" : "");
	return -1;
}

/* A local slot's CPUs: the k-th of slots equal shares of the allowed ones. */
void flame_fleet_local_cpus(unsigned k, unsigned slots, char *buf, size_t n)
{
	int cpus[CPU_SETSIZE];
	int have = flame_fleet_allowed_cpus(cpus, CPU_SETSIZE), per, i;
	size_t len = 0;

	buf[0] = '\0';
	if (slots <= 1 || have < (int)slots)
		return;
	per = have / (int)slots;
	for (i = 0; i < per && len + 12 < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : "", cpus[(int)k * per + i]);
}
