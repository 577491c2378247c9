/*
 * flame.c - placeholder for 'trail flame' until its module lands.
 */
#include "cmd/commands.h"
#include "core/error.h"

int cmd_flame(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'trail flame' is not built yet") ? 1 : 1;
}
