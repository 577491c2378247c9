/*
 * backend_command.c - the user's own profiler (--profiler 'CMD', see
 * backend.h): run it with TRAIL_PROFILE (a file to write),
 * TRAIL_PROFILE_DIR (an empty directory, for profilers that name their
 * own files) and TRAIL_RUN (the workload command); then read whatever it
 * left there, in any format trail collapse reads, counting samples where
 * the format says how many (pprof: the sample type in unit "count").
 */
#include "measure/backend.h"
#include "measure/record_cmd.h"
#include "collapse/profile_formats.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void command_counts(const struct flame_capture_opts *o, char *buf, size_t n)
{
	(void)o;
	snprintf(buf, n, "on-CPU samples");
}

static void command_profiler(const struct flame_capture_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, "%s", o->profiler);
}

/* What runs: the user's command, through sh -c. */
static void command_record_argv(const struct flame_capture_opts *o, const char *out, int check,
				struct string_list *argv)
{
	const char *sh[] = { "sh", "-c", o->profiler, NULL };

	(void)out;
	(void)check;
	flame_record_add_words(argv, sh);
}

static int command_check(const struct flame_capture_opts *o)
{
	(void)o;
	return 0;	/* the user's own profiler: its first run will tell */
}

/* Fold one file the profiler left into run->folded. */
static int read_profile(const char *path, struct flame_run *run)
{
	return collapse_profile_file(path, "unit=count", &run->folded) < 0 ? -1 : 0;
}

static int command_capture(const struct flame_capture_opts *o, const char *dir, const char *log,
			   struct flame_run *run)
{
	char *file = xstrfmt("%s/profile", o->scratch);
	char *pdir = xstrfmt("%s/profile.d", o->scratch);
	char *env_file = xstrfmt("TRAIL_PROFILE=%s", file);
	char *env_dir = xstrfmt("TRAIL_PROFILE_DIR=%s", pdir);
	char *env_run = xstrfmt("TRAIL_RUN=%s", o->run_cmd);
	const char *const env[] = { env_file, env_dir, env_run, NULL };
	const char *const sh[] = { "sh", "-c", o->profiler, NULL };
	struct dirent *de;
	DIR *d;
	int ret, found = 0;

	unlink(file);
	remove_tree(pdir);
	if (mkdir(pdir, 0700) < 0) {
		ret = error_errno("cannot create '%s'", pdir);
		goto out;
	}
	ret = flame_record_run(o, sh, env, dir, log, run);
	if (ret)
		goto out;
	if (!access(file, F_OK)) {
		found = 1;
		ret = read_profile(file, run);
	}
	d = opendir(pdir);
	while (!ret && d && (de = readdir(d))) {
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", pdir, de->d_name);
		found = 1;
		ret = read_profile(path, run);
		free(path);
	}
	if (d)
		closedir(d);
	if (!ret && !found)
		ret = trail_error("the profiler command wrote no profile to $TRAIL_PROFILE or "
			    "$TRAIL_PROFILE_DIR (log: %s)", log);
out:
	unlink(file);
	remove_tree(pdir);
	free(file);
	free(pdir);
	free(env_file);
	free(env_dir);
	free(env_run);
	return ret;
}

const struct flame_backend flame_backend_command = {
	.view = "cpu",
	.counts = command_counts,
	.profiler = command_profiler,
	.record_argv = command_record_argv,
	.check = command_check,
	.capture = command_capture,
};
