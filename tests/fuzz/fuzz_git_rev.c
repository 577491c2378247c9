/*
 * fuzz_git_rev.c - libFuzzer target for the door between trail and git
 * (src/core/git_rev.c): revision, range and URL spellings as users type
 * them after --rev, --range, --commit, --good, --bad and --remote-repo.
 * Any input must be accepted or refused, never crash; what is accepted can
 * never be read by git as an option (starts with '-') or hold a control
 * character, and a range's ends are each revisions.  No git is run.
 */
#include "core/git_rev.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must_be_safe(const char *s)
{
	const unsigned char *p;

	if (!s || !*s || *s == '-' || strlen(s) > GIT_REV_MAX)
		abort();
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *from, *to;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';		/* an argv string ends at its first NUL */
	if (!git_rev_check("--rev", s))
		must_be_safe(s);
	if (!git_url_check("--remote-repo", s))
		must_be_safe(s);
	if (!git_range_split("--range", s, &from, &to)) {
		must_be_safe(to);
		if (from) {
			must_be_safe(from);
			if (strstr(from, "..") || strstr(to, ".."))
				abort();
		}
		free(from);
		free(to);
	}
	free(s);
	return 0;
}
