/*
 * ends_pair.c - one ABBA pair of runs of the good and bad builds, the step
 * both the timed ends (ends.c) and the counted ones (exact.c) take; below
 * both, so neither calls back into the other.
 */
#include "flame/ends.h"
#include "flame/estimate.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/progress.h"

/* One ABBA pair: good then bad, or bad then good (estimate.h). */
int flame_ends_run_pair(struct flame_session *s, const struct flame_capture_opts *o, char *dirs[2],
			struct progress *pr)
{
	int first = flame_abba_bad_first(s->st.nruns[0]), k;

	for (k = 0; k < 2; k++) {
		int side = k ? !first : first;
		struct flame_run *r;

		ALLOC_GROW(s->st.runs[side], s->st.nruns[side] + 1, s->st.runs_alloc[side]);
		r = &s->st.runs[side][s->st.nruns[side]];
		if (flame_capture_run(o, dirs[side], r)) {
			flame_run_release(r);
			return trail_error("the workload fails at the %s revision", side ? "bad" : "good");
		}
		s->st.nruns[side]++;
		if (pr)
			progress_update(pr, s->st.nruns[0] + s->st.nruns[1], side ? "bad" : "good");
	}
	return 0;
}
