/*
 * cleanup.h - things to undo however the process ends: normal exit, die(),
 * or SIGINT/SIGTERM/SIGHUP (after which the signal is re-raised so the
 * exit status still says what happened).  Used for temp dirs, worktrees
 * and restoring terminal state, so Ctrl-C never leaves debris behind.
 *
 * Handlers run last-registered first, at most once each.  They must be
 * short and must not rely on stdio state (they may run in a signal handler).
 */
#ifndef TRAIL_CORE_CLEANUP_H
#define TRAIL_CORE_CLEANUP_H

typedef void (*cleanup_fn)(void *data);

/* Register fn(data) (dies when the table is full); returns a handle for cleanup_pop. */
int cleanup_push(cleanup_fn fn, void *data);
/* Unregister handle; run its function first when run is non-zero. */
void cleanup_pop(int handle, int run);

/*
 * Create a fresh directory "$TMPDIR/PREFIX.XXXXXX" that is removed with all
 * its contents at exit unless tempdir_keep() is called.  Returns a malloc'd
 * path or NULL (error printed).
 */
char *tempdir_create(const char *prefix);
/* Keep the directory (e.g. --keep): it is no longer removed at exit. */
void tempdir_keep(const char *path);
/* Remove the directory now (and forget it). */
void tempdir_remove(const char *path);

/* rm -rf path; returns 0 or -1 (error printed).  Refuses "/" and "". */
int remove_tree(const char *path);
/* mkdir -p path (mode 0777 & ~umask); returns 0 or -1 (error printed). */
int make_dirs(const char *path);
/* The same without a message (for caches, where failing only costs time). */
int make_dirs_quiet(const char *path);

#endif
