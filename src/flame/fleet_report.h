/*
 * fleet_report.h - the hosts' part of trail flame's report: report.json's
 * "fleet", report.md's and report.html's "Hosts" sections and the probe
 * table's host cell, from the answer's fleet result (results.h).
 */
#ifndef TRAIL_FLAME_FLEET_REPORT_H
#define TRAIL_FLAME_FLEET_REPORT_H

#include "flame/results.h"

struct json_writer;
struct strbuf;

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

#endif
