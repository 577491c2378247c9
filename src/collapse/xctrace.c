/*
 * xctrace.c - the "xctrace" input format: Instruments' Time Profiler
 * table exported as XML (xctrace export --input x.trace --xpath
 * '/trace-toc/run[1]/data/table[@schema="time-profile"]').  Under
 * <trace-query-result><node>, each <row> is one sample whose <backtrace>
 * lists <frame name="..."> leaf first; backtraces and frames seen once
 * are later given by reference (<backtrace ref="10"/>, <frame ref="11"/>).
 * Every row counts 1.  Names are XML-unescaped and half-demangled Rust
 * names cleaned up, as inferno's collapse-xctrace does.
 *
 * The XML reader here is the small subset xctrace writes: elements,
 * attributes in single or double quotes, comments and declarations
 * skipped, text content ignored.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/intern.h"
#include "profile/folded.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct backtrace {
	uint32_t first, nr;	/* frame indexes in xc->frame_list */
	uint64_t count;		/* rows that used it */
	int defined;
};

struct xctrace {
	const char *name;
	struct intern frame_ids;	/* "id" attribute text -> dense frame index */
	struct intern bt_ids;		/* same for backtraces */
	uint32_t *frame_name;		/* per frame index: id in names, NONE if unseen */
	size_t alloc_frame_name;
	struct intern names;		/* unescaped frame names */
	struct backtrace *bts;
	size_t alloc_bts;
	uint32_t *frame_list;
	size_t nr_frame_list, alloc_frame_list;
	struct strbuf text;		/* scratch: unescaped attribute */
};

struct tag {
	const char *name;
	size_t name_len;
	const char *attrs;	/* the text between the name and '>' */
	size_t attrs_len;
	int end;		/* </name> */
	int empty;		/* <name .../> */
};

static int tag_is(const struct tag *t, const char *name)
{
	return t->name_len == strlen(name) && !memcmp(t->name, name, t->name_len);
}

/* The value of attribute key in t (raw, still escaped), or NULL. */
static const char *attr(const struct tag *t, const char *key, size_t *len)
{
	const char *p = t->attrs, *end = t->attrs + t->attrs_len;
	size_t klen = strlen(key);

	while (p < end) {
		const char *k, *q;
		char quote;

		while (p < end && frames_is_space(*p))
			p++;
		k = p;
		while (p < end && *p != '=' && !frames_is_space(*p))
			p++;
		if (p >= end)
			return NULL;
		q = p;
		while (p < end && frames_is_space(*p))
			p++;
		if (p >= end || *p != '=')
			continue;
		p++;
		while (p < end && frames_is_space(*p))
			p++;
		if (p >= end || (*p != '"' && *p != '\''))
			return NULL;
		quote = *p++;
		{
			const char *v = p, *close = memchr(p, quote, (size_t)(end - p));

			if (!close)
				return NULL;
			p = close + 1;
			if ((size_t)(q - k) == klen && !memcmp(k, key, klen)) {
				*len = (size_t)(close - v);
				return v;
			}
		}
	}
	return NULL;
}

