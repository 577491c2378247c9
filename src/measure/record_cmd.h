/*
 * record_cmd.h - the command line a capture runs the workload under
 * (perf record, or trail record's line - which trail's sampler runs in
 * this process, measure/sample_run.h - for CPU, off-CPU and page-fault
 * profiles; sh -c alone under the allocation interposer), and the short
 * recording that checks a recorder can sample here.  Each backend
 * (measure/backend.h) writes its recorder's words; the workload's part is
 * written here.
 */
#ifndef TRAIL_FLAME_RECORD_CMD_H
#define TRAIL_FLAME_RECORD_CMD_H

#include "core/string_list.h"
#include "measure/capture.h"

/*
 * Append to argv the recorder's command line for o->profile, writing to
 * out (-o: perf.data, or folded text for off-CPU), around o->run_cmd; or,
 * with check set, around 'true' as a quick test that the recorder works
 * (a CPU check at 99 Hz without call chains).  FLAME_PROFILE_ALLOC gets
 * "sh -c RUN" alone (the interposer comes through the environment; out is
 * unused).  A plain-word workload is run without sh -c where a DWARF
 * unwind needs it (see record_cmd.c).  (backend.c: through the backend.)
 */
void flame_record_argv(const struct flame_capture_opts *o, const char *out, int check,
		       struct string_list *argv);

/* A backend's recorder command line builder (flame_record_argv()'s contract). */
typedef void flame_record_argv_fn(const struct flame_capture_opts *o, const char *out, int check,
				  struct string_list *argv);
/*
 * Run the workload in dir under the recorder build makes, writing to out,
 * its output to log (flame_record_run(): 0, 1 workload failed, -1).
 * trail record's own line (o->trail_exe record ...) is recorded by
 * trail's sampler in this process as its words say
 * (measure/sample_run.h); any other recorder runs as a program.
 */
int flame_record_with(const struct flame_capture_opts *o, flame_record_argv_fn *build,
		      const char *out, const char *dir, const char *log, struct flame_run *run);
/*
 * flame_record_with() into a perf.data under o->scratch, folded
 * in-process into run->folded after the first discard fraction of its
 * time span (flame_fold_recording()); the recording is removed.
 */
int flame_record_and_fold(const struct flame_capture_opts *o, flame_record_argv_fn *build,
			  double discard, const char *dir, const char *log,
			  struct flame_run *run);
/*
 * A short recording of 'true' under the recorder build makes (trail
 * record's line in this process, as for flame_record_with(); perf record
 * when perf is set; event names the event in the message): 0, or -1 with
 * what is missing or not allowed said.
 */
int flame_record_check_sampler(const struct flame_capture_opts *o, flame_record_argv_fn *build,
			       int perf, const char *event);

/* Append the NULL-terminated words. */
void flame_record_add_words(struct string_list *argv, const char *const *words);
/*
 * The workload after "--": 'true' for a check, its words when plain_ok
 * and it is plain words (see record_cmd.c), else sh -c RUN.
 */
void flame_record_add_workload(const struct flame_capture_opts *o, int check, int plain_ok,
			       struct string_list *argv);

#endif
