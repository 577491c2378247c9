/*
 * fold.c - the folding engine behind fold.h.
 *
 * Frame text is cleaned up once per distinct (function, module, java?)
 * triple and cached as a "group" of interned frame ids (one line of perf
 * script can yield several frames: Java inlining "a->b").  A sample is
 * then a short array of ids, counted in an open-addressing table keyed by
 * the id sequence.  Strings are only built again when writing, where the
 * stacks of every folder are merged and sorted in byte order.
 *
 * The name clean-up follows stackcollapse-perf.pl (FlameGraph, CDDL) as
 * documented in the conformance corpus README; the deviations (kernel and
 * JIT module rules, argument lists nested in templates) are listed in
 * docs/collapse-deviations.tsv.
 */
#include "profile/fold.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/error.h"
#include "core/hashmap.h"
#include "core/intern.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "profile/folded.h"

#include <stdlib.h>
#include <string.h>

#define NO_ID UINT32_MAX

struct namebuf {
	char *buf;
	size_t len, alloc;
};

struct fold_group {
	uint32_t func_len, mod_len, pc_len;	/* bytes */
	const char *func, *mod, *pc;	/* arena copies; pc only when it matters */
	uint32_t first;			/* index of the first frame id in group_ids */
	uint32_t nr;			/* frames in this group (0 is possible) */
	unsigned char java;		/* cleaned up for a java process */
	unsigned char skip_hit;		/* function is a --skip-after name */
};

/* A run of frame text ("func+0x1f (module)") -> group, or SPAN_SKIPPED. */
struct fold_span {
	uint32_t len;		/* bytes */
	const char *text;	/* arena copy */
	uint32_t group;		/* index into groups, or SPAN_SKIPPED */
	unsigned char java;
};

#define SPAN_SKIPPED UINT32_MAX

struct fold_stack {
	uint64_t count;		/* summed periods */
	uint64_t off;		/* index of the first id in stack_ids */
	uint32_t len;		/* number of ids */
};

struct folder {
	struct fold_options opts;
	struct intern names;	/* frame and process names -> ids */
	struct arena arena;	/* group keys */

	struct fold_group *groups;
	size_t nr_groups, alloc_groups;
	struct hashmap group_index;	/* (function, module, java[, pc]) -> index in groups */
	uint32_t *group_ids;
	size_t nr_group_ids, alloc_group_ids;

	struct fold_span *spans;
	size_t nr_spans, alloc_spans;
	struct hashmap span_index;	/* (frame text, java) -> index in spans */

	struct fold_stack *stacks;
	size_t nr_stacks, alloc_stacks;
	struct hashmap stack_index;	/* ids -> index in stacks */
	uint32_t *stack_ids;
	size_t nr_stack_ids, alloc_stack_ids;

	/* the sample being built */
	uint32_t pname;		/* id, or NO_ID when there is no current process */
	int java;		/* the process name starts with "java" */
	int skip_rest;		/* a --skip-after frame was seen */
	uint64_t period;
	uint32_t *cur;		/* group indexes, leaf first */
	size_t nr_cur, alloc_cur;
	uint32_t *key;		/* scratch for the stack key */
	size_t alloc_key;
	struct namebuf scratch;	/* reused for names being built */
};

struct folder *folder_new(const struct fold_options *opts)
{
	struct folder *f = xcalloc(1, sizeof(*f));

	f->opts = *opts;
	intern_init(&f->names);
	hashmap_init(&f->group_index, 512);
	hashmap_init(&f->stack_index, 512);
	hashmap_init(&f->span_index, 512);
	f->pname = NO_ID;
	return f;
}

void folder_free(struct folder *f)
{
	if (!f)
		return;
	intern_release(&f->names);
	arena_release(&f->arena);
	free(f->groups);
	hashmap_release(&f->group_index);
	free(f->group_ids);
	free(f->stacks);
	hashmap_release(&f->stack_index);
	free(f->stack_ids);
	free(f->spans);
	hashmap_release(&f->span_index);
	free(f->cur);
	free(f->key);
	free(f->scratch.buf);
	free(f);
}

size_t folder_nr_stacks(const struct folder *f)
{
	return f->nr_stacks;
}

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

