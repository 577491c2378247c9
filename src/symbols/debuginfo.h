/*
 * debuginfo.h - separate debug files (/usr/lib/debug, .gnu_debuglink)
 * made ready for libdw once per run.  Debian compresses their sections
 * (SHF_COMPRESSED, zlib) and libdw inflates every one of them each time
 * it opens such a file: for libc that is a quarter of a second.  Here the
 * file is copied into memory once, the sections trail reads (names,
 * scopes, ranges, CFI) inflated and the others (location lists, line
 * tables, macros) hidden, and every user (the unwinder's address spaces,
 * the inline-frame lookups) opens that copy.  A file with a build-id is
 * also kept, once prepared, in the cache directory (core/cache_dir.h,
 * part "debuginfo-1", named by build-id like /usr/lib/debug/.build-id),
 * so later runs map it instead of inflating it again; a cached file is
 * used only when its build-id matches.
 */
#ifndef TRAIL_SYMBOLS_DEBUGINFO_H
#define TRAIL_SYMBOLS_DEBUGINFO_H

#include <stddef.h>
#include <stdint.h>

struct debuginfo_copy {
	char *path;		/* the debug file found */
	int fd;			/* its prepared copy (cache file or memfd), or -1: use the file */
};

struct debuginfo_cache {
	struct debuginfo_copy *v;
	size_t nr, alloc;
};

void debuginfo_cache_release(struct debuginfo_cache *c);

/*
 * Given fd, the debug file at path with build-id id (size bytes; 0: none
 * known): a descriptor of its prepared copy (fd is closed), or fd itself
 * when no copy can be made.  Either way the caller owns the result.
 */
int debuginfo_prepared(struct debuginfo_cache *c, int fd, const char *path, const uint8_t *id,
		       size_t size);

#endif
