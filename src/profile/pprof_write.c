/*
 * pprof_write.c - folded profile -> gzipped profile.proto (pprof_write.h),
 * with core/protobuf.h.  Frame names are interned once: name i is string
 * i + 3 of the table, function i + 1 and location i + 1.  Stacks go out
 * in byte order, so the same input gives the same bytes.
 */
#include "profile/pprof_write.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/gzip_buf.h"
#include "core/intern.h"
#include "core/protobuf.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Profile's field numbers (github.com/google/pprof/proto/profile.proto). */
enum {
	P_SAMPLE_TYPE = 1,
	P_SAMPLE = 2,
	P_LOCATION = 4,
	P_FUNCTION = 5,
	P_STRING_TABLE = 6,
	P_PERIOD_TYPE = 11,
	P_PERIOD = 12,
};

/*
 * Strings 0..FIRST_NAME-1 of the table: "" and the names of the value
 * types (units.c's words), then the frame names.
 */
enum { S_EMPTY, S_SAMPLES, S_COUNT, S_TYPE, S_UNIT, FIRST_NAME };

/*
 * The value types a profile carries: CPU samples with a known period go
 * out as Go's CPU profiles do (samples/count and cpu/nanoseconds, the
 * second = samples x period), so 'go tool pprof' shows "Type: cpu" and
 * seconds; weighted profiles as one type in their unit (alloc_space/bytes,
 * off-cpu/microseconds); plain counts as samples/count.
 */
struct units {
	char type[32], unit[32];	/* the second value type; "" when only samples */
	double scale;			/* value 2 = count x scale (samples x period) */
	int two;			/* samples/count first, then type/unit */
	int64_t period;			/* Profile.period, in the last type's unit */
};

static void units_of(const struct folded_weight_info *w, struct units *u)
{
	const char *word = folded_unit_word(w);
	double ns = folded_ns_per_count(w);

	memset(u, 0, sizeof(*u));
	u->period = 1;
	if (w->weight == FOLDED_WEIGHT_SAMPLES) {
		if (!(ns > 0))
			return;
		u->two = 1;
		u->scale = ns;
		u->period = (int64_t)llround(ns);
		snprintf(u->type, sizeof(u->type), "%s", w->type[0] ? w->type : "cpu");
		snprintf(u->unit, sizeof(u->unit), "nanoseconds");
		return;
	}
	snprintf(u->type, sizeof(u->type), "%s", w->type[0] ? w->type : ns > 0 ? "time" : "events");
	snprintf(u->unit, sizeof(u->unit), "%s",
		 !strcmp(word, "objects") || !strcmp(word, "events") ? "count" : word);
}

static void put_value_type(struct strbuf *msg, struct strbuf *tmp, uint32_t field,
			   uint64_t type, uint64_t unit)
{
	strbuf_reset(tmp);
	pb_put_uint(tmp, 1, type);
	pb_put_uint(tmp, 2, unit);
	pb_put_bytes(msg, field, tmp->buf, tmp->len);
}

