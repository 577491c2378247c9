/*
 * test_sampler_launch.c - the sampler's launch spec (perf/sampler.h) on
 * real commands under real perf events: the directory, stdio and
 * environment the command gets, the process group it joins, its process
 * tree's rusage, a timeout that kills the tree and says so, a signal that
 * stops the run for the caller, and a directory that cannot be entered.
 * Skips when perf_event_open is not allowed here.
 */
#include "harness.h"
#include "core/child.h"
#include "core/strbuf.h"
#include "perf/sampler.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[] = "/tmp/trail-test-launch.XXXXXX";

static int nothing(struct perf_tool *t, const struct perf_event_header *rec)
{
	(void)t;
	(void)rec;
	return 0;
}

/* Run sh -c script as l says under a cpu-clock sampler; s is left released. */
static int run(const char *script, const struct sampler_launch *l, struct sampler *s)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct sampler_opts so;
	struct perf_tool tool;
	int ret;

	memset(&so, 0, sizeof(so));
	memset(&tool, 0, sizeof(tool));
	tool.other = nothing;
	so.event = "cpu-clock";
	so.freq = 99;
	sampler_init(s, &so);
	if (sampler_launch_command(s, argv, l))
		SKIP("cannot fork");
	if (sampler_open(s))
		SKIP("perf_event_open is not allowed here");
	ret = sampler_run(s, &tool);
	sampler_release(s);
	return ret;
}

static char *path_in_tmp(const char *name)
{
	static char buf[4][256];
	static int k;

	if (strstr(tmp, "XXXXXX") && !mkdtemp(tmp))
		SKIP("cannot make a temp dir");
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmp, name);
	return buf[k];
}

/* The test's temp dir, gone (each test runs in a fork of its own). */
static void tmp_remove(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	CHECK(system(cmd) == 0);
}

static void read_file(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	CHECK(strbuf_read_file(sb, path) >= 0);
}

TEST(launch_gives_directory_stdio_and_environment)
{
	const char *env[] = { "TRAIL_LAUNCH_MARK=added", "HOME=/replaced", NULL };
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct strbuf out = STRBUF_INIT, expect = STRBUF_INIT;
	struct sampler s;
	char *dir = path_in_tmp("work"), *log = path_in_tmp("log");

	CHECK(mkdir(dir, 0700) == 0);
	l.dir = dir;
	l.in = SAMPLER_FD_DEVNULL;
	l.out_path = log;
	l.err_to_out = 1;
	l.env = env;
	CHECK_INT(run("pwd; echo \"$TRAIL_LAUNCH_MARK $HOME\"; readlink /proc/self/fd/0; "
		      "echo to-stderr >&2", &l, &s), 0);
	CHECK_INT(s.exit_code, 0);
	read_file(log, &out);
	strbuf_addf(&expect, "%s\nadded /replaced\n/dev/null\nto-stderr\n", dir);
	CHECK_STREQ(out.buf, expect.buf);
	strbuf_release(&out);
	strbuf_release(&expect);
	tmp_remove();
}

TEST(launch_replaces_the_environment)
{
	const char *envp[] = { "ONLY=this", "PATH=/usr/bin:/bin", NULL };
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct strbuf out = STRBUF_INIT;
	struct sampler s;
	char *log = path_in_tmp("env");

	l.out_path = log;
	l.envp = envp;
	setenv("TRAIL_LAUNCH_OURS", "leaked", 1);
	CHECK_INT(run("echo \"$ONLY ${TRAIL_LAUNCH_OURS:-none}\"", &l, &s), 0);
	read_file(log, &out);
	CHECK_STREQ(out.buf, "this none\n");
	strbuf_release(&out);
	tmp_remove();
}

TEST(launch_joins_the_process_group)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct strbuf out = STRBUF_INIT;
	struct sampler s;
	char *log = path_in_tmp("pgid"), want[32];

	CHECK(child_group_begin() == 0);
	l.pgid = child_group_id();
	l.out_path = log;
	CHECK_INT(run("cut -d' ' -f5 /proc/self/stat", &l, &s), 0);
	read_file(log, &out);
	snprintf(want, sizeof(want), "%d\n", (int)child_group_id());
	CHECK_STREQ(out.buf, want);
	strbuf_release(&out);
	tmp_remove();
}

