/*
 * sampler.h - a sampling profiler on perf_event_open(2), without the perf
 * tool: it runs a command (or attaches to a process), opens one event per
 * CPU for the target with inherit set (so every thread and child is
 * followed, and each CPU's ring buffer collects them, as perf record does),
 * polls the ring buffers and hands each record to the callbacks of a
 * struct perf_tool (perf_tool.h), decoded, as perfdata_process() does for files.
 *
 * Lifetime: sampler_init() -> sampler_prepare_command() (or
 * sampler_launch_command(), which starts the command as a struct
 * sampler_launch says) or sampler_attach() -> sampler_open() ->
 * sampler_run() -> sampler_release().  All state of a run is in the
 * struct; nothing is global.
 */
#ifndef TRAIL_PERF_SAMPLER_H
#define TRAIL_PERF_SAMPLER_H

#include <linux/perf_event.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "core/strbuf.h"
#include "perf/perf_tool.h"
#include "perf/sampler_ring.h"

enum sampler_callchain {
	SAMPLER_CALLCHAIN_NONE,
	SAMPLER_CALLCHAIN_FP,		/* the kernel walks frame pointers */
	SAMPLER_CALLCHAIN_DWARF,	/* user registers + a copy of the user stack */
};

struct sampler_opts {
	const char *event;		/* see sampler_event_names(); NULL: default */
	uint64_t freq;			/* samples per second, 0 when period is used */
	uint64_t period;		/* events per sample (when freq == 0) */
	enum sampler_callchain callchain;
	uint32_t stack_bytes;		/* user stack copied per sample (dwarf), bytes */
	size_t mmap_pages;		/* data pages per CPU ring, power of two; 0: default */
	double duration;		/* seconds to record; 0: until the target ends */
};

/* How the run ended. */
enum sampler_stop {
	SAMPLER_STOP_NONE,
	SAMPLER_STOP_EXITED,		/* the command or process ended */
	SAMPLER_STOP_DURATION,		/* --duration elapsed */
	SAMPLER_STOP_SIGNAL,		/* SIGINT/SIGTERM/SIGHUP */
	SAMPLER_STOP_TIMEOUT,		/* launch->timeout elapsed: the command was killed */
};

#define SAMPLER_FD_INHERIT (-1)		/* the command gets our descriptor */
#define SAMPLER_FD_DEVNULL (-2)		/* the command gets /dev/null */

/*
 * How a library caller (trail flame) starts the command, where trail
 * record starts it as trail itself runs.  Zero-initialised except the
 * descriptors (SAMPLER_LAUNCH_INIT); every pointer is borrowed until
 * sampler_release().  Applied in the child after the start handshake,
 * nothing else of the command's is touched (signals, other descriptors).
 */
struct sampler_launch {
	const char *dir;		/* working directory, or NULL: ours */
	int in, out, err;		/* its 0/1/2: a descriptor of ours, or SAMPLER_FD_* */
	const char *out_path;		/* if set, stdout goes to this file (created/truncated) */
	int err_to_out;			/* stderr goes where stdout goes */
	const char *const *env;		/* "NAME=value" entries added to ours (or to envp) */
	const char *const *envp;	/* the whole environment instead of ours, or NULL */
	pid_t pgid;			/* join this process group (e.g. child_group_id()); 0: ours */
	/*
	 * Seconds; 0 = none.  Past it the command and its descendants are
	 * SIGKILLed and the run ends SAMPLER_STOP_TIMEOUT (a failure for the
	 * caller to report), where opts.duration stops it with SIGTERM as
	 * a success.
	 */
	double timeout;
	/*
	 * On SIGINT/SIGTERM/SIGHUP: kill the command's tree at once and end
	 * the run with stop_signal set, for the caller to stop everything
	 * (e.g. re-raise it after sampler_release()); instead of trail
	 * record's forwarding the signal and recording on until it exits.
	 */
	int signal_stops_caller;
};

#define SAMPLER_LAUNCH_INIT { .in = SAMPLER_FD_INHERIT, .out = SAMPLER_FD_INHERIT, \
			      .err = SAMPLER_FD_INHERIT }