static void nb_add(struct namebuf *b, const char *s, size_t n)
{
	ALLOC_GROW(b->buf, b->len + n + 1, b->alloc);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

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
static uint32_t lookup_group(struct folder *f, const struct fold_frame *fr,
			     const char *func, size_t func_len)
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

/* ---- the sample state machine ---- */

void folder_set_process(struct folder *f, const char *comm, size_t comm_len,
			const char *pid, size_t pid_len, const char *tid, size_t tid_len,
			uint64_t period)
{
	struct namebuf b = f->scratch;
	size_t i;

	b.len = 0;

	nb_add(&b, comm, comm_len);
	if (f->opts.include_tid || f->opts.include_pid) {
		nb_add(&b, "-", 1);
		if (pid)
			nb_add(&b, pid, pid_len);
		else
			nb_add(&b, "?", 1);
		if (f->opts.include_tid) {
			nb_add(&b, "/", 1);
			nb_add(&b, tid, tid_len);
		}
	}
	for (i = 0; i < b.len; i++)
		if (b.buf[i] == ' ')
			b.buf[i] = '_';
	f->period = f->opts.count_samples ? 1 : period;
	/*
	 * The Perl script tests the name for truth, but its grammar never
	 * yields "" or "0" (a comm has at least two bytes), so every name
	 * starts a sample here.
	 */
	f->pname = intern_add(&f->names, b.len ? b.buf : "", b.len, NULL);
	f->java = b.len >= 4 && !memcmp(b.buf, "java", 4);
	f->scratch = b;
}

void folder_reset_sample(struct folder *f)
{
	f->pname = NO_ID;
	f->nr_cur = 0;
	f->skip_rest = 0;
}

int folder_uses_addrs(const struct folder *f)
{
	return f->opts.include_addrs;
}

size_t folder_pending_frames(const struct folder *f)
{
	return f->nr_cur;
}

/* Perl: s/\+0x[\da-f]+$// */
static size_t strip_offset(const char *s, size_t len)
{
	size_t i = len;

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') || (s[i - 1] >= 'a' && s[i - 1] <= 'f')))
		i--;
	if (i < len && i >= 3 && s[i - 3] == '+' && s[i - 2] == '0' && s[i - 1] == 'x')
		return i - 3;
	return len;
}

/* The group of a frame, or SPAN_SKIPPED for frames the Perl script skips. */
static uint32_t frame_group(struct folder *f, const struct fold_frame *fr)
{
	size_t len = strip_offset(fr->func, fr->func_len);

	if (len && fr->func[0] == '(')	/* a process name in brackets */
		return SPAN_SKIPPED;
	return lookup_group(f, fr, fr->func, len);
}

static void push_frame(struct folder *f, uint32_t g)
{
	if (g == SPAN_SKIPPED)
		return;
	ALLOC_GROW(f->cur, f->nr_cur + 1, f->alloc_cur);
	f->cur[f->nr_cur++] = g;
	if (f->groups[g].skip_hit)
		f->skip_rest = 1;
}

void folder_add_frame(struct folder *f, const struct fold_frame *fr)
{
	if (f->pname == NO_ID || f->skip_rest)
		return;
	push_frame(f, frame_group(f, fr));
}

void folder_add_frame_text(struct folder *f, const struct fold_frame *fr, const char *key,
			   size_t key_len)
{
	uint32_t h, id, g;
	struct hashmap_iter it;
	struct fold_span *sp;

	if (f->pname == NO_ID || f->skip_rest)
		return;
	/* with --addrs an unknown frame's name depends on the address too */
	if (f->opts.include_addrs || key_len > UINT32_MAX) {
		push_frame(f, frame_group(f, fr));
		return;
	}
	h = intern_hash(key, key_len) ^ (uint32_t)f->java;
	for (id = hashmap_first(&f->span_index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it)) {
		sp = &f->spans[id];
		if (sp->len == key_len && sp->java == f->java &&
		    !memcmp(sp->text, key, key_len)) {
			push_frame(f, sp->group);
			return;
		}
	}
	g = frame_group(f, fr);
	ALLOC_GROW(f->spans, f->nr_spans + 1, f->alloc_spans);
	sp = &f->spans[f->nr_spans];
	sp->len = (uint32_t)key_len;
	sp->text = arena_copy(&f->arena, key, key_len);
	sp->group = g;
	sp->java = (unsigned char)f->java;
	/* frame_group() added to the groups' map, not this one: the walk still holds */
	hashmap_add_at(&f->span_index, &it, (uint32_t)f->nr_spans++);
	push_frame(f, g);
}

static uint32_t hash_ids(const uint32_t *ids, size_t n)
{
	return intern_hash((const char *)ids, n * sizeof(*ids));
}

static void add_count(struct fold_stack *s, uint64_t count)
{
	s->count = s->count + count < s->count ? UINT64_MAX : s->count + count;
}

/* Count a stack of ids; returns its index. */
static uint32_t count_stack(struct folder *f, const uint32_t *ids, size_t n, uint64_t count)
{
	uint32_t h = hash_ids(ids, n), id;
	struct hashmap_iter it;
	struct fold_stack *s;

	for (id = hashmap_first(&f->stack_index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it)) {
		s = &f->stacks[id];
		if (s->len == n && !memcmp(f->stack_ids + s->off, ids, n * sizeof(*ids))) {
			add_count(s, count);
			return id;
		}
	}
	if (n > UINT32_MAX || f->nr_stacks >= UINT32_MAX - 1)
		die("too many stacks");
	ALLOC_GROW(f->stack_ids, f->nr_stack_ids + n, f->alloc_stack_ids);
	memcpy(f->stack_ids + f->nr_stack_ids, ids, n * sizeof(*ids));
	ALLOC_GROW(f->stacks, f->nr_stacks + 1, f->alloc_stacks);
	s = &f->stacks[f->nr_stacks];
	s->count = count;
	s->off = f->nr_stack_ids;
	s->len = (uint32_t)n;
	f->nr_stack_ids += n;
	hashmap_add_at(&f->stack_index, &it, (uint32_t)f->nr_stacks++);
	return (uint32_t)f->nr_stacks - 1;
}

/* folder_end_sample(), returning the stack counted or FOLD_NO_STACK. */
static uint32_t end_sample(struct folder *f)
{
	size_t n = 0, i;
	uint32_t stack = FOLD_NO_STACK;

	if (f->pname == NO_ID)
		return stack;	/* Perl keeps the frames in this case */
	for (i = 0; i < f->nr_cur; i++)
		n += f->groups[f->cur[i]].nr;
	ALLOC_GROW(f->key, n + 1, f->alloc_key);
	n = 0;
	if (!f->skip_rest)
		f->key[n++] = f->pname;
	for (i = f->nr_cur; i-- > 0;) {
		const struct fold_group *g = &f->groups[f->cur[i]];

		if (!g->nr)	/* e.g. "->": no frames at all */
			continue;
		memcpy(f->key + n, f->group_ids + g->first, g->nr * sizeof(uint32_t));
		n += g->nr;
	}
	if (n)
		stack = count_stack(f, f->key, n, f->period);
	f->nr_cur = 0;
	f->skip_rest = 0;
	f->pname = NO_ID;
	return stack;
}

void folder_end_sample(struct folder *f)
{
	end_sample(f);
}

uint32_t folder_add_sample_id(struct folder *f, const struct fold_sample *s)
{
	size_t i;

	folder_set_process(f, s->comm, s->comm_len, s->pid, s->pid_len, s->tid, s->tid_len,
			   s->period);
	if (f->pname == NO_ID) {
		f->nr_cur = 0;
		f->skip_rest = 0;
		return FOLD_NO_STACK;
	}
	for (i = 0; i < s->nr_frames; i++) {
		const struct fold_frame *fr = &s->frames[i];

		if (fr->key)
			folder_add_frame_text(f, fr, fr->key, fr->key_len);
		else
			folder_add_frame(f, fr);
	}
	return end_sample(f);
}

void folder_add_sample(struct folder *f, const struct fold_sample *s)
{
	folder_add_sample_id(f, s);
}

void folder_add_stack_text(struct folder *f, const char *stack, size_t len, uint64_t count)
{
	uint32_t id;

	if (!len)
		return;
	if (len > UINT32_MAX)
		die("stack too long");
	/* written back as the same bytes, so the whole text can be one name */
	id = intern_add(&f->names, stack, len, NULL);
	count_stack(f, &id, 1, count);
}

void folder_add_count(struct folder *f, uint32_t stack, uint64_t count)
{
	if (stack < f->nr_stacks)
		add_count(&f->stacks[stack], count);
}

/* ---- writing ---- */

/*
 * The output is sorted in byte order of each stack's text ("a;b;c"), but
 * that text is never built for all stacks at once: it was as large as the
 * stacks themselves again (2.2x the output at the peak).  Stacks are
 * sorted as (folder, stack) references by a comparator that walks the
 * two texts frame by frame through the interned names, and each line is
 * written from its frames.
 */
struct out_ref {
	uint32_t folder;	/* index into the folders given to folder_write */
	uint32_t stack;		/* index into that folder's stacks */
};

/* A position in a stack's text: frame k of ids, byte i of its name. */
struct text_pos {
	const struct intern *names;
	const uint32_t *ids;
	uint32_t n, k;		/* frames; the current one */
	const char *s;		/* the current frame's name, len bytes */
	uint32_t len, i;
};

static void text_load(struct text_pos *t)
{
	t->s = intern_str(t->names, t->ids[t->k]);
	t->len = intern_len(t->names, t->ids[t->k]);
	t->i = 0;
}

/* Start at frame k (after the ';' before it, which both texts share). */
static void text_start(struct text_pos *t, const struct folder *f, const struct fold_stack *st,
		       uint32_t k)
{
	t->names = &f->names;
	t->ids = f->stack_ids + st->off;
	t->n = st->len;
	t->k = k;
	t->s = NULL;
	t->len = t->i = 0;
	if (k < t->n)
		text_load(t);
	else if (k)
		t->k = k - 1;	/* at the end of the last frame */
}

/* The next byte outside the current frame's rest: ';' or -1 at the end. */
static int text_step(struct text_pos *t)
{
	if (t->k + 1 >= t->n)
		return -1;
	t->k++;
	text_load(t);
	return ';';
}

static int cmp_ref(const void *pa, const void *pb, void *ctx)
{
	struct folder *const *folders = ctx;
	const struct out_ref *ra = pa, *rb = pb;
	const struct folder *fa = folders[ra->folder], *fb = folders[rb->folder];
	const struct fold_stack *a = &fa->stacks[ra->stack], *b = &fb->stacks[rb->stack];
	struct text_pos x, y;
	uint32_t k = 0;

	if (fa == fb) {
		/* one folder, one id per name: equal leading ids are equal text */
		const uint32_t *ia = fa->stack_ids + a->off, *ib = fa->stack_ids + b->off;

		while (k < a->len && k < b->len && ia[k] == ib[k])
			k++;
		if (k == a->len && k == b->len)
			return 0;
	}
	text_start(&x, fa, a, k);
	text_start(&y, fb, b, k);
	for (;;) {
		size_t m = x.len - x.i < y.len - y.i ? x.len - x.i : y.len - y.i;
		int c, cx, cy;

		if (m) {
			c = memcmp(x.s + x.i, y.s + y.i, m);
			if (c)
				return c;
			x.i += (uint32_t)m;
			y.i += (uint32_t)m;
		}
		cx = x.i < x.len ? (unsigned char)x.s[x.i++] : text_step(&x);
		cy = y.i < y.len ? (unsigned char)y.s[y.i++] : text_step(&y);
		if (cx != cy)
			return (cx > cy) - (cx < cy);
		if (cx < 0)
			return 0;
	}
}

/* " COUNT\n" at p; returns its length. */
static size_t put_count(char *p, uint64_t count)
{
	char digits[24], *d = digits + sizeof(digits);
	size_t n;

	*--d = '\n';
	do {
		*--d = (char)('0' + count % 10);
		count /= 10;
	} while (count);
	*--d = ' ';
	n = (size_t)(digits + sizeof(digits) - d);
	memcpy(p, d, n);
	return n;
}

/* Append a stack's frames, root first and ';'-separated, to sb. */
static void put_frames(struct strbuf *sb, const struct folder *f, const struct fold_stack *st,
		       size_t extra)
{
	const uint32_t *ids = f->stack_ids + st->off;
	size_t need = st->len + extra;	/* separators and what follows */
	char *p;
	uint32_t k;

	for (k = 0; k < st->len; k++)
		need += intern_len(&f->names, ids[k]);
	strbuf_grow(sb, need);
	p = sb->buf + sb->len;
	for (k = 0; k < st->len; k++) {
		size_t len = intern_len(&f->names, ids[k]);

		if (k)
			*p++ = ';';
		memcpy(p, intern_str(&f->names, ids[k]), len);
		p += len;
	}
	strbuf_setlen(sb, (size_t)(p - sb->buf));
}

/*
 * Append one folded line to sb.  Lines are gathered and written in 64 KiB
 * blocks: an fwrite per frame was 6% of collapsing a 460,000-sample JIT
 * perf.data (400,000 calls through stdio's locking and bookkeeping).
 */
static void write_stack(struct strbuf *sb, const struct folder *f, const struct fold_stack *st,
			uint64_t count)
{
	put_frames(sb, f, st, 24);	/* the count and its newline */
	strbuf_setlen(sb, sb->len + put_count(sb->buf + sb->len, count));
}

/* Write sb out and empty it; 0 or -1. */
static int flush_lines(struct strbuf *sb, FILE *out)
{
	int ok = fwrite(sb->buf, 1, sb->len, out) == sb->len;

	strbuf_reset(sb);
	return ok ? 0 : -1;
}

typedef int emit_stack_fn(void *ctx, const struct folder *f, const struct fold_stack *st,
			  uint64_t count);

/*
 * emit() each distinct stack text of the n folders once, its counts
 * summed (saturating), in byte order (as Perl's sort with cmp); stops at
 * emit's first non-zero return and returns it.
 */
static int each_merged_stack(struct folder *const *folders, size_t n, emit_stack_fn *emit,
			     void *ctx)
{
	struct out_ref *refs;
	size_t nr = 0, total = 0, i, j;
	int ret = 0;

	if (n > UINT32_MAX)
		die("too many folders");
	for (i = 0; i < n; i++)
		total += folders[i]->nr_stacks;
	refs = xmallocarray(total ? total : 1, sizeof(*refs));
	for (i = 0; i < n; i++)
		for (j = 0; j < folders[i]->nr_stacks; j++) {
			refs[nr].folder = (uint32_t)i;
			refs[nr].stack = (uint32_t)j;
			nr++;
		}
	qsort_r(refs, nr, sizeof(*refs), cmp_ref, (void *)folders);
	for (i = 0; i < nr && !ret; i = j) {
		const struct folder *f = folders[refs[i].folder];
		const struct fold_stack *st = &f->stacks[refs[i].stack];
		uint64_t count = st->count;

		/* one stack string can come from several folders or id sequences */
		for (j = i + 1; j < nr && !cmp_ref(&refs[i], &refs[j], (void *)folders); j++) {
			uint64_t c = folders[refs[j].folder]->stacks[refs[j].stack].count;

			count = count + c < count ? UINT64_MAX : count + c;
		}
		ret = emit(ctx, f, st, count);
	}
	free(refs);
	return ret;
}

struct write_ctx {
	struct strbuf sb;
	FILE *out;
};

static int emit_line(void *ctx, const struct folder *f, const struct fold_stack *st,
		     uint64_t count)
{
	struct write_ctx *w = ctx;

	write_stack(&w->sb, f, st, count);
	if (w->sb.len >= 1 << 16 && flush_lines(&w->sb, w->out))
		return error_errno("cannot write the folded stacks");
	return 0;
}

int folder_write(struct folder *const *folders, size_t n, FILE *out)
{
	struct write_ctx w = { STRBUF_INIT, out };
	int ret = each_merged_stack(folders, n, emit_line, &w);

	if (!ret && w.sb.len && flush_lines(&w.sb, out))
		ret = error_errno("cannot write the folded stacks");
	strbuf_release(&w.sb);
	return ret;
}

struct profile_ctx {
	struct strbuf sb;
	struct folded_profile *p;
};

static int emit_profile(void *ctx, const struct folder *f, const struct fold_stack *st,
			uint64_t count)
{
	struct profile_ctx *pc = ctx;

	strbuf_reset(&pc->sb);
	put_frames(&pc->sb, f, st, 0);
	folded_profile_add(pc->p, pc->sb.buf, pc->sb.len, 0, (double)count);
	return 0;
}

void folder_to_profile(struct folder *const *folders, size_t n, struct folded_profile *p)
{
	struct profile_ctx pc = { STRBUF_INIT, p };

	each_merged_stack(folders, n, emit_profile, &pc);
	strbuf_release(&pc.sb);
}

int folder_write_file(struct folder *const *folders, size_t n, const char *path)
{
	FILE *out = fopen(path, "w");

	if (!out)
		return error_errno("cannot create '%s'", path);
	if (folder_write(folders, n, out)) {
		fclose(out);
		return -1;
	}
	if (fclose(out))
		return error_errno("cannot write '%s'", path);
	return 0;
}
