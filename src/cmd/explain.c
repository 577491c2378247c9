/*
 * explain.c - 'trail explain': reading aids for a profile (wide plateaus,
 * narrow towers, repeated motifs, broken stacks), each with what to do.
 * Glue only: collapse/load.c reads, profile/flat.c counts,
 * profile/explain.c finds and writes.
 */
#include "cmd/commands.h"
#include "collapse/limits.h"
#include "collapse/load.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "profile/explain.h"
#include "profile/flat.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const explain_usage[] = {
	"trail explain [options] [FILE...]",
	"",
	"Point out what to look at in a profile, each finding with what to do:",
	"wide plateaus (functions with a large self share), narrow towers (the",
	"deepest stacks and the depth distribution), repeated motifs (functions",
	"reached from many distinct callers) and broken stacks (samples whose",
	"stack has an [unknown] frame or a single function frame).  FILE is folded",
	"stacks or any profile 'trail collapse' reads ('-' or none: standard input).",
	NULL
};

int cmd_explain(int argc, const char **argv)
{
	struct explain_options eo;
	double plateau = 5, motif = 1, broken = 5;	/* percent */
	uint64_t limit = 5, callers = 3, tower_depth = 0;
	int json = 0, process_root = -1, nr, status;
	const struct collapser *fmt = NULL;
	const char *format = NULL;
	struct option opts[] = {
		OPT_FLAG(0, "json", &json, "print the findings as JSON"),
		OPT_U64('n', "limit", &limit, "N", "list at most N items per finding (default 5)", 1, 1e6),
		OPT_GROUP("thresholds"),
		OPT_DOUBLE(0, "plateau", &plateau, "PCT",
			   "a plateau has at least PCT% self share (default 5)", 0, 100),
		OPT_U64(0, "tower-depth", &tower_depth, "N",
			"a tower is N frames deep (default: twice the median depth, at least 16)",
			0, 1e6),
		OPT_U64(0, "callers", &callers, "N",
			"a motif is reached from at least N distinct callers (default 3)", 2, 1e9),
		OPT_DOUBLE(0, "motif", &motif, "PCT",
			   "and has at least PCT% total share (default 1)", 0, 100),
		OPT_DOUBLE(0, "broken", &broken, "PCT",
			   "broken stacks above PCT% of samples are a finding (default 5)", 0, 100),
		OPT_FLAG(0, "process-root", &process_root,
			 "the root frame is a process name (default: guessed; --no-process-root)"),
		OPT_GROUP("input"),
		OPT_STRING(0, "format", &format, "NAME",
			   "input format, as trail collapse's (default: guessed; 'list' lists them)"),
		INPUT_LIMIT_OPTIONS,
		OPT_END()
	};
	struct folded_profile p;
	struct flat_profile f;
	struct explain_report r;
	struct strbuf out;

	nr = cmd_parse_options(argc, argv, opts, explain_usage, 0);
	status = cmd_load_flat_profile(nr, argv, cmd_input_format(format), &p, &f, &fmt);
	if (status == EXIT_OK) {
		explain_options_init(&eo);
		eo.plateau_share = plateau / 100;
		eo.motif_share = motif / 100;
		eo.broken_share = broken / 100;
		eo.motif_callers = (uint32_t)callers;
		eo.limit = (size_t)limit;
		if (tower_depth) {
			eo.tower_min_depth = (uint32_t)tower_depth;
			eo.tower_factor = 0;
		}
		if (process_root < 0)
			process_root = load_has_process_root(fmt) || explain_guess_process_root(&f);
		eo.process_root = process_root;
		explain_profile(&r, &f, &eo);
		strbuf_init(&out, 0);
		if (json)
			explain_write_json(&out, &r, &f);
		else
			explain_write_text(&out, &r, &f);
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_release(&out);
		explain_report_release(&r);
	}
	flat_profile_release(&f);
	folded_profile_release(&p);
	return status;
}
