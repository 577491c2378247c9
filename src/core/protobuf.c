/*
 * protobuf.c - the wire-format reader and writer of protobuf.h.  Reading
 * never allocates except for pb_append_ints(); every length is compared
 * with the bytes left before it is used.
 */
#include "core/protobuf.h"
#include "core/alloc.h"
#include "core/strbuf.h"

int pb_read_varint(struct pb_reader *r, uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift;

	for (shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (r->p >= r->end)
			return -1;
		b = *r->p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;	/* more than 10 bytes */
}

int pb_next(struct pb_reader *r, struct pb_field *f)
{
	uint64_t key, v;
	unsigned i;

	if (r->p >= r->end)
		return 0;
	if (pb_read_varint(r, &key) < 0 || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
		return -1;
	f->number = (uint32_t)(key >> 3);
	f->wire = (enum pb_wire)(key & 7);
	f->data = NULL;
	f->len = 0;
	f->value = 0;
	switch (f->wire) {
	case PB_VARINT:
		return pb_read_varint(r, &f->value) < 0 ? -1 : 1;
	case PB_FIXED64:
	case PB_FIXED32: {
		unsigned n = f->wire == PB_FIXED64 ? 8 : 4;

		if ((size_t)(r->end - r->p) < n)
			return -1;
		for (i = 0; i < n; i++)	/* little-endian on the wire */
			f->value |= (uint64_t)r->p[i] << (8 * i);
		r->p += n;
		return 1;
	}
	case PB_LEN:
		if (pb_read_varint(r, &v) < 0 || v > (uint64_t)(r->end - r->p))
			return -1;
		f->data = r->p;
		f->len = (size_t)v;
		r->p += v;
		return 1;
	default:
		return -1;	/* groups (3, 4) are obsolete; 6, 7 do not exist */
	}
}

int pb_append_ints(const struct pb_field *f, uint64_t **vals, size_t *nr, size_t *alloc)
{
	struct pb_reader r;
	uint64_t v;

	if (f->wire == PB_VARINT) {
		ALLOC_GROW(*vals, *nr + 1, *alloc);
		(*vals)[(*nr)++] = f->value;
		return 0;
	}
	if (f->wire != PB_LEN)
		return -1;
	pb_reader_init(&r, f->data, f->len);
	while (r.p < r.end) {
		if (pb_read_varint(&r, &v) < 0)
			return -1;
		ALLOC_GROW(*vals, *nr + 1, *alloc);
		(*vals)[(*nr)++] = v;
	}
	return 0;
}

void pb_put_varint(struct strbuf *sb, uint64_t v)
{
	char buf[10];
	size_t n = 0;

	while (v >= 0x80) {
		buf[n++] = (char)(uint8_t)(v | 0x80);
		v >>= 7;
	}
	buf[n++] = (char)(uint8_t)v;
	strbuf_add(sb, buf, n);
}

static void put_key(struct strbuf *sb, uint32_t number, enum pb_wire wire)
{
	pb_put_varint(sb, ((uint64_t)number << 3) | (uint64_t)wire);
}

void pb_put_uint(struct strbuf *sb, uint32_t number, uint64_t v)
{
	if (!v)
		return;
	put_key(sb, number, PB_VARINT);
	pb_put_varint(sb, v);
}

void pb_put_int(struct strbuf *sb, uint32_t number, int64_t v)
{
	pb_put_uint(sb, number, (uint64_t)v);
}

void pb_put_bytes(struct strbuf *sb, uint32_t number, const void *data, size_t len)
{
	put_key(sb, number, PB_LEN);
	pb_put_varint(sb, len);
	strbuf_add(sb, data, len);
}

void pb_put_packed(struct strbuf *sb, uint32_t number, const uint64_t *vals, size_t n)
{
	size_t bytes = 0, i;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		uint64_t v = vals[i];

		do {
			bytes++;
			v >>= 7;
		} while (v);
	}
	put_key(sb, number, PB_LEN);
	pb_put_varint(sb, bytes);
	for (i = 0; i < n; i++)
		pb_put_varint(sb, vals[i]);
}
