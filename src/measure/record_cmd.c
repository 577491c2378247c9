/*
 * record_cmd.c - the pieces every recorder command line of a capture is
 * made of (see record_cmd.h): the recorder's words and the workload after
 * "--", run directly when it is plain words, else through sh -c.  Each
 * profiler backend (backend_*.c) writes its own recorder's words.
 */
#include "measure/record_cmd.h"
#include "measure/sample_run.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void flame_record_add_words(struct string_list *argv, const char *const *words)
{
	for (; *words; words++)
		string_list_append(argv, *words);
}

/*
 * A command of plain words only (letters, digits, "_./=:,+-@%" and
 * spaces; the first word no assignment): its words appended to argv, 1.
 * The CPU and off-CPU recorders run such a command themselves rather than
 * through sh -c: the shell's wait for its child would be blocked time in
 * the off-CPU profile, and its start-up samples in the CPU one.  (Unwinding
 * after the shell's exec is right either way since perf/unwind.c reports
 * each mapping run as its own module; perf 6.1's own DWARF unwinding still
 * loses callers there.)  0 for anything the shell must interpret.
 */
static int plain_words(const char *cmd, struct string_list *argv)
{
	size_t first = strcspn(cmd, " ");
	const char *p;

	for (p = cmd; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_./=:,+-@% ", *p))
			return 0;
	if (!first || memchr(cmd, '=', first))
		return 0;
	for (p = cmd; *p;) {
		size_t len = strcspn(p, " ");

		if (len)
			string_list_append_nodup(argv, xstrndup(p, len));
		p += len;
		p += strspn(p, " ");
	}
	return 1;
}

void flame_record_add_workload(const struct flame_capture_opts *o, int check, int plain_ok,
			       struct string_list *argv)
{
	const char *sh[] = { "sh", "-c", o->run_cmd, NULL };

	if (check)
		string_list_append(argv, "true");
	else if (!plain_ok || !plain_words(o->run_cmd, argv))
		flame_record_add_words(argv, sh);
}

/*
 * trail record's own line runs in this process (measure/sample_run.h): a
 * command never execs another trail command to reuse code.
 */
static int is_trail_record(const struct flame_capture_opts *o, const struct string_list *argv)
{
	return argv->nr > 1 && o->trail_exe && !strcmp(argv->items[0], o->trail_exe) &&
	       !strcmp(argv->items[1], "record");
}

int flame_record_with(const struct flame_capture_opts *o, flame_record_argv_fn *build,
		      const char *out, const char *dir, const char *log, struct flame_run *run)
{
	struct string_list argv = STRING_LIST_INIT;
	int ret;

	build(o, out, 0, &argv);
	if (is_trail_record(o, &argv))
		ret = flame_sample_run(o, &argv, dir, log, run);
	else
		ret = flame_record_run(o, (const char *const *)argv.items, NULL, dir, log, run);
	string_list_clear(&argv);
	return ret;
}

int flame_record_and_fold(const struct flame_capture_opts *o, flame_record_argv_fn *build,
			  double discard, const char *dir, const char *log, struct flame_run *run)
{
	char *data = xstrfmt("%s/perf.data", o->scratch);
	int ret = flame_record_with(o, build, data, dir, log, run);

	/* Read in-process: no perf script, so the trail profiler needs no perf. */
	if (!ret && flame_fold_recording(data, discard, &run->folded))
		ret = -1;
	unlink(data);
	free(data);
	return ret;
}

int flame_record_check_sampler(const struct flame_capture_opts *o, flame_record_argv_fn *build,
			       int perf, const char *event)
{
	struct string_list argv = STRING_LIST_INIT;
	char *data = xstrfmt("%s/check.data", o->scratch);
	int code, in_process;

	build(o, data, 1, &argv);
	in_process = is_trail_record(o, &argv);
	code = in_process ? flame_sample_check(&argv, event) : flame_record_check(&argv);
	string_list_clear(&argv);
	unlink(data);
	free(data);
	if (in_process)
		return code ? -1 : 0;
	/* Recordings are read in-process: only perf record needs perf. */
	if (code == 127 && perf)
		return trail_error("'perf' is not installed (Debian: apt-get install linux-perf)");
	if (code)
		return trail_error("'%s record%s%s' cannot sample here (%s): check "
			     "/proc/sys/kernel/perf_event_paranoid or run as root",
			     perf ? "perf" : "trail", event ? " -e " : "", event ? event : "",
			     child_describe_status(code));
	return 0;
}
