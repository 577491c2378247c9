/*
 * diff.c - placeholder for 'trail diff' until its module lands.
 */
#include "cmd/commands.h"
#include "core/error.h"

int cmd_diff(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'trail diff' is not built yet") ? 1 : 1;
}
