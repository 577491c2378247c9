/*
 * child.c - fork/exec with redirections (see child.h).  A program that
 * cannot be executed makes the child exit with 127, as a shell would, after
 * saying so on stderr.
 */
#include "core/child.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

int child_start(struct child *c)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno("cannot fork to run '%s'", c->argv[0]);
	if (pid == 0) {
		const char *const *e;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (c->new_process_group)
			setpgid(0, 0);
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
		for (e = c->env; e && *e; e++)
			putenv((char *)*e);
		execvp(c->argv[0], (char *const *)c->argv);
		fprintf(stderr, "%s: error: cannot run '%s': %s\n",
			error_program(), c->argv[0], strerror(errno));
		_exit(127);
	}
	c->pid = pid;
	return 0;
}

int child_wait(struct child *c)
{
	pid_t r;

	do
		r = wait4(c->pid, &c->status, 0, &c->rusage);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return error_errno("cannot wait for '%s'", c->argv[0]);
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