/* XML entities: the five named ones and numeric references; others kept as written. */
static void unescape(struct strbuf *out, const char *s, size_t len)
{
	static const struct {
		const char *name;
		char c;
	} named[] = { { "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' }, { "quot;", '"' },
		      { "apos;", '\'' } };
	size_t i = 0, k;

	strbuf_setlen(out, 0);
	while (i < len) {
		const char *amp = memchr(s + i, '&', len - i);
		const char *semi;

		if (!amp) {
			strbuf_add(out, s + i, len - i);
			break;
		}
		strbuf_add(out, s + i, (size_t)(amp - (s + i)));
		i = (size_t)(amp - s);
		for (k = 0; k < 5; k++) {
			size_t n = strlen(named[k].name);

			if (len - i - 1 >= n && !memcmp(s + i + 1, named[k].name, n)) {
				strbuf_addch(out, named[k].c);
				i += 1 + n;
				break;
			}
		}
		if (k < 5)
			continue;
		semi = memchr(s + i, ';', len - i);
		if (semi && len - i > 2 && s[i + 1] == '#' && semi - (s + i) <= 10) {
			unsigned long cp = 0;
			int hex = s[i + 2] == 'x', ok = 1;
			const char *d = s + i + 2 + hex;

			if (d == semi)
				ok = 0;
			for (; d < semi && ok; d++) {
				int v = *d >= '0' && *d <= '9' ? *d - '0'
					: hex && *d >= 'a' && *d <= 'f' ? *d - 'a' + 10
					: hex && *d >= 'A' && *d <= 'F' ? *d - 'A' + 10 : -1;

				if (v < 0)
					ok = 0;
				else
					cp = cp * (hex ? 16 : 10) + (unsigned long)v;
			}
			if (ok && cp > 0 && cp <= 0x10ffff) {
				/* UTF-8 */
				if (cp < 0x80) {
					strbuf_addch(out, (int)cp);
				} else if (cp < 0x800) {
					strbuf_addch(out, (int)(0xc0 | (cp >> 6)));
					strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
				} else if (cp < 0x10000) {
					strbuf_addch(out, (int)(0xe0 | (cp >> 12)));
					strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
					strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
				} else {
					strbuf_addch(out, (int)(0xf0 | (cp >> 18)));
					strbuf_addch(out, (int)(0x80 | ((cp >> 12) & 0x3f)));
					strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
					strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
				}
				i = (size_t)(semi - s) + 1;
				continue;
			}
		}
		strbuf_addch(out, '&');
		i++;
	}
}

static uint32_t dense(struct intern *t, const char *s, size_t len)
{
	return intern_add(t, s, len, NULL);
}

static uint32_t frame_index(struct xctrace *xc, const char *id, size_t len)
{
	uint32_t i = dense(&xc->frame_ids, id, len);

	if (i >= xc->alloc_frame_name) {
		size_t old = xc->alloc_frame_name, k;

		ALLOC_GROW(xc->frame_name, (size_t)i + 1, xc->alloc_frame_name);
		for (k = old; k < xc->alloc_frame_name; k++)
			xc->frame_name[k] = NONE;
	}
	return i;
}

static struct backtrace *backtrace_at(struct xctrace *xc, const char *id, size_t len)
{
	uint32_t i = dense(&xc->bt_ids, id, len);

	if (i >= xc->alloc_bts) {
		size_t old = xc->alloc_bts;

		ALLOC_GROW(xc->bts, (size_t)i + 1, xc->alloc_bts);
		memset(xc->bts + old, 0, (xc->alloc_bts - old) * sizeof(*xc->bts));
	}
	return &xc->bts[i];
}

/* The next tag at or after *p; 0 at the end, -1 on a tag that does not end. */
static int next_tag(const char **p, const char *end, struct tag *t)
{
	const char *s = *p;

	for (;;) {
		const char *lt = memchr(s, '<', (size_t)(end - s)), *gt, *n;

		if (!lt)
			return 0;
		if (end - lt >= 4 && !memcmp(lt, "<!--", 4)) {
			const char *c = memmem(lt + 4, (size_t)(end - lt - 4), "-->", 3);

			if (!c)
				return -1;
			s = c + 3;
			continue;
		}
		gt = memchr(lt, '>', (size_t)(end - lt));
		if (!gt)
			return -1;
		if (lt[1] == '?' || lt[1] == '!') {
			s = gt + 1;
			continue;
		}
		memset(t, 0, sizeof(*t));
		n = lt + 1;
		if (*n == '/') {
			t->end = 1;
			n++;
		}
		t->name = n;
		while (n < gt && !frames_is_space(*n) && *n != '/')
			n++;
		t->name_len = (size_t)(n - t->name);
		t->attrs = n;
		t->attrs_len = (size_t)(gt - n);
		if (gt > n && gt[-1] == '/') {
			t->empty = 1;
			t->attrs_len--;
		}
		*p = gt + 1;
		return 1;
	}
}

static int parse(struct xctrace *xc, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *v;
	struct backtrace *row_bt = NULL;
	uint32_t cur_first = 0;
	int in_bt = 0, frame_depth = 0, got;
	size_t vlen;
	struct tag t;
	char cur_id[32];
	size_t cur_id_len = 0;

	while ((got = next_tag(&p, end, &t)) > 0) {
		if (t.end) {
			if (tag_is(&t, "frame") && frame_depth) {
				frame_depth--;
			} else if (tag_is(&t, "backtrace") && in_bt) {
				struct backtrace *bt = backtrace_at(xc, cur_id, cur_id_len);

				if (bt->defined)
					return trail_error("%s: backtrace id %.*s defined twice", xc->name,
						     (int)cur_id_len, cur_id);
				bt->defined = 1;
				bt->first = cur_first;
				bt->nr = (uint32_t)(xc->nr_frame_list - cur_first);
				row_bt = bt;
				in_bt = 0;
			} else if (tag_is(&t, "row")) {
				if (row_bt)
					row_bt->count++;
				row_bt = NULL;
			}
			continue;
		}
		if (frame_depth) {
			if (tag_is(&t, "frame") && !t.empty)
				frame_depth++;
			continue;
		}
		if (tag_is(&t, "row")) {
			row_bt = NULL;
		} else if (tag_is(&t, "backtrace") && !in_bt) {
			if ((v = attr(&t, "ref", &vlen))) {
				row_bt = backtrace_at(xc, v, vlen);
			} else if ((v = attr(&t, "id", &vlen)) && vlen < sizeof(cur_id)) {
				memcpy(cur_id, v, vlen);
				cur_id_len = vlen;
				cur_first = (uint32_t)xc->nr_frame_list;
				in_bt = 1;
				if (t.empty) {
					struct backtrace *bt = backtrace_at(xc, v, vlen);

					bt->defined = 1;
					bt->first = cur_first;
					bt->nr = 0;
					row_bt = bt;
					in_bt = 0;
				}
			} else {
				return trail_error("%s: a <backtrace> with neither id nor ref", xc->name);
			}
		} else if (tag_is(&t, "frame") && in_bt) {
			uint32_t fi;

			if ((v = attr(&t, "ref", &vlen))) {
				fi = frame_index(xc, v, vlen);
			} else if ((v = attr(&t, "id", &vlen))) {
				const char *nm;
				size_t nlen;

				fi = frame_index(xc, v, vlen);
				nm = attr(&t, "name", &nlen);
				if (!nm)
					return trail_error("%s: a <frame> without a name", xc->name);
				unescape(&xc->text, nm, nlen);
				xc->frame_name[fi] = dense(&xc->names, xc->text.buf, xc->text.len);
				if (!t.empty)
					frame_depth = 1;
			} else {
				return trail_error("%s: a <frame> with neither id nor ref", xc->name);
			}
			ALLOC_GROW(xc->frame_list, xc->nr_frame_list + 1, xc->alloc_frame_list);
			xc->frame_list[xc->nr_frame_list++] = fi;
		}
	}
	if (got < 0)
		return trail_error("%s: a tag does not end (truncated XML?)", xc->name);
	return 0;
}

static int fold_backtraces(struct xctrace *xc, struct folder *f)
{
	struct frame_stack fs;
	struct strbuf fixed = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	frame_stack_init(&fs);
	for (i = 0; i < xc->bt_ids.nr && !ret; i++) {
		const struct backtrace *bt = &xc->bts[i];

		if (!bt->count)
			continue;
		if (!bt->defined) {
			ret = trail_error("%s: backtrace %s is used but never defined", xc->name,
				    intern_str(&xc->bt_ids, (uint32_t)i));
			break;
		}
		frame_stack_truncate(&fs, 0);
		for (k = 0; k < bt->nr; k++) {
			uint32_t fi = xc->frame_list[bt->first + k], nm = xc->frame_name[fi];

			if (nm == NONE) {
				ret = trail_error("%s: frame %s is used but never defined", xc->name,
					    intern_str(&xc->frame_ids, fi));
				break;
			}
			frames_fix_rust_name(intern_str(&xc->names, nm), intern_len(&xc->names, nm),
					     &fixed);
			/* XML can spell a line break (&#10;): docs/collapse.md, "Frame names" */
			folded_name_guard(fixed.buf, fixed.len);
			frame_stack_push(&fs, fixed.buf, fixed.len);
		}
		if (!ret)
			frame_stack_fold(&fs, f, 1, bt->count);
	}
	frame_stack_release(&fs);
	strbuf_release(&fixed);
	return ret;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct xctrace xc;
	char *buf;
	size_t len;
	int ret;

	(void)s;
	if (collapse_input_slurp(in, &buf, &len))
		return -1;
	memset(&xc, 0, sizeof(xc));
	xc.name = in->name;
	intern_init(&xc.frame_ids);
	intern_init(&xc.bt_ids);
	intern_init(&xc.names);
	strbuf_init(&xc.text, 256);
	ret = parse(&xc, buf, len);
	if (!ret)
		ret = fold_backtraces(&xc, f);
	intern_release(&xc.frame_ids);
	intern_release(&xc.bt_ids);
	intern_release(&xc.names);
	strbuf_release(&xc.text);
	free(xc.frame_name);
	free(xc.bts);
	free(xc.frame_list);
	free(buf);
	return ret;
}

/* An XML declaration and a <trace-query-result> element. */
static int detect(const char *head, size_t n)
{
	(void)n;
	return strstr(head, "<?xml version=\"1.0\"") && strstr(head, "<trace-query-result") ? 95
											      : 0;
}

const struct collapser collapse_xctrace = {
	"xctrace",
	"Instruments Time Profiler XML from 'xctrace export' (inferno's collapse-xctrace)",
	detect,
	read_input,
};
