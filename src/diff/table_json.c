/*
 * table_json.c - a diff table as trail diff --json writes it
 * (table_json.h): both sides, the basis and its unit, the settings, and
 * the hotter and cooler rows with their tests.
 */
#include "diff/table_json.h"

#include <stdint.h>

static void json_side(struct json_writer *w, const char *name, const struct diff_table *t,
		      int side, const char *const *paths)
{
	size_t r, first = side ? t->runs[0] : 0;

	json_writer_key(w, name);
	json_writer_begin_object(w);
	json_writer_key_string(w, "path", paths[first]);
	json_writer_key(w, "paths");
	json_writer_begin_array(w);
	for (r = 0; r < t->runs[side]; r++)
		json_writer_string(w, paths[first + r]);
	json_writer_end(w);
	json_writer_key_number(w, "samples", t->samples[side]);
	if (t->basis == DIFF_BY_TIME)
		json_writer_key_number(w, "total_per_run", t->total[side]);
	json_writer_end(w);
}

/*
 * Share rows keep the keys of before (percent and percentage points); time
 * rows give values per run in the table's unit and the change in percent
 * of the before side's total.
 */
static void json_rows(struct json_writer *w, const struct diff_table *t, const char *name,
		      const struct diff_table_row *rows, size_t nr)
{
	int by_time = t->basis == DIFF_BY_TIME;
	double pct = by_time ? 100 / t->total[0] : 100;
	size_t i;

	json_writer_key(w, name);
	json_writer_begin_array(w);
	for (i = 0; i < nr; i++) {
		const struct diff_table_row *r = &rows[i];
		const struct diff_test *x = &r->t;

		json_writer_begin_object(w);
		json_writer_key_string(w, "function", diff_table_name(t, r->func));
		json_writer_key_string(w, "measure", hotspot_measure_name(r->measure));
		if (by_time) {
			json_writer_key_number(w, "before", x->before);
			json_writer_key_number(w, "after", x->after);
			json_writer_key_number(w, "delta", x->delta);
			json_writer_key_number(w, "se", x->se);
		}
		json_writer_key_number(w, "before_pct", pct * x->before);
		json_writer_key_number(w, "after_pct", pct * x->after);
		json_writer_key_number(w, "before_se_pp", pct * x->before_se);
		json_writer_key_number(w, "after_se_pp", pct * x->after_se);
		json_writer_key_number(w, "delta_pp", pct * x->delta);
		json_writer_key_number(w, "se_pp", pct * x->se);
		json_writer_key_number(w, x->df > 0 ? "t" : "z", x->stat);
		if (x->df > 0)
			json_writer_key_number(w, "df", x->df);
		json_writer_key_number(w, "p_value", x->p);
		json_writer_key_bool(w, "significant", r->significant);
		json_writer_key_bool(w, "confirmed", r->confirmed);
		json_writer_end(w);
	}
	json_writer_end(w);
}

void diff_table_json(struct json_writer *w, const struct diff_table *t, const char *const *names,
		     double period, double min_delta_pp, double confirm_pp, double alpha)
{
	json_side(w, "before", t, 0, names);
	json_side(w, "after", t, 1, names);
	json_writer_key_string(w, "by", diff_basis_name(t->basis));
	json_writer_key_string(w, "unit", t->basis == DIFF_BY_TIME ? t->unit : "share");
	if (t->why_share[0])
		json_writer_key_string(w, "share_because", t->why_share);
	json_writer_key_string(w, "error", diff_error_name(t->error));
	json_writer_key_number(w, "period", period);
	json_writer_key_number(w, "min_delta_pp", min_delta_pp);
	json_writer_key_number(w, "confirm_pp", confirm_pp);
	json_writer_key_number(w, "alpha", alpha);
	json_writer_key_int(w, "tested", (int64_t)t->nr_tested);
	json_writer_key_int(w, "not_significant", (int64_t)t->nr_unsure);
	json_writer_key_int(w, "inclusive_folded", (int64_t)t->nr_folded);
	json_rows(w, t, "hotter", t->hotter, t->nr_hotter);
	json_rows(w, t, "cooler", t->cooler, t->nr_cooler);
}
