/*
 * alloc_record.h - 'trail record -e alloc' as library calls: find the
 * interposer library, run a command under it (every process it starts
 * writes its own raw file into one directory), and turn the directory's
 * raw files into one perf.data file for a view.
 */
#ifndef TRAIL_ALLOC_ALLOC_RECORD_H
#define TRAIL_ALLOC_ALLOC_RECORD_H

#include <stdint.h>

#include "alloc/alloc_read.h"

#define ALLOC_DEFAULT_INTERVAL 65536	/* bytes: 1/8 of tcmalloc's and Go's, see docs/record.md */
#define ALLOC_PRELOAD_NAME "libtrail-alloc.so"

/*
 * The interposer: $TRAIL_ALLOC_LIB, else next to the running trail binary,
 * else PREFIX/lib/trail/ for a trail in PREFIX/bin.  A new string, or NULL
 * after trail_error() saying where it looked.
 */
char *alloc_preload_find(void);

struct alloc_run {
	const char *const *argv;	/* the command */
	const char *preload;		/* the interposer library */
	const char *dir;		/* where the raw files go */
	uint64_t interval;		/* bytes; 1 = every allocation */
	int dwarf;			/* unwind with libgcc's unwinder only, no frame pointers */
	int exit_code;			/* out: the command's, 128+N for signal N, 127 not run */
};

/*
 * The environment entries ("NAME=value", NULL-terminated) that put a
 * command under the interposer as r describes (argv is not used), for
 * callers that start the command themselves; alloc_env_release frees them.
 */
#define ALLOC_ENV_SLOTS 6
void alloc_env(const struct alloc_run *r, char *env[ALLOC_ENV_SLOTS]);
void alloc_env_release(char *env[ALLOC_ENV_SLOTS]);

/* Run the command to completion (Ctrl-C reaches only it).  0, or -1 after trail_error(). */
int alloc_run_command(struct alloc_run *r);

/*
 * Write the perf.data file path from every raw file in dir (processes in
 * the order they started), with view's weights as sample periods.
 * argv is the command line for the file's header.  0, or -1 after trail_error().
 * No file is written when dir holds no raw files (t->files stays 0).
 */
int alloc_write_perfdata(const char *dir, enum alloc_view view, const char *path,
			 int argc, const char *const *argv, struct alloc_totals *t);

#endif
