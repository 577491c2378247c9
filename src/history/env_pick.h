/*
 * env_pick.h - which environment a backfill spread over build hosts
 * measures in (trail history backfill --hosts, docs/history.md "MANY
 * MACHINES"): the one most hosts share, so that their results form one
 * series, and what of a left-out host's environment differs.  Pure.
 */
#ifndef TRAIL_HISTORY_ENV_PICK_H
#define TRAIL_HISTORY_ENV_PICK_H

#include <stddef.h>

/*
 * Of keys[0..n-1] (a host's environment key; NULL: unknown), the index of
 * a key the most hosts share, ties to the earliest host; only a key equal
 * to want counts when want is not NULL.  n when no key counts.
 */
size_t history_env_pick(const char *const *keys, size_t n, const char *want);

/*
 * What differs between two environments' descriptions ("kernel\tCPU
 * model\tcompiler\tCFLAGS"), e.g. "kernel, CFLAGS", into buf; "the
 * profiler or trail's sampling setup" when none of those does.
 */
void history_env_difference(const char *a, const char *b, char *buf, size_t n);

#endif
