/*
 * record.c - 'trail record': sample a command (or a running process) with
 * perf_event_open and write a perf.data file that perf report and perf
 * script read.  Glue only: options (their table and the sampler's meaning
 * of them: perf/record_options.h) -> struct sampler -> (offcpu filter) ->
 * the writer tool below -> perfdata_writer; the engines are in src/perf (sampler,
 * off-CPU, perf.data writer) and src/alloc (the allocation interposer).
 */
#include "cmd/commands.h"
#include "alloc/alloc_record.h"
#include "profile/fold.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/string_list.h"
#include "profile/folded.h"
#include "perf/offcpu.h"
#include "collapse/perfdata_fold.h"
#include "perf/perfdata_stacks.h"
#include "perf/record_hints.h"
#include "perf/record_options.h"
#include "perf/recorder.h"
#include "core/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* As perf does: keep the previous recording as FILE.old.  1 when moved. */
static int move_old_output(const char *path)
{
	struct stat st;
	char *old;
	int moved = 0;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	old = xstrfmt("%s.old", path);
	if (rename(path, old))
		warning("cannot rename '%s' to '%s': %s", path, old, strerror(errno));
	else
		moved = 1;
	free(old);
	return moved;
}

/*
 * A recording that did not finish (the command could not be run, the
 * sampler failed) has no valid header: leave no file that other tools
 * would read as empty, and put back the one it replaced.
 */
static void drop_unfinished_output(const char *path, int moved_old)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	if (unlink(path)) {
		warning("cannot remove the unfinished '%s': %s", path, strerror(errno));
		return;
	}
	if (moved_old) {
		char *old = xstrfmt("%s.old", path);

		if (rename(old, path))
			warning("cannot rename '%s' back to '%s': %s", old, path, strerror(errno));
		free(old);
	}
}

static void report(const struct recorder *rw, const char *path, int folded)
{
	const struct sampler *s = &rw->s;
	const struct offcpu *oc = s->offcpu ? &rw->oc : NULL;
	double secs = s->end_time - s->start_time;
	char rate[48] = "";
	struct strbuf msg = STRBUF_INIT;

	if (s->note[0])
		note("%s", s->note);
	if (s->offcpu && oc)
		note("%llu off-CPU intervals (%.3f s blocked) of %llu switch-outs, %.2f s; wrote '%s'",
		     (unsigned long long)oc->nr_blocks, (double)oc->blocked_ns / 1e9,
		     (unsigned long long)s->nr_samples, secs, path);
	else
	{
		if (s->attr.freq)
			snprintf(rate, sizeof(rate), " at %llu Hz", (unsigned long long)s->attr.sample_freq);
		char size[48] = "";

		if (!folded)
			snprintf(size, sizeof(size), " (%.1f KiB)", (double)rw->w.data_size / 1024);
		note("%llu samples of %s%s, %.2f s; %s '%s'%s",
		     (unsigned long long)rw->samples, s->event_name, rate, secs,
		     folded ? "folding into" : "wrote", path, size);
	}
	if (s->nr_lost)
		warning("%llu samples were lost (the ring buffers overflowed): lower -F or raise -m",
			(unsigned long long)s->nr_lost);
	if (!rw->samples && !s->offcpu)
		warning("no samples: the command ran too briefly for -F %llu, or slept all the time",
			(unsigned long long)s->attr.sample_freq);
	if (s->opts.callchain == SAMPLER_CALLCHAIN_FP && fp_check_message(&rw->fp, &msg))
		warning("%s", msg.buf);
	strbuf_reset(&msg);
	if (python_hint(&rw->hits.sym, 0, &msg))
		note("%s", msg.buf);
	strbuf_release(&msg);
}

/* A clock event's period is nanoseconds of CPU time. */
static int is_time_event(const char *event, int offcpu)
{
	return offcpu || !strcmp(event, "cpu-clock") || !strcmp(event, "task-clock");
}

/*
 * What the folded file measures and, for sample counts, what one sample
 * stands for: a clock's nominal period (1e9 / frequency ns) or the fixed
 * period of -c, so 'trail diff' can compare time rather than shares.
 */
