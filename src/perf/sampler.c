/*
 * sampler.c - the sampling run: starting the command behind a pipe
 * handshake (so the events exist before it execs, and enable_on_exec
 * starts them at exec, as perf record does), opening one inherited event
 * per thread and CPU with one ring buffer per CPU, and the poll loop that
 * drains the rings and watches the target, the clock and the signals.
 */
#include "perf/sampler.h"
#include "perf/sampler_launch.h"
#include "perf/sampler_synth.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/progress.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_PAGES 128		/* 512 KiB per CPU with 4 KiB pages, as perf */
#define DEFAULT_DWARF_PAGES 1024	/* user stack copies need room */
#define POLL_MS 100			/* drain at least this often (ms) */
#define KILL_GRACE 2.0			/* s between SIGTERM and SIGKILL */

struct event_def {
	const char *name;
	uint32_t type;
	uint64_t config;
	int count_each;		/* default to sampling every event, not a frequency */
};

static const struct event_def event_defs[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0 },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0 },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0 },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0 },
	{ "offcpu", PERF_TYPE_TRACEPOINT, 0, 1 },
};

static long perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
			    unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

void sampler_init(struct sampler *s, const struct sampler_opts *opts)
{
	memset(s, 0, sizeof(*s));
	s->opts = *opts;
	s->go_fd = s->err_fd = s->pidfd = s->sigfd = -1;
}

/* ---- the target ---- */

static int block_signals(struct sampler *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, &s->old_mask))
		return error_errno("cannot block signals");
	s->mask_saved = 1;
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->sigfd < 0)
		return error_errno("cannot create a signalfd");
	return 0;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

int sampler_prepare_command(struct sampler *s, const char *const *argv)
{
	return sampler_launch_command(s, argv, NULL);
}

int sampler_launch_command(struct sampler *s, const char *const *argv,
			   const struct sampler_launch *launch)
{
	int go[2], err[2];
	pid_t pid;

	s->launch = launch;
	if (block_signals(s))
		return -1;
	if (pipe2(go, O_CLOEXEC))
		return error_errno("cannot create a pipe");
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return error_errno("cannot create a pipe");
	}
	s->envp = sampler_launch_envp(launch);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_errno("cannot fork");
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		return -1;
	}
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		sampler_launch_child(launch, &s->old_mask, argv, s->envp, go[0], err[1]);
	}
	/* Both sides set it, so it holds whichever runs first. */
	if (launch && launch->pgid > 0)
		setpgid(pid, launch->pgid);
	close(go[0]);
	close(err[1]);
	s->go_fd = go[1];
	s->err_fd = err[0];
	s->pid = pid;
	s->is_command = 1;
	s->argv0 = argv[0];
	s->pidfd = open_pidfd(pid);
	s->tids = xmalloc(sizeof(*s->tids));
	s->tids[0] = pid;
	s->nr_tids = 1;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int sampler_attach(struct sampler *s, pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	size_t alloc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		if (errno == ENOENT)
			return trail_error("no process %d", (int)pid);
		return error_errno("cannot list the threads of process %d (%s)", (int)pid, path);
	}
	while ((de = readdir(d))) {
		uint64_t tid;

		if (parse_u64(de->d_name, &tid) || tid > INT32_MAX)
			continue;
		ALLOC_GROW(s->tids, s->nr_tids + 1, alloc);
		s->tids[s->nr_tids++] = (pid_t)tid;
	}
	closedir(d);
	if (!s->nr_tids)
		return trail_error("process %d has no threads left", (int)pid);
	qsort(s->tids, s->nr_tids, sizeof(*s->tids), cmp_pid);
	s->pid = pid;
	s->pidfd = open_pidfd(pid);
	return block_signals(s);
}

/* ---- events ---- */

