/*
 * pprof.c - profile.proto -> folded stacks (see pprof.h).  Two passes over
 * the decoded message: the first notes where every top-level field lies
 * (fields may come in any order), the second resolves functions, then
 * locations (each turned once into its "root;...;leaf" text, inlined
 * Lines included), then folds the samples.  Ids are mapped to indexes
 * through a direct table when they are dense (as every writer makes
 * them), through a sorted table otherwise.
 */
#include "collapse/pprof.h"
#include "collapse/collapser.h"
#include "collapse/limits.h"
#include "collapse/profile_formats.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/gzip_buf.h"
#include "core/protobuf.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Top-level field numbers of message Profile. */
enum {
	F_SAMPLE_TYPE = 1,
	F_SAMPLE = 2,
	F_LOCATION = 4,
	F_FUNCTION = 5,
	F_STRING_TABLE = 6,
	F_DEFAULT_SAMPLE_TYPE = 14,
};

struct span {
	const uint8_t *p;
	size_t len;
};

/* id -> index: dense[id] - 1 when dense, else bsearch over sorted pairs. */
struct id_pair {
	uint64_t id;
	uint32_t index;
};

struct id_index {
	uint32_t *dense;	/* index + 1, 0 = absent; NULL when sparse */
	size_t nr_dense;
	struct id_pair *pairs;
	size_t nr_pairs;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct id_pair *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* pairs are taken over; duplicates: the first one wins (as pprof does not say) */
static void id_index_build(struct id_index *ix, struct id_pair *pairs, size_t n)
{
	uint64_t max = 0;
	size_t i;

	memset(ix, 0, sizeof(*ix));
	for (i = 0; i < n; i++)
		if (pairs[i].id > max)
			max = pairs[i].id;
	if (max <= 2 * (uint64_t)n + 16) {
		ix->nr_dense = (size_t)max + 1;
		ix->dense = xcalloc(ix->nr_dense, sizeof(*ix->dense));
		for (i = 0; i < n; i++)
			if (!ix->dense[pairs[i].id])
				ix->dense[pairs[i].id] = pairs[i].index + 1;
		free(pairs);
		return;
	}
	qsort(pairs, n, sizeof(*pairs), cmp_pair);
	ix->pairs = pairs;
	ix->nr_pairs = n;
}

/* The index of id, or UINT32_MAX. */
static uint32_t id_index_find(const struct id_index *ix, uint64_t id)
{
	size_t lo = 0, hi = ix->nr_pairs;

	if (ix->dense)
		return id < ix->nr_dense && ix->dense[id] ? ix->dense[id] - 1 : UINT32_MAX;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->pairs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the first of equal ids sorts first only if qsort kept order: take any */
	return lo < ix->nr_pairs && ix->pairs[lo].id == id ? ix->pairs[lo].index : UINT32_MAX;
}

static void id_index_release(struct id_index *ix)
{
	free(ix->dense);
	free(ix->pairs);
}

struct pprof_reader {
	const char *name;
	struct span *strings;
	size_t nr_strings, alloc_strings;
	struct span *sample_types, *samples, *locations, *functions;
	size_t nr_sample_types, nr_samples, nr_locations, nr_functions;
	size_t alloc_sample_types, alloc_samples, alloc_locations, alloc_functions;
	uint64_t default_sample_type;	/* string index, 0 = none */
	uint64_t *func_names;		/* per function: string index */
	struct id_index func_ix, loc_ix;
	struct strbuf *loc_text;	/* per location: "root;...;leaf" */
	struct input_budget budget;	/* the stack text built (collapse/limits.h) */
};


static void push_span(struct span **v, size_t *nr, size_t *alloc, const struct pb_field *f)
{
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[*nr].p = f->data;
	(*v)[(*nr)++].len = f->len;
}

static int malformed(const struct pprof_reader *r, const char *what)
{
	return trail_error("%s: not a valid pprof profile (%s)", r->name, what);
}

static int scan_top(struct pprof_reader *r, const uint8_t *data, size_t len)
{
	struct pb_reader pr;
	struct pb_field f;
	int got;

	pb_reader_init(&pr, data, len);
	while ((got = pb_next(&pr, &f)) > 0) {
		int is_len = f.wire == PB_LEN;

		switch (f.number) {
		case F_SAMPLE_TYPE:
		case F_SAMPLE:
		case F_LOCATION:
		case F_FUNCTION:
		case F_STRING_TABLE:
			if (!is_len)
				return malformed(r, "a message field has the wrong wire type");
			break;
		case F_DEFAULT_SAMPLE_TYPE:
			if (f.wire != PB_VARINT)
				return malformed(r, "default_sample_type is not a varint");
			r->default_sample_type = f.value;
			continue;
		default:
			continue;
		}
		if (f.number == F_SAMPLE_TYPE)
			push_span(&r->sample_types, &r->nr_sample_types, &r->alloc_sample_types, &f);
		else if (f.number == F_SAMPLE)
			push_span(&r->samples, &r->nr_samples, &r->alloc_samples, &f);
		else if (f.number == F_LOCATION)
			push_span(&r->locations, &r->nr_locations, &r->alloc_locations, &f);
		else if (f.number == F_FUNCTION)
			push_span(&r->functions, &r->nr_functions, &r->alloc_functions, &f);
		else
			push_span(&r->strings, &r->nr_strings, &r->alloc_strings, &f);
	}
	if (got < 0)
		return malformed(r, "truncated or corrupt field");
	if (!r->nr_strings || r->strings[0].len)
		return malformed(r, "the string table does not start with \"\"");
	if (r->nr_locations > UINT32_MAX - 1 || r->nr_functions > UINT32_MAX - 1)
		return malformed(r, "too many locations or functions");
	return 0;
}

/* String index idx, or NULL when out of range. */
static const struct span *string_at(const struct pprof_reader *r, uint64_t idx)
{
	return idx < r->nr_strings ? &r->strings[idx] : NULL;
}

/* Field 1 (type) or 2 (unit) of sample type i (a ValueType message). */
static int value_type_string(const struct pprof_reader *r, size_t i, uint32_t field,
			     struct span *name)
{
	struct pb_reader pr;
	struct pb_field f;
	const struct span *s;
	uint64_t idx = 0;
	int got;

