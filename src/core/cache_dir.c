/*
 * cache_dir.c - the cache and state location rules (see cache_dir.h).
 */
#include "core/cache_dir.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <unistd.h>

char *cache_dir(const char *part)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return xstrfmt("%s/trail/%s", x, part);
	if (home && *home)
		return xstrfmt("%s/.cache/trail/%s", home, part);
	return xstrfmt("/tmp/trail-cache-%ld/%s", (long)getuid(), part);
}

char *state_dir(const char *part)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return xstrfmt("%s/trail/%s", x, part);
	if (home && *home)
		return xstrfmt("%s/.local/state/trail/%s", home, part);
	return xstrfmt("/tmp/trail-state-%ld/%s", (long)getuid(), part);
}
