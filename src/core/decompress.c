/*
 * decompress.c - the stream of decompress.h: a raw input buffer refilled
 * with read(), and one decoder per kind (zlib's inflate, libzstd's
 * streaming API, liblzma).  Concatenated members (pigz, "cat a.gz b.gz",
 * multi-frame zstd) are read through, as gzip -dc does.
 */
#include "core/decompress.h"
#include "core/alloc.h"
#include "core/error.h"

#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_SIZE (256u << 10)	/* bytes of compressed input read at a time */

struct decompress {
	int fd;
	const char *name;
	enum decompress_kind kind;
	unsigned char *raw;	/* RAW_SIZE bytes; raw[start..end) unread */
	size_t start, end;
	int eof;		/* read() returned 0 */
	int done;		/* the decoder reached its end */
	uint64_t bytes_in;	/* compressed bytes read from fd */
	uint64_t bytes_out;	/* decompressed bytes handed out */
	z_stream z;
	ZSTD_DCtx *zstd;
	lzma_stream xz;
};

/* The compression named by the first len bytes of a stream (PLAIN: none known). */
static enum decompress_kind decompress_sniff(const unsigned char *b, size_t len)
{
	if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return DECOMPRESS_GZIP;
	if (len >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
		return DECOMPRESS_ZSTD;
	if (len >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6))
		return DECOMPRESS_XZ;
	return DECOMPRESS_PLAIN;
}

const char *decompress_kind_name(enum decompress_kind kind)
{
	static const char *const names[] = { "plain", "gzip", "zstd", "xz" };

	return (unsigned)kind < 4 ? names[kind] : "?";
}

/* Read more raw bytes: 0, or -1 after trail_error(). */
static int fill_raw(struct decompress *d)
{
	ssize_t got;

	if (d->start == d->end)
		d->start = d->end = 0;
	if (d->start && d->end == RAW_SIZE) {
		memmove(d->raw, d->raw + d->start, d->end - d->start);
		d->end -= d->start;
		d->start = 0;
	}
	if (d->end == RAW_SIZE)
		return trail_error("'%s': %s decoder made no progress", d->name,
			     decompress_kind_name(d->kind));
	do
		got = read(d->fd, d->raw + d->end, RAW_SIZE - d->end);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return error_errno("cannot read '%s'", d->name);
	if (!got)
		d->eof = 1;
	d->end += (size_t)got;
	d->bytes_in += (uint64_t)got;
	return 0;
}

struct decompress *decompress_open(int fd, const char *name)
{
	struct decompress *d = xcalloc(1, sizeof(*d));

