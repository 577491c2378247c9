/*
 * collapse.c - 'trail collapse': perf script output (or, once the reader
 * lands, a perf.data file) -> folded stacks on stdout, with the options of
 * stackcollapse-perf.pl.  Glue only: the parser is collapse/perf_script.c,
 * the folding engine profile/fold.c.
 */
#include "cmd/commands.h"
#include "profile/fold.h"
#include "collapse/perf_script.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/string_list.h"
#include "perf/perfdata.h"
#include "collapse/perfdata_fold.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const collapse_usage[] = {
	"trail collapse [options] [FILE...]",
	"",
	"Fold 'perf script' output into one line per distinct stack",
	"(\"comm;root;...;leaf count\"), sorted, like stackcollapse-perf.pl.",
	"Reads standard input when no FILE or '-' is given; gzip is detected.",
	"perf.data files (and pipe-mode perf.data on standard input) are read",
	"and symbolized directly, without perf script.",
	NULL
};

int cmd_collapse(int argc, const char **argv)
{
	int include_pid = 0, include_tid = 0, kernel = 0, jit = 0, all = 0, addrs = 0, strict = 0;
	const char *event_filter = NULL;
	double discard = 0;	/* percent */
	int count_samples = 0;
	int inlines = -1;	/* -1: perf script's default, 1: --inline, 0: --no-inline */
	struct string_list skip_after = STRING_LIST_INIT;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t jobs = cpus > 0 ? (uint64_t)cpus : 1;
	const char *chunk_env = getenv("TRAIL_COLLAPSE_CHUNK");
	struct option opts[] = {
		OPT_GROUP("what the root frame says"),
		OPT_FLAG(0, "pid", &include_pid, "add the PID to the process name (comm-PID)"),
		OPT_FLAG(0, "tid", &include_tid, "add PID and TID to the process name (comm-PID/TID)"),
		OPT_GROUP("annotations"),
		OPT_FLAG(0, "kernel", &kernel, "mark kernel functions with _[k]"),
		OPT_FLAG(0, "jit", &jit, "mark JIT functions (perf map, jitdump) with _[j]"),
		OPT_FLAG(0, "all", &all, "all annotations (--kernel --jit)"),
		OPT_FLAG(0, "addrs", &addrs, "show raw addresses for unknown symbols"),
		OPT_GROUP("filtering"),
		OPT_STRING(0, "event-filter", &event_filter, "EVENT",
			   "keep only samples of EVENT (default: the first event type seen)"),
		OPT_STRING_LIST(0, "skip-after", &skip_after, "FUNC",
				"cut each stack at FUNC, dropping its callers (repeatable)"),
		OPT_GROUP("perf.data input"),
		OPT_DOUBLE(0, "discard", &discard, "PERCENT",
			   "drop the first PERCENT of the recording's time span (perf script --time PERCENT%-100%)",
			   0, 100),
		OPT_FLAG(0, "samples", &count_samples, "count samples, not event periods"),
		OPT_FLAG(0, "inline", &inlines,
			 "add DWARF inline frames to -g (frame-pointer) stacks too; --no-inline: to none"),
		OPT_GROUP("other"),
		OPT_FLAG(0, "strict", &strict, "exit 1 when any input line was not understood"),
		OPT_U64('j', "jobs", &jobs, "N", "threads for large files (default: number of CPUs)",
			1, 1024),
		OPT_ALIAS_U64('n', "nthreads", &jobs, "N", 1, 1024),	/* inferno-collapse-perf's -j */
		OPT_END()
	};
	struct fold_options fo;
	struct perf_script_session s;
	int n, i, status = EXIT_OK;
	static char outbuf[1 << 20];

	n = cmd_parse_options(argc, argv, opts, collapse_usage, 0);
	memset(&fo, 0, sizeof(fo));
	fo.include_pid = include_pid;
	fo.include_tid = include_tid;
	fo.annotate_kernel = kernel || all;
	fo.annotate_jit = jit || all;
	fo.include_addrs = addrs;
	fo.skip_after = &skip_after;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	perf_script_session_init(&s, &fo, (unsigned)jobs);
	if (chunk_env) {
		/* a test knob: small work items make the threaded path testable */
		uint64_t v;

		if (parse_u64(chunk_env, &v) || v < 1)
			die_usage("TRAIL_COLLAPSE_CHUNK must be a positive number of bytes, not '%s'",
				  chunk_env);
		s.chunk_size = (size_t)v;
	}
	/* like Perl, an empty --event-filter means "the first event type seen" */
	if (event_filter && *event_filter)
		s.event_filter = strdup(event_filter);

	for (i = 0; i < (n ? n : 1); i++) {
		const char *path = n ? argv[i] : "-";
		int stdin_path = !strcmp(path, "-");

		if (perfdata_detect(path)) {
			/* perf.data (file or pipe mode): read and symbolize it here */
			struct perfdata_fold pf;

			memset(&pf, 0, sizeof(pf));
			pf.event_filter = s.event_filter;
			pf.skip_fraction = discard / 100;
			pf.count_samples = count_samples;
			pf.inlines = inlines < 0 ? 0 : inlines ? 1 : -1;
			if (perfdata_fold_file(path, s.folders[0], &pf) < 0)
				status = EXIT_FAILURE_;
			if (!s.event_filter && pf.chosen_event) {
				s.event_filter = pf.chosen_event;
				s.filter_defaulted = 1;
				pf.chosen_event = NULL;
			}
			if (!s.other_event && pf.other_event) {
				s.other_event = pf.other_event;
				pf.other_event = NULL;
			}
			free(pf.chosen_event);
			free(pf.other_event);
			continue;
		}
		/* perf script text has the inline frames perf script printed */
		if (inlines >= 0)
			die_usage("--%s applies to perf.data input, and %s%s%s is perf script text; %s",
				  inlines ? "inline" : "no-inline", stdin_path ? "" : "'",
				  stdin_path ? "standard input" : path, stdin_path ? "" : "'",
				  inlines ? "give trail collapse the perf.data file instead" :
				  "run perf script --no-inline instead");
		if (perf_script_session_read(&s, path) < 0)
			status = EXIT_FAILURE_;
	}

	if (s.unrecognized > s.warned)
		warning("%llu more unrecognized lines not shown",
			(unsigned long long)(s.unrecognized - s.warned));
	if (s.filter_defaulted && s.other_event)
		note("kept only '%s' events, skipped '%s' and any others; choose with --event-filter",
		     s.event_filter, s.other_event);
	if (folder_write(s.folders, s.nr_folders, stdout) < 0)
		status = EXIT_FAILURE_;
	if (strict && s.unrecognized && status == EXIT_OK) {
		error("%llu input lines were not understood (--strict)",
		      (unsigned long long)s.unrecognized);
		status = EXIT_FAILURE_;
	}
	perf_script_session_release(&s);
	string_list_clear(&skip_after);
	return status;
}
