/*
 * blockers.h - which function of the program blocks more: off-CPU
 * profiles (trail record -e offcpu, counts in microseconds of blocked
 * time) turned into profiles the hotspot ranking can compare.
 *
 * Off-CPU stacks end in the kernel and the C library (schedule,
 * clock_nanosleep, futex_wait); what changed is the program's function
 * that made the call.  So each stack is cut at its innermost frame that
 * the repository defines - the blocking caller - and a "[on-CPU]" stack
 * holding the run's CPU time is added, so that a share is the fraction of
 * the workload's thread time (running + blocked) a function spent blocked:
 * well defined even when the good revision never blocked at all.  Counts
 * are then divided by the unit (1/F s in us: a sampler at -F Hz would
 * have taken one sample per unit), so the hotspot ranking's binomial
 * noise floor is that of a CPU profile at the same frequency.
 */
#ifndef TRAIL_FLAME_BLOCKERS_H
#define TRAIL_FLAME_BLOCKERS_H

#include "core/intern.h"
#include "core/string_list.h"
#include "profile/folded.h"

/* The name of the pseudo-stack that holds the run's CPU time. */
#define FLAME_ON_CPU_FRAME "[on-CPU]"

/*
 * Add every distinct function name of p's frames (normalised as the
 * hotspot ranking does: clone suffixes, annotations and module prefixes
 * dropped) to names, for flame_repo_defined().
 */
void flame_blockers_frames(const struct folded_profile *p, struct string_list *names);

/*
 * Fill out (initialised here) from the off-CPU profile off: every stack
 * cut after its innermost frame whose name is in defined (left whole when
 * none is), plus FLAME_ON_CPU_FRAME with cpu_us, every count divided by
 * us_per_unit (> 0).
 */
void flame_blockers_fold(const struct folded_profile *off, double cpu_us,
			 const struct intern *defined, double us_per_unit,
			 struct folded_profile *out);

/*
 * The stacks cut at the repository's frames for one function (the lib-
 * measures of trail flame probe, probe_request.h): names gets the frames
 * under func's innermost frame in every stack that holds it (normalised as
 * above; the frames whose definitions matter).
 */
void flame_blockers_frames_under(const struct folded_profile *p, const char *func,
				 struct string_list *names);

/*
 * Each of the nr runs cut as flame_blockers_fold() cuts them (no on-CPU
 * stack, counts kept), at func and at the frames under it that the
 * repository defines at rev, into cut[0..nr-1]: func's self share of a cut
 * run is its own time with the library and kernel code under it.  0, or -1
 * when the definitions cannot be looked up (an error said; cut is then
 * initialised and empty).
 */
struct flame_repo;
int flame_blockers_cut_at_repository(struct flame_repo *r, const char *rev, const char *func,
				     struct folded_profile *const *runs, size_t nr,
				     struct folded_profile *cut);

#endif
