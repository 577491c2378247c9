/*
 * sampler_launch.h - the sampler's command started as a struct
 * sampler_launch (sampler.h) asks: the environment built before the
 * fork, the directory, descriptors and process group applied in the
 * child, and the message when one of them failed.  For sampler.c only.
 */
#ifndef TRAIL_PERF_SAMPLER_LAUNCH_H
#define TRAIL_PERF_SAMPLER_LAUNCH_H

#include "perf/sampler.h"

#include <signal.h>
#include <stdnoreturn.h>

/*
 * The environment the command execs with, NULL-terminated and malloc'd
 * (the strings borrowed from l and environ), or NULL for ours unchanged.
 * Built in the parent: the child of a threaded caller must not allocate.
 */
char **sampler_launch_envp(const struct sampler_launch *l);

/* What failed in the child, sent back with errno (sampler_launch_apply). */
enum sampler_launch_stage {
	SAMPLER_LAUNCH_EXEC,
	SAMPLER_LAUNCH_DIR,
	SAMPLER_LAUNCH_OUTPUT,
	SAMPLER_LAUNCH_STDIO,
};


/*
 * The forked child's side: our own signal handlers reset and mask
 * restored, wait for the go byte on go (EOF: exit), apply l (NULL:
 * nothing), exec argv (envp, or NULL: ours); on failure { errno, stage }
 * is written to err and it exits 127.  Never returns.
 */
noreturn void sampler_launch_child(const struct sampler_launch *l, const sigset_t *mask,
				   const char *const *argv, char **envp, int go, int err);

/* The error for a command that could not be started (errno in s->exec_errno). */
int sampler_launch_error(const struct sampler *s, enum sampler_launch_stage stage);

#endif
