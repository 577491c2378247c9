/*
 * fold_standin.h - STAND-IN until src/collapse/fold.h lands on main: fold
 * `perf script` text into a folded profile (comm;root;...;leaf).  Tiny on
 * purpose; replaced by the collapse module's reader as soon as it exists.
 */
#ifndef TRAIL_FLAME_FOLD_STANDIN_H
#define TRAIL_FLAME_FOLD_STANDIN_H

#include "profile/folded.h"

/* Fold the perf script output in path into p (column 0). 0 or -1. */
int flame_fold_perf_script(const char *path, struct folded_profile *p);

#endif
