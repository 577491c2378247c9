/*
 * sampler_launch.c - starting the sampler's command as a struct
 * sampler_launch says (see sampler_launch.h): what trail flame needs of a
 * measured run - its worktree as the directory, /dev/null and its log as
 * stdio, the environment of a memory backend, the process group whose
 * anchor kills it if trail dies - and nothing else of the command's.
 */
#include "perf/sampler_launch.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdnoreturn.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

extern char **environ;

/* The length of NAME in "NAME=value" (all of it without '='). */
static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) : strlen(entry);
}

char **sampler_launch_envp(const struct sampler_launch *l)
{
	const char *const *base;
	size_t nb = 0, na = 0, n = 0, i, k;
	char **v;

	if (!l || (!l->env && !l->envp))
		return NULL;
	base = l->envp ? l->envp : (const char *const *)environ;
	while (base && base[nb])
		nb++;
	while (l->env && l->env[na])
		na++;
	v = xcalloc(nb + na + 1, sizeof(*v));
	/* an added NAME replaces the base's */
	for (i = 0; i < nb; i++) {
		int replaced = 0;

		for (k = 0; k < na && !replaced; k++)
			replaced = name_len(base[i]) == name_len(l->env[k]) &&
				   !strncmp(base[i], l->env[k], name_len(base[i]));
		if (!replaced)
			v[n++] = (char *)base[i];
	}
	for (k = 0; k < na; k++)
		v[n++] = (char *)l->env[k];
	return v;
}

/* fd onto target: a descriptor of ours, /dev/null, or left alone. */
static int redirect(int fd, int target)
{
	int opened = -1;

	if (fd == SAMPLER_FD_INHERIT)
		return 0;
	if (fd == SAMPLER_FD_DEVNULL) {
		opened = open("/dev/null", O_RDWR);
		if (opened < 0)
			return -1;
		fd = opened;
	}
	if (fd != target && dup2(fd, target) < 0)
		return -1;
	if (opened >= 0 && opened != target)
		close(opened);
	return 0;
}

/*
 * In the forked child: process group, descriptors, directory.  0, or -1
 * with errno and *stage set.  Async-signal-safe calls only.
 */
static int sampler_launch_apply(const struct sampler_launch *l, enum sampler_launch_stage *stage)
{
	*stage = SAMPLER_LAUNCH_STDIO;
	if (l->pgid > 0 && setpgid(0, l->pgid))
		return -1;
	if (redirect(l->in, 0))
		return -1;
	if (l->out_path) {
		int fd;

		*stage = SAMPLER_LAUNCH_OUTPUT;
		fd = open(l->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || (l->err_to_out && dup2(fd, 2) < 0))
			return -1;
		close(fd);
		*stage = SAMPLER_LAUNCH_STDIO;
	} else {
		if (redirect(l->out, 1))
			return -1;
		if (l->err_to_out && dup2(1, 2) < 0)
			return -1;
	}
	if (!l->err_to_out && redirect(l->err, 2))
		return -1;
	*stage = SAMPLER_LAUNCH_DIR;
	if (l->dir && chdir(l->dir))
		return -1;
	return 0;
}

int sampler_launch_error(const struct sampler *s, enum sampler_launch_stage stage)
{
	const char *cmd = s->argv0 ? s->argv0 : "the command";
	const struct sampler_launch *l = s->launch;

	errno = s->exec_errno;
	switch (stage) {
	case SAMPLER_LAUNCH_DIR:
		return error_errno("cannot enter '%s' to run '%s'", l && l->dir ? l->dir : "?", cmd);
	case SAMPLER_LAUNCH_OUTPUT:
		return error_errno("cannot create '%s' for the output of '%s'",
				   l && l->out_path ? l->out_path : "?", cmd);
	case SAMPLER_LAUNCH_STDIO:
		return error_errno("cannot set up the standard descriptors of '%s'", cmd);
	default:
		return error_errno("cannot run '%s'", cmd);
	}
}

noreturn void sampler_launch_child(const struct sampler_launch *l, const sigset_t *mask,
				   const char *const *argv, char **envp, int go, int err)
{
	static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
	enum sampler_launch_stage stage = SAMPLER_LAUNCH_EXEC;
	int report[2];
	size_t i;
	char c;

	/*
	 * Our handlers (trail's cleanup: temp dirs, the process group) must
	 * not run in the child before its exec; exec would reset them anyway.
	 * An ignored signal stays ignored, as exec keeps it.
	 */
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction sa;

		if (sigaction(caught[i], NULL, &sa))
			continue;
		if ((sa.sa_flags & SA_SIGINFO) ||
		    (sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL))
			signal(caught[i], SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* Wait until the events exist; EOF means the parent gave up. */
	if (read(go, &c, 1) != 1)
		_exit(127);
	if (!l || !sampler_launch_apply(l, &stage)) {
		stage = SAMPLER_LAUNCH_EXEC;
		if (envp)
			execvpe(argv[0], (char *const *)argv, envp);
		else
			execvp(argv[0], (char *const *)argv);
	}
	report[0] = errno;
	report[1] = (int)stage;
	if (write(err, report, sizeof(report)) < 0)
		_exit(127);
	_exit(127);
}
