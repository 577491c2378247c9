/*
 * git_rev.c - user-given revisions, ranges and URLs checked before git
 * sees them (see git_rev.h).  Checking the spelling first gives an error
 * that names trail's option; rev-parse --verify behind --end-of-options
 * (git 2.24) makes sure no other spelling can slip through as an option.
 */
#include "core/git_rev.h"

#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static int check(const char *opt, const char *what, const char *s)
{
	if (!*s)
		return trail_error("%s '': an empty %s", opt, what);
	if (*s == '-')
		return trail_error("%s '%s': a %s cannot start with '-' (git would read it as an "
				   "option)", opt, s, what);
	if (strlen(s) > GIT_REV_MAX)
		return trail_error("%s '%.40s...': longer than %d bytes", opt, s, GIT_REV_MAX);
	if (has_control(s))
		return trail_error("%s '%s': a %s cannot hold control characters", opt, s, what);
	return 0;
}

int git_rev_check(const char *opt, const char *rev)
{
	return check(opt, "revision", rev);
}

int git_url_check(const char *opt, const char *url)
{
	return check(opt, "repository URL", url);
}

int git_range_split(const char *opt, const char *spec, char **from, char **to)
{
	const char *dots = strstr(spec, "..");
	char *a, *b;

	*from = *to = NULL;
	if (check(opt, "revision range", spec))
		return -1;
	if (!dots) {
		*to = xstrdup(spec);
		return 0;
	}
	if (dots[2] == '.')
		return trail_error("%s '%s': A...B (symmetric difference) is not a first-parent "
				   "range; use A..B", opt, spec);
	if (strstr(dots + 2, ".."))
		return trail_error("%s '%s': more than one '..'", opt, spec);
	if (dots == spec && !dots[2])
		return trail_error("%s '..': no end given", opt);
	a = dots == spec ? xstrdup("HEAD") : xstrndup(spec, (size_t)(dots - spec));
	b = xstrdup(dots[2] ? dots + 2 : "HEAD");
	if (git_rev_check(opt, a) || git_rev_check(opt, b)) {
		free(a);
		free(b);
		return -1;
	}
	*from = a;
	*to = b;
	return 0;
}

int git_rev_resolve(const char *dir, const char *opt, const char *rev, char id[41])
{
	const char *argv[] = { "git", "rev-parse", "--verify", "--quiet", "--end-of-options",
			       NULL, NULL };
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *spec;
	int code;

	if (git_rev_check(opt, rev))
		return -1;
	spec = xstrfmt("%s^{commit}", rev);
	argv[5] = spec;
	c.argv = argv;
	c.dir = dir;
	c.err = CHILD_DEVNULL;
	code = child_capture(&c, &out);
	strbuf_rtrim(&out);
	if (code || out.len != 40 || strspn(out.buf, "0123456789abcdef") != 40)
		code = trail_error("%s '%s': not a commit here", opt, rev);
	else
		memcpy(id, out.buf, 41);
	strbuf_release(&out);
	free(spec);
	return code ? -1 : 0;
}

int git_range_resolve(const char *dir, const char *opt, const char *spec, struct git_range *r)
{
	char *from, *to;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (git_range_split(opt, spec, &from, &to))
		return -1;
	if ((!from || !git_rev_resolve(dir, opt, from, r->from)) &&
	    !git_rev_resolve(dir, opt, to, r->to))
		ret = 0;
	free(from);
	free(to);
	return ret;
}
