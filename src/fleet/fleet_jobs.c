/*
 * fleet_jobs.c - several scripts at once on hosts or here (fleet_jobs.h).
 * Each child joins trail's process group (core/child.h), so Ctrl-C or a
 * kill of trail ends the local ssh clients; their stdin pipes close with
 * them and the scripts on the hosts cancel themselves (remote.h).
 */
#include "fleet/fleet_jobs.h"
#include "fleet/remote.h"
#include "core/alloc.h"
#include "core/error.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void fleet_job_init(struct fleet_job *j)
{
	struct child c = CHILD_INIT;

	memset(j, 0, sizeof(*j));
	strbuf_init(&j->out, 0);
	strbuf_init(&j->err, 0);
	j->c = c;
	j->wfd = -1;
	j->code = -1;
}

void fleet_job_release(struct fleet_job *j)
{
	free(j->script);
	strbuf_release(&j->out);
	strbuf_release(&j->err);
	string_list_clear(&j->argv);
	if (j->wfd >= 0)
		close(j->wfd);
	free(j->out_path);
	free(j->err_path);
	fleet_job_init(j);
}

static int job_start(struct fleet_job *j, const char *scratch, size_t k)
{
	static unsigned serial;
	int in = -1, fds[2] = { -1, -1 }, err;

	j->out_path = xstrfmt("%s/job-%u-%zu.out", scratch, serial, k);
	j->err_path = xstrfmt("%s/job-%u-%zu.err", scratch, serial, k);
	serial++;
	flame_remote_argv(j->host, j->cpus, j->script, &j->argv);
	if (j->stdin_path) {
		in = open(j->stdin_path, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			return error_errno("cannot open '%s'", j->stdin_path);
	} else {
		/* the write end stays here (close-on-exec: no other child holds it) */
		if (pipe2(fds, O_CLOEXEC))
			return error_errno("cannot create a pipe");
		in = fds[0];
		j->wfd = fds[1];
	}
	err = open(j->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (err < 0) {
		close(in);
		return error_errno("cannot create '%s'", j->err_path);
	}
	j->c.argv = (const char *const *)j->argv.items;
	j->c.in = in;
	j->c.out_path = j->out_path;
	j->c.err = err;
	j->t0 = now();
	if (child_start(&j->c)) {
		close(in);
		close(err);
		return -1;
	}
	close(in);
	close(err);
	return 0;
}

void fleet_jobs_run(struct fleet_job *jobs, size_t n, const char *scratch)
{
	size_t i;
	int *started = xcalloc(n ? n : 1, sizeof(*started));

	for (i = 0; i < n; i++)
		started[i] = !job_start(&jobs[i], scratch, i);
	for (i = 0; i < n; i++) {
		if (!started[i])
			continue;
		jobs[i].code = child_wait(&jobs[i].c);
		jobs[i].seconds = now() - jobs[i].t0;
		if (jobs[i].wfd >= 0) {
			close(jobs[i].wfd);
			jobs[i].wfd = -1;
		}
		if (strbuf_read_file(&jobs[i].out, jobs[i].out_path))
			strbuf_reset(&jobs[i].out);
		if (strbuf_read_file(&jobs[i].err, jobs[i].err_path))
			strbuf_reset(&jobs[i].err);
		unlink(jobs[i].out_path);
		unlink(jobs[i].err_path);
	}
	free(started);
}

void fleet_job_dir(const struct fleet_job *j, char *buf, size_t n)
{
	const char *p = j->err.len ? strstr(j->err.buf, "trail-flame-dir ") : NULL;

	buf[0] = '\0';
	if (p) {
		p += strlen("trail-flame-dir ");
		snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
	}
}

void fleet_job_last_error(const struct fleet_job *j, char *buf, size_t n)
{
	const char *p = j->err.buf, *best = NULL;
	size_t best_len = 0;

	buf[0] = '\0';
	while (p && *p) {
		size_t len = strcspn(p, "\n");

		if (len && strncmp(p, "trail-flame-dir ", 16)) {
			best = p;
			best_len = len;
		}
		p += len + (p[len] == '\n');
	}
	if (best)
		snprintf(buf, n, "%.*s", (int)(best_len > 200 ? 200 : best_len), best);
}
