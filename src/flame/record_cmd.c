/*
 * record_cmd.c - the recorder command lines of a capture (see
 * record_cmd.h): which recorder, which event, call-chain mode and
 * frequency per profile kind, and whether the workload goes through sh -c.
 */
#include "flame/record_cmd.h"
#include "core/alloc.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int flame_record_uses_perf(const struct flame_capture_opts *o)
{
	switch (o->profile) {
	case FLAME_PROFILE_CPU:		/* perf unless trail is asked for */
		return !o->profiler || strcmp(o->profiler, "trail") != 0;
	case FLAME_PROFILE_FAULTS:	/* trail unless perf is asked for */
		return o->profiler && !strcmp(o->profiler, "perf");
	default:
		return 0;
	}
}

static void add_words(struct string_list *argv, const char *const *words)
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

/* The workload after "--": 'true' for a check, its words, or sh -c. */
static void add_workload(const struct flame_capture_opts *o, int check, int plain_ok,
			 struct string_list *argv)
{
	const char *sh[] = { "sh", "-c", o->run_cmd, NULL };

	if (check)
		string_list_append(argv, "true");
	else if (!plain_ok || !plain_words(o->run_cmd, argv))
		add_words(argv, sh);
}

void flame_record_argv(const struct flame_capture_opts *o, const char *out, int check,
		       struct string_list *argv)
{
	char freq[32];

	snprintf(freq, sizeof(freq), "%u", check ? 99u : o->freq);
	switch (o->profile) {
	case FLAME_PROFILE_ALLOC:
		add_workload(o, 0, 0, argv);
		return;
	case FLAME_PROFILE_OFFCPU: {
		/*
		 * trail record folds off-CPU recordings itself: counts in us, the
		 * whole run.  DWARF call chains: a thread blocks inside a libc
		 * wrapper built without frame pointers, and a frame-pointer walk
		 * from there skips the wrapper's caller - the very function to
		 * name.  One sample per block keeps the stack copies cheap.
		 */
		const char *head[] = { o->trail_exe, "record", "-e", "offcpu", "-g", "dwarf",
				       "-o", out, "--", NULL };

		add_words(argv, head);
		add_workload(o, check, 1, argv);
		return;
	}
	case FLAME_PROFILE_FAULTS: {
		/* every fault (-c 1): where resident memory was first touched */
		const char *perf[] = { "perf", "record", "-q", "--no-bpf-event", "-N", "-e",
				       "page-faults", "-c", "1", "-g", "-o", out, "--", NULL };
		const char *trail[] = { o->trail_exe, "record", "-e", "page-faults", "-o", out,
					"--", NULL };

		add_words(argv, flame_record_uses_perf(o) ? perf : trail);
		add_workload(o, check, 0, argv);
		return;
	}
	default:
		break;
	}
	if (flame_record_uses_perf(o)) {
		/*
		 * perf: --no-bpf-event, or it spends about a second synthesising
		 * BPF program events at start-up; --timestamp-boundary lets the
		 * warm-up be cut by time.  trail record writes both already.
		 */
		const char *perf[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
				       "--timestamp-boundary", "-F", freq, "-g", "-o", out, "--",
				       NULL };
		const char *perf_check[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
					     "-F", freq, "-g", "-o", out, "--", NULL };

		add_words(argv, check ? perf_check : perf);
		add_workload(o, check, 0, argv);
	} else {
		/*
		 * DWARF call chains for trail record: a libc or kernel leaf built
		 * without frame pointers (memcmp, malloc) hides its caller from a
		 * frame-pointer walk, and that caller is the function to name.
		 * A plain command runs without sh -c, as for off-CPU profiles:
		 * after a second exec under the recorder DWARF unwinding falls
		 * back to the frame-pointer chain (see plain_words()).
		 */
		const char *trail[] = { o->trail_exe, "record", "-F", freq, "-g", "dwarf", "-o", out,
					"--", NULL };
		const char *trail_check[] = { o->trail_exe, "record", "-F", freq, "-o", out, "--",
					      NULL };

		add_words(argv, check ? trail_check : trail);
		add_workload(o, check, 1, argv);
	}
}
