/*
 * bench.c - placeholder for 'trail bench' until its module lands.
 */
#include "cmd/commands.h"
#include "core/error.h"

int cmd_bench(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'trail bench' is not built yet") ? 1 : 1;
}
