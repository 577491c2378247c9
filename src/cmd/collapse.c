/*
 * collapse.c - 'trail collapse': profiler output in any format the table
 * of collapse/formats.c knows (guessed from its first bytes, or named with
 * --format) -> folded stacks on stdout.  Glue only: the formats live in
 * src/collapse/, the folding engine in profile/fold.c.
 */
#include "cmd/commands.h"
#include "collapse/collapser.h"
#include "collapse/limits.h"
#include "collapse/perf_script.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "profile/folded.h"
#include "profile/writers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const collapse_usage[] = {
	"trail collapse [options] [FILE...]",
	"",
	"Fold profiler output into one line per distinct stack",
	"(\"root;...;leaf count\"), sorted, like the stackcollapse-*.pl scripts.",
	"The format of each FILE is guessed from its first bytes unless --format",
	"names it; '--format list' lists them (perf script text, perf.data,",
	"symbolized here, and others).",
	"Reads standard input when no FILE or '-' is given; gzip, zstd and xz",
	"are undone transparently.  --output writes the result as folded text,",
	"pprof (gzipped profile.proto) or speedscope JSON instead.  perf counts",
	"are the sums of the event periods, as stackcollapse-perf.pl adds them",
	"(--weight samples: one per sample); from perf.data a header line names",
	"the period's unit.",
	NULL
};

static void list_formats(void)
{
	size_t i;

	for (i = 0; collapsers[i]; i++)
		printf("%-12s %s\n", collapsers[i]->name, collapsers[i]->description);
}

/* The format of one input: named, or guessed (NULL: empty input, nothing to do). */
static int pick_format(const struct collapser *named, struct collapse_input *in,
		       const struct collapser **out)
{
	size_t i;

	*out = named;
	if (named)
		return 0;
	*out = collapse_guess(in->head, in->head_len, NULL);
	if (*out)
		return 0;
	if (memchr(in->head, '\0', in->head_len))
		return trail_error("'%s' holds NUL bytes: not a profile trail can tell (an empty or "
				   "damaged recording?); name its format with --format "
				   "(trail collapse --format list)", in->name);
	for (i = 0; i < in->head_len; i++)
		if (!strchr(" \t\r\n", in->head[i]))
			return trail_error("cannot tell the format of '%s'; name it with --format "
				     "(trail collapse --format list)", in->name);
	return 0;
}

/*
 * Nothing was folded.  Empty input (or only comments and blank lines) is
 * an empty profile, as for stackcollapse-perf.pl; but an --event-filter
 * that matched none of the events there, or input of which no line was
 * understood, is an error that says what was expected (exit 2).
 * Returns 1 when it is such an error (printed).
 */
