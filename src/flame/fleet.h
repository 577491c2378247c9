/*
 * fleet.h - trail flame on many machines: probe slots on the build hosts
 * of --hosts (over ssh, remote.c) and on this machine (--jobs), driven by
 * the k-ary bisection of kary.h.  Each remote host first measures the
 * good and bad ends itself and judges its probes against its own
 * threshold (shares are compared within a host, never one host's value
 * against another's threshold); a host that cannot be reached, drops its
 * connection or cannot build is reported and its probe rescheduled on
 * another.  The suspect/parent confirmation stays on this machine, the
 * one host where both ends were captured (narrow.c).
 */
#ifndef TRAIL_FLAME_FLEET_H
#define TRAIL_FLAME_FLEET_H

#include <stddef.h>

#include "fleet/hosts.h"
#include "fleet/fleet_setup.h"

struct flame_session;
struct flame_repo;
struct json_writer;
struct strbuf;

struct flame_fleet_host_report {
	char *name;		/* hosts.h's name, "local" for this machine */
	unsigned slots;		/* probes at once */
	unsigned probes;	/* probes it answered */
	double good, bad;	/* the ends' values it measured (this machine: the capture's) */
	double threshold;	/* their midpoint: its probes are judged against it */
	char *dropped;		/* why it was given up, or NULL */
};

/* What report.json's "fleet" shows. */
struct flame_fleet_report {
	int used;
	unsigned slots;			/* probe slots over all hosts */
	unsigned rounds;		/* k-ary rounds */
	unsigned probes;		/* probes of the rounds (the hosts' ends not counted) */
	unsigned sequential_probes;	/* probes binary search on one slot would take (log2) */
	double seconds;			/* wall time of the search, hosts' setup and ends included */
	double setup_seconds;		/* of which setting the hosts up and measuring their ends */
	double probe_seconds;		/* the rounds' probes' own times, summed */
	struct flame_fleet_host_report *hosts;
	size_t nhosts;
};

/* --hosts or --jobs K > 1 was given: narrow.c probes through the fleet. */
int flame_fleet_configured(const struct flame_session *s);

/*
 * k-ary bisection of good..bad, as narrow.c's git bisect run: 0 with
 * ans.culprit set, or ans.ambiguous listing commits that could not be
 * tested next to it; -1 on error (every host failed).  Probes are
 * recorded in ans.probes with their host.
 */
int flame_fleet_bisect(struct flame_session *s, const char *good, const char *bad);
/*
 * The suspects (oldest first) by k-ary search: 0 with ans.culprit set, 1
 * when none of them is slow (the suspect set missed it), -1 on error.
 */
int flame_fleet_suspects(struct flame_session *s);

/*
 * report.json's "fleet": {slots, rounds, probes, sequential_probes,
 * seconds, setup_seconds, probe_seconds, hosts: [{name, slots, probes,
 * good, bad, threshold, dropped}]}, or null when no hosts were used.
 */
void flame_fleet_report_json(struct json_writer *w, const struct flame_fleet_report *r);
/*
 * Sequential probing's estimated wall time: sequential_probes probes in a
 * row at the mean time of the rounds' probes (0 without probes).
 */
double flame_fleet_sequential_seconds(const struct flame_fleet_report *r);
/* report.md's "Hosts" section and report.html's; nothing when no hosts were used. */
void flame_fleet_report_md(const struct flame_fleet_report *r, struct strbuf *sb);
void flame_fleet_report_html(const struct flame_fleet_report *r, struct strbuf *sb);
/* The probe table's host cell (" `host` |") when hosts were used, else nothing. */
void flame_fleet_md_host_cell(const struct flame_fleet_report *r, const char *host,
			      struct strbuf *sb);

void flame_fleet_release(struct flame_session *s);

#endif
