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
#include "flame/results.h"

struct flame_session;
struct flame_repo;
struct json_writer;
struct strbuf;

/* --hosts or --jobs K > 1 was given: narrow.c probes through the fleet. */
int flame_fleet_configured(const struct flame_session *s);

/*
 * k-ary bisection of good..bad, as narrow.c's git bisect run: 0 with
 * ans.narrow.culprit set, or ans.narrow.ambiguous listing commits that could not be
 * tested next to it; -1 on error (every host failed).  Probes are
 * recorded in ans.narrow.probes with their host.
 */
int flame_fleet_bisect(struct flame_session *s, const char *good, const char *bad);
/*
 * The suspects (oldest first) by k-ary search: 0 with ans.narrow.culprit set, 1
 * when none of them is slow (the suspect set missed it), -1 on error.
 */
int flame_fleet_suspects(struct flame_session *s);

/* Free the hosts' state and the fleet result. */
void flame_fleet_release(struct flame_session *s);

#endif
