/*
 * protobuf.h - the protocol-buffers wire format, read and written by hand
 * (https://protobuf.dev/programming-guides/encoding/): varints, the four
 * wire types proto3 uses, and packed repeated fields.  No schema, no
 * allocation when reading: a reader walks a byte range and hands out the
 * fields; every length is checked against the range, so hostile input is
 * an error (-1), never a read out of bounds.
 */
#ifndef TRAIL_CORE_PROTOBUF_H
#define TRAIL_CORE_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

enum pb_wire {
	PB_VARINT = 0,
	PB_FIXED64 = 1,
	PB_LEN = 2,		/* bytes, strings, sub-messages, packed repeated */
	PB_FIXED32 = 5,
};

struct pb_reader {
	const uint8_t *p;	/* next unread byte */
	const uint8_t *end;	/* one past the last byte */
};

struct pb_field {
	uint32_t number;	/* field number, >= 1 */
	enum pb_wire wire;
	uint64_t value;		/* PB_VARINT, PB_FIXED64, PB_FIXED32 */
	const uint8_t *data;	/* PB_LEN: the payload, inside the reader's range */
	size_t len;		/* PB_LEN: bytes */
};

static inline void pb_reader_init(struct pb_reader *r, const void *data, size_t len)
{
	r->p = data;
	r->end = r->p + len;
}

/* Read one varint (at most 10 bytes).  0, or -1 when truncated or too long. */
int pb_read_varint(struct pb_reader *r, uint64_t *v);

/*
 * The next field: 1 (in *f), 0 at the end of the range, -1 when the bytes
 * are not a field (truncated, field number 0, groups or unknown wire type).
 */
int pb_next(struct pb_reader *r, struct pb_field *f);

/*
 * The values of a repeated integer field, which a writer may send packed
 * (one PB_LEN field) or one PB_VARINT field at a time: call once per field
 * seen with that number; appends to *vals (grown with ALLOC_GROW, caller
 * frees).  0, or -1 when a packed payload is malformed or the wire type
 * does not fit.
 */
int pb_append_ints(const struct pb_field *f, uint64_t **vals, size_t *nr, size_t *alloc);

/* Writing: each appends to sb. */
void pb_put_varint(struct strbuf *sb, uint64_t v);
void pb_put_uint(struct strbuf *sb, uint32_t number, uint64_t v);	/* skips 0 as proto3 does */
void pb_put_int(struct strbuf *sb, uint32_t number, int64_t v);	/* int64: two's complement */
void pb_put_bytes(struct strbuf *sb, uint32_t number, const void *data, size_t len);
/* A packed repeated uint64/int64 field (nothing when n == 0). */
void pb_put_packed(struct strbuf *sb, uint32_t number, const uint64_t *vals, size_t n);

#endif
