/*
 * backend_valgrind.c - instruction profiles (--metric instructions,
 * est-cycles; see backend.h): the workload counted under valgrind
 * --tool=callgrind, every process of it (--trace-children), with
 * address-space randomisation off and a fixed environment so that a
 * build gives the same count run after run; the callgrind.out files are
 * read by trail collapse's callgrind reader (collapse/callgrind.c) into
 * one profile whose total is the run's count.  A native run beside it
 * gives the instrument's slowdown.  Hardware counters are detected
 * (perf_event_open PERF_COUNT_HW_INSTRUCTIONS) and reported; the count
 * comes from callgrind either way (docs/flame.md, "Choosing a metric").
 */
#include "measure/backend.h"
#include "measure/record_cmd.h"
#include "collapse/load.h"
#include "core/alloc.h"
#include "core/callgrind_cmd.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/progress.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int flame_hw_instructions(char *why, size_t n)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		snprintf(why, n, "perf_event_open(PERF_COUNT_HW_INSTRUCTIONS): %s%s", strerror(errno),
			 errno == ENOENT || errno == EOPNOTSUPP ? " (no hardware PMU: a VM or container?)" : "");
		return 0;
	}
	close((int)fd);
	snprintf(why, n, "a hardware instruction counter is present");
	return 1;
}

static void valgrind_counts(const struct flame_capture_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, o->cache_sim ? "estimated cycles (Ir + 10 x L1 + 100 x LL misses) per function"
				       : "user-space instructions executed per function");
}

static void valgrind_profiler(const struct flame_capture_opts *o, char *buf, size_t n)
{
	char why[160];

	flame_hw_instructions(why, sizeof(why));
	snprintf(buf, n, "valgrind --tool=callgrind%s, ASLR off, env -i (%s)",
		 o->cache_sim ? " --cache-sim=yes" : "", why);
}

/*
 * The workload under callgrind in dir (NULL: the current directory, for
 * the check and the printed command): core/callgrind_cmd.c's command
 * line, shared with trail bench.
 */
static void counted_argv(const struct flame_capture_opts *o, const char *out, int check,
			 const char *dir, struct string_list *argv)
{
	callgrind_cmd_argv(argv, out, o->cache_sim, dir);
	flame_record_add_workload(o, check, 0, argv);
}

static void valgrind_record_argv(const struct flame_capture_opts *o, const char *out, int check,
				 struct string_list *argv)
{
	counted_argv(o, out, check, NULL, argv);
}

static int valgrind_check(const struct flame_capture_opts *o)
{
	const char *words[] = { "valgrind", "--version", NULL };
	struct string_list argv = STRING_LIST_INIT;
	int code;

	(void)o;
	flame_record_add_words(&argv, words);
	code = flame_record_check(&argv);
	string_list_clear(&argv);
	if (code)
		return trail_error("--metric instructions and est-cycles count with valgrind, which "
				   "does not run here (Debian: apt install valgrind)");
	return 0;
}

/* Every callgrind.out file in dir into run->folded. */
static int read_counts(const struct flame_capture_opts *o, const char *dir, struct flame_run *run,
		       const char *log)
{
	const struct load_options lo = { NULL, o->cache_sim ? "est-cycles" : NULL };
	const struct collapser *format;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0, found = 0;

	if (!d)
		return error_errno("cannot read '%s'", dir);
	while (!ret && (de = readdir(d))) {
		char *path;

		if (strncmp(de->d_name, "callgrind.out.", 14))
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		found = 1;
		ret = load_profile_with(&run->folded, path, &lo, &format);
		free(path);
	}
	closedir(d);
	if (!ret && !found)
		ret = trail_error("callgrind wrote no profile (log: %s)", log);
	return ret;
}

static int valgrind_capture(const struct flame_capture_opts *o, const char *dir, const char *log,
			    struct flame_run *run)
{
	char *out = xstrfmt("%s/callgrind.d", o->scratch);
	struct string_list argv = STRING_LIST_INIT;
	struct folded_weight_info *w = &run->folded.weight;
	double t0, native;
	int ret;

	/* the native run first: the instrument's slowdown, and a workload that fails fails fast */
	if (flame_timed_run(o, dir, run)) {
		ret = 1;
		goto out;
	}
	remove_tree(out);
	if (mkdir(out, 0700) < 0) {
		ret = error_errno("cannot create '%s'", out);
		goto out;
	}
	counted_argv(o, out, 0, dir, &argv);
	native = run->wall;
	t0 = clock_monotonic();
	ret = flame_record_run(o, (const char *const *)argv.items, NULL, dir, log, run);
	run->instrument_wall = clock_monotonic() - t0;
	run->wall = native;	/* flame_record_run() timed the counted run there */
	if (!ret)
		ret = read_counts(o, out, run, log);
	if (!ret) {
		run->counted = run->folded.total[0];
		memset(w, 0, sizeof(*w));
		w->weight = FOLDED_WEIGHT_PERIOD;
		snprintf(w->type, sizeof(w->type), "%s", o->cache_sim ? "est-cycles" : "instructions");
		snprintf(w->unit, sizeof(w->unit), "%s", o->cache_sim ? "cycles" : "instructions");
	}
out:
	remove_tree(out);
	string_list_clear(&argv);
	free(out);
	return ret;
}

const struct flame_backend flame_backend_valgrind = {
	.view = "instructions",
	.counts = valgrind_counts,
	.profiler = valgrind_profiler,
	.record_argv = valgrind_record_argv,
	.check = valgrind_check,
	.capture = valgrind_capture,
};
