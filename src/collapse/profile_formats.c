/*
 * profile_formats.c - the table of whole-file profile formats and the
 * guess over it (profile_formats.h).  A JSON format is detected on its
 * first 4 KiB (inflated when gzipped); pprof, which is gzipped protobuf,
 * on its first field.
 */
#include "collapse/profile_formats.h"
#include "collapse/json_profiles.h"
#include "collapse/pprof.h"
#include "core/error.h"
#include "core/file_map.h"
#include "core/gzip_buf.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define HEAD_BYTES 4096

static int fold_pprof(const void *data, size_t len, const char *name, const char *sample_type,
		      struct folded_profile *out)
{
	return pprof_fold(data, len, name, sample_type, out);
}

static int fold_speedscope(const void *data, size_t len, const char *name,
			   const char *sample_type, struct folded_profile *out)
{
	return speedscope_fold(data, len, name, out);
}

static int fold_cpuprofile(const void *data, size_t len, const char *name,
			   const char *sample_type, struct folded_profile *out)
{
	return cpuprofile_fold(data, len, name, out);
}

static int fold_jfr(const void *data, size_t len, const char *name, const char *sample_type,
		    struct folded_profile *out)
{
	return jfr_json_fold(data, len, name, sample_type, out);
}

/*
 * Folded stacks ("a;b;c 12"), e.g. from py-spy, async-profiler or trail
 * itself, so that --output can convert them: every complete line of the
 * head must be one (perf script text has blank lines, event lines ending
 * in "event:" and frame lines ending in ")").
 */
static int folded_detect(const void *data, size_t len)
{
	const char *p = data, *end = p + len, *nl;
	struct folded_line fl;
	int lines = 0;

	for (; p < end && (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
		size_t n = (size_t)(nl - p);

		if (n && p[n - 1] == '\r')
			n--;
		if (!n || *p == ' ' || *p == '\t' || folded_parse_line(p, n, &fl) < 0)
			return 0;
		lines++;
	}
	if (!lines && p < end)	/* one line without a newline */
		return *p != ' ' && *p != '\t' && !folded_parse_line(p, (size_t)(end - p), &fl);
	return lines > 0;
}

static int fold_folded(const void *data, size_t len, const char *name, const char *sample_type,
		       struct folded_profile *out)
{
	const char *p = data, *end = p + len, *nl;
	struct folded_line fl;
	uint64_t lineno = 0, bad = 0;

	for (; p < end; p = nl + 1) {
		size_t n;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		if (!n)
			continue;
		if (folded_parse_line(p, n, &fl) < 0) {
			if (bad++ < 10)
				warning("%s:%llu: not a folded stack line", name,
					(unsigned long long)lineno);
			continue;
		}
		folded_profile_add(out, fl.stack, fl.stack_len, 0, fl.count[0]);
		if (fl.columns == 2)
			folded_profile_add(out, fl.stack, fl.stack_len, 1, fl.count[1]);
	}
	return 0;
}

const struct profile_format profile_formats[] = {
	{ "pprof", pprof_detect, fold_pprof },
	{ "speedscope", speedscope_detect, fold_speedscope },
	{ "cpuprofile", cpuprofile_detect, fold_cpuprofile },
	{ "jfr-json", jfr_json_detect, fold_jfr },
	{ "folded", folded_detect, fold_folded },
	{ NULL, NULL, NULL }
};

/* Leading JSON whitespace skipped, so detectors can look at the first byte. */
static const char *skip_ws(const char *p, size_t *len)
{
	while (*len && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
		p++;
		(*len)--;
	}
	return p;
}

const struct profile_format *profile_format_guess(const void *data, size_t len)
{
	char head[HEAD_BYTES];
	const char *h = data;
	size_t hlen = len;
	const struct profile_format *f;

	if (pprof_detect(data, len))
		return &profile_formats[0];
	if (gzip_buf_is_gzip(data, len)) {
		hlen = gzip_buf_peek(data, len, head, sizeof(head));
		h = head;
	}
	h = skip_ws(h, &hlen);
	for (f = profile_formats + 1; f->name; f++)
		if (f->detect(h, hlen))
			return f;
	return NULL;
}

int profile_format_fold(const void *data, size_t len, const char *name, const char *sample_type,
			struct folded_profile *out)
{
	const struct profile_format *f = profile_format_guess(data, len);
	struct strbuf raw = STRBUF_INIT;
	int ret;

	if (!f)
		return 0;
	if (f->fold != fold_pprof && gzip_buf_is_gzip(data, len)) {
		if (gzip_buf_inflate(data, len, (size_t)1 << 31, &raw, name) < 0)
			return -1;
		data = raw.buf;
		len = raw.len;
	}
	ret = f->fold(data, len, name, sample_type, out) < 0 ? -1 : 1;
	strbuf_release(&raw);
	return ret;
}

int profile_format_fold_file(const char *path, const char *sample_type, struct folded_profile *out)
{
	char head[HEAD_BYTES];
	struct file_map m;
	ssize_t got;
	int fd, ret;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return 0;	/* standard input, or left to the caller's reader to report */
	got = pread(fd, head, sizeof(head), 0);
	if (got <= 0 || !profile_format_guess(head, (size_t)got)) {
		close(fd);
		return 0;
	}
	ret = file_map_fd(&m, fd, path, FILE_MAP_POPULATE | FILE_MAP_SEQUENTIAL);
	close(fd);
	if (ret < 0)
		return -1;
	ret = profile_format_fold(m.data, m.size, path, sample_type, out);
	file_map_release(&m);
	return ret;
}