struct sampler {
	struct sampler_opts opts;
	struct perf_event_attr attr;	/* the attr every fd was opened with */
	char event_name[64];		/* "cpu-clock", "offcpu-time" ... */
	char note[160];			/* e.g. why the default event fell back */
	int offcpu;			/* -e offcpu: switch-out samples + switch records */

	int *cpus;			/* online CPU numbers */
	size_t nr_cpus;
	struct sampler_ring *rings;	/* one per CPU */
	int *ring_fds;			/* the fd each ring is mapped from, per CPU */
	int *fds;			/* every event fd (threads x CPUs) */
	uint64_t *ids;			/* PERF_EVENT_IOC_ID of each fd */
	size_t nr_fds, alloc_fds;

	pid_t pid;			/* the command or the attached process */
	pid_t *tids;			/* threads attached to (attach mode) */
	size_t nr_tids;
	int is_command;			/* we forked pid and will reap it */
	const char *argv0;		/* the command's name (borrowed), for messages */
	int go_fd;			/* write end: tells the child to exec */
	int err_fd;			/* read end: errno of a failed exec, else EOF */
	int pidfd;			/* pidfd of pid, or -1 */
	int sigfd;			/* signalfd for SIGINT/SIGTERM/SIGHUP, or -1 */
	sigset_t old_mask;		/* signal mask to restore */
	int mask_saved;
	int reaped;			/* pid has been waited for */
	int started;			/* the command was told to exec */
	int exit_code;			/* the command's: code, or 128+signal */
	int exec_errno;			/* why the command could not be run, or 0 */
	int exec_stage;			/* what failed with exec_errno (sampler_launch.h) */
	char **envp;			/* the command's environment, or NULL: ours */
	const struct sampler_launch *launch;	/* borrowed, or NULL */
	struct rusage rusage;		/* the command's, with the descendants it
					 * waited for (its process tree), once reaped */
	enum sampler_stop stopped;
	int stop_signal;		/* the signal that stopped us, if any */

	uint64_t nr_lost;		/* samples the kernel dropped */
	uint64_t nr_samples;		/* PERF_RECORD_SAMPLE records read */
	double start_time, end_time;	/* seconds, monotonic */
};

void sampler_init(struct sampler *s, const struct sampler_opts *opts);
/*
 * Fork the command, stopped before exec until sampler_run(); argv[0] is
 * searched in PATH.  0 or -1 (error printed).
 */
int sampler_prepare_command(struct sampler *s, const char *const *argv);
/*
 * The same, started as launch says (NULL: as sampler_prepare_command());
 * launch must outlive the sampler.  A command that cannot be started
 * (directory, descriptors, exec) makes sampler_run() fail with
 * exec_errno and exec_stage set and exit_code 127 (126: not executable).
 */
int sampler_launch_command(struct sampler *s, const char *const *argv,
			   const struct sampler_launch *launch);
/* Target an existing process and all its threads.  0 or -1. */
int sampler_attach(struct sampler *s, pid_t pid);
/* Open the events and map the ring buffers.  0 or -1 with a helpful error. */
int sampler_open(struct sampler *s);
/*
 * Start the command (or enable the events), synthesize (sampler_synth.h),
 * read the rings until the target ends, the duration elapses or a signal
 * arrives, then drain them.
 * On SIGINT/SIGTERM the command gets the signal too and is waited for, so
 * the caller can still write a complete file (launch->signal_stops_caller:
 * it is killed instead).  A launch->timeout ends it as SAMPLER_STOP_TIMEOUT,
 * still 0: the caller decides.  0 or -1.
 */
int sampler_run(struct sampler *s, struct perf_tool *tool);
/*
 * Close everything.  A command that never started exits (its pipe closes);
 * one still running because recording failed gets SIGTERM, as perf does.
 */
void sampler_release(struct sampler *s);

/*
 * The events -e accepts, one per line with a description, for --help and
 * errors.
 */
const char *sampler_event_names(void);

/*
 * Explain a failed perf_event_open (errno err) for the user: the sysctl to
 * change for perf_event_paranoid, missing permission to attach, an
 * unsupported hardware event.  Appended to sb without a final newline.
 */
void sampler_explain_open_error(struct strbuf *sb, int err, const struct perf_event_attr *attr,
				pid_t pid, int attaching, int paranoid);
/* kernel.perf_event_paranoid, or 2 (the usual default) when unreadable. */
int sampler_paranoid(void);

#endif
