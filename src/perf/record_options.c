/*
 * record_options.c - trail record's command line read into options and
 * sampler options (see record_options.h): the table, what combines, -g's
 * modes, and a whole line read back for a recording in this process.
 */
#include "perf/record_options.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"

#include <stdlib.h>
#include <string.h>

const char *const record_usage[] = {
	"trail record [options] [-o FILE] -- CMD [ARGS...]",
	"trail record [options] -p PID",
	"",
	"Sample CMD (every thread and child it starts) or the running process PID",
	"with perf_event_open and write a perf.data file that 'perf report' and",
	"'perf script' read.  The exit status is CMD's (128+N when a signal N",
	"killed it).  Ctrl-C stops CMD and still writes a complete file.",
	"",
	"events (-e): cycles (the default where the CPU exposes counters, else",
	"cpu-clock), cpu-clock, task-clock, instructions, page-faults and",
	"context-switches (every event is a sample unless -F/-c), offcpu (where",
	"threads block; each sample's period is the blocked time in ns), alloc",
	"(heap allocations, by an LD_PRELOAD interposer; see --view).",
	"",
	"With --folded (or -o FILE.folded) the output is folded stacks instead",
	"(standard output without -o), counting samples; --weight period sums the",
	"event periods and --weight time the time (microseconds), under a header",
	"line naming the unit.  Off-CPU stacks weigh the time blocked by default.",
	NULL
};

/* --weight's words (help, errors and completion read them). */
static const struct option_choice weights[] = {
	{ "samples", 0 }, { "period", 0 }, { "time", 0 }, { NULL, 0 }
};

void record_options_table(struct record_options *o, struct option opts[RECORD_OPTIONS_NR])
{
	const struct option table[RECORD_OPTIONS_NR] = {
		OPT_STRING('o', "output", &o->output, "FILE", "file to write (default: perf.data, or stdout with --folded)"),
		OPT_FLAG(0, "folded", &o->folded, "write folded stacks (also when FILE ends in .folded)"),
		OPT_CHOICE_NAME(0, "weight", &o->weight, "W",
				"folded counts: samples (default), period or time (us; offcpu's default)", weights),
		OPT_STRING('p', "pid", &o->pid, "PID", "sample this running process (all its threads) instead of a command"),
		OPT_STRING('e', "event", &o->event, "EVENT", "what to sample (see above; default: cycles or cpu-clock)"),
		OPT_U64('F', "freq", &o->freq, "HZ", "samples per second (default: 999 for a command, 99 with -p)", 1, 1000000),
		OPT_U64('c', "count", &o->count, "N", "sample every N events instead of -F", 1, UINT64_C(1) << 62),
		OPT_STRING('g', "call-graph", &o->callgraph, "MODE", "fp (frame pointers, default), dwarf[,BYTES] (copy BYTES of user stack, default 8192) or none"),
		OPT_SECONDS(0, "duration", &o->duration, "SECONDS", "stop after this long (a command gets SIGTERM)"),
		OPT_U64('m', "mmap-pages", &o->mmap_pages, "PAGES", "ring buffer pages per CPU, a power of two (default 128; 1024 with dwarf)", 1, 1 << 20),
		OPT_U64(0, "alloc-interval", &o->alloc_interval, "BYTES", "-e alloc: sample one allocation per BYTES allocated, on average (default 65536; 1 = every one)", 1, UINT64_C(1) << 40),
		OPT_STRING(0, "view", &o->view, "VIEW", "-e alloc: alloc-space (default), alloc-objects, inuse-peak or inuse-exit"),
		OPT_END()
	};

	memcpy(opts, table, sizeof(table));
}

const char *record_options_check(const struct record_options *o, int n, uint64_t *pid)
{
	*pid = 0;
	if (o->pid && n > 0)
		return "give either -p PID or a command, not both";
	if (!o->pid && n == 0)
		return "no command to record (trail record [options] -- CMD [ARGS...], or -p PID)";
	if (o->pid && (parse_u64(o->pid, pid) || *pid == 0 || *pid > INT32_MAX))
		return "-p: not a process id";
	if (o->freq && o->count)
		return "give -F or -c, not both";
	if (o->mmap_pages & (o->mmap_pages - 1))
		return "-m: the number of pages must be a power of two";
	return NULL;
}

static int parse_callgraph(const char *arg, struct sampler_opts *so)
{
	uint64_t bytes;

	if (!arg || !strcmp(arg, "fp")) {
		so->callchain = SAMPLER_CALLCHAIN_FP;
		return 0;
	}
	if (!strcmp(arg, "none") || !strcmp(arg, "no")) {
		so->callchain = SAMPLER_CALLCHAIN_NONE;
		return 0;
	}
	if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		so->callchain = SAMPLER_CALLCHAIN_DWARF;
		so->stack_bytes = 8192;
		if (!arg[5])
			return 0;
		if (parse_u64(arg + 6, &bytes) || bytes < 8 || bytes > 65528 || bytes % 8)
			return trail_error("-g dwarf,BYTES: the stack size must be a multiple of 8 up to 65528, not '%s'",
				     arg + 6);
		so->stack_bytes = (uint32_t)bytes;
		return 0;
	}
	return trail_error("unknown call-graph mode '%s' (fp, dwarf[,BYTES] or none)", arg);
}

int record_options_sampler(const struct record_options *o, struct sampler_opts *so)
{
	memset(so, 0, sizeof(*so));
	so->event = o->event;
	so->freq = o->freq;
	so->period = o->count;
	so->mmap_pages = (size_t)o->mmap_pages;
	so->duration = o->duration;
	return parse_callgraph(o->callgraph, so);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* What a recording of a command into a perf.data leaves undone, or NULL. */
static const char *not_a_recording(const struct record_options *o)
{
	if (o->pid)
		return "-p";
	if (o->folded || o->weight || (o->output && ends_with(o->output, ".folded")))
		return "folded output";
	if (o->event && !strcmp(o->event, "alloc"))
		return "-e alloc";
	if (o->alloc_interval || o->view)
		return "--alloc-interval or --view";
	if (!o->output)
		return "a line without -o";
	return NULL;
}

int record_words_read(struct record_words *w, int argc, const char *const *argv)
{
	struct option opts[RECORD_OPTIONS_NR];
	const char *err;
	uint64_t pid;
	int n;

	memset(w, 0, sizeof(*w));
	if (argc < 2 || strcmp(argv[1], "record"))
		return trail_error("internal: '%s' is not a trail record line", argc ? argv[0] : "");
	/* parse_options() moves the words it leaves to the front: a copy */
	w->words_ = xmallocarray((size_t)argc + 1, sizeof(*w->words_));
	memcpy(w->words_, argv, (size_t)argc * sizeof(*w->words_));
	w->words_[argc] = NULL;
	record_options_table(&w->o, opts);
	n = parse_options(argc - 1, w->words_ + 1, opts, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (n < 0)
		return trail_error("internal: trail record's line could not be read");
	w->words_[1 + n] = NULL;
	w->command = w->words_ + 1;
	err = record_options_check(&w->o, n, &pid);
	if (err)
		return trail_error("internal: trail record's line: %s", err);
	err = not_a_recording(&w->o);
	if (err)
		return trail_error("internal: trail record's line asks for %s, not a recording "
				   "of a command into a perf.data", err);
	return record_options_sampler(&w->o, &w->so);
}

void record_words_release(struct record_words *w)
{
	free(w->words_);
	memset(w, 0, sizeof(*w));
}