static void sample_units(struct folded_weight_info *wi, const struct sampler *s)
{
	int clock = is_time_event(s->event_name, s->offcpu);

	snprintf(wi->type, sizeof(wi->type), "%.*s", (int)sizeof(wi->type) - 1,
		 s->offcpu ? "off-cpu" : clock ? "cpu" : s->event_name);
	if (wi->weight != FOLDED_WEIGHT_SAMPLES || s->offcpu)
		return;
	if (s->attr.freq && s->attr.sample_freq && clock) {
		wi->period = (double)llround(1e9 / (double)s->attr.sample_freq);
		snprintf(wi->period_unit, sizeof(wi->period_unit), "ns");
	} else if (!s->attr.freq && s->attr.sample_period) {
		wi->period = (double)s->attr.sample_period;
		snprintf(wi->period_unit, sizeof(wi->period_unit), "%.*s",
			 (int)sizeof(wi->period_unit) - 1, clock ? "ns" : s->event_name);
	}
}

/*
 * Folded stacks from the recording: trail's perf.data reader symbolizes it
 * and feeds the collapse engine, in this process - the same path as 'trail
 * collapse FILE.data', so both give the same stacks.  Weights: samples
 * (counts, no header), periods (a header names the event, or ns for the
 * clocks), or time in microseconds (from a clock's or off-CPU's ns).
 */
static int fold_recording(const char *data, const char *out,
			  const struct folded_weight_info *wi, struct perfdata_fold *pf)
{
	char header[96];
	struct fold_options fo;
	struct folder *fd;
	struct folded_profile prof, us;
	const struct folded_profile *out_prof = &prof;
	FILE *f = NULL;
	uint32_t *order = NULL;
	size_t i;
	int ret = -1;

	memset(&fo, 0, sizeof(fo));
	fd = folder_new(&fo);
	folded_profile_init(&prof);
	folded_profile_init(&us);
	pf->count_samples = wi->weight == FOLDED_WEIGHT_SAMPLES;
	if (perfdata_fold_file(data, fd, pf))
		goto out;
	/* the stacks as they would read back from folder_write()'s text, without it */
	folder_to_profile(&fd, 1, &prof);
	if (wi->weight == FOLDED_WEIGHT_TIME) {
		folded_profile_add_us(&us, &prof);	/* ns -> us, as trail flame's off-CPU profiles */
		out_prof = &us;
	}
	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		error_errno("cannot create '%s'", out);
		goto out;
	}
	folded_header_format(header, sizeof(header), wi);
	fputs(header, f);
	order = folded_profile_sorted(out_prof);
	for (i = 0; i < folded_profile_size(out_prof); i++) {
		uint32_t id = order[i];
		char buf[64];

		folded_format_count(buf, sizeof(buf), out_prof->counts[0][id]);
		fprintf(f, "%s %s\n", intern_str(&out_prof->stacks, id), buf);
	}
	if (out) {
		if (ferror(f) | fclose(f)) {
			f = NULL;
			trail_error("cannot write '%s'", out);
			goto out;
		}
	} else if (fflush(f) || ferror(f)) {
		f = NULL;
		error_errno("cannot write to standard output");
		goto out;
	}
	f = NULL;
	ret = 0;
out:
	free(order);
	folded_profile_release(&prof);
	folded_profile_release(&us);
	folder_free(fd);
	free(pf->chosen_event);
	free(pf->other_event);
	pf->chosen_event = pf->other_event = NULL;
	return ret;
}

/* Frames per module, and how many of them found no symbol. */
struct module_stats {
	struct intern names;	/* module path -> id */
	uint64_t *frames, *unknown;	/* per id */
	size_t alloc;
	uint64_t total, total_unknown;
};

static void count_frame(void *ctx, const struct perfdata_frame *fr)
{
	struct module_stats *m = ctx;
	const char *name = fr->dso ? fr->dso : "[unknown]";
	uint32_t id;

	if (fr->inlined)
		return;
	id = intern_add(&m->names, name, strlen(name), NULL);
	if (id >= m->alloc) {
		size_t old = m->alloc;

		ALLOC_GROW(m->frames, (size_t)id + 1, m->alloc);
		m->unknown = xreallocarray(m->unknown, m->alloc, sizeof(*m->unknown));
		memset(m->frames + old, 0, (m->alloc - old) * sizeof(*m->frames));
		memset(m->unknown + old, 0, (m->alloc - old) * sizeof(*m->unknown));
	}
	m->frames[id]++;
	m->total++;
	if (!fr->sym) {
		m->unknown[id]++;
		m->total_unknown++;
	}
}

#define MAX_MODULES_NAMED 5

/*
 * Missing symbols: when a tenth or more of the frames cannot be named, say
 * which modules they are in and how to get their symbols.
 */
