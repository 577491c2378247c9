/*
 * preload_exec.c - the exec family and posix_spawn, wrapped so that every
 * program started keeps being recorded without losing the program's own
 * settings: the image's records are completed before an exec or _exit
 * (finish(), which preload.c's exit handlers call too) and reopened when
 * an exec failed, and the new program's environment gets trail's LD_PRELOAD composed with
 * whatever LD_PRELOAD the program set (fakeroot, faketime and the like
 * keep working) and trail's TRAIL_ALLOC_* entries when it lacks them.
 * Buffers live on the caller's stack, or in raw mmap when large (no
 * allocator here).
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc/preload.h"

extern char **environ;

/* "NAME=value" as this image got them; the LD_PRELOAD one is trail's library alone. */
#define ENV_KEEP 4
static char env_keep[ENV_KEEP][sizeof(dir) + 32];
static char env_preload[4096 + 16];
static const char *mine;	/* trail's library, the value of env_preload */

void exec_env_init(void)
{
	static const char *const names[ENV_KEEP] = {
		"TRAIL_ALLOC_DIR", "TRAIL_ALLOC_INTERVAL", "TRAIL_ALLOC_UNWIND", "TRAIL_ALLOC_PRELOAD",
	};
	const char *lib = getenv("TRAIL_ALLOC_PRELOAD");
	int i;

	for (i = 0; i < ENV_KEEP; i++) {
		const char *v = getenv(names[i]);
		int n;

		env_keep[i][0] = 0;
		if (!v)
			continue;
		n = snprintf(env_keep[i], sizeof(env_keep[i]), "%s=%s", names[i], v);
		if (n < 0 || (size_t)n >= sizeof(env_keep[i]))
			env_keep[i][0] = 0;
	}
	if (lib && *lib && strlen(lib) + 12 < sizeof(env_preload)) {
		snprintf(env_preload, sizeof(env_preload), "LD_PRELOAD=%s", lib);
		mine = env_preload + 11;
	}
}

static int has_name(char *const envp[], size_t n, const char *entry)
{
	size_t len = (size_t)(strchr(entry, '=') - entry) + 1, i;

	for (i = 0; i < n; i++)
		if (!strncmp(envp[i], entry, len))
			return 1;
	return 0;
}

enum call_kind { CALL_EXECVE, CALL_EXECVPE, CALL_FEXECVE, CALL_EXECVEAT, CALL_SPAWN, CALL_SPAWNP };

struct call {
	enum call_kind kind;
	const char *path;
	char *const *argv;
	int fd, flags;			/* fexecve, execveat */
	pid_t *pid;			/* posix_spawn */
	const posix_spawn_file_actions_t *actions;
	const posix_spawnattr_t *attr;
};

static int call_real(const struct call *c, char *const envp[])
{
	switch (c->kind) {
	case CALL_EXECVE:
		return real.execve(c->path, c->argv, envp);
	case CALL_EXECVPE:
		return real.execvpe(c->path, c->argv, envp);
	case CALL_FEXECVE:
		return real.fexecve(c->fd, c->argv, envp);
	case CALL_EXECVEAT:
		return real.execveat(c->fd, c->path, c->argv, envp, c->flags);
	case CALL_SPAWN:
		return real.posix_spawn(c->pid, c->path, c->actions, c->attr, c->argv, envp);
	case CALL_SPAWNP:
		return real.posix_spawnp(c->pid, c->path, c->actions, c->attr, c->argv, envp);
	}
	return -1;
}

/* envp composed with trail's entries into out (room for n + ENV_KEEP + 2), pre for LD_PRELOAD. */
static void compose(char *const envp[], size_t n, char **out, char *pre, size_t pre_size)
{
	size_t i, k = 0;
	int have_preload = 0;

	for (i = 0; i < n; i++) {
		out[k] = envp[i];
		if (!strncmp(envp[i], "LD_PRELOAD=", 11)) {
			const char *theirs = envp[i] + 11;

			have_preload = 1;
			if (!strstr(theirs, mine)) {
				/* trail's first, so it sees allocations before the others */
				snprintf(pre, pre_size, "LD_PRELOAD=%s%s%s", mine, *theirs ? ":" : "", theirs);
				out[k] = pre;
			}
		}
		k++;
	}
	if (!have_preload)
		out[k++] = env_preload;
	for (i = 0; i < ENV_KEEP; i++)
		if (env_keep[i][0] && !has_name(envp, n, env_keep[i]))
			out[k++] = env_keep[i];
	out[k] = NULL;
}

#define ENV_ON_STACK 1024	/* entries; more take raw mmap */
#define PRELOAD_ON_STACK 4096	/* bytes of the composed LD_PRELOAD entry */

static int with_env(const struct call *c, char *const envp[])
{
	char *stack_out[ENV_ON_STACK + ENV_KEEP + 2], stack_pre[PRELOAD_ON_STACK];
	char **out = stack_out, *pre = stack_pre;
	size_t n = 0, pre_size = sizeof(stack_pre), out_size = sizeof(stack_out);
	int ret;

	if (unlikely(!real.execve))
		resolve_all();
	if (!mine || !envp)
		return call_real(c, envp);
	for (n = 0; envp[n]; n++)
		if (!strncmp(envp[n], "LD_PRELOAD=", 11) && strlen(envp[n]) + strlen(mine) + 2 > pre_size)
			pre_size = strlen(envp[n]) + strlen(mine) + 2;
	if (n > ENV_ON_STACK)
		out_size = (n + ENV_KEEP + 2) * sizeof(*out);
	if (out_size > sizeof(stack_out) && !(out = raw_map(out_size)))
		return call_real(c, envp);
	if (pre_size > sizeof(stack_pre) && !(pre = raw_map(pre_size))) {
		pre = stack_pre;
		pre_size = sizeof(stack_pre);	/* cut short: better than not run */
	}
	compose(envp, n, out, pre, pre_size);
	ret = call_real(c, out);
	if (out != stack_out)
		raw_unmap(out, out_size);
	if (pre != stack_pre)
		raw_unmap(pre, pre_size);
	return ret;
}