int pprof_encode(const struct folded_profile *p, struct strbuf *out)
{
	struct intern names;
	struct strbuf msg = STRBUF_INIT, tmp = STRBUF_INIT, sub = STRBUF_INIT;
	uint64_t *locs = NULL;
	size_t nr_locs = 0, alloc_locs = 0, i, rounded = 0;
	uint32_t *order, id;
	int ret = 0;
	struct units u;

	if (p->columns != 1)
		return trail_error("differential (two-count) input cannot be written as pprof; "
			     "write each side on its own");
	units_of(&p->weight, &u);
	intern_init(&names);
	if (!u.type[0] || u.two)
		put_value_type(&msg, &tmp, P_SAMPLE_TYPE, S_SAMPLES, S_COUNT);
	if (u.type[0])
		put_value_type(&msg, &tmp, P_SAMPLE_TYPE, S_TYPE, S_UNIT);
	order = folded_profile_sorted(p);
	for (i = 0; i < folded_profile_size(p); i++) {
		const char *s = intern_str(&p->stacks, order[i]);
		size_t len = intern_len(&p->stacks, order[i]), k;
		double c = p->counts[0][order[i]];
		int64_t v;
		uint64_t uv[2];

		nr_locs = 0;
		while (len) {	/* frames root first; collected, then reversed */
			const char *semi = memchr(s, ';', len);
			size_t flen = semi ? (size_t)(semi - s) : len;

			ALLOC_GROW(locs, nr_locs + 1, alloc_locs);
			locs[nr_locs++] = intern_add(&names, s, flen, NULL) + 1;
			if (!semi)
				break;
			s += flen + 1;
			len -= flen + 1;
		}
		for (k = 0; k < nr_locs / 2; k++) {
			uint64_t t = locs[k];

			locs[k] = locs[nr_locs - 1 - k];
			locs[nr_locs - 1 - k] = t;
		}
		/* pprof values are int64: a larger count cannot be written (nor rounded: UB) */
		if (!(c < 9223372036854775807.5) || !(c * u.scale < 9223372036854775807.5)) {
			ret = trail_error("a count of %.0f (stack '%.60s') is above what pprof can "
					  "hold (2^63-1); write folded text instead", c,
					  intern_str(&p->stacks, order[i]));
			break;
		}
		v = (int64_t)llround(c);
		if ((double)v != c)
			rounded++;
		if (!v || !nr_locs)
			continue;
		strbuf_reset(&tmp);
		pb_put_packed(&tmp, 1, locs, nr_locs);
		uv[0] = (uint64_t)v;	/* int64 values travel as two's complement */
		uv[1] = (uint64_t)(int64_t)llround(c * u.scale);
		pb_put_packed(&tmp, 2, uv, u.two ? 2 : 1);
		pb_put_bytes(&msg, P_SAMPLE, tmp.buf, tmp.len);
	}
	for (id = 0; !ret && id < names.nr; id++) {
		/* Location { id, Line { function_id } } */
		strbuf_reset(&sub);
		pb_put_uint(&sub, 1, id + 1);
		strbuf_reset(&tmp);
		pb_put_uint(&tmp, 1, (uint64_t)id + 1);
		pb_put_bytes(&tmp, 4, sub.buf, sub.len);
		pb_put_bytes(&msg, P_LOCATION, tmp.buf, tmp.len);
	}
	for (id = 0; id < names.nr; id++) {
		/* Function { id, name, system_name } */
		strbuf_reset(&tmp);
		pb_put_uint(&tmp, 1, (uint64_t)id + 1);
		pb_put_uint(&tmp, 2, (uint64_t)id + FIRST_NAME);
		pb_put_uint(&tmp, 3, (uint64_t)id + FIRST_NAME);
		pb_put_bytes(&msg, P_FUNCTION, tmp.buf, tmp.len);
	}
	pb_put_bytes(&msg, P_STRING_TABLE, "", 0);
	pb_put_bytes(&msg, P_STRING_TABLE, "samples", 7);
	pb_put_bytes(&msg, P_STRING_TABLE, "count", 5);
	pb_put_bytes(&msg, P_STRING_TABLE, u.type, strlen(u.type));
	pb_put_bytes(&msg, P_STRING_TABLE, u.unit, strlen(u.unit));
	for (id = 0; id < names.nr; id++)
		pb_put_bytes(&msg, P_STRING_TABLE, intern_str(&names, id), intern_len(&names, id));
	if (u.type[0])
		put_value_type(&msg, &tmp, P_PERIOD_TYPE, S_TYPE, S_UNIT);
	else
		put_value_type(&msg, &tmp, P_PERIOD_TYPE, S_SAMPLES, S_COUNT);
	pb_put_int(&msg, P_PERIOD, u.period);
	if (rounded && !ret)
		warning("%zu stacks had fractional counts, rounded to integers for pprof", rounded);
	if (!ret)
		gzip_buf_deflate(msg.buf, msg.len, out);
	free(order);
	free(locs);
	intern_release(&names);
	strbuf_release(&msg);
	strbuf_release(&tmp);
	strbuf_release(&sub);
	return ret;
}
