/*
 * debuginfo.h - separate debug files (/usr/lib/debug, .gnu_debuglink)
 * made ready for libdw once per run.  Debian compresses their sections
 * (SHF_COMPRESSED, zlib) and libdw inflates every one of them each time
 * it opens such a file: for libc that is a quarter of a second.  Here the
 * file is copied into memory once, the sections trail reads (names,
 * scopes, ranges, CFI) inflated and the others (location lists, line
 * tables, macros) hidden, and every user (the unwinder's address spaces,
 * the inline-frame lookups) opens that copy.
 */
#ifndef TRAIL_PROFILE_DEBUGINFO_H
#define TRAIL_PROFILE_DEBUGINFO_H

#include <stddef.h>

struct debuginfo_copy {
	char *path;		/* the debug file found */
	int fd;			/* its prepared copy (memfd), or -1: use the file */
};

struct debuginfo_cache {
	struct debuginfo_copy *v;
	size_t nr, alloc;
};

void debuginfo_cache_release(struct debuginfo_cache *c);

/*
 * Given fd, the debug file at path that libdwfl's lookup opened: a
 * descriptor of its prepared copy (fd is closed), or fd itself when no
 * copy can be made.  Either way the caller owns the result.
 */
int debuginfo_prepared(struct debuginfo_cache *c, int fd, const char *path);

#endif