	pb_reader_init(&pr, r->sample_types[i].p, r->sample_types[i].len);
	while ((got = pb_next(&pr, &f)) > 0)
		if (f.number == field && f.wire == PB_VARINT)
			idx = f.value;
	if (got < 0 || !(s = string_at(r, idx)))
		return malformed(r, "bad sample_type");
	*name = *s;
	return 0;
}

/* The type name of sample type i; "" when unnamed. */
static int sample_type_name(const struct pprof_reader *r, size_t i, struct span *name)
{
	return value_type_string(r, i, 1, name);
}

/* "unit=UNIT": the last sample type measured in UNIT, if any (*chosen kept otherwise). */
static int choose_by_unit(const struct pprof_reader *r, const char *unit, size_t *chosen)
{
	struct span u;
	size_t i;

	for (i = 0; i < r->nr_sample_types; i++) {
		if (value_type_string(r, i, 2, &u) < 0)
			return -1;
		if (u.len == strlen(unit) && !memcmp(u.p, unit, u.len))
			*chosen = i;
	}
	return 0;
}

static int choose_sample_type(const struct pprof_reader *r, const char *want, size_t *chosen)
{
	struct strbuf names = STRBUF_INIT;
	struct span n;
	size_t i;

	if (!r->nr_sample_types)
		return malformed(r, "no sample types");
	*chosen = r->nr_sample_types - 1;
	if (!want && r->default_sample_type) {
		const struct span *d = string_at(r, r->default_sample_type);

		if (!d)
			return malformed(r, "default_sample_type out of range");
		for (i = 0; i < r->nr_sample_types; i++) {
			if (sample_type_name(r, i, &n) < 0)
				return -1;
			if (n.len == d->len && !memcmp(n.p, d->p, n.len))
				*chosen = i;
		}
		return 0;
	}
	if (!want)
		return 0;
	if (!strncmp(want, "unit=", 5))
		return choose_by_unit(r, want + 5, chosen);
	for (i = 0; i < r->nr_sample_types; i++) {
		if (sample_type_name(r, i, &n) < 0) {
			strbuf_release(&names);
			return -1;
		}
		if (n.len == strlen(want) && !memcmp(n.p, want, n.len)) {
			*chosen = i;
			strbuf_release(&names);
			return 0;
		}
		strbuf_addstr(&names, i ? ", " : "");
		strbuf_add(&names, n.p, n.len);
	}
	trail_error("%s: no sample type '%s' (the profile has: %s)", r->name, want, names.buf);
	strbuf_release(&names);
	return -1;
}

static int read_functions(struct pprof_reader *r)
{
	struct id_pair *pairs = xmallocarray(r->nr_functions ? r->nr_functions : 1, sizeof(*pairs));
	size_t i;

	r->func_names = xcalloc(r->nr_functions ? r->nr_functions : 1, sizeof(*r->func_names));
	for (i = 0; i < r->nr_functions; i++) {
		struct pb_reader pr;
		struct pb_field f;
		int got;

		pairs[i].id = 0;
		pairs[i].index = (uint32_t)i;
		pb_reader_init(&pr, r->functions[i].p, r->functions[i].len);
		while ((got = pb_next(&pr, &f)) > 0) {
			if (f.wire != PB_VARINT)
				continue;
			if (f.number == 1)
				pairs[i].id = f.value;
			else if (f.number == 2)
				r->func_names[i] = f.value;
		}
		if (got < 0 || r->func_names[i] >= r->nr_strings) {
			free(pairs);
			return malformed(r, "bad function");
		}
	}
	id_index_build(&r->func_ix, pairs, r->nr_functions);
	return 0;
}

/*
 * One Location: its Lines, innermost (inlined) first, become frames in
 * the opposite order; a location without Lines (not symbolized) is named
 * by its address.
 */
static int read_location(struct pprof_reader *r, size_t i, uint64_t *id)
{
	struct pb_reader pr, lr;
	struct pb_field f, lf;
	uint64_t address = 0;
	uint64_t *funcs = NULL;
	size_t nr = 0, alloc = 0, k;
	struct strbuf *sb = &r->loc_text[i];
	int got, ret = 0;

	*id = 0;
	pb_reader_init(&pr, r->locations[i].p, r->locations[i].len);
	while ((got = pb_next(&pr, &f)) > 0) {
		if (f.number == 1 && f.wire == PB_VARINT) {
			*id = f.value;
		} else if (f.number == 3 && f.wire == PB_VARINT) {
			address = f.value;
		} else if (f.number == 4 && f.wire == PB_LEN) {
			uint64_t fid = 0;

			pb_reader_init(&lr, f.data, f.len);
			while ((got = pb_next(&lr, &lf)) > 0)
				if (lf.number == 1 && lf.wire == PB_VARINT)
					fid = lf.value;
			if (got < 0)
				break;
			ALLOC_GROW(funcs, nr + 1, alloc);
			funcs[nr++] = fid;
		}
	}
	if (got < 0) {
		ret = malformed(r, "bad location");
		goto out;
	}
	if (!nr) {
		strbuf_addf(sb, "0x%llx", (unsigned long long)address);
		goto out;
	}
	for (k = nr; k-- > 0;) {
		uint32_t fi = id_index_find(&r->func_ix, funcs[k]);
		const struct span *name = fi == UINT32_MAX ? NULL : &r->strings[r->func_names[fi]];

		size_t before = sb->len;

		folded_stack_push(sb, name ? (const char *)name->p : "", name ? name->len : 0);
		if ((ret = input_budget_charge(&r->budget, sb->len, sb->len - before)) < 0)
			goto out;
	}
out:
	free(funcs);
	return ret;
}

static int read_locations(struct pprof_reader *r)
{
	struct id_pair *pairs = xmallocarray(r->nr_locations ? r->nr_locations : 1, sizeof(*pairs));
	size_t i;

	r->loc_text = xcalloc(r->nr_locations ? r->nr_locations : 1, sizeof(*r->loc_text));
	for (i = 0; i < r->nr_locations; i++) {
		strbuf_init(&r->loc_text[i], 0);
		pairs[i].index = (uint32_t)i;
		if (read_location(r, i, &pairs[i].id) < 0) {
			free(pairs);
			return -1;
		}
	}
	id_index_build(&r->loc_ix, pairs, r->nr_locations);
	return 0;
}

static int read_samples(struct pprof_reader *r, size_t type, struct folded_profile *out)
{
	struct strbuf stack = STRBUF_INIT;
	uint64_t *locs = NULL, *vals = NULL;
	size_t alloc_locs = 0, alloc_vals = 0, i;
	int ret = 0;

	for (i = 0; i < r->nr_samples && !ret; i++) {
		struct pb_reader pr;
		struct pb_field f;
		size_t nr_locs = 0, nr_vals = 0, k;
		int64_t value;
		int got;

		pb_reader_init(&pr, r->samples[i].p, r->samples[i].len);
		while ((got = pb_next(&pr, &f)) > 0) {
			if (f.number == 1)
				got = pb_append_ints(&f, &locs, &nr_locs, &alloc_locs);
			else if (f.number == 2)
				got = pb_append_ints(&f, &vals, &nr_vals, &alloc_vals);
			if (got < 0)
				break;
		}
		if (got < 0) {
			ret = malformed(r, "bad sample");
			break;
		}
		if (nr_vals != r->nr_sample_types) {
			ret = malformed(r, "a sample has a different number of values than sample types");
			break;
		}
		value = (int64_t)vals[type];
		if (!value || !nr_locs)
			continue;
		strbuf_reset(&stack);
		for (k = nr_locs; k-- > 0;) {	/* location_id[0] is the leaf */
			uint32_t li = id_index_find(&r->loc_ix, locs[k]);

			if (li == UINT32_MAX) {
				ret = malformed(r, "a sample refers to a missing location");
				break;
			}
			if (stack.len)
				strbuf_addch(&stack, ';');
			strbuf_add(&stack, r->loc_text[li].buf, r->loc_text[li].len);
			if ((ret = input_budget_charge(&r->budget, stack.len, r->loc_text[li].len + 1)) < 0)
				break;
		}
		if (!ret)
			folded_profile_add(out, stack.buf, stack.len, 0, (double)value);
	}
	free(locs);
	free(vals);
	strbuf_release(&stack);
	return ret;
}

static void reader_release(struct pprof_reader *r)
{
	size_t i;

	if (r->loc_text)
		for (i = 0; i < r->nr_locations; i++)
			strbuf_release(&r->loc_text[i]);
	free(r->loc_text);
	free(r->func_names);
	id_index_release(&r->func_ix);
	id_index_release(&r->loc_ix);
	free(r->strings);
	free(r->sample_types);
	free(r->samples);
	free(r->locations);
	free(r->functions);
}

/* Whether f could be a top-level field of Profile (numbers 1-14, right wire type). */
static int profile_field_ok(const struct pb_field *f)
{
	switch (f->number) {
	case 1: case 2: case 3: case 4: case 5: case 6: case 11:
		return f->wire == PB_LEN;
	case 13:
		return f->wire == PB_LEN || f->wire == PB_VARINT;
	case 7: case 8: case 9: case 10: case 12: case 14:
		return f->wire == PB_VARINT;
	default:
		return 0;
	}
}

/* A ValueType: two varints, type and unit. */
static int value_type_ok(const struct pb_field *f)
{
	struct pb_reader sub;
	struct pb_field v;
	int got;

	if (!f->len)
		return 0;
	pb_reader_init(&sub, f->data, f->len);
	while ((got = pb_next(&sub, &v)) > 0)
		if ((v.number != 1 && v.number != 2) || v.wire != PB_VARINT)
			return 0;
	return got == 0;
}

int pprof_detect(const void *data, size_t len)
{
	unsigned char head[256];
	struct pb_reader pr;
	struct pb_field f;
	int i;

	if (gzip_buf_is_gzip(data, len)) {
		len = gzip_buf_peek(data, len, head, sizeof(head));
		data = head;
	}
	/*
	 * Writers put a few scalars (Go: time_nanos) before the sample types;
	 * the first fields must all fit Profile and include a sample_type.
	 */
	pb_reader_init(&pr, data, len);
	for (i = 0; i < 8; i++) {
		if (pb_next(&pr, &f) <= 0 || !profile_field_ok(&f))
			return 0;
		if (f.number == F_SAMPLE_TYPE)
			return value_type_ok(&f);
	}
	return 0;
}

/* The profile model's units from sample type i's names (samples when unknown). */
static void units_of(const struct pprof_reader *r, size_t i, struct folded_weight_info *w)
{
	struct span t, u;
	char type[32], unit[32];

	memset(w, 0, sizeof(*w));
	if (i >= r->nr_sample_types || value_type_string(r, i, 1, &t) < 0 ||
	    value_type_string(r, i, 2, &u) < 0)
		return;
	snprintf(type, sizeof(type), "%.*s", (int)(t.len < 31 ? t.len : 31), (const char *)t.p);
	snprintf(unit, sizeof(unit), "%.*s", (int)(u.len < 31 ? u.len : 31), (const char *)u.p);
	if (folded_weight_from_words(w, type, unit) < 0)
		memset(w, 0, sizeof(*w));
}

int pprof_fold(const char *data, size_t len, const char *name, const char *sample_type,
	       struct folded_profile *out)
{
	struct pprof_reader r;
	struct strbuf raw = STRBUF_INIT;
	size_t type = 0;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.budget.name = name;
	if (gzip_buf_is_gzip(data, len)) {
		if (gzip_buf_inflate(data, len, input_limits.max_input_size, &raw, name) < 0)
			goto out;
		data = raw.buf;
		len = raw.len;
	}
	if (scan_top(&r, (const uint8_t *)data, len) < 0 || choose_sample_type(&r, sample_type, &type) < 0 ||
	    read_functions(&r) < 0 || read_locations(&r) < 0 || read_samples(&r, type, out) < 0)
		goto out;
	units_of(&r, type, &out->weight);
	ret = 0;
out:
	reader_release(&r);
	strbuf_release(&raw);
	return ret;
}

static int detect(const char *head, size_t len)
{
	return pprof_detect(head, len) ? 90 : 0;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	return collapse_read_whole(s, in, f, pprof_fold);
}

const struct collapser collapse_pprof = {
	"pprof",
	"pprof profile.proto (go tool pprof, runtime/pprof; --sample-type)",
	detect,
	read_input,
};
