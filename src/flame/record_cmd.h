/*
 * record_cmd.h - the one place that writes the command line a capture
 * runs the workload under (trail record or perf record, for CPU, off-CPU
 * and page-fault profiles; sh -c alone under the allocation interposer),
 * and the short recording that checks a recorder can sample here.
 * capture.c and alloc_capture.c run what this builds.
 */
#ifndef TRAIL_FLAME_RECORD_CMD_H
#define TRAIL_FLAME_RECORD_CMD_H

#include "core/string_list.h"
#include "flame/capture.h"

/* Which recorder o's profile runs under: 1 perf record, 0 trail record (or none). */
int flame_record_uses_perf(const struct flame_capture_opts *o);

/*
 * Append to argv the recorder's command line for o->profile, writing to
 * out (-o: perf.data, or folded text for off-CPU), around o->run_cmd; or,
 * with check set, around 'true' as a quick test that the recorder works
 * (a CPU check at 99 Hz without call chains).  FLAME_PROFILE_ALLOC gets
 * "sh -c RUN" alone (the interposer comes through the environment; out is
 * unused).  A plain-word workload is run without sh -c where a DWARF
 * unwind needs it (see record_cmd.c).
 */
void flame_record_argv(const struct flame_capture_opts *o, const char *out, int check,
		       struct string_list *argv);

#endif
