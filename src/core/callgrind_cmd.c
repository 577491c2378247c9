/*
 * callgrind_cmd.c - the callgrind command line of counted runs (see
 * callgrind_cmd.h).
 */
#include "core/callgrind_cmd.h"
#include "core/alloc.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

size_t callgrind_env_pad(size_t path, size_t home, size_t pwd)
{
	size_t sum = path + home + pwd;

	return (sum / CALLGRIND_ENV_BYTES + 1) * CALLGRIND_ENV_BYTES - sum;
}

void callgrind_cmd_argv(struct string_list *argv, const char *out_dir, int cache_sim,
			const char *dir)
{
	const char *path = getenv("PATH"), *home = getenv("HOME");
	char *real = realpath(dir ? dir : ".", NULL);	/* the PWD sh exports: getcwd()'s */
	struct strbuf pad = STRBUF_INIT;
	size_t n;

	path = path ? path : "/usr/bin:/bin";
	home = home ? home : "/";
	n = callgrind_env_pad(strlen(path), strlen(home), real ? strlen(real) : 0);
	strbuf_addstr(&pad, "TRAIL_PAD=");
	while (n--)
		strbuf_addch(&pad, 'x');
	free(real);
	string_list_append(argv, "env");
	string_list_append(argv, "-i");
	string_list_append_nodup(argv, xstrfmt("PATH=%s", path));
	string_list_append_nodup(argv, xstrfmt("HOME=%s", home));
	string_list_append(argv, "LC_ALL=C");
	string_list_append(argv, "TZ=UTC0");
	string_list_append_nodup(argv, strbuf_detach(&pad, NULL));
	string_list_append(argv, "valgrind");
	string_list_append(argv, "--tool=callgrind");
	string_list_append(argv, "--trace-children=yes");
	if (cache_sim)
		string_list_append(argv, "--cache-sim=yes");
	string_list_append_nodup(argv, xstrfmt("--callgrind-out-file=%s/callgrind.out.%%p", out_dir));
}
