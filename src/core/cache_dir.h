/*
 * cache_dir.h - where trail keeps what it may rebuild: $XDG_CACHE_HOME/trail
 * (an absolute XDG_CACHE_HOME only, as the spec says), else
 * ~/.cache/trail, else /tmp/trail-cache-UID.
 */
#ifndef TRAIL_CORE_CACHE_DIR_H
#define TRAIL_CORE_CACHE_DIR_H

/* The directory for part ("flame", "debuginfo-1"), freshly allocated; not created. */
char *cache_dir(const char *part);
/*
 * Where trail keeps what it made for the user outside any work tree (flame
 * reports): $XDG_STATE_HOME/trail/part (absolute only), else
 * ~/.local/state/trail/part, else /tmp/trail-state-UID/part.  Not created.
 */
char *state_dir(const char *part);

#endif