static void report_symbols(const struct module_stats *m)
{
	uint32_t shown[MAX_MODULES_NAMED];
	size_t nshown = 0, k;
	uint32_t id;

	if (!m->total || m->total_unknown * 10 < m->total)
		return;
	warning("%llu of %llu frames (%.0f%%) have no symbol ([unknown]): install the modules' debug "
		"symbols (Debian: the -dbgsym packages, or debuginfod), or build with -g and do not strip",
		(unsigned long long)m->total_unknown, (unsigned long long)m->total,
		100.0 * (double)m->total_unknown / (double)m->total);
	/* The modules with the most unknown frames, most first (selection: n is small). */
	while (nshown < MAX_MODULES_NAMED) {
		uint32_t best = UINT32_MAX;

		for (id = 0; id < m->names.nr; id++) {
			int taken = 0;

			for (k = 0; k < nshown; k++)
				taken |= shown[k] == id;
			if (taken || !m->unknown[id])
				continue;
			if (best == UINT32_MAX || m->unknown[id] > m->unknown[best])
				best = id;
		}
		if (best == UINT32_MAX)
			break;
		shown[nshown++] = best;
		note("  %s: %llu of its %llu frames unknown (%.0f%%)", intern_str(&m->names, best),
		     (unsigned long long)m->unknown[best], (unsigned long long)m->frames[best],
		     100.0 * (double)m->unknown[best] / (double)m->frames[best]);
	}
}

/* What the profile misses: images whose records were lost or cut short. */
static void warn_alloc_gaps(const struct alloc_totals *t)
{
	if (t->lost)
		warning("%llu process image%s lost %s allocation records: the program closed or "
			"replaced trail's descriptor and its file was gone; the profile is missing "
			"what %s allocated", (unsigned long long)t->lost, t->lost == 1 ? "" : "s",
			t->lost == 1 ? "its" : "their", t->lost == 1 ? "it" : "they");
	if (t->unfinished)
		warning("%llu of %llu process images did not finish their allocation records "
			"(killed by a signal, or their file could not be written): the allocations "
			"after their last write are missing",
			(unsigned long long)t->unfinished, (unsigned long long)t->files);
}

static void report_alloc(const struct alloc_totals *t, enum alloc_view view, const char *path,
			 int folded)
{
	note("%llu sampled allocations (one per %llu bytes on average) in %llu process image%s: "
	     "~%.1f MiB in ~%.0f allocations, peak heap ~%.1f MiB, ~%.1f MiB not freed at exit; "
	     "%s '%s' (%s)",
	     (unsigned long long)t->samples, (unsigned long long)t->interval,
	     (unsigned long long)t->files, t->files == 1 ? "" : "s",
	     t->bytes / 1048576, t->objects, t->peak_bytes / 1048576, t->exit_bytes / 1048576,
	     folded ? "folded into" : "wrote", path, alloc_view_name(view));
	if (folded)
		note("flame graph: trail flamegraph --colors mem --countname %s FILE.folded > FILE.svg",
		     alloc_view_unit(view));
}

/*
 * -e alloc: run the command under the interposer, then turn its raw files
 * into perf.data samples weighted by the view (and fold those, as for the
 * other events).  Returns the command's exit status, or a failure.
 */