	d->fd = fd;
	d->name = name;
	d->raw = xmalloc(RAW_SIZE);
	/* enough bytes for the longest magic (xz: 6), unless the input is shorter */
	while (!d->eof && d->end < 6)
		if (fill_raw(d)) {
			decompress_close(d);
			return NULL;
		}
	d->kind = decompress_sniff(d->raw, d->end);
	switch (d->kind) {
	case DECOMPRESS_GZIP:
		/* 15 + 32: gzip or zlib header, detected */
		if (inflateInit2(&d->z, 15 + 32) != Z_OK)
			die("out of memory");
		break;
	case DECOMPRESS_ZSTD:
		d->zstd = ZSTD_createDCtx();
		if (!d->zstd)
			die("out of memory");
		break;
	case DECOMPRESS_XZ:
		if (lzma_stream_decoder(&d->xz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
			die("out of memory");
		break;
	case DECOMPRESS_PLAIN:
		break;
	}
	return d;
}

enum decompress_kind decompress_kind(const struct decompress *d)
{
	return d->kind;
}

static ssize_t corrupt(struct decompress *d, const char *why)
{
	trail_error("'%s': corrupt %s data: %s", d->name, decompress_kind_name(d->kind), why);
	return -1;
}

/* The stream ended before its end marker: the same words as the line reader's. */
static int truncated(const struct decompress *d)
{
	return trail_error("%s: truncated %s stream", d->name, decompress_kind_name(d->kind));
}

/* One decoding step from raw[start..end) into out; bytes produced or -1. */
static ssize_t decode(struct decompress *d, unsigned char *out, size_t n)
{
	size_t in_len = d->end - d->start;

	switch (d->kind) {
	case DECOMPRESS_GZIP: {
		int r;

		if (d->done) {
			if (!in_len)
				return 0;
			/* another gzip member follows the one that ended */
			if (inflateReset(&d->z) != Z_OK)
				return corrupt(d, "reset");
			d->done = 0;
		}
		d->z.next_in = d->raw + d->start;
		d->z.avail_in = (uInt)in_len;
		d->z.next_out = out;
		d->z.avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
		r = inflate(&d->z, Z_NO_FLUSH);
		d->start = d->end - d->z.avail_in;
		if (r == Z_STREAM_END)
			d->done = 1;
		else if (r != Z_OK && r != Z_BUF_ERROR)
			return corrupt(d, d->z.msg ? d->z.msg : "inflate failed");
		return (ssize_t)((n > UINT32_MAX ? UINT32_MAX : n) - d->z.avail_out);
	}
	case DECOMPRESS_ZSTD: {
		ZSTD_inBuffer in = { d->raw + d->start, in_len, 0 };
		ZSTD_outBuffer o = { out, n, 0 };
		size_t r;

		if (d->done && !in_len)
			return 0;	/* a frame ended; another may follow */
		r = ZSTD_decompressStream(d->zstd, &o, &in);

		if (ZSTD_isError(r))
			return corrupt(d, ZSTD_getErrorName(r));
		d->start += in.pos;
		d->done = r == 0;
		return (ssize_t)o.pos;
	}
	case DECOMPRESS_XZ: {
		lzma_ret r;

		d->xz.next_in = d->raw + d->start;
		d->xz.avail_in = in_len;
		d->xz.next_out = out;
		d->xz.avail_out = n;
		r = lzma_code(&d->xz, d->eof ? LZMA_FINISH : LZMA_RUN);
		d->start = d->end - d->xz.avail_in;
		if (r == LZMA_STREAM_END)
			d->done = 1;
		else if (r != LZMA_OK && r != LZMA_BUF_ERROR)
			return corrupt(d, "lzma_code failed");
		return (ssize_t)(n - d->xz.avail_out);
	}
	case DECOMPRESS_PLAIN:
		break;
	}
	if (in_len > n)
		in_len = n;
	memcpy(out, d->raw + d->start, in_len);
	d->start += in_len;
	return (ssize_t)in_len;
}

ssize_t decompress_read(struct decompress *d, void *buf, size_t n)
{
	if (!n)
		return 0;
	if (d->kind == DECOMPRESS_PLAIN) {
		ssize_t got;

		if (d->start < d->end)
			return decode(d, buf, n);
		if (d->eof)
			return 0;
		/* plain reads go straight to the caller's buffer */
		do
			got = read(d->fd, buf, n);
		while (got < 0 && errno == EINTR);
		if (got < 0)
			return error_errno("cannot read '%s'", d->name);
		if (!got)
			d->eof = 1;
		return got;
	}
	for (;;) {
		size_t before;
		ssize_t got;

		if (d->start == d->end && !d->eof && fill_raw(d))
			return -1;
		before = d->start;
		got = decode(d, buf, n);
		if (got > 0)
			d->bytes_out += (uint64_t)got;
		if (got)
			return got;
		if (d->start == d->end && d->eof) {
			if (!d->done)
				return truncated(d);
			return 0;
		}
		/* nothing produced or consumed: the decoder needs more input */
		if (d->start == before && !d->done) {
			if (d->eof)
				return truncated(d);
			if (fill_raw(d))
				return -1;
		}
	}
}

void decompress_counts(const struct decompress *d, uint64_t *in, uint64_t *out)
{
	*in = d ? d->bytes_in : 0;
	*out = d ? d->bytes_out : 0;
}

void decompress_close(struct decompress *d)
{
	if (!d)
		return;
	if (d->kind == DECOMPRESS_GZIP)
		inflateEnd(&d->z);
	ZSTD_freeDCtx(d->zstd);
	if (d->kind == DECOMPRESS_XZ)
		lzma_end(&d->xz);
	if (d->fd >= 0)
		close(d->fd);
	free(d->raw);
	free(d);
}