TEST(rusage_covers_the_process_tree)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct sampler s;
	double cpu;

	/* the work is in a grandchild (a subshell) that sh waits for */
	CHECK_INT(run("(i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done); exit 3", &l, &s), 0);
	CHECK_INT(s.exit_code, 3);
	cpu = (double)s.rusage.ru_utime.tv_sec + (double)s.rusage.ru_utime.tv_usec * 1e-6 +
	      (double)s.rusage.ru_stime.tv_sec + (double)s.rusage.ru_stime.tv_usec * 1e-6;
	CHECK(cpu > 0);
}

/* Whether pid is gone (or a zombie), allowing a slow machine 10 s. */
static int gone(pid_t pid)
{
	char path[64], buf[256];
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");
		char *rp;

		if (!f)
			return 1;
		rp = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (rp && rp[1] == ' ' && rp[2] == 'Z')
			return 1;
		usleep(10000);
	}
	return 0;
}

TEST(timeout_kills_the_tree_and_says_so)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct strbuf out = STRBUF_INIT;
	struct sampler s;
	char *pidfile = path_in_tmp("bg.pid"), script[400];
	uint64_t bg;

	l.timeout = 0.2;
	snprintf(script, sizeof(script), "sleep 300 & echo $! > %s; wait $!", pidfile);
	CHECK_INT(run(script, &l, &s), 0);
	CHECK_INT(s.stopped, SAMPLER_STOP_TIMEOUT);
	/* killed, or ended by its waited-for sleep's being killed first */
	CHECK_INT(s.exit_code, 128 + SIGKILL);
	read_file(pidfile, &out);
	strbuf_rtrim(&out);
	bg = strtoull(out.buf, NULL, 10);
	CHECK(bg > 0 && gone((pid_t)bg));
	strbuf_release(&out);
	tmp_remove();
}

TEST(duration_still_ends_a_run_as_a_success)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct sampler s;
	const char *argv[] = { "sleep", "300", NULL };
	struct sampler_opts so;
	struct perf_tool tool;

	(void)l;
	memset(&so, 0, sizeof(so));
	memset(&tool, 0, sizeof(tool));
	tool.other = nothing;
	so.event = "cpu-clock";
	so.freq = 99;
	so.duration = 0.2;
	sampler_init(&s, &so);
	CHECK(sampler_launch_command(&s, argv, NULL) == 0);
	if (sampler_open(&s))
		SKIP("perf_event_open is not allowed here");
	CHECK_INT(sampler_run(&s, &tool), 0);
	sampler_release(&s);
	CHECK_INT(s.stopped, SAMPLER_STOP_DURATION);
	CHECK_INT(s.exit_code, 128 + SIGTERM);
}

TEST(signal_stops_the_caller)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct sampler s;
	sigset_t pending;

	l.signal_stops_caller = 1;
	/* SIGTERM to us, as a user's kill would; the command would sleep on */
	CHECK_INT(run("kill -TERM $PPID; sleep 300", &l, &s), 0);
	CHECK_INT(s.stopped, SAMPLER_STOP_SIGNAL);
	CHECK_INT(s.stop_signal, SIGTERM);
	CHECK_INT(s.exit_code, 128 + SIGKILL);
	/* reported, not left pending: the caller decides (flame raises it again) */
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGTERM));
}

TEST(a_directory_that_cannot_be_entered_fails_the_run)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct sampler s;

	l.dir = "/nonexistent/trail-launch";
	l.err = SAMPLER_FD_DEVNULL;
	CHECK_INT(run("true", &l, &s), -1);
	CHECK_INT(s.exit_code, 127);
	CHECK_INT(s.exec_errno, ENOENT);
}

TEST_MAIN("sampler_launch", launch_gives_directory_stdio_and_environment,
	  launch_replaces_the_environment, launch_joins_the_process_group,
	  rusage_covers_the_process_tree, timeout_kills_the_tree_and_says_so,
	  duration_still_ends_a_run_as_a_success, signal_stops_the_caller,
	  a_directory_that_cannot_be_entered_fails_the_run)
