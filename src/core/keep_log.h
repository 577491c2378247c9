/*
 * keep_log.h - a failed run's evidence outlives the run: the log of a
 * workload or build that failed, written in a scratch directory removed
 * at exit, is copied to $XDG_STATE_HOME/trail/logs/ (core/cache_dir.h)
 * and that path is the one an error message names.
 */
#ifndef TRAIL_CORE_KEEP_LOG_H
#define TRAIL_CORE_KEEP_LOG_H

/* Largest log kept, bytes: a longer one keeps its last KEEP_LOG_MAX bytes. */
#define KEEP_LOG_MAX (8 << 20)

/*
 * Copy the file at path to STATE/logs/TIME-PID-N-NAME (NAME: path's last
 * component) and return the copy's path; when it cannot be copied (no
 * such file, no space) a copy of path itself.  The caller frees it.
 */
char *keep_log(const char *path);

#endif
