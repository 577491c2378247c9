/*
 * callgrind_cmd.h - the one command line that counts a workload under
 * callgrind, shared by trail bench --metric instructions (bench/executor.c)
 * and flame/history's valgrind backend (measure/backend_valgrind.c), so a
 * count from one equals a count from the other.
 */
#ifndef TRAIL_CORE_CALLGRIND_CMD_H
#define TRAIL_CORE_CALLGRIND_CMD_H

#include "core/string_list.h"

/*
 * Append "env -i PATH=... HOME=... LC_ALL=C TZ=UTC0 TRAIL_PAD=...
 * valgrind --tool=callgrind --trace-children=yes [--cache-sim=yes]
 * --callgrind-out-file=OUT_DIR/callgrind.out.%p" to argv; the workload's
 * words follow, run in dir (NULL: the current directory).  The
 * environment is fixed because its size moves the stack and libc's
 * start-up scans it: every run gets the same few variables.  Their size
 * is fixed too: TRAIL_PAD makes PATH, HOME and the PWD a shell exports
 * (dir) add up to CALLGRIND_ENV_BYTES, so a PATH with git's exec-path in
 * front (git bisect run's probes), another HOME or a deeper worktree
 * counts the same.  (A 16-byte shift of the stack moved a word-count
 * program's count by 0.36 %, through libc's string functions.)
 * Address-space randomisation is the caller's to turn off (personality
 * ADDR_NO_RANDOMIZE, inherited across exec).
 */
#define CALLGRIND_ENV_BYTES 4096
void callgrind_cmd_argv(struct string_list *argv, const char *out_dir, int cache_sim,
			const char *dir);
/* The TRAIL_PAD length for these lengths: the sum up to a multiple of CALLGRIND_ENV_BYTES. */
size_t callgrind_env_pad(size_t path, size_t home, size_t pwd);

#endif