static int no_samples(const struct collapse_session *s, int user_filter)
{
	size_t i, stacks = 0;

	for (i = 0; i < s->nr_folders; i++)
		stacks += folder_nr_stacks(s->folders[i]);
	if (stacks)
		return 0;
	if (user_filter && s->skipped_events.nr) {
		struct strbuf names = STRBUF_INIT;

		for (i = 0; i < s->skipped_events.nr; i++)
			strbuf_addf(&names, "%s'%s'", i ? ", " : "", s->skipped_events.items[i]);
		trail_error("no '%s' samples; the input has %s%s", s->event_filter, names.buf,
			    s->skipped_events.nr >= PERF_SCRIPT_MAX_EVENT_NAMES ? " and more" : "");
		strbuf_release(&names);
		return 1;
	}
	if (s->binary) {
		trail_error("no samples found: the input holds NUL bytes; expected text of the "
			    "format named, or a perf.data file (an empty or damaged recording?)");
		return 1;
	}
	if (s->unrecognized) {
		trail_error("no samples found (%llu line%s not understood); is the format right? "
			    "(trail collapse --format list)",
			    (unsigned long long)s->unrecognized, s->unrecognized == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/*
 * The session's stacks through a writer (profile/writers.h): folded text
 * first (so the stacks are merged and sorted exactly as the folded
 * output), then encoded with the units the input carried.  name titles a
 * speedscope profile.
 */
static int write_as(struct collapse_session *s, const struct profile_writer *wr, const char *name)
{
	struct folded_profile prof;
	struct strbuf out = STRBUF_INIT;
	const char *base = strrchr(name, '/');
	char *text = NULL, *line, *end;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int ret;

	if (!mem)
		return error_errno("cannot buffer the folded stacks");
	ret = collapse_session_write(s, mem);
	if (fclose(mem) && !ret)
		ret = error_errno("cannot buffer the folded stacks");
	folded_profile_init(&prof);
	prof.weight = s->weight;
	for (line = text; !ret && line < text + len; line = end + 1) {
		struct folded_line fl;

		end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len;
		if (!folded_parse_line(line, (size_t)(end - line), &fl))
			folded_profile_add(&prof, fl.stack, fl.stack_len, 0, fl.count[0]);
	}
	free(text);
	if (!ret)
		ret = wr->write(&prof, base ? base + 1 : name, &out);
	if (!ret && (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout)))
		ret = error_errno("cannot write the %s output", wr->name);
	strbuf_release(&out);
	folded_profile_release(&prof);
	return ret;
}

/*
 * perf.data weighed by period: the unit is named (a clock's period is
 * nanoseconds, other events count themselves), so trail diff and
 * flamegraph do not run sample-count statistics on it.
 */
static void period_units(struct folded_weight_info *wi, const char *event)
{
	int clock = event && (!strncmp(event, "cpu-clock", 9) || !strncmp(event, "task-clock", 10));

	memset(wi, 0, sizeof(*wi));
	wi->weight = FOLDED_WEIGHT_PERIOD;
	snprintf(wi->unit, sizeof(wi->unit), "%.*s", (int)sizeof(wi->unit) - 1,
		 !event ? "events" : clock ? "ns" : event);
	snprintf(wi->type, sizeof(wi->type), "%.*s", (int)sizeof(wi->type) - 1,
		 !event ? "" : clock ? "cpu" : event);
}

/* The folded output: trail's header when the counts are not plain samples. */
static int write_folded(struct collapse_session *s)
{
	char header[192];

	folded_header_format(header, sizeof(header), &s->weight);
	if (fputs(header, stdout) == EOF)
		return error_errno("cannot write to standard output");
	return collapse_session_write(s, stdout);
}

int cmd_collapse(int argc, const char **argv)
{
	int include_pid = 0, include_tid = 0, kernel = 0, jit = 0, all = 0, addrs = 0, strict = 0;
	const char *event_filter = NULL, *format = NULL, *ghc_cost = NULL;
	const char *sample_type = NULL, *output = "folded";
	const struct profile_writer *writer;
	double discard = 0;	/* percent */
	int count_samples = 0, include_offset = 0, no_modules = 0, read_perfdata = 0;
	int ghc_flag[3] = { 0, 0, 0 };	/* --time, --ticks, --bytes */
	static const char *const ghc_names[3] = { "time", "ticks", "bytes" };
	const char *weight_name = NULL;
	enum folded_weight weight = FOLDED_WEIGHT_PERIOD;
	int inlines = -1;	/* -1: perf script's default, 1: --inline, 0: --no-inline */
	struct string_list skip_after = STRING_LIST_INIT;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t jobs = cpus > 0 ? (uint64_t)cpus : 1;
	const char *chunk_env = getenv("TRAIL_COLLAPSE_CHUNK");
	struct option opts[] = {
		OPT_STRING(0, "format", &format, "NAME",
			   "input format (default: guessed per input; 'list' lists them)"),
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
		OPT_STRING(0, "weight", &weight_name, "W",
			   "period (default, as stackcollapse-perf.pl) or samples (counts)"),
		OPT_FLAG(0, "samples", &count_samples, "the same as --weight samples"),
		OPT_FLAG(0, "inline", &inlines,
			 "add DWARF inline frames to -g (frame-pointer) stacks too; --no-inline: to none"),
		OPT_GROUP("other formats"),
		OPT_FLAG(0, "includeoffset", &include_offset, "dtrace: keep +0x offsets on functions"),
		OPT_FLAG(0, "no-modules", &no_modules, "sample, vtune: drop the module` part of each frame"),
		OPT_STRING(0, "ghc-cost", &ghc_cost, "COST",
			   "ghcprof: time (default), ticks or bytes"),
		/* inferno-collapse-ghcprof's spellings of --ghc-cost */
		OPT_FLAG(0, "time", &ghc_flag[0], "ghcprof: the same as --ghc-cost time"),
		OPT_FLAG(0, "ticks", &ghc_flag[1], "ghcprof: the same as --ghc-cost ticks"),
		OPT_FLAG(0, "bytes", &ghc_flag[2], "ghcprof: the same as --ghc-cost bytes"),
		OPT_STRING(0, "sample-type", &sample_type, "NAME",
			   "pprof: sample type (e.g. alloc_space); jfr: event type "
			   "(default: the profile's default type; jdk.ExecutionSample)"),
		OPT_GROUP("output"),
		OPT_STRING(0, "output", &output, "FORMAT", "folded (default), pprof or speedscope"),
		OPT_GROUP("limits (hostile input)"),
		INPUT_LIMIT_OPTIONS,
		OPT_GROUP("other"),
		OPT_FLAG(0, "strict", &strict, "exit 1 when any input line was not understood"),
		OPT_U64('j', "jobs", &jobs, "N", "threads for large files (default: number of CPUs)",
			1, 1024),
		OPT_ALIAS_U64('n', "nthreads", &jobs, "N", 1, 1024),	/* inferno-collapse-perf's -j */
		OPT_END()
	};
	const struct collapser *named = NULL;
	struct fold_options fo;
	struct collapse_session s;
	int n, i, status = EXIT_OK, user_filter = 0, unknown_input = 0;
	static char outbuf[1 << 20];

	n = cmd_parse_options(argc, argv, opts, collapse_usage, 0);
	if (format && !strcmp(format, "list")) {
		list_formats();
		string_list_clear(&skip_after);
		return fflush(stdout) ? EXIT_FAILURE_ : EXIT_OK;
	}
	if (!(writer = profile_writer_find(output)))
		die_usage("--output must be %s, not '%s'", profile_writer_names(), output);
	if (writer->binary && isatty(STDOUT_FILENO))
		die_usage("--output %s writes binary data; redirect it to a file", output);
	if (format && !(named = collapser_find(format)))
		die_usage("unknown format '%s' (trail collapse --format list)", format);
	if (weight_name && (folded_weight_parse(weight_name, &weight) ||
			    weight == FOLDED_WEIGHT_TIME))
		die_usage("--weight: expected period or samples, not '%s'", weight_name);
	if (count_samples) {
		if (weight_name && weight != FOLDED_WEIGHT_SAMPLES)
			die_usage("--samples contradicts --weight %s", weight_name);
		weight = FOLDED_WEIGHT_SAMPLES;
	}
	memset(&fo, 0, sizeof(fo));
	fo.include_pid = include_pid;
	fo.include_tid = include_tid;
	fo.annotate_kernel = kernel || all;
	fo.annotate_jit = jit || all;
	fo.include_addrs = addrs;
	fo.skip_after = &skip_after;
	fo.count_samples = weight == FOLDED_WEIGHT_SAMPLES;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	collapse_session_init(&s, &fo);
	s.opts.jobs = (unsigned)jobs;
	s.opts.skip_fraction = discard / 100;
	s.opts.count_samples = weight == FOLDED_WEIGHT_SAMPLES;
	s.opts.inlines = inlines < 0 ? 0 : inlines ? 1 : -1;
	s.opts.include_offset = include_offset;
	s.opts.no_modules = no_modules;
	s.opts.sample_type = sample_type;
	for (int k = 0; k < 3; k++) {
		if (!ghc_flag[k])
			continue;
		if (ghc_cost && strcmp(ghc_cost, ghc_names[k]))
			die_usage("--%s contradicts --ghc-cost %s", ghc_names[k], ghc_cost);
		ghc_cost = ghc_names[k];
	}
	if (!ghc_cost || !strcmp(ghc_cost, "time"))
		s.opts.ghc_cost = GHC_COST_TIME;
	else if (!strcmp(ghc_cost, "ticks"))
		s.opts.ghc_cost = GHC_COST_TICKS;
	else if (!strcmp(ghc_cost, "bytes"))
		s.opts.ghc_cost = GHC_COST_BYTES;
	else
		die_usage("--ghc-cost takes time, ticks or bytes, not '%s'", ghc_cost);
	if (chunk_env) {
		/* a test knob: small work items make the threaded path testable */
		uint64_t v;

		if (parse_u64(chunk_env, &v) || v < 1)
			die_usage("TRAIL_COLLAPSE_CHUNK must be a positive number of bytes, not '%s'",
				  chunk_env);
		s.opts.chunk_size = (size_t)v;
	}
	/* like Perl, an empty --event-filter means "the first event type seen" */
	if (event_filter && *event_filter) {
		s.event_filter = strdup(event_filter);
		user_filter = 1;
	}

	for (i = 0; i < (n ? n : 1); i++) {
		const char *path = n ? argv[i] : "-";
		const struct collapser *c;
		struct collapse_input in;

		if (collapse_input_open(&in, path)) {
			status = EXIT_FAILURE_;
			continue;
		}
		if (pick_format(named, &in, &c)) {
			unknown_input = 1;	/* exit 2: no valid input, as flamegraph and diff */
		} else if (c) {
			/* perf script text has the inline frames perf script printed */
			if (inlines >= 0 && strcmp(c->name, "perfdata"))
				die_usage("--%s applies to perf.data input, and %s%s%s is %s input; %s",
					  inlines ? "inline" : "no-inline",
					  in.plain_path ? "'" : "", in.plain_path ? path : in.name,
					  in.plain_path ? "'" : "", c->name,
					  inlines ? "give trail collapse the perf.data file instead" :
					  "run perf script --no-inline instead");
			if (c->read(&s, &in, s.folders[0]) < 0)
				status = EXIT_FAILURE_;
			read_perfdata |= !strcmp(c->name, "perfdata");
		}
		collapse_input_close(&in);
	}

	if (s.unrecognized > s.warned)
		warning("%llu more unrecognized lines not shown",
			(unsigned long long)(s.unrecognized - s.warned));
	if (s.filter_defaulted && s.other_event)
		note("kept only '%s' events, skipped '%s' and any others; choose with --event-filter",
		     s.event_filter, s.other_event);
	if (status == EXIT_OK && unknown_input)
		status = EXIT_USAGE;
	/*
	 * An input that could not be read to its end (a truncated gzip, a
	 * missing file) would make a shorter profile that looks whole:
	 * nothing is written rather than part of it.
	 */
	if (status != EXIT_OK) {
		note("no stacks written: an input could not be read completely");
		goto out;
	}
	if (status == EXIT_OK && no_samples(&s, user_filter)) {
		status = EXIT_USAGE;
		goto out;
	}
	if (read_perfdata && weight == FOLDED_WEIGHT_PERIOD)
		period_units(&s.weight, s.event_filter);
	else if (read_perfdata)
		memset(&s.weight, 0, sizeof(s.weight));
	if (strcmp(writer->name, "folded") ? write_as(&s, writer, n ? argv[0] : "stdin") < 0 :
	    write_folded(&s) < 0)
		status = EXIT_FAILURE_;
	if (strict && s.unrecognized && status == EXIT_OK) {
		trail_error("%llu input lines were not understood (--strict)",
		      (unsigned long long)s.unrecognized);
		status = EXIT_FAILURE_;
	}
out:
	collapse_session_release(&s);
	string_list_clear(&skip_after);
	return status;
}
