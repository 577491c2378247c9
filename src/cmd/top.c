/*
 * top.c - 'trail top': the flat profile, per function self and total
 * (inclusive) samples with their shares, as perf report's Self and
 * Children columns.  Glue only: collapse/load.c reads any input form,
 * profile/flat.c counts.
 */
#include "cmd/commands.h"
#include "collapse/limits.h"
#include "collapse/load.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/strbuf.h"
#include "profile/flat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const top_usage[] = {
	"trail top [options] [FILE...]",
	"",
	"Print the flat profile: for each function its self samples (where it is",
	"the leaf of the stack) and total samples (stacks that contain it, counted",
	"once however deep recursion repeats it), with percentages of all samples.",
	"FILE is folded stacks or any profile 'trail collapse' reads (perf script",
	"text, perf.data, pprof, ...; '-' or none: standard input); several merge.",
	"Differential (two-column) input is read from its second column.",
	NULL
};

/* --sort's words (help, errors, completion and the JSON's "sort" read them). */
static const struct option_choice sorts[] = {
	{ "self", FLAT_SORT_SELF }, { "total", FLAT_SORT_TOTAL }, { "name", FLAT_SORT_NAME },
	{ NULL, 0 }
};

static const char *sort_name(enum flat_sort sort)
{
	const struct option_choice *c;

	for (c = sorts; c->name; c++)
		if (c->value == (int)sort)
			return c->name;
	return "self";
}

static double pct(double v, double total)
{
	return total > 0 ? 100 * v / total : 0;
}

static void write_json(struct strbuf *out, const struct flat_profile *f, const uint32_t *ids,
		       size_t n, enum flat_sort sort)
{
	struct json_writer w;
	size_t i;

	json_writer_init(&w, out, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	flat_json_totals(&w, f);
	json_writer_key_string(&w, "sort", sort_name(sort));
	json_writer_key(&w, "rows");
	json_writer_begin_array(&w);
	for (i = 0; i < n; i++) {
		const struct flat_func *fn = &f->funcs[ids[i]];

		json_writer_begin_object(&w);
		flat_json_name(&w, "function", f, ids[i]);
		json_writer_key_number(&w, "self", fn->self);
		json_writer_key_number(&w, "self_pct", pct(fn->self, f->total));
		json_writer_key_number(&w, "total", fn->total);
		json_writer_key_number(&w, "total_pct", pct(fn->total, f->total));
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(out, '\n');
}

static void write_text(struct strbuf *out, const struct flat_profile *f, const uint32_t *ids,
		       size_t n)
{
	size_t i;

	strbuf_addf(out, "%12s %7s %12s %7s  %s\n", "self", "self%", "total", "total%", "function");
	for (i = 0; i < n; i++) {
		const struct flat_func *fn = &f->funcs[ids[i]];
		char self[32], total[32];

		folded_format_count(self, sizeof(self), fn->self);
		folded_format_count(total, sizeof(total), fn->total);
		strbuf_addf(out, "%12s %6.2f%% %12s %6.2f%%  ", self, pct(fn->self, f->total),
			    total, pct(fn->total, f->total));
		/* names come from the profile: escaped as trail diff --top does */
		escape_term(out, intern_str(&f->names, ids[i]), intern_len(&f->names, ids[i]));
		strbuf_addch(out, '\n');
	}
}

int cmd_top(int argc, const char **argv)
{
	int sort = FLAT_SORT_SELF;
	uint64_t limit = 20;
	int json = 0, merge_processes = 0;
	const char *format = NULL;
	struct option opts[] = {
		OPT_CHOICE('s', "sort", &sort, "KEY", "order by self, total or name (default self)",
			   sorts),
		OPT_U64('n', "limit", &limit, "N", "print the first N functions (default 20, 0: all)",
			0, 1e9),
		OPT_FLAG(0, "json", &json, "print JSON: totals and one row per function"),
		OPT_FLAG(0, "merge-processes", &merge_processes,
			 "drop each stack's first (process) frame: one table for differently named binaries"),
		OPT_GROUP("input"),
		OPT_STRING(0, "format", &format, "NAME",
			   "input format, as trail collapse's (default: guessed; 'list' lists them)"),
		INPUT_LIMIT_OPTIONS,
		OPT_END()
	};
	struct folded_profile p;
	struct flat_profile f;
	struct strbuf out;
	uint32_t *ids;
	size_t n;
	int nr, status;
	const struct collapser *fmt = NULL;

	nr = cmd_parse_options(argc, argv, opts, top_usage, 0);
	status = cmd_load_flat_profile(nr, argv, cmd_input_format(format), &p, &f, &fmt);
	if (status == EXIT_OK && merge_processes) {
		flat_profile_release(&f);
		folded_profile_merge_roots(&p);
		flat_profile_build(&f, &p, 1);
	}
	if (status == EXIT_OK) {
		ids = flat_profile_sorted(&f, (enum flat_sort)sort, &n);
		if (limit && n > limit)
			n = (size_t)limit;
		strbuf_init(&out, 0);
		if (json)
			write_json(&out, &f, ids, n, (enum flat_sort)sort);
		else
			write_text(&out, &f, ids, n);
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_release(&out);
		free(ids);
	}
	flat_profile_release(&f);
	folded_profile_release(&p);
	return status;
}
