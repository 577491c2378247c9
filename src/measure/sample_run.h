/*
 * sample_run.h - a capture's run recorded by trail's own sampler in this
 * process (perf/recorder.h) rather than by running 'trail record': the
 * workload started in its worktree with /dev/null for input, its log for
 * output and trail's process group, its tree's CPU time as the cpu
 * metric, --timeout killing it as a failed run, and Ctrl-C stopping trail.
 */
#ifndef TRAIL_FLAME_SAMPLE_RUN_H
#define TRAIL_FLAME_SAMPLE_RUN_H

#include "core/string_list.h"
#include "measure/record_cmd.h"

/*
 * Run trail record's line argv (a backend's record_argv) in this
 * process: the sampler options, the command and the perf.data to write
 * are what trail record's parser reads from its words
 * (perf/record_options.h), the whole line goes into the recording's
 * header.  The contract of flame_record_run(): run->wall and run->cpu_us
 * (user + sys of the workload's process tree) unless o->timed; 0, 1 when
 * the workload failed or timed out, -1 when the sampler failed or the
 * line is not one it records (errors printed).  SIGINT, SIGTERM or
 * SIGHUP during the run kill the workload and are raised again here once
 * the sampler is released: trail's handlers clean up and trail stops, as
 * when a recorder child ran.
 */
int flame_sample_run(const struct flame_capture_opts *o, const struct string_list *argv,
		     const char *dir, const char *log, struct flame_run *run);
/*
 * trail record's check line argv ('true') recorded as it says: 0, or -1
 * with why the sampler cannot record here (event names the event for the
 * message, or NULL).
 */
int flame_sample_check(const struct string_list *argv, const char *event);

#endif
