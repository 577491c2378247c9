/*
 * executor.c - the real executor of trail bench: posix_spawn (or fork when
 * perf counters must be attached before exec), wait4() for rusage, and
 * CLOCK_MONOTONIC around spawn..wait for the wall time.  Also the word
 * splitter used to run commands without a shell (-N).
 */
#include "bench/executor.h"
#include "core/alloc.h"
#include "core/callgrind_cmd.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/string_list.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

/* Where the child's stdin, stdout and stderr go. */
struct redirect {
	int in;			/* descriptor for stdin, opened by us */
	int out, err;		/* descriptors for stdout/stderr, or -1 to inherit */
	int pipe_r;		/* read end of the output pipe, or -1 */
	int close_in, close_out;	/* we own in / out */
};

static int redirect_open(const struct bench_job *job, struct redirect *r)
{
	int fds[2];

	memset(r, 0, sizeof(*r));
	r->out = r->err = r->pipe_r = -1;
	r->in = open(job->input_path ? job->input_path : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (r->in < 0)
		return error_errno("cannot open input '%s'",
				   job->input_path ? job->input_path : "/dev/null");
	r->close_in = 1;
	switch (job->output) {
	case BENCH_OUTPUT_NULL:
		r->out = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (r->out < 0)
			return error_errno("cannot open '/dev/null'");
		r->close_out = 1;
		r->err = r->out;
		break;
	case BENCH_OUTPUT_PIPE:
		if (pipe2(fds, O_CLOEXEC))
			return error_errno("cannot create a pipe");
		r->pipe_r = fds[0];
		r->out = fds[1];
		r->close_out = 1;
		r->err = -1;
		break;
	case BENCH_OUTPUT_INHERIT:
		break;
	case BENCH_OUTPUT_FILE:
		r->out = r->err = job->output_fd;
		break;
	}
	return 0;
}

static void redirect_close(struct redirect *r)
{
	if (r->close_in && r->in >= 0)
		close(r->in);
	if (r->close_out && r->out >= 0)
		close(r->out);
	if (r->pipe_r >= 0)
		close(r->pipe_r);
	r->in = r->out = r->pipe_r = -1;
}

/* In the child after fork: wire up descriptors (async-signal-safe calls only). */
static void redirect_apply_in_child(const struct redirect *r)
{
	if (r->in >= 0)
		dup2(r->in, 0);
	if (r->out >= 0)
		dup2(r->out, 1);
	if (r->err >= 0)
		dup2(r->err, 2);
	else if (r->pipe_r >= 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 2);
	}
}

/* The four perf software counters we read, in the order of struct bench_measurement. */
static const unsigned long long perf_sw_events[] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};
#define NR_PERF (sizeof(perf_sw_events) / sizeof(perf_sw_events[0]))

static int perf_open(uint32_t type, uint64_t config, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;	/* count what the command's own children do, too */
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int bench_perf_probe(const char **why)
{
	int fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0);

	if (fd < 0) {
		*why = errno == EACCES || errno == EPERM ?
			"perf_event_open is not permitted (see /proc/sys/kernel/perf_event_paranoid)" :
			"perf_event_open is not available on this kernel";
		return 0;
	}
	close(fd);
	fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	if (fd < 0) {
		*why = "software counters only: hardware counters (cycles, instructions) are not "
		       "supported on this machine (e.g. a VM without a virtual PMU)";
	} else {
		close(fd);
		*why = "software and hardware counters are available";
	}
	return 1;
}

/*
 * A stop request (Ctrl-C, SIGTERM to trail) ends the running command too:
 * from a terminal it got SIGINT itself, but a SIGTERM sent to trail alone
 * would otherwise leave trail waiting for a long command.
 */
static void forward_stop(pid_t pid, const struct bench_job *job, int *forwarded)
{
	if (job->stop && *job->stop && !*forwarded) {
		kill(-pid, SIGTERM);	/* its process group: see run_spawn() */
		*forwarded = 1;
	}
}

/*
 * Wait for pid, draining the output pipe and enforcing the timeout.  With
 * neither, a plain blocking wait4() keeps the measuring overhead minimal.
 */
