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
 * Append "env -i PATH=... HOME=... LC_ALL=C TZ=UTC0 valgrind
 * --tool=callgrind --trace-children=yes [--cache-sim=yes]
 * --callgrind-out-file=OUT_DIR/callgrind.out.%p" to argv; the workload's
 * words follow.  The environment is fixed because its size moves the
 * stack and libc's start-up scans it: every run gets the same few
 * variables.  Address-space randomisation is the caller's to turn off
 * (personality ADDR_NO_RANDOMIZE, inherited across exec).
 */
void callgrind_cmd_argv(struct string_list *argv, const char *out_dir, int cache_sim);

#endif
