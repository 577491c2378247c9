/*
 * decompress.h - a byte stream over a file descriptor that undoes gzip,
 * zstd or xz compression, recognised by the magic bytes at the start
 * (plain bytes pass through).  One reader for every input format, so each
 * accepts "profile.txt.zst" or "zcat x | trail ..." without knowing it.
 */
#ifndef TRAIL_CORE_DECOMPRESS_H
#define TRAIL_CORE_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum decompress_kind {
	DECOMPRESS_PLAIN,
	DECOMPRESS_GZIP,
	DECOMPRESS_ZSTD,
	DECOMPRESS_XZ,
};

const char *decompress_kind_name(enum decompress_kind kind);

struct decompress;

/*
 * Start reading fd (taken over: closed by decompress_close).  The first
 * bytes are read to find the compression.  name is for messages.
 * Returns NULL after trail_error() when fd cannot be read.
 */
struct decompress *decompress_open(int fd, const char *name);
enum decompress_kind decompress_kind(const struct decompress *d);
/*
 * Up to n decompressed bytes into buf: the number read, 0 at the end, or
 * -1 after trail_error() (a read error or corrupt compressed data).
 */
ssize_t decompress_read(struct decompress *d, void *buf, size_t n);
/*
 * Compressed bytes read so far and decompressed bytes handed out (0 and
 * 0 for a plain stream's out count), for expansion limits.
 */
void decompress_counts(const struct decompress *d, uint64_t *in, uint64_t *out);
void decompress_close(struct decompress *d);

#endif
