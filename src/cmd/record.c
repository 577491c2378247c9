/*
 * record.c - placeholder for 'trail record' until its module lands.
 */
#include "cmd/commands.h"
#include "core/error.h"

int cmd_record(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'trail record' is not built yet") ? 1 : 1;
}
