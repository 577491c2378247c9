/*
 * callgrind_cmd.c - the callgrind command line of counted runs (see
 * callgrind_cmd.h).
 */
#include "core/callgrind_cmd.h"
#include "core/alloc.h"

#include <stdlib.h>

void callgrind_cmd_argv(struct string_list *argv, const char *out_dir, int cache_sim)
{
	const char *path = getenv("PATH"), *home = getenv("HOME");

	string_list_append(argv, "env");
	string_list_append(argv, "-i");
	string_list_append_nodup(argv, xstrfmt("PATH=%s", path ? path : "/usr/bin:/bin"));
	string_list_append_nodup(argv, xstrfmt("HOME=%s", home ? home : "/"));
	string_list_append(argv, "LC_ALL=C");
	string_list_append(argv, "TZ=UTC0");
	string_list_append(argv, "valgrind");
	string_list_append(argv, "--tool=callgrind");
	string_list_append(argv, "--trace-children=yes");
	if (cache_sim)
		string_list_append(argv, "--cache-sim=yes");
	string_list_append_nodup(argv, xstrfmt("--callgrind-out-file=%s/callgrind.out.%%p", out_dir));
}