static int online_cpus(struct sampler *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *save = NULL;
	size_t alloc = 0;
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && !strbuf_read_fd(&sb, fd, "/sys/devices/system/cpu/online")) {
		strbuf_rtrim(&sb);
		for (p = strtok_r(sb.buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
			char *dash = strchr(p, '-');
			uint64_t lo, hi, c;

			if (dash ? parse_u64_n(p, (size_t)(dash - p), &lo) || parse_u64(dash + 1, &hi)
				 : parse_u64(p, &lo))
				continue;
			if (!dash)
				hi = lo;
			for (c = lo; c <= hi && c < 65536; c++) {
				ALLOC_GROW(s->cpus, s->nr_cpus + 1, alloc);
				s->cpus[s->nr_cpus++] = (int)c;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	if (!s->nr_cpus) {
		long n = sysconf(_SC_NPROCESSORS_ONLN), c;

		for (c = 0; c < (n > 0 ? n : 1); c++) {
			ALLOC_GROW(s->cpus, s->nr_cpus + 1, alloc);
			s->cpus[s->nr_cpus++] = (int)c;
		}
	}
	return 0;
}

/* sched:sched_switch's tracepoint id, mounting tracefs if we may; 0 if none. */
static uint64_t sched_switch_id(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/events/sched/sched_switch/id",
		"/sys/kernel/debug/tracing/events/sched/sched_switch/id",
	};
	int attempt;
	size_t i;

	for (attempt = 0; attempt < 2; attempt++) {
		for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
			char buf[32];
			ssize_t n;
			uint64_t id;
			int fd = open(paths[i], O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n <= 0)
				continue;
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			if (!parse_u64(buf, &id))
				return id;
		}
		/* Not mounted: try, as perf's tracefs helpers do (needs root). */
		if (attempt == 0 && !geteuid() && !access("/sys/kernel/tracing", F_OK) &&
		    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
			break;
	}
	return 0;
}

static const struct event_def *find_event(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(event_defs) / sizeof(event_defs[0]); i++)
		if (!strcmp(event_defs[i].name, name))
			return &event_defs[i];
	return NULL;
}

static size_t ring_pages(const struct sampler *s)
{
	if (s->opts.mmap_pages)
		return s->opts.mmap_pages;
	return s->opts.callchain == SAMPLER_CALLCHAIN_DWARF ? DEFAULT_DWARF_PAGES : DEFAULT_PAGES;
}

static void build_attr(struct sampler *s, const struct event_def *def)
{
	struct perf_event_attr *a = &s->attr;
	size_t ring_bytes = ring_pages(s) * (size_t)sysconf(_SC_PAGESIZE);
	int exclude_kernel = a->exclude_kernel;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = def->type;
	a->config = def->config;
	if (s->offcpu) {
		/* Every switch-out is a sample; its weight is computed later. */
		a->sample_period = 1;
		a->context_switch = 1;
	} else if (s->opts.freq) {
		a->freq = 1;
		a->sample_freq = s->opts.freq;
	} else {
		a->sample_period = s->opts.period ? s->opts.period : 1;
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	/*
	 * A fixed period (-c N) is the attr's, as perf record -c leaves it:
	 * asked to carry its period, a software counter (page-faults,
	 * context-switches) makes every event a sample whatever
	 * sample_period says (the kernel's perf_swevent_event), so -c 64
	 * sampled every fault and overflowed the rings.
	 */
	if (a->freq || a->sample_period == 1)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (s->opts.callchain != SAMPLER_CALLCHAIN_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (s->opts.callchain == SAMPLER_CALLCHAIN_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
#if defined(__x86_64__)
		a->sample_regs_user = 0xff0fffULL;	/* all but DS, ES, FS, GS (perf's PERF_REGS_MASK) */
#elif defined(__aarch64__)
		a->sample_regs_user = (1ULL << 33) - 1;	/* x0-x30, sp, pc */
#endif
		a->sample_stack_user = s->opts.stack_bytes;
		/* The user part comes from unwinding the copy, as perf does. */
		a->exclude_callchain_user = 1;
		/* Unwinders read .eh_frame through the non-executable mappings too. */
		a->mmap_data = 1;
	}
	a->disabled = 1;
	a->inherit = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->sample_id_all = 1;
	a->enable_on_exec = s->is_command;
	a->exclude_kernel = exclude_kernel;
	a->exclude_hv = exclude_kernel;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / 4);
}

static void close_events(struct sampler *s)
{
	size_t i;

	if (s->rings)
		for (i = 0; i < s->nr_cpus; i++)
			sampler_ring_release(&s->rings[i]);
	FREE_AND_NULL(s->rings);
	for (i = 0; i < s->nr_fds; i++)
		close(s->fds[i]);
	s->nr_fds = 0;
	FREE_AND_NULL(s->ring_fds);
}

/*
 * Open every (thread, CPU) event; the first of each CPU gets the ring
 * buffer and the others write into it (PERF_EVENT_IOC_SET_OUTPUT, which
 * needs the target mapped first).  errno is kept in *failed_errno.
 */
static int open_all(struct sampler *s, int *failed_errno)
{
	size_t t, c;

	s->ring_fds = xmallocarray(s->nr_cpus, sizeof(int));
	s->rings = xcalloc(s->nr_cpus, sizeof(*s->rings));
	for (c = 0; c < s->nr_cpus; c++)
		s->ring_fds[c] = -1;
	for (t = 0; t < s->nr_tids; t++) {
		for (c = 0; c < s->nr_cpus; c++) {
			long fd = perf_event_open(&s->attr, s->tids[t], s->cpus[c], -1,
						  PERF_FLAG_FD_CLOEXEC);

			if (fd < 0) {
				/* A thread that ended meanwhile is no error, unless it was the only one. */
				if (errno == ESRCH && !s->is_command && s->tids[t] != s->pid)
					break;
				*failed_errno = errno;
				return -1;
			}
			ALLOC_GROW(s->fds, s->nr_fds + 1, s->alloc_fds);
			s->fds[s->nr_fds++] = (int)fd;
			if (s->ring_fds[c] < 0) {
				s->ring_fds[c] = (int)fd;
				if (sampler_ring_map(&s->rings[c], (int)fd, ring_pages(s))) {
					*failed_errno = 0;
					return -1;
				}
			} else if (ioctl((int)fd, PERF_EVENT_IOC_SET_OUTPUT, s->ring_fds[c])) {
				*failed_errno = errno;
				return error_errno("cannot redirect a perf event to its CPU's ring buffer");
			}
		}
	}
	return 0;
}

static int is_unsupported(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

int sampler_open(struct sampler *s)
{
	const struct event_def *def, *fallback = find_event("cpu-clock");
	const char *name = s->opts.event;
	int err = 0, retried_kernel = 0;
	size_t i;

	online_cpus(s);
	if (!name)
		name = "cycles";
	def = find_event(name);
	if (!def)
		return trail_error("unknown event '%s' (known: %s)", name, sampler_event_names());
	if (s->opts.freq == 0 && s->opts.period == 0 && !def->count_each)
		s->opts.freq = s->is_command ? 999 : 99;
	if (!strcmp(def->name, "offcpu")) {
		static struct event_def tp = { "offcpu", PERF_TYPE_TRACEPOINT, 0, 1 };

		s->offcpu = 1;
		tp.config = sched_switch_id();
		if (!tp.config) {
			def = find_event("context-switches");
			snprintf(s->note, sizeof(s->note),
				 "no tracefs: off-CPU stacks come from the context-switches software event");
		} else {
			def = &tp;
		}
		snprintf(s->event_name, sizeof(s->event_name), "offcpu-time");
	} else {
		snprintf(s->event_name, sizeof(s->event_name), "%s", def->name);
	}
	if (s->opts.callchain == SAMPLER_CALLCHAIN_DWARF) {
#if !defined(__x86_64__) && !defined(__aarch64__)
		return trail_error("-g dwarf is not supported on this architecture; use -g fp");
#endif
	}

	for (;;) {
		build_attr(s, def);
		if (!open_all(s, &err))
			break;
		close_events(s);
		if (!err)
			return -1;	/* not the event: mapping failed, already reported */
		if (!s->opts.event && def->type == PERF_TYPE_HARDWARE &&
		    (is_unsupported(err) || err == EINVAL)) {
			/* perf falls back the same way when there is no PMU. */
			def = fallback;
			snprintf(s->event_name, sizeof(s->event_name), "%s", def->name);
			snprintf(s->note, sizeof(s->note),
				 "no hardware counters here: sampling cpu-clock instead of cycles");
			continue;
		}
		if (s->offcpu && def->type == PERF_TYPE_TRACEPOINT) {
			def = find_event("context-switches");
			snprintf(s->note, sizeof(s->note),
				 "sched:sched_switch unavailable (%s): using the context-switches event",
				 strerror(err));
			continue;
		}
		if ((err == EACCES || err == EPERM) && !retried_kernel && geteuid() != 0 &&
		    sampler_paranoid() >= 2) {
			/* perf's fallback too: user-space only is still allowed at level 2. */
			retried_kernel = 1;
			s->attr.exclude_kernel = 1;
			snprintf(s->note, sizeof(s->note),
				 "kernel.perf_event_paranoid=%d: kernel frames excluded "
				 "('sysctl kernel.perf_event_paranoid=1' includes them)", sampler_paranoid());
			/* build_attr keeps exclude_kernel. */
			continue;
		}
		{
			struct strbuf sb = STRBUF_INIT;

			sampler_explain_open_error(&sb, err, &s->attr, s->pid, !s->is_command,
						   sampler_paranoid());
			trail_error("cannot sample '%s': %s", s->event_name, sb.buf);
			strbuf_release(&sb);
		}
		return -1;
	}

	s->ids = xmallocarray(s->nr_fds, sizeof(*s->ids));
	for (i = 0; i < s->nr_fds; i++)
		if (ioctl(s->fds[i], PERF_EVENT_IOC_ID, &s->ids[i]))
			return error_errno("cannot read the id of a perf event");
	return 0;
}

/* ---- the run ---- */

struct ring_ctx {
	struct sampler *s;
	struct perf_tool *tool;
	struct perf_tool_event ev;
};

static int ring_dispatch(void *ctx, const struct perf_event_header *rec)
{
	struct ring_ctx *rc = ctx;
	const char *why;

	if (rec->type == PERF_RECORD_SAMPLE) {
		rc->s->nr_samples++;
	} else if (rec->type == PERF_RECORD_LOST && rec->size >= sizeof(*rec) + 16) {
		uint64_t lost;

		/* struct { header; u64 id; u64 lost; sample_id } */
		memcpy(&lost, (const char *)(rec + 1) + 8, 8);
		rc->s->nr_lost += lost;
	} else if (rec->type == PERF_RECORD_LOST_SAMPLES && rec->size >= sizeof(*rec) + 8) {
		uint64_t lost;

		memcpy(&lost, rec + 1, 8);
		rc->s->nr_lost += lost;
	}
	if (perf_tool_deliver(rc->tool, &rc->ev, rec, &why) && why)
		return trail_error("the kernel sent a malformed record (type %u, %u bytes): %s",
				   (unsigned)rec->type, (unsigned)rec->size, why);
	return 0;
}

static int read_rings(struct sampler *s, struct perf_tool *tool)
{
	struct ring_ctx rc = { s, tool, { &s->attr, s->event_name, NULL } };
	size_t c;

	for (c = 0; c < s->nr_cpus; c++)
		if (sampler_ring_read(&s->rings[c], ring_dispatch, &rc) < 0)
			return -1;
	return tool->round ? tool->round(tool) : 0;
}

static void set_exit_code(struct sampler *s, int status)
{
	if (WIFEXITED(status))
		s->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		s->exit_code = 128 + WTERMSIG(status);
	else
		s->exit_code = 1;
}

/* Has the target ended?  Reaps the command. */
static int target_gone(struct sampler *s)
{
	if (s->is_command) {
		int status;
		pid_t r;

		if (s->reaped)
			return 1;
		r = wait4(s->pid, &status, WNOHANG, &s->rusage);
		if (r == s->pid) {
			s->reaped = 1;
			set_exit_code(s, status);
			return 1;
		}
		return r < 0 && errno == ECHILD;
	}
	return kill(s->pid, 0) && errno == ESRCH;
}

static int start_target(struct sampler *s)
{
	size_t i;

	if (s->is_command) {
		char c = 1;
		int e[2] = { 0, 0 };
		ssize_t n;

		if (write(s->go_fd, &c, 1) != 1)
			return error_errno("cannot start the command");
		s->started = 1;
		close(s->go_fd);
		s->go_fd = -1;
		/* EOF: exec succeeded (the pipe is close-on-exec). */
		do
			n = read(s->err_fd, e, sizeof(e));
		while (n < 0 && errno == EINTR);
		close(s->err_fd);
		s->err_fd = -1;
		if (n == (ssize_t)sizeof(e)) {
			int status;

			wait4(s->pid, &status, 0, &s->rusage);
			s->reaped = 1;
			s->exit_code = e[0] == ENOENT ? 127 : 126;
			if (e[1] != SAMPLER_LAUNCH_EXEC)
				s->exit_code = 127;
			s->exec_errno = e[0];
			s->exec_stage = e[1];
			return -2;
		}
		return 0;
	}
	for (i = 0; i < s->nr_fds; i++)
		if (ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0))
			return error_errno("cannot enable a perf event");
	return 0;
}

static void handle_signal(struct sampler *s)
{
	struct signalfd_siginfo si;

	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		int again = s->stopped == SAMPLER_STOP_SIGNAL;

		s->stopped = SAMPLER_STOP_SIGNAL;
		s->stop_signal = (int)si.ssi_signo;
		if (!s->is_command || s->reaped)
			continue;
		/* The caller stops everything: the command's tree goes now. */
		if (s->launch && s->launch->signal_stops_caller) {
			child_kill_tree(s->pid);
			continue;
		}
		/*
		 * A terminal's Ctrl-C already reached the whole foreground
		 * group; forward only what was sent to us alone.  A second
		 * signal means "now": SIGKILL.
		 */
		if (again)
			kill(s->pid, SIGKILL);
		else if (si.ssi_code != SI_KERNEL)
			kill(s->pid, (int)si.ssi_signo);
	}
}

/* The records the kernel does not emit: its own mapping, an attached process's threads and maps. */
static int synthesize(struct sampler *s, struct perf_tool *tool)
{
	struct sampler_synth_target t = {
		.attr = &s->attr,
		.event = s->event_name,
		.pid = s->pid,
		.tids = s->tids,
		.nr_tids = s->nr_tids,
		.attached = !s->is_command,
	};

	return sampler_synthesize(&t, tool);
}

int sampler_run(struct sampler *s, struct perf_tool *tool)
{
	struct pollfd *pfd;
	size_t nr = 0, c, i;
	double deadline = 0, kill_at = 0, timeout_at = 0;
	int ret = 0, rc;

	pfd = xcalloc(s->nr_cpus + 2, sizeof(*pfd));
	for (c = 0; c < s->nr_cpus; c++) {
		pfd[nr].fd = s->ring_fds[c];
		pfd[nr++].events = POLLIN;
	}
	if (s->pidfd >= 0) {
		pfd[nr].fd = s->pidfd;
		pfd[nr++].events = POLLIN;
	}
	pfd[nr].fd = s->sigfd;
	pfd[nr++].events = POLLIN;

	s->start_time = clock_monotonic();
	rc = start_target(s);
	if (rc == -2) {
		sampler_launch_error(s, (enum sampler_launch_stage)s->exec_stage);
		free(pfd);
		return -1;
	}
	if (rc) {
		free(pfd);
		return -1;
	}
	if (s->opts.duration > 0)
		deadline = s->start_time + s->opts.duration;
	if (s->launch && s->launch->timeout > 0)
		timeout_at = s->start_time + s->launch->timeout;
	if (synthesize(s, tool)) {
		free(pfd);
		return -1;
	}

	while (s->stopped == SAMPLER_STOP_NONE || (s->is_command && !s->reaped)) {
		int timeout = POLL_MS;
		double now = clock_monotonic();

		if (deadline && s->stopped == SAMPLER_STOP_NONE) {
			if (now >= deadline) {
				s->stopped = SAMPLER_STOP_DURATION;
				if (s->is_command && !s->reaped) {
					kill(s->pid, SIGTERM);
					kill_at = now + KILL_GRACE;
				}
				continue;
			}
			if ((deadline - now) * 1000 < timeout)
				timeout = (int)((deadline - now) * 1000) + 1;
		}
		if (timeout_at && s->stopped == SAMPLER_STOP_NONE) {
			if (now >= timeout_at) {
				/* a failed run, not a short one: the whole tree, at once */
				s->stopped = SAMPLER_STOP_TIMEOUT;
				if (!s->reaped)
					child_kill_tree(s->pid);
				continue;
			}
			if ((timeout_at - now) * 1000 < timeout)
				timeout = (int)((timeout_at - now) * 1000) + 1;
		}
		if (kill_at && now >= kill_at) {
			kill(s->pid, SIGKILL);
			kill_at = 0;
		}
		if (poll(pfd, nr, timeout) < 0 && errno != EINTR) {
			ret = error_errno("poll failed");
			break;
		}
		if (read_rings(s, tool)) {
			ret = -1;
			break;
		}
		handle_signal(s);
		if (target_gone(s) && s->stopped == SAMPLER_STOP_NONE)
			s->stopped = SAMPLER_STOP_EXITED;
		if (s->pidfd < 0 || s->is_command)
			continue;
		for (i = 0; i < nr; i++)
			if (pfd[i].fd == s->pidfd && (pfd[i].revents & POLLIN) &&
			    s->stopped == SAMPLER_STOP_NONE)
				s->stopped = SAMPLER_STOP_EXITED;
	}
	s->end_time = clock_monotonic();
	for (i = 0; i < s->nr_fds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if (!ret && read_rings(s, tool))
		ret = -1;
	free(pfd);
	return ret;
}

void sampler_release(struct sampler *s)
{
	close_events(s);
	FREE_AND_NULL(s->fds);
	s->alloc_fds = 0;
	FREE_AND_NULL(s->ids);
	FREE_AND_NULL(s->cpus);
	FREE_AND_NULL(s->tids);
	if (s->go_fd >= 0)
		close(s->go_fd);	/* EOF: a child that never started exits */
	if (s->err_fd >= 0)
		close(s->err_fd);
	if (s->is_command && !s->reaped && s->pid > 0) {
		int status;

		if (s->started && !target_gone(s))
			kill(s->pid, SIGTERM);

		if (wait4(s->pid, &status, 0, &s->rusage) == s->pid)
			set_exit_code(s, status);
		s->reaped = 1;
	}
	if (s->pidfd >= 0)
		close(s->pidfd);
	if (s->sigfd >= 0)
		close(s->sigfd);
	if (s->mask_saved)
		sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
	FREE_AND_NULL(s->envp);
	s->go_fd = s->err_fd = s->pidfd = s->sigfd = -1;
	s->mask_saved = 0;
}
