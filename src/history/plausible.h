/*
 * plausible.h - whether a stored result's numbers can come from a
 * measurement: notes are written by anyone who can push to the notes ref,
 * and a negative run, a run of 0 or 1e308 would otherwise reach medians,
 * ratios and intervals (guard once printed [-100.0%, +2284820.0%]).
 */
#ifndef TRAIL_HISTORY_PLAUSIBLE_H
#define TRAIL_HISTORY_PLAUSIBLE_H

#include <stddef.h>

#include "history/result.h"

/* Largest value of any unit a result may hold (1e15 ns is 11 days). */
#define HISTORY_VALUE_MAX 1e15

/*
 * 0 when r can be a measurement; else 1 with the reason in why (n bytes):
 * an ok result without runs, a run that is not finite, negative, above
 * HISTORY_VALUE_MAX or where every run is 0; a negative, non-finite or
 * too large count (samples, profiles, functions' and runs' counts); a
 * discard fraction outside [0, 1); an empty metric name.  Pure.
 */
int history_result_implausible(const struct history_result *r, char *why, size_t n);

#endif