static int wait_child(pid_t pid, const struct bench_job *job, struct redirect *r,
		      double t0, int *status, struct rusage *ru, int *timed_out)
{
	int forwarded = 0;

	*timed_out = 0;
	if (job->timeout > 0 || r->pipe_r >= 0) {
		int pidfd = pidfd_open_(pid);
		char scratch[65536];

		for (;;) {
			struct pollfd p[2];
			int n = 0, timeout_ms = -1, rc;

			if (pidfd >= 0)
				p[n++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
			if (r->pipe_r >= 0)
				p[n++] = (struct pollfd){ .fd = r->pipe_r, .events = POLLIN };
			if (!n)
				break;	/* no pidfd and the pipe is closed: block in wait4 */
			if (job->timeout > 0 && pidfd >= 0) {
				double left = t0 + job->timeout - now_seconds();

				timeout_ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
			}
			rc = poll(p, (nfds_t)n, timeout_ms);
			if (rc < 0) {
				if (errno == EINTR) {
					forward_stop(pid, job, &forwarded);
					continue;
				}
				break;
			}
			if (!rc) {
				kill(-pid, SIGKILL);	/* the command and its children */
				*timed_out = 1;
				break;
			}
			if (pidfd >= 0 && (p[0].revents & (POLLIN | POLLHUP)))
				break;
			if (r->pipe_r >= 0 && p[n - 1].fd == r->pipe_r && p[n - 1].revents) {
				ssize_t got = read(r->pipe_r, scratch, sizeof(scratch));

				if (got <= 0 && !(got < 0 && errno == EINTR)) {
					close(r->pipe_r);
					r->pipe_r = -1;
				}
			}
		}
		if (pidfd >= 0)
			close(pidfd);
	}
	while (wait4(pid, status, 0, ru) < 0) {
		if (errno != EINTR)
			return error_errno("cannot wait for the benchmarked command");
		forward_stop(pid, job, &forwarded);
	}
	return 0;
}

static void fill_measurement(struct bench_measurement *m, double wall, int status,
			     const struct rusage *ru)
{
	m->wall = wall;
	m->user = tv_seconds(ru->ru_utime);
	m->sys = tv_seconds(ru->ru_stime);
	m->max_rss = ru->ru_maxrss;
	m->minor_faults = ru->ru_minflt;
	m->major_faults = ru->ru_majflt;
	m->vol_csw = ru->ru_nvcsw;
	m->invol_csw = ru->ru_nivcsw;
	if (WIFEXITED(status))
		m->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		m->exit_code = 128 + WTERMSIG(status);
	else
		m->exit_code = 255;
}

static int run_spawn(const struct bench_job *job, struct redirect *r,
		     struct bench_measurement *m)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int rc, status = 0;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, r->in, 0);
	if (r->out >= 0)
		posix_spawn_file_actions_adddup2(&fa, r->out, 1);
	if (r->err >= 0)
		posix_spawn_file_actions_adddup2(&fa, r->err, 2);
	else if (r->pipe_r >= 0)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/*
	 * The command leads a process group of its own, so a timeout or a stop
	 * request reaches the children it started too (sh -c 'a & b'), not
	 * only the shell.  Ctrl-C reaches trail, which forwards it.
	 */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	t0 = now_seconds();
	rc = posix_spawnp(&pid, job->argv[0], &fa, &attr, (char *const *)job->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		errno = rc;
		return error_errno("cannot run '%s'", job->argv[0]);
	}
	if (r->close_out && r->out >= 0) {
		close(r->out);	/* so the pipe reports EOF when the child is done */
		r->out = -1;
	}
	if (wait_child(pid, job, r, t0, &status, &ru, &m->timed_out))
		return -1;
	t1 = now_seconds();
	fill_measurement(m, t1 - t0, status, &ru);
	return 0;
}

/*
 * With perf counters the child must exist before exec so the counters can
 * be attached with enable_on_exec: fork, let the child wait on a pipe,
 * open the counters, release it.  The wall time starts at the release, so
 * it excludes the fork (the shell-spawn correction is measured the same way).
 */
static int run_fork_perf(const struct bench_job *job, struct redirect *r,
			 struct bench_measurement *m)
{
	int go[2], err_pipe[2], fds[NR_PERF], child_errno = 0, status = 0, rc = -1;
	struct rusage ru;
	double t0, t1;
	size_t i;
	pid_t pid;
	ssize_t got;

