/*
 * cleanup.c - exit and signal-time cleanup handlers, and the temp
 * directories and tree removal built on them.
 */
#define _XOPEN_SOURCE 700
#include "core/cleanup.h"
#include "core/alloc.h"
#include "core/error.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CLEANUPS 64

static struct {
	cleanup_fn fn;
	void *data;
} handlers[MAX_CLEANUPS];
static volatile sig_atomic_t nr_handlers;
static int installed;

static void run_all(void)
{
	while (nr_handlers > 0) {
		int i = --nr_handlers;

		if (handlers[i].fn)
			handlers[i].fn(handlers[i].data);
	}
}

static void on_signal(int sig)
{
	run_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install(void)
{
	if (installed)
		return;
	installed = 1;
	atexit(run_all);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
}

int cleanup_push(cleanup_fn fn, void *data)
{
	int i;

	install();
	if (nr_handlers >= MAX_CLEANUPS)
		die("too many cleanup handlers");
	i = nr_handlers;
	handlers[i].fn = fn;
	handlers[i].data = data;
	nr_handlers = i + 1;
	return i;
}

/* Unregister handle; run its function first when run is non-zero. */
void cleanup_pop(int handle, int run)
{
	cleanup_fn fn;

	if (handle < 0 || handle >= nr_handlers || !handlers[handle].fn)
		return;
	fn = handlers[handle].fn;
	handlers[handle].fn = NULL;
	if (run)
		fn(handlers[handle].data);
	while (nr_handlers > 0 && !handlers[nr_handlers - 1].fn)
		nr_handlers--;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

int remove_tree(const char *path)
{
	if (!path || !*path || !strcmp(path, "/"))
		return trail_error("refusing to remove '%s'", path ? path : "");
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return error_errno("cannot remove '%s'", path);
	return 0;
}

/* mkdir -p; on failure errno is set and *failed names the directory. */
static int mkdirs(const char *path, char **failed)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		if (*s) {
			*s = '\0';
			if (mkdir(p, 0777) && errno != EEXIST)
				break;
			*s = '/';
			continue;
		}
		if (mkdir(p, 0777) && errno != EEXIST)
			break;
		free(p);
		return 0;
	}
	*failed = p;
	return -1;
}

int make_dirs(const char *path)
{
	char *failed;

	if (!mkdirs(path, &failed))
		return 0;
	error_errno("cannot create directory '%s'", failed);
	free(failed);
	return -1;
}

int make_dirs_quiet(const char *path)
{
	char *failed;

	if (!mkdirs(path, &failed))
		return 0;
	free(failed);
	return -1;
}

struct tempdir {
	char *path;
	int handle;
};

static struct tempdir tempdirs[MAX_CLEANUPS];

static void remove_tempdir(void *data)
{
	struct tempdir *t = data;

	if (t->path)
		remove_tree(t->path);
}

static struct tempdir *find_tempdir(const char *path)
{
	int i;

	for (i = 0; i < MAX_CLEANUPS; i++)
		if (tempdirs[i].path && !strcmp(tempdirs[i].path, path))
			return &tempdirs[i];
	return NULL;
}

char *tempdir_create(const char *prefix)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	int i;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (*tmp != '/') {
		/*
		 * Absolute: the path travels to children (the allocation
		 * interposer's TRAIL_ALLOC_DIR) that may chdir before using it.
		 */
		char *cwd = getcwd(NULL, 0);

		if (!cwd) {
			error_errno("cannot resolve TMPDIR '%s'", tmp);
			return NULL;
		}
		path = xstrfmt("%s/%s/%s.XXXXXX", cwd, tmp, prefix);
		free(cwd);
	} else {
		path = xstrfmt("%s/%s.XXXXXX", tmp, prefix);
	}
	if (!mkdtemp(path)) {
		error_errno("cannot create a temporary directory in '%s'", tmp);
		free(path);
		return NULL;
	}
	for (i = 0; i < MAX_CLEANUPS && tempdirs[i].path; i++)
		;
	if (i == MAX_CLEANUPS)
		die("too many temporary directories");
	tempdirs[i].path = xstrdup(path);
	tempdirs[i].handle = cleanup_push(remove_tempdir, &tempdirs[i]);
	return path;
}

void tempdir_keep(const char *path)
{
	struct tempdir *t = find_tempdir(path);

	if (!t)
		return;
	cleanup_pop(t->handle, 0);
	FREE_AND_NULL(t->path);
}

void tempdir_remove(const char *path)
{
	struct tempdir *t = find_tempdir(path);

	if (!t)
		return;
	cleanup_pop(t->handle, 1);
	FREE_AND_NULL(t->path);
}
