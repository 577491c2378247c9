/*
 * fleet_jobs.h - run several shell scripts at once, each on a host (over
 * ssh) or on this machine, and collect their stdout and stderr: the probe
 * slots of one round of trail flame --hosts.  A job's stdin is a pipe held
 * open until it ends (remote.h: its EOF cancels the probes on the host),
 * or a file (the git bundle of a host's setup).
 */
#ifndef TRAIL_FLAME_FLEET_JOBS_H
#define TRAIL_FLAME_FLEET_JOBS_H

#include "core/child.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "fleet/hosts.h"

struct fleet_job {
	/* filled by the caller */
	const struct flame_host *host;
	size_t host_index, slot;	/* the caller's bookkeeping */
	int point;			/* the caller's: what is probed */
	const char *cpus;		/* taskset list (local), NULL = not pinned */
	char *script;			/* owned: freed by fleet_job_release */
	const char *stdin_path;		/* NULL: a pipe held open while it runs */
	/* results */
	struct strbuf out, err;
	int code;			/* child_wait's exit code, -1 when it did not start */
	double seconds;			/* wall time */
	/* private */
	struct child c;
	struct string_list argv;
	int wfd;
	char *out_path, *err_path;
	double t0;
};

void fleet_job_init(struct fleet_job *j);
void fleet_job_release(struct fleet_job *j);
/* Start jobs[0..n-1] at once, wait for every one, read their output. */
void fleet_jobs_run(struct fleet_job *jobs, size_t n, const char *scratch);
/* The private directory the job's script reported ("trail-flame-dir D"), or "". */
void fleet_job_dir(const struct fleet_job *j, char *buf, size_t n);
/* Its stderr's last line that is not the directory's, for messages, or "". */
void fleet_job_last_error(const struct fleet_job *j, char *buf, size_t n);

#endif
