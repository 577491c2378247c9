/*
 * sampler.h - a sampling profiler on perf_event_open(2), without the perf
 * tool: it runs a command (or attaches to a process), opens one event per
 * CPU for the target with inherit set (so every thread and child is
 * followed, and each CPU's ring buffer collects them, as perf record does),
 * polls the ring buffers and hands each record to the callbacks of a
 * struct perf_tool (perf_tool.h), decoded, as perfdata_process() does for files.
 *
 * Lifetime: sampler_init() -> sampler_prepare_command() or
 * sampler_attach() -> sampler_open() -> sampler_run() -> sampler_release().  All state of a run is in the
 * struct; nothing is global.
 */
#ifndef TRAIL_PERF_SAMPLER_H
#define TRAIL_PERF_SAMPLER_H

#include <linux/perf_event.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
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
};

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
/* Target an existing process and all its threads.  0 or -1. */
int sampler_attach(struct sampler *s, pid_t pid);
/* Open the events and map the ring buffers.  0 or -1 with a helpful error. */
int sampler_open(struct sampler *s);
/*
 * Start the command (or enable the events), synthesize (sampler_synth.h),
 * read the rings until the target ends, the duration elapses or a signal
 * arrives, then drain them.
 * On SIGINT/SIGTERM the command gets the signal too and is waited for, so
 * the caller can still write a complete file.  0 or -1.
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
