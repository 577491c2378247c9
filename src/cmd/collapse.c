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
#include "profile/fold.h"
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
 * The session's stacks through a writer (profile/writers.h): handed over
 * by the folding engine merged and sorted exactly as the folded output
 * (folder_to_profile), then encoded with the units the input carried.
 * name titles a speedscope profile.
 */
static int write_as(struct collapse_session *s, const struct profile_writer *wr, const char *name)
{
	struct folded_profile prof;
	struct strbuf out = STRBUF_INIT;
	const char *base = strrchr(name, '/');
	int ret;

	folded_profile_init(&prof);
	prof.weight = s->weight;
	folder_to_profile(s->folders, s->nr_folders, &prof);
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

/* The command line as given, and what check_options() made of it. */
struct collapse_cmd {
	int include_pid, include_tid, kernel, jit, all, addrs, strict;
	const char *event_filter, *format, *ghc_cost;
	const char *sample_type, *output, *weight_name;
	double discard;		/* percent */
	int count_samples, include_offset, no_modules;
	int ghc_flag[3];	/* --time, --ticks, --bytes */
	int inlines;		/* -1: perf script's default, 1: --inline, 0: --no-inline */
	struct string_list skip_after;
	uint64_t jobs;		/* threads */

	/* check_options() */
	const struct profile_writer *writer;
	const struct collapser *named;	/* --format, or NULL: guessed per input */
	enum folded_weight weight;
	enum ghc_cost ghc;

	/* read_inputs() */
	int user_filter;	/* --event-filter was given (not empty) */
	int read_perfdata;	/* an input was perf.data */
	int unknown_input;	/* an input's format could not be told */
};

static void collapse_cmd_init(struct collapse_cmd *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(o, 0, sizeof(*o));
	o->output = "folded";
	o->weight = FOLDED_WEIGHT_PERIOD;
	o->inlines = -1;
	o->jobs = cpus > 0 ? (uint64_t)cpus : 1;
}

/* Returns the number of FILE arguments left at the front of argv. */
/* --weight's and --ghc-cost's words (help, errors and completion read them);
 * ghc_costs is in the order of the --time, --ticks and --bytes flags. */
static const struct option_choice weights[] = { { "period", 0 }, { "samples", 0 }, { NULL, 0 } };
static const struct option_choice ghc_costs[] = {
	{ "time", GHC_COST_TIME }, { "ticks", GHC_COST_TICKS }, { "bytes", GHC_COST_BYTES }, { NULL, 0 }
};

static int parse_collapse_options(int argc, const char **argv, struct collapse_cmd *o)
{
	struct option opts[] = {
		OPT_STRING(0, "format", &o->format, "NAME",
			   "input format (default: guessed per input; 'list' lists them)"),
		OPT_GROUP("what the root frame says"),
		OPT_FLAG(0, "pid", &o->include_pid, "add the PID to the process name (comm-PID)"),
		OPT_FLAG(0, "tid", &o->include_tid, "add PID and TID to the process name (comm-PID/TID)"),
		OPT_GROUP("annotations"),
		OPT_FLAG(0, "kernel", &o->kernel, "mark kernel functions with _[k]"),
		OPT_FLAG(0, "jit", &o->jit, "mark JIT functions (perf map, jitdump) with _[j]"),
		OPT_FLAG(0, "all", &o->all, "all annotations (--kernel --jit)"),
		OPT_FLAG(0, "addrs", &o->addrs, "show raw addresses for unknown symbols"),
		OPT_GROUP("filtering"),
		OPT_STRING(0, "event-filter", &o->event_filter, "EVENT",
			   "keep only samples of EVENT (default: the first event type seen)"),
		OPT_STRING_LIST(0, "skip-after", &o->skip_after, "FUNC",
				"cut each stack at FUNC, dropping its callers (repeatable)"),
		OPT_GROUP("perf.data input"),
		OPT_DOUBLE(0, "discard", &o->discard, "PERCENT",
			   "drop the first PERCENT of the recording's time span (perf script --time PERCENT%-100%)",
			   0, 100),
		OPT_CHOICE_NAME(0, "weight", &o->weight_name, "W",
				"period (default, as stackcollapse-perf.pl) or samples (counts)", weights),
		OPT_FLAG(0, "samples", &o->count_samples, "the same as --weight samples"),
		OPT_FLAG(0, "inline", &o->inlines,
			 "add DWARF inline frames to -g (frame-pointer) stacks too; --no-inline: to none"),
		OPT_GROUP("other formats"),
		OPT_FLAG(0, "includeoffset", &o->include_offset, "dtrace: keep +0x offsets on functions"),
		OPT_FLAG(0, "no-modules", &o->no_modules, "sample, vtune: drop the module` part of each frame"),
		OPT_CHOICE_NAME(0, "ghc-cost", &o->ghc_cost, "COST",
				"ghcprof: time (default), ticks or bytes", ghc_costs),
		/* inferno-collapse-ghcprof's spellings of --ghc-cost */
		OPT_FLAG(0, "time", &o->ghc_flag[0], "ghcprof: the same as --ghc-cost time"),
		OPT_FLAG(0, "ticks", &o->ghc_flag[1], "ghcprof: the same as --ghc-cost ticks"),
		OPT_FLAG(0, "bytes", &o->ghc_flag[2], "ghcprof: the same as --ghc-cost bytes"),
		OPT_STRING(0, "sample-type", &o->sample_type, "NAME",
			   "pprof: sample type (e.g. alloc_space); jfr: event type; callgrind: event or "
			   "est-cycles (default: the profile's default type; jdk.ExecutionSample; Ir)"),
		OPT_GROUP("output"),
		OPT_STRING(0, "output", &o->output, "FORMAT", "folded (default), pprof or speedscope"),
		OPT_GROUP("limits (hostile input)"),
		INPUT_LIMIT_OPTIONS,
		OPT_GROUP("other"),
		OPT_FLAG(0, "strict", &o->strict, "exit 1 when any input line was not understood"),
		OPT_U64('j', "jobs", &o->jobs, "N", "threads for large files (default: number of CPUs)",
			1, 1024),
		OPT_ALIAS_U64('n', "nthreads", &o->jobs, "N", 1, 1024),	/* inferno-collapse-perf's -j */
		OPT_END()
	};

	return cmd_parse_options(argc, argv, opts, collapse_usage, 0);
}

/* Options that contradict each other or name nothing known: exit 2 (die_usage). */
static void check_options(struct collapse_cmd *o)
{
	if (!(o->writer = profile_writer_find(o->output)))
		die_usage("--output must be %s, not '%s'", profile_writer_names(), o->output);
	if (o->writer->binary && isatty(STDOUT_FILENO))
		die_usage("--output %s writes binary data; redirect it to a file", o->output);
	if (o->format && !(o->named = collapser_find(o->format)))
		die_usage("unknown format '%s' (trail collapse --format list)", o->format);
	if (o->weight_name && folded_weight_parse(o->weight_name, &o->weight))
		die_usage("--weight: expected period or samples, not '%s'", o->weight_name);
	if (o->count_samples) {
		if (o->weight_name && o->weight != FOLDED_WEIGHT_SAMPLES)
			die_usage("--samples contradicts --weight %s", o->weight_name);
		o->weight = FOLDED_WEIGHT_SAMPLES;
	}
	for (int k = 0; k < 3; k++) {
		if (!o->ghc_flag[k])
			continue;
		if (o->ghc_cost && strcmp(o->ghc_cost, ghc_costs[k].name))
			die_usage("--%s contradicts --ghc-cost %s", ghc_costs[k].name, o->ghc_cost);
		o->ghc_cost = ghc_costs[k].name;
	}
	o->ghc = GHC_COST_TIME;
	for (const struct option_choice *c = ghc_costs; o->ghc_cost && c->name; c++)
		if (!strcmp(o->ghc_cost, c->name))
			o->ghc = (enum ghc_cost)c->value;
}

/* The collapse session (and the fold options it points to) the options ask for. */
static void plan_session(struct collapse_cmd *o, struct fold_options *fo,
			 struct collapse_session *s)
{
	const char *chunk_env = getenv("TRAIL_COLLAPSE_CHUNK");

	memset(fo, 0, sizeof(*fo));
	fo->include_pid = o->include_pid;
	fo->include_tid = o->include_tid;
	fo->annotate_kernel = o->kernel || o->all;
	fo->annotate_jit = o->jit || o->all;
	fo->include_addrs = o->addrs;
	fo->skip_after = &o->skip_after;
	fo->count_samples = o->weight == FOLDED_WEIGHT_SAMPLES;

	collapse_session_init(s, fo);
	s->opts.jobs = (unsigned)o->jobs;
	s->opts.skip_fraction = o->discard / 100;
	s->opts.count_samples = o->weight == FOLDED_WEIGHT_SAMPLES;
	s->opts.inlines = o->inlines < 0 ? 0 : o->inlines ? 1 : -1;
	s->opts.include_offset = o->include_offset;
	s->opts.no_modules = o->no_modules;
	s->opts.sample_type = o->sample_type;
	s->opts.ghc_cost = o->ghc;
	if (chunk_env) {
		/* a test knob: small work items make the threaded path testable */
		uint64_t v;

		if (parse_u64(chunk_env, &v) || v < 1)
			die_usage("TRAIL_COLLAPSE_CHUNK must be a positive number of bytes, not '%s'",
				  chunk_env);
		s->opts.chunk_size = (size_t)v;
	}
	/* like Perl, an empty --event-filter means "the first event type seen" */
	if (o->event_filter && *o->event_filter) {
		s->event_filter = strdup(o->event_filter);
		o->user_filter = 1;
	}
}

/* Every input (n paths, or standard input) into the session: EXIT_OK or EXIT_FAILURE_. */
static int read_inputs(struct collapse_cmd *o, struct collapse_session *s, int n,
		       const char **argv)
{
	int i, status = EXIT_OK;

	for (i = 0; i < (n ? n : 1); i++) {
		const char *path = n ? argv[i] : "-";
		const struct collapser *c;
		struct collapse_input in;

		if (collapse_input_open(&in, path)) {
			status = EXIT_FAILURE_;
			continue;
		}
		if (pick_format(o->named, &in, &c)) {
			o->unknown_input = 1;	/* exit 2: no valid input, as flamegraph and diff */
		} else if (c) {
			/* perf script text has the inline frames perf script printed */
			if (o->inlines >= 0 && strcmp(c->name, "perfdata"))
				die_usage("--%s applies to perf.data input, and %s%s%s is %s input; %s",
					  o->inlines ? "inline" : "no-inline",
					  in.plain_path ? "'" : "", in.plain_path ? path : in.name,
					  in.plain_path ? "'" : "", c->name,
					  o->inlines ? "give trail collapse the perf.data file instead" :
					  "run perf script --no-inline instead");
			if (c->read(s, &in, s->folders[0]) < 0)
				status = EXIT_FAILURE_;
			o->read_perfdata |= !strcmp(c->name, "perfdata");
		}
		collapse_input_close(&in);
	}
	return status;
}

/* What was read, summed up on stderr and written to stdout: the exit status. */
static int write_result(struct collapse_cmd *o, struct collapse_session *s, int status,
			const char *name)
{
	if (s->unrecognized > s->warned)
		warning("%llu more unrecognized lines not shown",
			(unsigned long long)(s->unrecognized - s->warned));
	if (s->filter_defaulted && s->other_event)
		note("kept only '%s' events, skipped '%s' and any others; choose with --event-filter",
		     s->event_filter, s->other_event);
	if (status == EXIT_OK && o->unknown_input)
		status = EXIT_USAGE;
	/*
	 * An input that could not be read to its end (a truncated gzip, a
	 * missing file) would make a shorter profile that looks whole:
	 * nothing is written rather than part of it.
	 */
	if (status != EXIT_OK) {
		note("no stacks written: an input could not be read completely");
		return status;
	}
	if (status == EXIT_OK && no_samples(s, o->user_filter))
		return EXIT_USAGE;
	if (o->read_perfdata && o->weight == FOLDED_WEIGHT_PERIOD)
		period_units(&s->weight, s->event_filter);
	else if (o->read_perfdata)
		memset(&s->weight, 0, sizeof(s->weight));
	if (strcmp(o->writer->name, "folded") ? write_as(s, o->writer, name) < 0 :
	    write_folded(s) < 0)
		status = EXIT_FAILURE_;
	if (o->strict && s->unrecognized && status == EXIT_OK) {
		trail_error("%llu input lines were not understood (--strict)",
		      (unsigned long long)s->unrecognized);
		status = EXIT_FAILURE_;
	}
	return status;
}

int cmd_collapse(int argc, const char **argv)
{
	struct collapse_cmd o;
	struct fold_options fo;
	struct collapse_session s;
	int n, status;
	static char outbuf[1 << 20];

	collapse_cmd_init(&o);
	n = parse_collapse_options(argc, argv, &o);
	if (o.format && !strcmp(o.format, "list")) {
		list_formats();
		string_list_clear(&o.skip_after);
		return fflush(stdout) ? EXIT_FAILURE_ : EXIT_OK;
	}
	check_options(&o);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	plan_session(&o, &fo, &s);
	status = read_inputs(&o, &s, n, argv);
	status = write_result(&o, &s, status, n ? argv[0] : "stdin");
	collapse_session_release(&s);
	string_list_clear(&o.skip_after);
	return status;
}
