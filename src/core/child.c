/*
 * child.c - fork/exec with redirections (see child.h).  A program that
 * cannot be executed makes the child exit with 127, as a shell would, after
 * saying so on stderr.  The process group of child_group_begin() is held
 * open by an idle "anchor" process (a group lives while it has members);
 * if we die without cleaning up (SIGKILL), PR_SET_PDEATHSIG tells the
 * anchor, which kills the group itself.  Timeouts wait on a pidfd, so a
 * timed child's end is seen at once, and kill its descendants found in
 * /proc.
 */
#include "core/child.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/progress.h"

#include <dirent.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/personality.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t group_anchor;	/* the group's id and its anchor process; 0 = none */
static const char *measure_exe;	/* this program, for own_rusage */

void child_set_measure_exe(const char *exe)
{
	measure_exe = exe;
}

pid_t child_group_id(void)
{
	return group_anchor;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* At exit or on a signal: may run in a signal handler, so syscalls only. */
static void kill_group(void *data)
{
	pid_t g = group_anchor;
	int i, st;

	(void)data;
	if (g <= 0)
		return;
	group_anchor = 0;
	kill(-g, SIGTERM);
	/* Our own children in the group are reaped; the group empties. */
	for (i = 0; i < 50; i++) {
		while (waitpid(-g, &st, WNOHANG) > 0)
			;
		if (kill(-g, 0) < 0)
			return;
		sleep_ms(10);
	}
	kill(-g, SIGKILL);
	while (waitpid(-g, &st, WNOHANG) > 0)
		;
}

/* In the anchor, when its parent died without killing the group. */
static void anchor_orphaned(int sig)
{
	(void)sig;
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	sleep_ms(300);
	kill(0, SIGKILL);	/* the anchor too */
	_exit(0);
}

int child_group_begin(void)
{
	pid_t pid, parent = getpid();

	if (group_anchor)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno("cannot fork the process group's anchor");
	if (pid == 0) {
		int fd, max = (int)sysconf(_SC_OPEN_MAX);

		setpgid(0, 0);
		/* Killed outright (SIGKILL), the parent runs no cleanup: we do. */
		signal(SIGUSR1, anchor_orphaned);
		prctl(PR_SET_PDEATHSIG, SIGUSR1);
		if (getppid() != parent)
			anchor_orphaned(SIGUSR1);
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		/* Hold no pipe, lock or file of the parent's open. */
		for (fd = 0; fd < (max > 0 && max < 65536 ? max : 1024); fd++)
			close(fd);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	group_anchor = pid;
	cleanup_push(kill_group, NULL);
	return 0;
}

/* The parent of pid from /proc, or -1. */
static pid_t parent_of(const char *pid)
{
	char path[300], buf[512], *rp;
	long pp = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f) || !(rp = strrchr(buf, ')')) ||
	    sscanf(rp + 1, " %*c %ld", &pp) != 1)
		pp = -1;
	fclose(f);
	return (pid_t)pp;
}

/* Twice (see child.h), so one that forked in between is caught too. */
void child_kill_tree(pid_t root)
{
	int pass;

	for (pass = 0; pass < 2; pass++) {
		pid_t *pids = NULL, *ppids = NULL, *tree;
		size_t n = 0, alloc = 0, nt = 1, i, k;
		DIR *d = opendir("/proc");
		struct dirent *e;

		while (d && (e = readdir(d))) {
			pid_t pp;

			if (e->d_name[0] < '1' || e->d_name[0] > '9' || (pp = parent_of(e->d_name)) < 0)
				continue;
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 256;
				pids = realloc(pids, alloc * sizeof(*pids));
				ppids = realloc(ppids, alloc * sizeof(*ppids));
				if (!pids || !ppids)
					die("out of memory");
			}
			pids[n] = (pid_t)atol(e->d_name);
			ppids[n++] = pp;
		}
		if (d)
			closedir(d);
		tree = calloc(n + 1, sizeof(*tree));
		if (!tree)
			die("out of memory");
		tree[0] = root;
		for (i = 0; i < nt; i++)	/* breadth first: tree grows as found */
			for (k = 0; k < n; k++)
				if (ppids[k] == tree[i] && pids[k] != root && nt <= n)
					tree[nt++] = pids[k];
		for (i = nt; i-- > 0;)
			kill(tree[i], SIGKILL);
		free(tree);
		free(pids);
		free(ppids);
	}
}

