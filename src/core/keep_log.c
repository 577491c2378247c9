/*
 * keep_log.c - copies a failed run's log out of the scratch directory
 * that is about to be removed (see keep_log.h).  Names carry the time,
 * the pid and a counter, so runs and retries never overwrite each other.
 */
#include "core/keep_log.h"

#include "core/alloc.h"
#include "core/cache_dir.h"
#include "core/cleanup.h"
#include "core/strbuf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int copy_tail(const char *from, const char *to)
{
	char buf[65536];
	struct stat st;
	ssize_t n = 0;
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, ret = -1;

	if (in < 0 || fstat(in, &st))
		goto out;
	if (st.st_size > KEEP_LOG_MAX && lseek(in, st.st_size - KEEP_LOG_MAX, SEEK_SET) < 0)
		goto out;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0)
		goto out;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			goto out;
	ret = n < 0 ? -1 : 0;
out:
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		ret = -1;
	if (ret && out >= 0)
		unlink(to);
	return ret;
}

char *keep_log(const char *path)
{
	static unsigned counter;
	const char *base = strrchr(path, '/');
	char *dir = state_dir("logs"), *kept;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	base = base ? base + 1 : path;
	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	kept = xstrfmt("%s/%s-%ld-%u-%s", dir, stamp, (long)getpid(), counter++, base);
	if (make_dirs_quiet(dir) || copy_tail(path, kept)) {
		free(kept);
		kept = xstrdup(path);
	}
	free(dir);
	return kept;
}