static int record_alloc(const struct record_options *o, const char **cmd,
			const struct string_list *cmdline)
{
	struct alloc_run run = { 0 };
	struct alloc_totals t;
	const char *path, *usage_err = NULL;
	char *tmpdir = NULL, *data_path = NULL, *raw_dir = NULL;
	int view = o->view ? alloc_view_parse(o->view) : ALLOC_VIEW_SPACE;
	int folded = o->folded, ret = EXIT_FAILURE_;

	if (o->pid)
		usage_err = "-e alloc records a command it starts, not a running process (-p)";
	else if (o->freq || o->count)
		usage_err = "-e alloc samples by bytes: use --alloc-interval, not -F or -c";
	else if (o->mmap_pages || o->duration > 0)
		usage_err = "-m and --duration do not apply to -e alloc";
	else if (o->callgraph && strcmp(o->callgraph, "fp") && strcmp(o->callgraph, "dwarf"))
		usage_err = "-e alloc unwinds with -g fp (frame pointers, falling back to the "
			    "unwind tables) or -g dwarf (the unwind tables only)";
	if (!usage_err && view < 0) {
		trail_error("unknown view '%s' (%s)", o->view, alloc_view_names());
		usage_err = "";
	}
	if (usage_err) {
		if (*usage_err)
			trail_error("%s", usage_err);
		fprintf(stderr, "see '%s --help'\n", error_program());
		return EXIT_USAGE;
	}
	if (o->output && ends_with(o->output, ".folded"))
		folded = 1;
	memset(&t, 0, sizeof(t));
	run.argv = cmd;
	run.interval = o->alloc_interval ? o->alloc_interval : ALLOC_DEFAULT_INTERVAL;
	run.dwarf = o->callgraph && !strcmp(o->callgraph, "dwarf");
	run.preload = alloc_preload_find();
	if (!run.preload)
		return EXIT_FAILURE_;
	tmpdir = tempdir_create("trail-alloc");
	if (!tmpdir)
		goto out;
	raw_dir = xstrfmt("%s/raw", tmpdir);
	if (make_dirs(raw_dir))
		goto out;
	run.dir = raw_dir;
	if (alloc_run_command(&run))
		goto out;
	if (folded) {
		data_path = xstrfmt("%s/alloc.data", tmpdir);
		path = data_path;
	} else {
		path = o->output ? o->output : "perf.data";
		move_old_output(path);
	}
	if (alloc_write_perfdata(raw_dir, (enum alloc_view)view, path, (int)cmdline->nr,
				 (const char *const *)cmdline->items, &t))
		goto out;
	warn_alloc_gaps(&t);
	if (!t.files) {
		FILE *f;

		if (run.exit_code == 127)	/* the command did not run: said so already */
			goto done;
		if (!t.lost)
			warning("nothing recorded: the command is statically linked, or removed "
				"LD_PRELOAD from its environment");
		/* an empty profile, as for a program that allocates nothing */
		if (folded && o->output) {
			f = fopen(o->output, "w");
			if (!f || fclose(f)) {
				error_errno("cannot create '%s'", o->output);
				goto out;
			}
		}
		goto done;
	}
	report_alloc(&t, (enum alloc_view)view,
		     folded ? (o->output ? o->output : "standard output") : path, folded);
	if (folded) {
		/* estimated bytes or objects, not sample counts: the header says so */
		struct folded_weight_info wi;
		struct perfdata_fold pf;

		memset(&wi, 0, sizeof(wi));
		wi.weight = FOLDED_WEIGHT_PERIOD;

		snprintf(wi.unit, sizeof(wi.unit), "%s", alloc_view_unit((enum alloc_view)view));
		/* pprof's names for the two views it knows; others keep trail's */
		snprintf(wi.type, sizeof(wi.type), "%s",
			 view == ALLOC_VIEW_SPACE ? "alloc_space" : view == ALLOC_VIEW_OBJECTS ?
			 "alloc_objects" : alloc_view_name((enum alloc_view)view));
		memset(&pf, 0, sizeof(pf));
		if (fold_recording(path, o->output, &wi, &pf))
			goto out;
	}
done:
	ret = run.exit_code;
out:
	if (tmpdir)
		tempdir_remove(tmpdir);
	free(tmpdir);
	free(raw_dir);
	free(data_path);
	free((char *)run.preload);
	return ret;
}

/* --weight's combinations: NULL with *weight filled, or what is wrong. */
static const char *check_weight(const struct record_options *o, enum folded_weight *weight)
{
	if (o->weight && folded_weight_parse(o->weight, weight))
		return "--weight: expected samples, period or time";
	if (o->weight && !o->folded && !(o->output && ends_with(o->output, ".folded")))
		return "--weight applies to folded output (--folded or -o FILE.folded)";
	if (o->weight && *weight == FOLDED_WEIGHT_TIME &&
	    !(o->event && is_time_event(o->event, !strcmp(o->event, "offcpu"))))
		return "--weight time needs a clock: -e cpu-clock, -e task-clock or -e offcpu";
	return NULL;
}

/*
 * The options' combinations, n the words left after them (the command):
 * NULL with *pid and *weight filled, or what is wrong (the sampler's
 * first, record_options_check(), then the folded output's).
 */
static const char *check_options(const struct record_options *o, int n, uint64_t *pid,
				 enum folded_weight *weight)
{
	const char *usage_err = record_options_check(o, n, pid);

	if (!usage_err)
		usage_err = check_weight(o, weight);
	/* an off-CPU profile measures time blocked: that is its default weight */
	if (!o->weight && o->event && !strcmp(o->event, "offcpu"))
		*weight = FOLDED_WEIGHT_TIME;
	return usage_err;
}

/*
 * --folded: the recording at path (from sampler s) folded to o->output or
 * standard output in weight's units, then the symbol report; 0 or -1.
 */
static int write_folded(const struct record_options *o, const struct sampler *s, const char *path,
			enum folded_weight weight)
{
	struct perfdata_fold pf;
	struct module_stats ms;
	struct folded_weight_info wi;
	int failed;

