/*
 * alloc_record.c - running a command under the allocation interposer and
 * gathering what its processes wrote (see alloc_record.h).  The raw files
 * are named alloc.PID.SEQ.raw; they are converted in order of (PID, SEQ),
 * so a process's images follow one another across exec.
 */
#include "alloc/alloc_record.h"
#include "alloc/alloc_read.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/file_map.h"
#include "core/string_list.h"
#include "perf/perfdata_write.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int readable(const char *path)
{
	return !access(path, R_OK);
}

char *alloc_preload_find(void)
{
	const char *env = getenv("TRAIL_ALLOC_LIB");
	char exe[PATH_MAX], *slash, *path;
	ssize_t n;

	if (env && *env) {
		if (readable(env))
			return xstrdup(env);
		trail_error("TRAIL_ALLOC_LIB: cannot read '%s'", env);
		return NULL;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		error_errno("cannot find the trail binary (/proc/self/exe)");
		return NULL;
	}
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	path = xstrfmt("%s/%s", exe, ALLOC_PRELOAD_NAME);
	if (readable(path))
		return path;
	free(path);
	/* installed: PREFIX/bin/trail and PREFIX/lib/trail/libtrail-alloc.so */
	path = xstrfmt("%s/../lib/trail/%s", exe, ALLOC_PRELOAD_NAME);
	if (readable(path))
		return path;
	trail_error("cannot find %s next to '%s' or in '%s/../lib/trail' (set TRAIL_ALLOC_LIB)",
	      ALLOC_PRELOAD_NAME, exe, exe);
	free(path);
	return NULL;
}

void alloc_env(const struct alloc_run *r, char *env[ALLOC_ENV_SLOTS])
{
	const char *old = getenv("LD_PRELOAD");

	/* the interposer goes first, so it sees allocations before other preloads */
	env[0] = old && *old ? xstrfmt("LD_PRELOAD=%s:%s", r->preload, old)
			     : xstrfmt("LD_PRELOAD=%s", r->preload);
	env[1] = xstrfmt("TRAIL_ALLOC_DIR=%s", r->dir);
	env[2] = xstrfmt("TRAIL_ALLOC_INTERVAL=%" PRIu64, r->interval);
	env[3] = xstrfmt("TRAIL_ALLOC_UNWIND=%s", r->dwarf ? "dwarf" : "fp");
	env[4] = xstrfmt("TRAIL_ALLOC_PRELOAD=%s", r->preload);
	env[5] = NULL;
}

void alloc_env_release(char *env[ALLOC_ENV_SLOTS])
{
	for (size_t i = 0; env[i]; i++) {
		free(env[i]);
		env[i] = NULL;
	}
}

/*
 * While the command runs, a signal meant to end trail ends the command
 * (as 'trail record' does for its workload): SIGTERM, SIGHUP and a SIGINT
 * or SIGQUIT sent to trail alone are passed on, a second one as SIGKILL;
 * the terminal's Ctrl-C reaches the command by itself.  trail then writes
 * what the command recorded and exits with its status (128+N).
 */
static volatile sig_atomic_t fwd_pid, fwd_pending, fwd_count;

static void forward_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if ((sig == SIGINT || sig == SIGQUIT) && si->si_code == SI_KERNEL)
		return;	/* the terminal's: the command got it too */
	if (fwd_pid <= 0) {
		fwd_pending = sig;
		return;
	}
	kill((pid_t)fwd_pid, fwd_count++ ? SIGKILL : sig);
}

static const int forwarded[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
#define NR_FORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

int alloc_run_command(struct alloc_run *r)
{
	struct child c = CHILD_INIT;
	char *env[ALLOC_ENV_SLOTS];
	struct sigaction sa, old[NR_FORWARDED];
	size_t i;
	int code;

	alloc_env(r, env);
	c.argv = r->argv;
	c.env = (const char *const *)env;
	fwd_pid = fwd_pending = fwd_count = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_FORWARDED; i++)
		sigaction(forwarded[i], &sa, &old[i]);
	if (child_start(&c)) {
		code = -1;
		goto out;
	}
	fwd_pid = c.pid;
	if (fwd_pending) {
		fwd_count++;
		kill(c.pid, fwd_pending);
	}
	r->exit_code = child_wait(&c);
	code = r->exit_code < 0 ? -1 : 0;
out:
	fwd_pid = 0;
	for (i = 0; i < NR_FORWARDED; i++)
		sigaction(forwarded[i], &old[i], NULL);
	alloc_env_release(env);
	return code;
}

struct raw_name {
	char *path;
	uint64_t pid, seq;
};

static int cmp_raw(const void *a, const void *b)
{
	const struct raw_name *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int alloc_write_perfdata(const char *dir, enum alloc_view view, const char *path,
			 int argc, const char *const *argv, struct alloc_totals *t)
{
	struct perfdata_writer w;
	struct perf_event_attr attr;
	struct raw_name *names = NULL;
	size_t nr = 0, alloc = 0, i;
	uint64_t id = 1;
	struct dirent *de;
	DIR *d;
	int ret = -1;

	memset(&w, 0, sizeof(w));
	w.fd = -1;
	d = opendir(dir);
	if (!d && errno == ENOENT)
		return trail_error("the allocation records are lost: the command removed "
				   "trail's directory '%s'", dir);
	if (!d)
		return error_errno("cannot read '%s'", dir);
	while ((de = readdir(d))) {
		unsigned long long pid, seq;
		int end = 0;

		if (sscanf(de->d_name, "alloc.%llu.%llu.raw.lost%n", &pid, &seq, &end) == 2 &&
		    !de->d_name[end]) {
			t->lost++;	/* the interposer gave the file up (raw.h) */
			continue;
		}
		if (sscanf(de->d_name, "alloc.%llu.%llu.raw%n", &pid, &seq, &end) != 2 ||
		    de->d_name[end])
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr].path = xstrfmt("%s/%s", dir, de->d_name);
		names[nr].pid = pid;
		names[nr].seq = seq;
		nr++;
	}
	closedir(d);
	if (!nr) {
		ret = 0;	/* nothing to write: the caller says why */
		goto out;
	}
	qsort(names, nr, sizeof(*names), cmp_raw);

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.size = PERFDATA_ATTR_SIZE;
	attr.sample_period = 1;
	attr.sample_type = ALLOC_SAMPLE_TYPE;
	attr.exclude_kernel = 1;
	attr.comm = attr.mmap = attr.mmap2 = 1;
	if (perfdata_writer_open(&w, path))
		goto out;
	perfdata_writer_add_event(&w, &attr, alloc_view_name(view), &id, 1);
	if (perfdata_writer_start(&w))
		goto out;
	for (i = 0; i < nr; i++) {
		struct file_map m;
		int failed;

		if (file_map_path(&m, names[i].path, FILE_MAP_POPULATE))
			goto out;
		failed = alloc_raw_convert(m.data, m.size, names[i].path, view, &w, t);
		file_map_release(&m);
		if (failed || perfdata_writer_round(&w))
			goto out;
	}
	if (perfdata_writer_finish(&w, argc, argv))
		goto out;
	ret = 0;
out:
	perfdata_writer_release(&w);
	for (i = 0; i < nr; i++)
		free(names[i].path);
	free(names);
	return ret;
}
