/*
 * fleet_report.c - report.json's "fleet" object: the slots, the k-ary
 * rounds, the wall time against the probes' own time, and each host with
 * the ends it measured, its threshold and why it was dropped (fleet.h).
 */
#include "flame/fleet.h"
#include "core/json_writer.h"

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