/* Before exec and exit: complete this image's record (not in a vfork child). */
void finish(void)
{
	int was;

	copy_check();
	if ((pid_t)syscall(SYS_getpid) != owner)
		return;	/* a vfork child: the file is its parent's */
	was = busy_enter();
	/*
	 * From a signal handler (_exit in a SIGTERM handler) that interrupted
	 * the interposer on this thread, the lock may be this thread's own:
	 * then the buffer is half-written and the file stays cut short.
	 */
	if (was ? pthread_mutex_trylock(&lock) : pthread_mutex_lock(&lock)) {
		busy_leave(was);
		return;
	}
	image_close_locked();
	pthread_mutex_unlock(&lock);
	busy_leave(was);
}

/* Still here after an exec: it failed; record on in a new file. */
void reopen_after_failed_exec(void)
{
	int e = errno, was;

	if ((pid_t)syscall(SYS_getpid) != owner)
		return;
	was = busy_enter();
	pthread_mutex_lock(&lock);
	if (dir[0] && !enabled) {
		image_open_locked();
		write_maps_locked();
	}
	pthread_mutex_unlock(&lock);
	busy_leave(was);
	errno = e;
}

static int exec_call(const struct call *c, char *const envp[])
{
	int ret;

	finish();
	ret = with_env(c, envp);
	reopen_after_failed_exec();
	return ret;
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	struct call c = { CALL_EXECVE, path, argv, -1, 0, NULL, NULL, NULL };

	return exec_call(&c, envp);
}

EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	struct call c = { CALL_EXECVPE, file, argv, -1, 0, NULL, NULL, NULL };

	return exec_call(&c, envp);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	struct call c = { CALL_FEXECVE, NULL, argv, fd, 0, NULL, NULL, NULL };

	return exec_call(&c, envp);
}

EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	struct call c = { CALL_EXECVEAT, path, argv, dirfd, flags, NULL, NULL, NULL };

	return exec_call(&c, envp);
}

/*
 * execl, execlp, execle: the arguments up to the NULL (and execle's envp
 * after it) into an array, then the v-form.
 */
#define ARGS_ON_STACK 256

struct arg_list {
	char *stack[ARGS_ON_STACK];
	char **argv;
	size_t size;	/* bytes of argv when mapped */
	char *const *envp;
};

static void args_collect(struct arg_list *l, const char *arg, va_list count, va_list ap, int with_envp)
{
	size_t n = 0, i;

	if (arg)
		for (n = 1; va_arg(count, char *); n++)
			;
	l->argv = l->stack;
	l->size = 0;
	if (n + 1 > ARGS_ON_STACK) {
		l->size = (n + 1) * sizeof(char *);
		l->argv = raw_map(l->size);
		if (!l->argv) {
			l->argv = l->stack;	/* cut short rather than not run */
			n = ARGS_ON_STACK - 1;
			l->size = 0;
		}
	}
	l->argv[0] = (char *)arg;
	for (i = 1; i < n; i++)
		l->argv[i] = va_arg(ap, char *);
	l->argv[n] = NULL;
	l->envp = environ;
	if (with_envp) {
		if (arg)
			while (va_arg(ap, char *))	/* to the NULL */
				;
		l->envp = va_arg(ap, char *const *);
	}
}

static int args_done(struct arg_list *l, int ret)
{
	if (l->size)
		raw_unmap(l->argv, l->size);
	return ret;
}

EXPORT int execl(const char *path, const char *arg, ...)
{
	struct arg_list l;
	va_list count, ap;

	va_start(count, arg);
	va_start(ap, arg);
	args_collect(&l, arg, count, ap, 0);
	va_end(count);
	va_end(ap);
	return args_done(&l, execve(path, l.argv, l.envp));
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
	struct arg_list l;
	va_list count, ap;

	va_start(count, arg);
	va_start(ap, arg);
	args_collect(&l, arg, count, ap, 0);
	va_end(count);
	va_end(ap);
	return args_done(&l, execvpe(file, l.argv, l.envp));
}

EXPORT int execle(const char *path, const char *arg, ...)
{
	struct arg_list l;
	va_list count, ap;

	va_start(count, arg);
	va_start(ap, arg);
	args_collect(&l, arg, count, ap, 1);
	va_end(count);
	va_end(ap);
	return args_done(&l, execve(path, l.argv, l.envp));
}

/* The child is not a copy of this process: only its environment needs trail's entries. */
EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		       const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct call c = { CALL_SPAWN, path, argv, -1, 0, pid, actions, attr };

	return with_env(&c, envp);
}

EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct call c = { CALL_SPAWNP, file, argv, -1, 0, pid, actions, attr };

	return with_env(&c, envp);
}

EXPORT void _exit(int status)
{
	if (unlikely(!real._exit))
		resolve_all();
	finish();
	real._exit(status);
}

EXPORT void _Exit(int status)
{
	_exit(status);
}