	if (pipe2(go, O_CLOEXEC))
		return error_errno("cannot create a pipe");
	if (pipe2(err_pipe, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return error_errno("cannot create a pipe");
	}
	pid = fork();
	if (pid < 0) {
		error_errno("cannot fork");
		goto out_pipes;
	}
	if (!pid) {
		char c;
		int e;

		setpgid(0, 0);	/* as in run_spawn() */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		redirect_apply_in_child(r);
		execvp(job->argv[0], (char *const *)job->argv);
		e = errno;
		if (write(err_pipe[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);	/* no race with a timeout before the child's own call */
	close(go[0]);
	go[0] = -1;
	close(err_pipe[1]);
	err_pipe[1] = -1;
	for (i = 0; i < NR_PERF; i++)
		fds[i] = perf_open(PERF_TYPE_SOFTWARE, perf_sw_events[i], pid);
	t0 = now_seconds();
	if (write(go[1], "x", 1) < 0)
		kill(pid, SIGKILL);
	close(go[1]);
	go[1] = -1;
	got = read(err_pipe[0], &child_errno, sizeof(child_errno));
	if (r->close_out && r->out >= 0) {
		close(r->out);
		r->out = -1;
	}
	if (wait_child(pid, job, r, t0, &status, &ru, &m->timed_out))
		goto out_counters;
	t1 = now_seconds();
	if (got == (ssize_t)sizeof(child_errno)) {
		errno = child_errno;
		error_errno("cannot run '%s'", job->argv[0]);
		goto out_counters;
	}
	fill_measurement(m, t1 - t0, status, &ru);
	{
		int64_t *dst[NR_PERF] = { &m->perf_csw, &m->perf_faults, &m->perf_migrations };

		for (i = 0; i < NR_PERF; i++) {
			uint64_t v;

			if (fds[i] >= 0 && read(fds[i], &v, sizeof(v)) == (ssize_t)sizeof(v))
				*dst[i] = (int64_t)v;
		}
	}
	rc = 0;
out_counters:
	for (i = 0; i < NR_PERF; i++)
		if (fds[i] >= 0)
			close(fds[i]);
out_pipes:
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	if (err_pipe[0] >= 0)
		close(err_pipe[0]);
	if (err_pipe[1] >= 0)
		close(err_pipe[1]);
	return rc;
}

/* job->argv under callgrind, one out file per process in job->count_dir. */
static void counted_argv(const struct bench_job *job, struct string_list *argv)
{
	size_t i;

	callgrind_cmd_argv(argv, job->count_dir, job->count == BENCH_COUNT_EST_CYCLES, NULL);
	string_list_append(argv, "--");
	for (i = 0; job->argv[i]; i++)
		string_list_append(argv, job->argv[i]);
}

static int process_run(struct bench_executor *ex, const struct bench_job *job,
		       struct bench_measurement *m)
{
	struct string_list argv = STRING_LIST_INIT;
	struct bench_job counted;
	struct redirect r;
	int rc, persona = -1;

	(void)ex;
	memset(m, 0, sizeof(*m));
	m->perf_csw = m->perf_faults = m->perf_migrations = BENCH_COUNTER_NONE;
	m->count = BENCH_COUNTER_NONE;
	if (redirect_open(job, &r)) {
		redirect_close(&r);
		return -1;
	}
	if (job->count != BENCH_COUNT_NONE) {
		counted = *job;
		counted_argv(job, &argv);
		counted.argv = (const char *const *)argv.items;
		job = &counted;
		/*
		 * Address-space randomisation off for the child (inherited
		 * across fork and exec): where the stack and the heap start
		 * changes the instructions of hashing and alignment code.
		 */
		persona = personality(0xffffffff);
		if (persona >= 0)
			personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
	}
	rc = job->count_perf ? run_fork_perf(job, &r, m) : run_spawn(job, &r, m);
	if (persona >= 0)
		personality((unsigned long)persona);
	redirect_close(&r);
	if (!rc && job->count != BENCH_COUNT_NONE && !m->timed_out &&
	    bench_count_read_dir(job->count_dir, job->count, &m->count))
		rc = -1;
	string_list_clear(&argv);
	return rc;
}

struct bench_executor bench_executor_process = { "process", process_run, NULL };

char *bench_resolve_program(const char *name)
{
	const char *path = getenv("PATH"), *p;

	if (!*name || strchr(name, '/') || !path)
		return NULL;
	for (p = path;; ) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char *full = len ? xstrfmt("%.*s/%s", (int)len, p, name) : xstrfmt("./%s", name);

		if (!access(full, X_OK))
			return full;
		free(full);
		if (!colon)
			return NULL;
		p = colon + 1;
	}
}

char **bench_split_words(const char *s)
{
	char **words = NULL;
	size_t nr = 0, alloc = 0;
	struct strbuf w = STRBUF_INIT;
	int in_word = 0;
	const char *start = s;

	for (;;) {
		char c = *s;

		if (!c || c == ' ' || c == '\t' || c == '\n') {
			if (in_word) {
				ALLOC_GROW(words, nr + 2, alloc);
				words[nr++] = strbuf_detach(&w, NULL);
				in_word = 0;
			}
			if (!c)
				break;
			s++;
			continue;
		}
		in_word = 1;
		if (c == '\\') {
			if (!s[1]) {
				trail_error("command ends with a lone backslash: '%s'", start);
				goto fail;
			}
			strbuf_addch(&w, s[1]);
			s += 2;
		} else if (c == '\'' || c == '"') {
			const char *q = s + 1;

			for (; *q && *q != c; q++) {
				if (c == '"' && *q == '\\' && q[1] &&
				    (q[1] == '"' || q[1] == '\\' || q[1] == '$' || q[1] == '`'))
					q++;
				strbuf_addch(&w, *q);
			}
			if (!*q) {
				trail_error("unterminated %s quote in command '%s'",
				      c == '"' ? "double" : "single", start);
				goto fail;
			}
			s = q + 1;
		} else {
			strbuf_addch(&w, c);
			s++;
		}
	}
	if (!nr) {
		trail_error("empty command '%s'", start);
		goto fail;
	}
	words[nr] = NULL;
	return words;
fail:
	strbuf_release(&w);
	if (words) {
		words[nr] = NULL;
		bench_words_free(words);
	}
	return NULL;
}

void bench_words_free(char **words)
{
	size_t i;

	if (!words)
		return;
	for (i = 0; words[i]; i++)
		free(words[i]);
	free(words);
}