	memset(&wi, 0, sizeof(wi));
	wi.weight = weight;
	if (weight == FOLDED_WEIGHT_TIME)
		snprintf(wi.unit, sizeof(wi.unit), "us");
	else if (weight == FOLDED_WEIGHT_PERIOD)
		snprintf(wi.unit, sizeof(wi.unit), "%.*s", (int)sizeof(wi.unit) - 1,
			 is_time_event(s->event_name, s->offcpu) ? "ns" : s->event_name);
	sample_units(&wi, s);
	memset(&pf, 0, sizeof(pf));
	memset(&ms, 0, sizeof(ms));
	intern_init(&ms.names);
	pf.frame_hook = count_frame;
	pf.hook_ctx = &ms;
	failed = fold_recording(path, o->output, &wi, &pf);
	if (!failed)
		report_symbols(&ms);
	intern_release(&ms.names);
	free(ms.frames);
	free(ms.unknown);
	return failed ? -1 : 0;
}

/*
 * Sample the command args (or the running process pid) as o and so ask,
 * into the perf.data file path (for --folded a scratch file, then
 * folded); cmdline goes into its header.  The command's exit status, or
 * a failure.
 */
static int record_events(const struct record_options *o, const struct sampler_opts *so,
			 const char **args, pid_t pid, const char *path,
			 const struct string_list *cmdline, enum folded_weight weight)
{
	struct recorder r;
	int moved_old = 0, ret = EXIT_FAILURE_;

	recorder_init(&r, so);
	if (o->pid ? sampler_attach(&r.s, pid) : sampler_prepare_command(&r.s, args))
		goto out;
	if (sampler_open(&r.s))
		goto out;
	if (!o->folded)
		moved_old = move_old_output(path);
	if (recorder_write(&r, path, (int)cmdline->nr, (const char *const *)cmdline->items))
		goto out;
	report(&r, o->folded ? (o->output ? o->output : "standard output") : path, o->folded);
	if (o->folded && write_folded(o, &r.s, path, weight))
		goto out;
	ret = EXIT_OK;
out:
	recorder_release(&r);
	/* The command's status passes through, like a shell's (127: not found). */
	if (r.s.is_command && (ret == EXIT_OK || r.s.exec_errno))
		ret = r.s.exit_code;
	if (r.opened && !r.finished && !o->folded)
		drop_unfinished_output(path, moved_old);
	return ret;
}

int cmd_record(int argc, const char **argv)
{
	struct record_options o = { 0 };
	struct option opts[RECORD_OPTIONS_NR];
	struct sampler_opts so = { 0 };
	struct string_list cmdline = STRING_LIST_INIT;
	const char **args, *usage_err;
	char *tmpdir = NULL, *data_path = NULL;
	const char *path;
	uint64_t pid = 0;
	enum folded_weight weight = FOLDED_WEIGHT_SAMPLES;
	int n, i, ret;

	/* Parse a copy: HEADER_CMDLINE gets the command line as typed. */
	args = xmallocarray((size_t)argc + 1, sizeof(*args));
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	args[argc] = NULL;
	record_options_table(&o, opts);
	n = cmd_parse_options(argc, args, opts, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	usage_err = check_options(&o, n, &pid, &weight);
	if (usage_err || record_options_sampler(&o, &so)) {
		if (usage_err)
			trail_error("%s", usage_err);
		fprintf(stderr, "see '%s --help'\n", error_program());
		free(args);
		return EXIT_USAGE;
	}
	string_list_append(&cmdline, "trail");
	for (i = 0; i < argc; i++)
		string_list_append(&cmdline, argv[i]);
	if (o.event && !strcmp(o.event, "alloc")) {
		ret = record_alloc(&o, args, &cmdline);
		string_list_clear(&cmdline);
		free(args);
		return ret;
	}
	if (o.alloc_interval || o.view) {
		trail_error("--alloc-interval and --view are for -e alloc");
		fprintf(stderr, "see '%s --help'\n", error_program());
		string_list_clear(&cmdline);
		free(args);
		return EXIT_USAGE;
	}
	if (o.output && ends_with(o.output, ".folded"))
		o.folded = 1;
	if (o.folded) {
		tmpdir = tempdir_create("trail-record");
		if (!tmpdir) {
			free(args);
			string_list_clear(&cmdline);
			return EXIT_FAILURE_;
		}
		data_path = xstrfmt("%s/perf.data", tmpdir);
		path = data_path;
	} else {
		path = o.output ? o.output : "perf.data";
	}
	ret = record_events(&o, &so, args, (pid_t)pid, path, &cmdline, weight);
	string_list_clear(&cmdline);
	free(args);
	if (tmpdir)
		tempdir_remove(tmpdir);
	free(tmpdir);
	free(data_path);
	return ret;
}
