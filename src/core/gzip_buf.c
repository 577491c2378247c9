/*
 * gzip_buf.c - whole-buffer gzip and gunzip over zlib's streaming API
 * (inflateInit2 with 16 + MAX_WBITS reads the gzip wrapper).
 */
#include "core/gzip_buf.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

int gzip_buf_is_gzip(const void *data, size_t len)
{
	const unsigned char *p = data;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

int gzip_buf_inflate(const void *data, size_t len, size_t max, struct strbuf *out,
		     const char *name)
{
	z_stream z;
	size_t start = out->len;
	int ret = 0, zr = Z_OK;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return trail_error("%s: cannot start zlib", name);
	z.next_in = (unsigned char *)(uintptr_t)data;
	while (len || zr != Z_STREAM_END) {
		size_t chunk = len > UINT_MAX ? UINT_MAX : len, room;

		if (zr == Z_STREAM_END) {
			/* another gzip member follows (cat a.gz b.gz) */
			if (len < 2 || !gzip_buf_is_gzip(z.next_in, len))
				break;	/* trailing garbage after a member: ignored, as gzip -d does */
			if (inflateReset(&z) != Z_OK) {
				ret = trail_error("%s: cannot restart zlib", name);
				break;
			}
		}
		z.avail_in = (unsigned)chunk;
		if (out->len - start >= max) {
			ret = trail_error("%s: more than %zu bytes once decompressed; refused", name, max);
			break;
		}
		strbuf_grow(out, 1 << 16);
		room = out->alloc - out->len - 1;
		if (room > max - (out->len - start))
			room = max - (out->len - start);
		if (room > UINT_MAX)
			room = UINT_MAX;
		z.next_out = (unsigned char *)out->buf + out->len;
		z.avail_out = (unsigned)room;
		zr = inflate(&z, Z_NO_FLUSH);
		strbuf_setlen(out, out->len + (room - z.avail_out));
		len -= chunk - z.avail_in;
		if (zr == Z_BUF_ERROR && !len) {
			ret = trail_error("%s: truncated gzip data", name);
			break;
		}
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			ret = trail_error("%s: corrupt gzip data (%s)", name, z.msg ? z.msg : "zlib error");
			break;
		}
	}
	inflateEnd(&z);
	if (ret < 0)
		strbuf_setlen(out, start);
	return ret;
}

size_t gzip_buf_peek(const void *data, size_t len, void *out, size_t want)
{
	z_stream z;
	size_t got;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = len > UINT_MAX ? UINT_MAX : (unsigned)len;
	z.next_out = out;
	z.avail_out = want > UINT_MAX ? UINT_MAX : (unsigned)want;
	(void)inflate(&z, Z_SYNC_FLUSH);
	got = (size_t)(z.next_out - (unsigned char *)out);
	inflateEnd(&z);
	return got;
}

void gzip_buf_deflate(const void *data, size_t len, struct strbuf *out)
{
	z_stream z;
	int zr;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		die("cannot start zlib");
	z.next_in = (unsigned char *)(uintptr_t)data;
	do {
		size_t chunk = len > UINT_MAX ? UINT_MAX : len, room;

		z.avail_in = (unsigned)chunk;
		strbuf_grow(out, 1 << 16);
		room = out->alloc - out->len - 1;
		if (room > UINT_MAX)
			room = UINT_MAX;
		z.next_out = (unsigned char *)out->buf + out->len;
		z.avail_out = (unsigned)room;
		zr = deflate(&z, chunk == len ? Z_FINISH : Z_NO_FLUSH);
		strbuf_setlen(out, out->len + (room - z.avail_out));
		len -= chunk - z.avail_in;
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
}
