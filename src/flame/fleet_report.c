/*
 * fleet_report.c - the reports' account of trail flame on many machines:
 * report.json's "fleet" object, and the lines report.md and report.html
 * show: the hosts and their slots, the k-ary rounds, the wall time
 * against an estimate of sequential probing (fleet.h), and the probe
 * table's host cell.  Host names came from the user's hosts file: escaped.
 */
#include "flame/fleet_report.h"
#include "core/escape.h"
#include "core/json_writer.h"

#include <string.h>

void flame_fleet_report_json(struct json_writer *w, const struct flame_fleet_report *r)
{
	size_t i;

	json_writer_key(w, "fleet");
	if (!r->used) {
		json_writer_null(w);
		return;
	}
	json_writer_begin_object(w);
	json_writer_key_uint(w, "slots", r->slots);
	json_writer_key_uint(w, "rounds", r->rounds);
	json_writer_key_uint(w, "probes", r->probes);
	json_writer_key_uint(w, "sequential_probes", r->sequential_probes);
	json_writer_key_number(w, "seconds", r->seconds);
	json_writer_key_number(w, "setup_seconds", r->setup_seconds);
	json_writer_key_number(w, "probe_seconds", r->probe_seconds);
	json_writer_key(w, "hosts");
	json_writer_begin_array(w);
	for (i = 0; i < r->nhosts; i++) {
		const struct flame_fleet_host_report *h = &r->hosts[i];

		json_writer_begin_object(w);
		json_writer_key_string(w, "name", h->name);
		json_writer_key_uint(w, "slots", h->slots);
		json_writer_key_uint(w, "probes", h->probes);
		json_writer_key_number(w, "good", h->good);
		json_writer_key_number(w, "bad", h->bad);
		json_writer_key_number(w, "threshold", h->threshold);
		json_writer_key_string(w, "dropped", h->dropped);
		json_writer_end(w);
	}
	json_writer_end(w);
	json_writer_end(w);
}

double flame_fleet_sequential_seconds(const struct flame_fleet_report *r)
{
	if (!r->probes)
		return 0;
	return r->sequential_probes * (r->probe_seconds / r->probes);
}

/* The summary sentence, the same in both formats (no outside strings in it). */
static void summary(const struct flame_fleet_report *r, struct strbuf *sb)
{
	double seq = flame_fleet_sequential_seconds(r), saved = seq - r->seconds;

	strbuf_addf(sb, "%u round%s of up to %u probes at once (%u slot%s on %zu host%s): %u probes "
		    "in %.1f s of wall time, %.1f s of it setting the hosts up and measuring their "
		    "ends. Sequential probing: %u probes in a row, about %.1f s at the mean probe "
		    "time; %s %.1f s.", r->rounds, r->rounds == 1 ? "" : "s", r->slots, r->slots,
		    r->slots == 1 ? "" : "s", r->nhosts, r->nhosts == 1 ? "" : "s", r->probes,
		    r->seconds, r->setup_seconds, r->sequential_probes, seq,
		    saved >= 0 ? "saved" : "the fleet took longer by", saved >= 0 ? saved : -saved);
}

static void md_host(struct strbuf *sb, const struct flame_fleet_host_report *h)
{
	strbuf_addstr(sb, "| ");
	escape_md_code(sb, h->name, strlen(h->name), 1);
	strbuf_addf(sb, " | %u | %u | %.4g | %.4g | %.4g | ", h->slots, h->probes, h->good, h->bad,
		    h->threshold);
	if (h->dropped)
		escape_md_text(sb, h->dropped, strlen(h->dropped));
	strbuf_addstr(sb, " |\n");
}

void flame_fleet_report_md(const struct flame_fleet_report *r, struct strbuf *sb)
{
	size_t i;

	if (!r->used)
		return;
	strbuf_addstr(sb, "\n## Hosts (k-ary bisection)\n\n");
	summary(r, sb);
	strbuf_addstr(sb, "\n\n| host | slots | probes | good | bad | threshold | dropped |\n"
			  "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
	for (i = 0; i < r->nhosts; i++)
		md_host(sb, &r->hosts[i]);
}

void flame_fleet_report_html(const struct flame_fleet_report *r, struct strbuf *sb)
{
	size_t i;

	if (!r->used)
		return;
	strbuf_addstr(sb, "<section id=\"hosts\"><h2>Hosts</h2>\n<p>");
	summary(r, sb);
	strbuf_addstr(sb, "</p>\n<table class=\"hosts\"><thead><tr><th>host</th><th>slots</th>"
			  "<th>probes</th><th>good</th><th>bad</th><th>threshold</th><th>dropped</th>"
			  "</tr></thead><tbody>\n");
	for (i = 0; i < r->nhosts; i++) {
		const struct flame_fleet_host_report *h = &r->hosts[i];

		strbuf_addstr(sb, "<tr><td><code>");
		escape_html_text(sb, h->name, strlen(h->name));
		strbuf_addf(sb, "</code></td><td class=\"n\">%u</td><td class=\"n\">%u</td>"
			    "<td class=\"n\">%.4g</td><td class=\"n\">%.4g</td><td class=\"n\">%.4g"
			    "</td><td>", h->slots, h->probes, h->good, h->bad, h->threshold);
		if (h->dropped)
			escape_html_text(sb, h->dropped, strlen(h->dropped));
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
}

void flame_fleet_md_host_cell(const struct flame_fleet_report *r, const char *host,
			      struct strbuf *sb)
{
	if (!r->used)
		return;
	strbuf_addch(sb, ' ');
	escape_md_code(sb, host, strlen(host), 1);
	strbuf_addstr(sb, " |");
}
