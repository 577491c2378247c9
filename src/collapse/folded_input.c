/*
 * folded_input.c - folded stacks as an input format ("a;b;c 12", what
 * py-spy --format raw, async-profiler -o collapsed and every
 * stackcollapse script print), so 'trail collapse --output pprof' can
 * convert them and several folded files merge into one.  Claimed with
 * low confidence: every complete line of the head must be a folded line
 * (perf script text has blank lines, "event:" lines, frames in brackets).
 */
#include "collapse/collapser.h"
#include "collapse/profile_formats.h"
#include "core/error.h"
#include "profile/folded.h"

#include <string.h>

static int is_folded_line(const char *p, size_t n)
{
	struct folded_line fl;

	if (n && p[n - 1] == '\r')
		n--;
	return n && *p != ' ' && *p != '\t' && !folded_parse_line(p, n, &fl) && fl.columns == 1;
}

static int detect(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *nl;
	int lines = 0;

	for (; p < end && (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
		if (!is_folded_line(p, (size_t)(nl - p)))
			return 0;
		lines++;
	}
	if (!lines)	/* one line, maybe cut: whole only when the input is that short */
		return len < COLLAPSE_HEAD_MAX && is_folded_line(p, (size_t)(end - p)) ? 10 : 0;
	return 10;
}

static int fold(const char *data, size_t len, const char *name, const char *sample_type,
		struct folded_profile *out)
{
	const char *p = data, *end = data + len, *nl;
	uint64_t lineno = 0, bad = 0;
	struct folded_line fl;

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
			if (bad++ < COLLAPSE_MAX_WARNINGS)
				warning("%s:%llu: not a folded stack line", name,
					(unsigned long long)lineno);
			continue;
		}
		folded_profile_add(out, fl.stack, fl.stack_len, 0, fl.count[fl.columns - 1]);
	}
	return 0;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	return collapse_read_whole(s, in, f, fold);
}

const struct collapser collapse_folded = {
	"folded",
	"folded stacks (\"a;b;c 12\": py-spy, async-profiler collapsed, stackcollapse-*)",
	detect,
	read_input,
};
