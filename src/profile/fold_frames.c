/*
 * fold_frames.c - frame text to frame groups: the module rules (kernel,
 * JIT), the name clean-up of stackcollapse-perf.pl (FlameGraph, CDDL) as
 * documented in the conformance corpus README (deviations in
 * docs/collapse-deviations.tsv), and the cache of cleaned groups of
 * interned frame ids, one per (function, module, java?[, pc]).
 */
#include "profile/fold.h"
#include "profile/fold_parts.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/error.h"
#include "core/hashmap.h"
#include "core/intern.h"
#include "core/string_list.h"

#include <stdlib.h>
#include <string.h>

/* ---- module rules ---- */

static int has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len >= n && !memcmp(s + len - n, suf, n);
}

static int contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/* "vmlinux" possibly followed by a version: [A-Za-z0-9._-]* up to the end. */
static int is_vmlinux(const char *s, size_t len)
{
	const char *p = NULL, *q = s;
	size_t i;

	while ((q = memmem(q, len - (size_t)(q - s), "vmlinux", 7))) {
		p = q;
		q++;
	}
	if (!p)
		return 0;
	for (i = (size_t)(p - s) + 7; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/*
 * Perl: module starts with '[' or ends in "vmlinux", and does not contain
 * "unknown".  Also (as inferno): versioned "vmlinux-5.4.1" and "*.ko".
 */
int fold_module_is_kernel(const char *m, size_t len)
{
	if (contains(m, len, "unknown"))
		return 0;
	return (len && m[0] == '[') || is_vmlinux(m, len) || has_suffix(m, len, ".ko");
}

/* Perl: contains "/tmp/perf-<digits>.map".  Also (as inferno): ".../jitted-*.so". */
int fold_module_is_jit(const char *m, size_t len)
{
	const char *p = m;
	size_t left = len;

	while ((p = memmem(p, left, "/tmp/perf-", 10))) {
		const char *d = p + 10, *end = m + len;

		if (d < end && *d >= '0' && *d <= '9') {
			while (d < end && *d >= '0' && *d <= '9')
				d++;
			if (end - d >= 4 && !memcmp(d, ".map", 4))
				return 1;
		}
		p++;
		left = len - (size_t)(p - m);
	}
	return contains(m, len, "/jitted-") && has_suffix(m, len, ".so");
}

/* ---- name clean-up ---- */

/* Perl's /\.\(.*\)\./: a Go method such as "net/http.(*Client).Do". */
static int looks_like_go(const char *s, size_t len)
{
	const char *open = memmem(s, len, ".(", 2);
	size_t i;

	if (!open)
		return 0;
	for (i = len; i >= 2; i--)
		if (s[i - 2] == ')' && s[i - 1] == '.')
			return (size_t)(open - s) + 2 <= i - 2;
	return 0;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/*
 * Where the argument list starts: the first '(' that is not
 * "(anonymous namespace)" (as the Perl script) and, unlike the Perl script,
 * not nested inside C++ template arguments <> or lambda braces {} (as
 * inferno), so "std::function<int (int)>::operator()(int)" keeps its type.
 * The symbols of operator names ("operator<", "operator->") do not count
 * as brackets.  "operator()(int)" is cut at its first '(', as both
 * reference tools do.
 */
static size_t args_start(const char *s, size_t len)
{
	size_t i = 0, depth = 0;

	while (i < len) {
		char c = s[i];

		if (c == 'o' && len - i >= 8 && !memcmp(s + i, "operator", 8) &&
		    (i == 0 || !is_ident(s[i - 1]))) {
			i += 8;
			while (i < len && s[i] && strchr("<>=!+-*/%^&|~,", s[i]))
				i++;
			continue;
		}
		if (c == '<' || c == '{') {
			depth++;
		} else if (c == '>' || c == '}') {
			if (depth)
				depth--;
		} else if (c == '(' && !depth) {
			if (len - i >= 21 && !memcmp(s + i, "(anonymous namespace)", 21)) {
				i += 21;
				continue;
			}
			return i;
		}
		i++;
	}
	return len;
}

/*
 * Clean one frame name in place (tidy_generic and tidy_java of the Perl
 * script): ';' -> ':', drop the argument list, delete quotes, and drop the
 * 'L' of Java class names.
 */
static void tidy_name(struct namebuf *b, size_t start, int java)
{
	char *s = b->buf + start;
	size_t len = b->len - start, i, o;

	for (i = 0; i < len; i++)
		if (s[i] == ';')
			s[i] = ':';
	if (!looks_like_go(s, len))
		len = args_start(s, len);
	for (i = o = 0; i < len; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[o++] = s[i];
	len = o;
	if (java && len && s[0] == 'L' && memchr(s, '/', len)) {
		memmove(s, s + 1, len - 1);
		len--;
	}
	b->len = start + len;
}

static void push_group_id(struct folder *f, uint32_t id)
{
	ALLOC_GROW(f->group_ids, f->nr_group_ids + 1, f->alloc_group_ids);
	f->group_ids[f->nr_group_ids++] = id;
}

/* Build the frames of one stack line (stackcollapse-perf.pl's inner loop). */
static void build_group(struct folder *f, struct fold_group *g)
{
	struct namebuf b = f->scratch;
	const char *s = g->func, *end = g->func + g->func_len;
	size_t nr_pieces = 0, i, last_nonempty = 0;
	const char *pieces[64];
	size_t piece_len[64];
	const char **pv = pieces;
	size_t *plv = piece_len, cap = 64;

	/* split on "->"; like Perl's split, trailing empty pieces are dropped */
	for (;;) {
		const char *arrow = memmem(s, (size_t)(end - s), "->", 2);
		const char *stop = arrow ? arrow : end;

		if (nr_pieces == cap) {
			size_t ncap = cap * 2;
			const char **np = xmallocarray(ncap, sizeof(*np));
			size_t *nl = xmallocarray(ncap, sizeof(*nl));

			memcpy(np, pv, cap * sizeof(*np));
			memcpy(nl, plv, cap * sizeof(*nl));
			if (pv != pieces) {
				free(pv);
				free(plv);
			}
			pv = np;
			plv = nl;
			cap = ncap;
		}
		pv[nr_pieces] = s;
		plv[nr_pieces] = (size_t)(stop - s);
		if (stop > s)
			last_nonempty = nr_pieces + 1;
		nr_pieces++;
		if (!arrow)
			break;
		s = arrow + 2;
	}
	nr_pieces = last_nonempty;

	g->first = (uint32_t)f->nr_group_ids;
	for (i = 0; i < nr_pieces; i++) {
		const char *p = pv[i];
		size_t plen = plv[i];

		b.len = 0;
		if (plen == 9 && !memcmp(p, "[unknown]", 9)) {
			const char *name = "unknown";
			size_t nlen = 7;

			if (!(g->mod_len == 9 && !memcmp(g->mod, "[unknown]", 9))) {
				const char *slash = NULL, *q;

				for (q = g->mod; q < g->mod + g->mod_len; q++)
					if (*q == '/')
						slash = q;
				name = slash ? slash + 1 : g->mod;
				nlen = (size_t)(g->mod + g->mod_len - name);
			}
			nb_add(&b, "[", 1);
			nb_add(&b, name, nlen);
			if (f->opts.include_addrs) {
				nb_add(&b, " <", 2);
				nb_add(&b, g->pc, g->pc_len);
				nb_add(&b, ">", 1);
			}
			nb_add(&b, "]", 1);
		} else {
			nb_add(&b, p, plen);
		}
		tidy_name(&b, 0, g->java);
		if (i > 0) {
			if (!memmem(b.buf, b.len, "_[i]", 4))
				nb_add(&b, "_[i]", 4);
		} else if (f->opts.annotate_kernel && fold_module_is_kernel(g->mod, g->mod_len)) {
			nb_add(&b, "_[k]", 4);
		} else if (f->opts.annotate_jit && fold_module_is_jit(g->mod, g->mod_len)) {
			if (!memmem(b.buf, b.len, "_[j]", 4))
				nb_add(&b, "_[j]", 4);
		}
		push_group_id(f, intern_add(&f->names, b.len ? b.buf : "", b.len, NULL));
	}
	g->nr = (uint32_t)nr_pieces;
	f->scratch = b;
	if (pv != pieces) {
		free(pv);
		free(plv);
	}
}

static int is_skip_after(const struct folder *f, const char *func, size_t len)
{
	size_t i;

	if (!f->opts.skip_after)
		return 0;
	for (i = 0; i < f->opts.skip_after->nr; i++) {
		const char *n = f->opts.skip_after->items[i];

		if (strlen(n) == len && !memcmp(n, func, len))
			return 1;
	}
	return 0;
}

static char *arena_copy(struct arena *a, const char *s, size_t len)
{
	return arena_strndup(a, s, len);
}

/*
 * Module paths are long and few: hashing their length and last bytes is
 * enough to spread them, and costs a fraction of hashing the whole path
 * on every line.  Equal keys are still confirmed with memcmp.
 */
static uint32_t module_hash(const char *m, size_t len)
{
	return intern_hash(len > 16 ? m + len - 16 : m, len > 16 ? 16 : len) ^ (uint32_t)len;
}

/* The group (cleaned frames) for one frame of the current process. */
uint32_t fold_lookup_group(struct folder *f, const struct fold_frame *fr, const char *func,
			   size_t func_len)
{
	int java = f->java;
	int use_pc = f->opts.include_addrs && memmem(func, func_len, "[unknown]", 9);
	uint32_t h = intern_hash(func, func_len), id;
	struct hashmap_iter it;
	struct fold_group *g;

	h = (h * 0x9e3779b1u) ^ module_hash(fr->module, fr->module_len) ^ (uint32_t)java;
	if (use_pc)
		h = (h * 0x85ebca6bu) ^ intern_hash(fr->addr, fr->addr_len);
	for (id = hashmap_first(&f->group_index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it)) {
		g = &f->groups[id];
		if (g->func_len == func_len && g->mod_len == fr->module_len &&
		    g->java == java && !memcmp(g->func, func, func_len) &&
		    !memcmp(g->mod, fr->module, fr->module_len) &&
		    (!use_pc || (g->pc_len == fr->addr_len && !memcmp(g->pc, fr->addr, fr->addr_len))))
			return id;
	}
	if (func_len > UINT32_MAX || fr->module_len > UINT32_MAX || fr->addr_len > UINT32_MAX)
		die("frame name too long");
	ALLOC_GROW(f->groups, f->nr_groups + 1, f->alloc_groups);
	g = &f->groups[f->nr_groups];
	memset(g, 0, sizeof(*g));
	g->func = arena_copy(&f->arena, func, func_len);
	g->func_len = (uint32_t)func_len;
	g->mod = arena_copy(&f->arena, fr->module, fr->module_len);
	g->mod_len = (uint32_t)fr->module_len;
	g->pc = arena_copy(&f->arena, fr->addr, fr->addr_len);
	g->pc_len = (uint32_t)fr->addr_len;
	g->java = (unsigned char)java;
	g->skip_hit = (unsigned char)is_skip_after(f, func, func_len);
	build_group(f, g);
	hashmap_add_at(&f->group_index, &it, (uint32_t)f->nr_groups++);
	return (uint32_t)(f->nr_groups - 1);
}

