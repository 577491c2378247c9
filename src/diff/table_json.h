/*
 * table_json.h - a diff table (table.h) as the keys of trail diff --json:
 * "before"/"after" (names of the runs, samples, total per run by time),
 * "by", "unit" ("ns", "bytes" ... or "share"), "error", the settings and
 * the "hotter"/"cooler" rows (values per run in the unit by time, with
 * percent of the before total; percent and points by share).  Written
 * into the caller's open object, so a command may add keys of its own.
 */
#ifndef TRAIL_DIFF_TABLE_JSON_H
#define TRAIL_DIFF_TABLE_JSON_H

#include "core/json_writer.h"
#include "diff/table.h"

void diff_table_json(struct json_writer *w, const struct diff_table *t, const char *const *names,
		     double period, double min_delta_pp, double confirm_pp, double alpha);

#endif