void child_adopt_orphans(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

int child_kill_orphans(void)
{
	pid_t self = getpid();
	int total = 0, pass;

	/* a killed orphan's own children come to us in turn: a few passes */
	for (pass = 0; pass < 16; pass++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int found = 0;

		while (d && (e = readdir(d))) {
			pid_t pid;

			if (e->d_name[0] < '1' || e->d_name[0] > '9' || parent_of(e->d_name) != self)
				continue;
			pid = (pid_t)atol(e->d_name);
			if (pid == group_anchor)
				continue;
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			found++;
		}
		if (d)
			closedir(d);
		total += found;
		if (!found)
			break;
	}
	return total;
}

/* Wait until pid exits or timeout seconds pass; 1 when it timed out. */
static int wait_timeout(pid_t pid, double timeout)
{
	double end = clock_monotonic() + timeout;
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	siginfo_t si;

	for (;;) {
		double left = end - clock_monotonic();

		memset(&si, 0, sizeof(si));
		if (!waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid)
			break;
		if (left <= 0) {
			if (fd >= 0)
				close(fd);
			return 1;
		}
		if (fd >= 0) {
			struct pollfd pf = { fd, POLLIN, 0 };

			poll(&pf, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
		} else {
			sleep_ms(left > 0.005 ? 5 : 1);	/* no pidfd (Linux < 5.3) */
		}
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static int redirect(int fd, int target)
{
	if (fd == CHILD_INHERIT)
		return 0;
	if (fd == CHILD_DEVNULL) {
		int n = open("/dev/null", O_RDWR);

		if (n < 0)
			return -1;
		fd = n;
	}
	if (fd != target && dup2(fd, target) < 0)
		return -1;
	return 0;
}

/*
 * "exe __measure FD N ENV1..ENVN ARGV..." for own_rusage (NULL: run argv
 * directly).  The extra environment goes to the helper as arguments, for
 * the program alone: an LD_PRELOAD meant for the workload (trail record
 * -e alloc) must not load into the helper.
 */
static const char **measure_argv(const struct child *c, int fd, char fdbuf[16], char nbuf[16])
{
	const char **v;
	size_t n = 0, ne = 0, i, k = 0;

	if (!c->own_rusage || !measure_exe)
		return NULL;
	while (c->argv[n])
		n++;
	while (c->env && c->env[ne])
		ne++;
	v = calloc(n + ne + 5, sizeof(*v));
	if (!v)
		return NULL;
	snprintf(fdbuf, 16, "%d", fd);
	snprintf(nbuf, 16, "%d", (int)ne);
	v[k++] = measure_exe;
	v[k++] = CHILD_MEASURE_COMMAND;
	v[k++] = fdbuf;
	v[k++] = nbuf;
	for (i = 0; i < ne; i++)
		v[k++] = c->env[i];
	for (i = 0; i < n; i++)
		v[k++] = c->argv[i];
	return v;
}

int child_start(struct child *c)
{
	const char **mv = NULL;
	char fdbuf[16], nbuf[16];
	int fds[2] = { -1, -1 };
	pid_t pid;

	c->measure_fd = -1;
	if (c->own_rusage && measure_exe) {
		if (pipe2(fds, O_CLOEXEC))
			return error_errno("cannot create a pipe");
		mv = measure_argv(c, fds[1], fdbuf, nbuf);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(mv);
		if (fds[0] >= 0) {
			close(fds[0]);
			close(fds[1]);
		}
		return error_errno("cannot fork to run '%s'", c->argv[0]);
	}
	if (pid == 0) {
		const char *const *e;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (c->new_process_group)
			setpgid(0, 0);
		else if (group_anchor)
			setpgid(0, group_anchor);
		/* kept across exec: the helper and the workload start at the same addresses every run */
		if (c->no_aslr)
			personality((unsigned long)personality(0xffffffff) | ADDR_NO_RANDOMIZE);
		if (c->out_path) {
			int fd = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0) {
				fprintf(stderr, "%s: error: cannot create '%s': %s\n",
					error_program(), c->out_path, strerror(errno));
				_exit(127);
			}
			dup2(fd, 1);
			if (c->err_to_out)
				dup2(fd, 2);
			close(fd);
		} else {
			if (redirect(c->out, 1) < 0)
				_exit(127);
			if (c->err_to_out)
				dup2(1, 2);
		}
		if (redirect(c->in, 0) < 0 || (!c->err_to_out && redirect(c->err, 2) < 0))
			_exit(127);
		if (c->dir && chdir(c->dir) < 0) {
			fprintf(stderr, "%s: error: cannot enter '%s': %s\n",
				error_program(), c->dir, strerror(errno));
			_exit(127);
		}
		if (mv) {
			/* the helper keeps the pipe's write end across its exec */
			fcntl(fds[1], F_SETFD, 0);
			execv(mv[0], (char *const *)mv);
			fcntl(fds[1], F_SETFD, FD_CLOEXEC);	/* no helper: run it directly */
		}
		for (e = c->env; e && *e; e++)
			putenv((char *)*e);
		execvp(c->argv[0], (char *const *)c->argv);
		fprintf(stderr, "%s: error: cannot run '%s': %s\n",
			error_program(), c->argv[0], strerror(errno));
		_exit(127);
	}
	/* Both sides set it, so it holds whichever runs first. */
	if (!c->new_process_group && group_anchor)
		setpgid(pid, group_anchor);
	c->pid = pid;
	free(mv);
	if (fds[0] >= 0) {
		close(fds[1]);
		c->measure_fd = fds[0];
	}
	return 0;
}

int child_wait(struct child *c)
{
	pid_t r;

	c->timed_out = 0;
	if (c->timeout > 0 && wait_timeout(c->pid, c->timeout)) {
		child_kill_tree(c->pid);
		c->timed_out = 1;
	}
	do
		r = wait4(c->pid, &c->status, 0, &c->rusage);
	while (r < 0 && errno == EINTR);
	if (c->measure_fd >= 0) {
		struct rusage own;

		/* The helper wrote it before exiting; killed, it wrote nothing. */
		if (read(c->measure_fd, &own, sizeof(own)) == (ssize_t)sizeof(own))
			c->rusage = own;
		close(c->measure_fd);
		c->measure_fd = -1;
	}
	if (r < 0)
		return error_errno("cannot wait for '%s'", c->argv[0]);
	if (c->timed_out)
		return CHILD_TIMED_OUT;
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	if (WIFSIGNALED(c->status))
		return 128 + WTERMSIG(c->status);
	return -1;
}

int child_run(struct child *c)
{
	if (child_start(c))
		return -1;
	return child_wait(c);
}

int child_capture(struct child *c, struct strbuf *out)
{
	int fds[2], code, ret;

	if (pipe2(fds, O_CLOEXEC))
		return error_errno("cannot create a pipe");
	c->out = fds[1];
	if (child_start(c)) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	ret = strbuf_read_fd(out, fds[0], c->argv[0]);
	close(fds[0]);
	code = child_wait(c);
	return ret ? -1 : code;
}

int child_measure_main(int argc, const char **argv)
{
	struct child c = CHILD_INIT;
	struct rlimit no_core = { 0, 0 };
	const char **env;
	int fd, code;
	long nenv, i;
	char *end;

	if (argc < 3 || !argv[0][0] || !argv[1][0])
		return 127;
	fd = (int)strtol(argv[0], &end, 10);
	if (*end || fd < 3)
		return 127;
	nenv = strtol(argv[1], &end, 10);
	if (*end || nenv < 0 || nenv > argc - 3)
		return 127;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	/* the program: started as any child is (no measure exe is set here) */
	env = calloc((size_t)nenv + 1, sizeof(*env));
	if (!env)
		return 127;
	for (i = 0; i < nenv; i++)
		env[i] = argv[2 + i];
	c.argv = argv + 2 + nenv;
	c.env = env;
	code = child_run(&c);
	free(env);
	if (code < 0 || write(fd, &c.rusage, sizeof(c.rusage)) != (ssize_t)sizeof(c.rusage))
		return 127;
	close(fd);
	if (WIFSIGNALED(c.status)) {
		/* die of the same signal, without a core file of our own */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(WTERMSIG(c.status), SIG_DFL);
		raise(WTERMSIG(c.status));
	}
	return code;
}

const char *child_describe_status(int code)
{
	static char buf[64];

	if (code > 128 && code < 128 + 65)
		snprintf(buf, sizeof(buf), "killed by signal %d", code - 128);
	else if (code == 127)
		snprintf(buf, sizeof(buf), "could not be run (status 127)");
	else
		snprintf(buf, sizeof(buf), "exited with status %d", code);
	return buf;
}

int run_capture(const char *dir, struct strbuf *out, const char *const *argv)
{
	struct child c = CHILD_INIT;

	c.argv = argv;
	c.dir = dir;
	return child_capture(&c, out);
}

char *child_self_exe(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}
