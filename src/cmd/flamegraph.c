/*
 * flamegraph.c - placeholder for 'trail flamegraph' until its module lands.
 */
#include "cmd/commands.h"
#include "core/error.h"

int cmd_flamegraph(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'trail flamegraph' is not built yet") ? 1 : 1;
}
