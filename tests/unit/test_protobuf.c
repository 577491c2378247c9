/*
 * test_protobuf.c - core/protobuf.h (varints, fields, packed values, the
 * writer read back) and core/gzip_buf.h (round trip, size limit, corrupt
 * and truncated data).
 */
#include "harness.h"
#include "core/gzip_buf.h"
#include "core/protobuf.h"
#include "core/strbuf.h"

#include <stdint.h>

TEST(varint_round_trip)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 300, UINT32_MAX, UINT64_MAX };
	struct strbuf sb = STRBUF_INIT;
	struct pb_reader r;
	size_t i;
	uint64_t v;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		pb_put_varint(&sb, vals[i]);
	pb_reader_init(&r, sb.buf, sb.len);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		CHECK_INT(pb_read_varint(&r, &v), 0);
		CHECK(v == vals[i]);
	}
	CHECK(r.p == r.end);
	CHECK_INT(pb_read_varint(&r, &v), -1);	/* nothing left */
	strbuf_release(&sb);
}

TEST(varint_hostile)
{
	static const uint8_t eleven[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0x01 };
	static const uint8_t cut[] = { 0x80, 0x80 };
	struct pb_reader r;
	uint64_t v;

	pb_reader_init(&r, eleven, sizeof(eleven));
	CHECK_INT(pb_read_varint(&r, &v), -1);
	pb_reader_init(&r, cut, sizeof(cut));
	CHECK_INT(pb_read_varint(&r, &v), -1);
}

TEST(fields_and_packed)
{
	struct strbuf sb = STRBUF_INIT;
	static const uint64_t packed[] = { 3, 1000, 0 };
	uint64_t *vals = NULL;
	size_t nr = 0, alloc = 0;
	struct pb_reader r;
	struct pb_field f;

	pb_put_uint(&sb, 1, 42);
	pb_put_bytes(&sb, 2, "hi", 2);
	pb_put_packed(&sb, 3, packed, 3);
	pb_put_uint(&sb, 3, 7);		/* the same field unpacked */
	pb_put_uint(&sb, 4, 0);		/* proto3 omits zeros */
	pb_reader_init(&r, sb.buf, sb.len);
	CHECK_INT(pb_next(&r, &f), 1);
	CHECK_INT(f.number, 1);
	CHECK_INT(f.wire, PB_VARINT);
	CHECK_INT(f.value, 42);
	CHECK_INT(pb_next(&r, &f), 1);
	CHECK_INT(f.wire, PB_LEN);
	CHECK_INT(f.len, 2);
	CHECK(!memcmp(f.data, "hi", 2));
	CHECK_INT(pb_next(&r, &f), 1);
	CHECK_INT(pb_append_ints(&f, &vals, &nr, &alloc), 0);
	CHECK_INT(pb_next(&r, &f), 1);
	CHECK_INT(pb_append_ints(&f, &vals, &nr, &alloc), 0);
	CHECK_INT(pb_next(&r, &f), 0);
	CHECK_INT(nr, 4);
	CHECK_INT(vals[1], 1000);
	CHECK_INT(vals[3], 7);
	free(vals);
	strbuf_release(&sb);
}

TEST(fields_hostile)
{
	static const uint8_t len_past_end[] = { 0x12, 0x05, 'a' };
	static const uint8_t group[] = { 0x0b };
	static const uint8_t field_zero[] = { 0x00, 0x01 };
	static const uint8_t short_fixed[] = { 0x09, 1, 2, 3 };
	struct pb_reader r;
	struct pb_field f;

	pb_reader_init(&r, len_past_end, sizeof(len_past_end));
	CHECK_INT(pb_next(&r, &f), -1);
	pb_reader_init(&r, group, sizeof(group));
	CHECK_INT(pb_next(&r, &f), -1);
	pb_reader_init(&r, field_zero, sizeof(field_zero));
	CHECK_INT(pb_next(&r, &f), -1);
	pb_reader_init(&r, short_fixed, sizeof(short_fixed));
	CHECK_INT(pb_next(&r, &f), -1);
}

TEST(gzip_round_trip_and_limit)
{
	struct strbuf plain = STRBUF_INIT, gz = STRBUF_INIT, back = STRBUF_INIT;
	char head[16];
	int i;

	for (i = 0; i < 100000; i++)
		strbuf_addf(&plain, "line %d\n", i % 7);
	gzip_buf_deflate(plain.buf, plain.len, &gz);
	CHECK(gzip_buf_is_gzip(gz.buf, gz.len));
	CHECK(gz.len < plain.len / 10);
	CHECK_INT(gzip_buf_inflate(gz.buf, gz.len, plain.len, &back, "t"), 0);
	CHECK_INT(back.len, plain.len);
	CHECK(!memcmp(back.buf, plain.buf, plain.len));
	/* one byte under the real size: refused, nothing kept */
	strbuf_reset(&back);
	CHECK_INT(gzip_buf_inflate(gz.buf, gz.len, plain.len - 1, &back, "t"), -1);
	CHECK_INT(back.len, 0);
	/* truncated and corrupt */
	CHECK_INT(gzip_buf_inflate(gz.buf, gz.len / 2, plain.len, &back, "t"), -1);
	gz.buf[gz.len / 2] ^= 0x55;
	gz.buf[gz.len / 2 + 1] ^= 0x55;
	CHECK_INT(gzip_buf_inflate(gz.buf, gz.len, plain.len * 2, &back, "t"), -1);
	/* peeking needs only the start */
	strbuf_reset(&gz);
	gzip_buf_deflate(plain.buf, plain.len, &gz);
	CHECK_INT(gzip_buf_peek(gz.buf, 64, head, sizeof(head)) > 0, 1);
	CHECK(!memcmp(head, "line 0\n", 7));
	strbuf_release(&plain);
	strbuf_release(&gz);
	strbuf_release(&back);
}

TEST(gzip_two_members)
{
	struct strbuf gz = STRBUF_INIT, back = STRBUF_INIT;

	gzip_buf_deflate("ab", 2, &gz);
	gzip_buf_deflate("cd", 2, &gz);
	CHECK_INT(gzip_buf_inflate(gz.buf, gz.len, 100, &back, "t"), 0);
	CHECK_STREQ(back.buf, "abcd");
	strbuf_release(&gz);
	strbuf_release(&back);
}

TEST_MAIN("protobuf", varint_round_trip, varint_hostile, fields_and_packed, fields_hostile,
	  gzip_round_trip_and_limit, gzip_two_members)
