/*
 * child.h - running other programs (git, perf, the user's build and
 * workload) without a shell unless asked, with redirections, a working
 * directory, extra environment, resource usage and the exit status.
 */
#ifndef TRAIL_CORE_CHILD_H
#define TRAIL_CORE_CHILD_H

#include <sys/resource.h>
#include <sys/types.h>

#include "core/strbuf.h"

#define CHILD_INHERIT (-1)	/* keep the parent's descriptor */
#define CHILD_DEVNULL (-2)	/* connect to /dev/null */

struct child {
	const char *const *argv;	/* argv[0] is searched in PATH */
	const char *dir;		/* working directory, or NULL */
	const char *const *env;		/* "NAME=value" entries to add, or NULL */
	int in, out, err;		/* descriptors, CHILD_INHERIT or CHILD_DEVNULL */
	const char *out_path;		/* if set, stdout (and stderr when err_to_out) goes here */
	int err_to_out;			/* send stderr where stdout goes */
	int new_process_group;		/* put the child in its own process group */
	int no_aslr;			/* address-space randomisation off for it and what it
					 * runs (personality ADDR_NO_RANDOMIZE): exact counts */
	double timeout;			/* seconds; 0 = none.  On expiry the child and
					 * its descendants are killed (SIGKILL) */
	int own_rusage;			/* rusage of the program alone (see
					 * child_set_measure_exe) */

	int timed_out;			/* set by child_wait: the timeout killed it */

	pid_t pid;			/* set by child_start */
	int status;			/* raw wait status, set by child_wait */
	struct rusage rusage;		/* set by child_wait */
	int measure_fd;			/* own_rusage: where the helper writes it */
};

#define CHILD_INIT { .in = CHILD_INHERIT, .out = CHILD_INHERIT, .err = CHILD_INHERIT, \
		     .measure_fd = -1 }

/*
 * A forked child starts as a copy of this process, and Linux carries that
 * copy's resident size into the child's peak RSS (ru_maxrss) when it
 * execs: a 300 MB parent makes '/bin/true' peak at 300 MB.  With
 * own_rusage, the child execs exe (this program, small again after exec)
 * as "exe CHILD_MEASURE_COMMAND FD N ENV... PROGRAM ARGS...", which forks the
 * program from its own small image, waits for it and writes its rusage
 * to FD: ru_maxrss is then the program's, floored at the helper's few MB.
 * The exit status is the program's (a signal is re-raised).  The child's
 * extra env entries (N of them) are set for the program only, not in the
 * helper (an LD_PRELOAD for the workload must not load into it).  Without
 * an exe set, own_rusage does nothing.
 */
#define CHILD_MEASURE_COMMAND "__measure"
void child_set_measure_exe(const char *exe);
/* The helper's side: argv = { FD, N, ENV..., PROGRAM, ARGS..., NULL }; returns the exit code. */
int child_measure_main(int argc, const char **argv);

/* Start the child; 0 or -1 (error printed, e.g. cannot fork). */
int child_start(struct child *c);
/*
 * Wait for it; returns its exit code, 128+N when killed by signal N,
 * 127 when the program could not be run, or -1 when waiting failed.
 */
int child_wait(struct child *c);
/* Exit code child_wait returns for a child the timeout killed (as timeout(1)). */
#define CHILD_TIMED_OUT 124

/* Start and wait. */
int child_run(struct child *c);
/* Start and wait, collecting stdout into out. */
int child_capture(struct child *c, struct strbuf *out);
/* Human-readable "exited with status 3" / "killed by signal 9". */
const char *child_describe_status(int code);

/*
 * From now on, every child (and whatever it starts) joins one process group
 * of its own, outside the terminal's: a signal to this process alone
 * (SIGINT, SIGTERM, SIGHUP), or its exit, kills the whole group - SIGTERM,
 * then SIGKILL to what is left a moment later (core/cleanup.h).  Children
 * of a process that never called it stay in its group, so a program that
 * a grouped child runs (trail flame probe under git bisect run) needs
 * nothing.  0 or -1 (error printed).
 */
int child_group_begin(void);
/* The group's id, 0 before child_group_begin(). */
pid_t child_group_id(void);

/*
 * Leftovers of a run: after child_adopt_orphans(), the processes a child
 * leaves behind (a workload's "cmd &") become this process's children
 * when their parent exits (PR_SET_CHILD_SUBREAPER), and
 * child_kill_orphans() SIGKILLs and reaps every child of this process but
 * the group's anchor - call it only when no child of its own is running.
 * Returns how many it killed.
 */
void child_adopt_orphans(void);
int child_kill_orphans(void);

/*
 * SIGKILL pid and every process descending from it (parent links read
 * from /proc): what a timeout does to a child and all it started.
 */
void child_kill_tree(pid_t pid);

/* The path of trail's own binary (malloc'd; NULL when /proc cannot say), to re-run it. */
char *child_self_exe(void);

/* Convenience: run argv (NULL-terminated) in dir, stdout captured; stderr inherited. */
int run_capture(const char *dir, struct strbuf *out, const char *const *argv);

#endif
