/*
 * collapse.c - placeholder for 'trail collapse' until its module lands.
 */
#include "cmd/commands.h"
#include "core/error.h"

int cmd_collapse(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'trail collapse' is not built yet") ? 1 : 1;
}
