/*
 * backend_offcpu.c - the off-CPU backend (see backend.h): trail's sampler
 * on -e offcpu, in this process, its recording folded as trail record
 * --folded folds it (blocked microseconds, the whole run), and the check
 * that it can record here.
 */
#include "measure/backend.h"
#include "measure/record_cmd.h"
#include "collapse/perfdata_fold.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void offcpu_counts(const struct flame_capture_opts *o, char *buf, size_t n)
{
	(void)o;
	snprintf(buf, n, "off-CPU time");
}

static void offcpu_profiler(const struct flame_capture_opts *o, char *buf, size_t n)
{
	(void)o;
	snprintf(buf, n, "trail record -e offcpu (blocked time, whatever --profiler says)");
}

static void offcpu_record_argv(const struct flame_capture_opts *o, const char *out, int check,
			       struct string_list *argv)
{
	/*
	 * trail record folds off-CPU recordings itself: counts in us, the
	 * whole run.  DWARF call chains: a thread blocks inside a libc
	 * wrapper built without frame pointers, and a frame-pointer walk
	 * from there skips the wrapper's caller - the very function to
	 * name.  One sample per block keeps the stack copies cheap.
	 */
	const char *head[] = { o->trail_exe, "record", "-e", "offcpu", "-g", "dwarf",
			       "-o", out, "--", NULL };

	flame_record_add_words(argv, head);
	flame_record_add_workload(o, check, 1, argv);
}

int flame_capture_offcpu_check(const struct flame_capture_opts *o, char *why, size_t n)
{
	struct flame_capture_opts offcpu = *o;	/* asked before the profile is chosen */
	int ret;

	offcpu.profile = FLAME_PROFILE_OFFCPU;
	/* the sampler's complaint is the caller's to word: kept, not printed */
	error_capture(why, n);
	ret = flame_record_check_sampler(&offcpu, offcpu_record_argv, 0, "offcpu");
	error_capture(NULL, 0);
	if (ret && !why[0])
		snprintf(why, n, "it failed");
	return ret ? -1 : 0;
}

static int offcpu_check(const struct flame_capture_opts *o)
{
	char why[512];

	if (flame_capture_offcpu_check(o, why, sizeof(why)))
		return trail_error("trail record -e offcpu cannot record here: %s", why);
	return 0;
}

/*
 * The off-CPU recording data as 'trail record -e offcpu --folded' writes
 * it, into p: each stack's blocked ns summed, in us rounded (stacks that
 * round to 0 left out, folded_profile_add_us()), weighed as its header
 * says (time, us, off-cpu).
 */
static int fold_blocked_us(const char *data, struct folded_profile *p)
{
	struct folded_profile ns;
	struct perfdata_fold pf;

	memset(&pf, 0, sizeof(pf));	/* count_samples 0: the periods, blocked ns */
	folded_profile_init(&ns);
	if (flame_fold_perfdata(data, &pf, &ns)) {
		folded_profile_release(&ns);
		return -1;
	}
	/* the units set as they are, not written into a header and read back */
	memset(&p->weight, 0, sizeof(p->weight));
	p->weight.weight = FOLDED_WEIGHT_TIME;
	snprintf(p->weight.unit, sizeof(p->weight.unit), "us");
	snprintf(p->weight.type, sizeof(p->weight.type), "off-cpu");
	folded_profile_add_us(p, &ns);
	folded_profile_release(&ns);
	return 0;
}

static int offcpu_capture(const struct flame_capture_opts *o, const char *dir, const char *log,
			  struct flame_run *run)
{
	char *data = xstrfmt("%s/offcpu.data", o->scratch);
	int ret;

	/* trail record's line, run in this process as its words say (record_cmd.h) */
	ret = flame_record_with(o, offcpu_record_argv, data, dir, log, run);
	if (!ret && fold_blocked_us(data, &run->folded))
		ret = -1;
	unlink(data);
	free(data);
	return ret;
}

const struct flame_backend flame_backend_offcpu = {
	.view = "offcpu",
	.counts = offcpu_counts,
	.profiler = offcpu_profiler,
	.record_argv = offcpu_record_argv,
	.check = offcpu_check,
	.capture = offcpu_capture,
};
