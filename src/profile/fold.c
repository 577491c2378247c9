/*
 * fold.c - the folding engine behind fold.h: folders, and samples counted
 * into them (fold_frames.c cleans up frame names, fold_write.c writes).
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
#include "profile/fold_parts.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/error.h"
#include "core/hashmap.h"
#include "core/intern.h"

#include <stdlib.h>
#include <string.h>

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
	folder_forget_frame_ids(f);
	free(f->cur);
	free(f->key);
	free(f->scratch.buf);
	free(f);
}

size_t folder_nr_stacks(const struct folder *f)
{
	return f->nr_stacks;
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
	return fold_lookup_group(f, fr, fr->func, len);
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

static void folder_add_frame(struct folder *f, const struct fold_frame *fr)
{
	if (f->pname == NO_ID || f->skip_rest)
		return;
	push_frame(f, frame_group(f, fr));
}

/* The group of a frame whose text is key (folder_add_frame_text). */
static uint32_t text_group(struct folder *f, const struct fold_frame *fr, const char *key,
			   size_t key_len)
{
	uint32_t h, id, g;
	struct hashmap_iter it;
	struct fold_span *sp;

	/* with --addrs an unknown frame's name depends on the address too */
	if (f->opts.include_addrs || key_len > UINT32_MAX)
		return frame_group(f, fr);
	h = intern_hash(key, key_len) ^ (uint32_t)f->java;
	for (id = hashmap_first(&f->span_index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it)) {
		sp = &f->spans[id];
		if (sp->len == key_len && sp->java == f->java &&
		    !memcmp(sp->text, key, key_len))
			return sp->group;
	}
	g = frame_group(f, fr);
	ALLOC_GROW(f->spans, f->nr_spans + 1, f->alloc_spans);
	sp = &f->spans[f->nr_spans];
	sp->len = (uint32_t)key_len;
	sp->text = arena_strndup(&f->arena, key, key_len);
	sp->group = g;
	sp->java = (unsigned char)f->java;
	/* frame_group() added to the groups' map, not this one: the walk still holds */
	hashmap_add_at(&f->span_index, &it, (uint32_t)f->nr_spans++);
	return g;
}

void folder_add_frame_text(struct folder *f, const struct fold_frame *fr, const char *key,
			   size_t key_len)
{
	if (f->pname == NO_ID || f->skip_rest)
		return;
	push_frame(f, text_group(f, fr, key, key_len));
}

/*
 * A frame the reader numbered: its group from the number's entry, found
 * through its key the first time.  Entries hold 1 + the group (0: not
 * seen yet); a skipped frame (SPAN_SKIPPED) is not remembered and goes
 * through its key every time.
 */
static void add_frame_id(struct folder *f, const struct fold_frame *fr)
{
	int j = !!f->java;
	uint32_t *slot, g;

	if (f->pname == NO_ID || f->skip_rest)
		return;
	if (f->opts.include_addrs) {
		push_frame(f, text_group(f, fr, fr->key, fr->key_len));
		return;
	}
	if (fr->id >= f->alloc_id_groups[j]) {
		size_t old = f->alloc_id_groups[j];

		ALLOC_GROW(f->id_groups[j], (size_t)fr->id + 1, f->alloc_id_groups[j]);
		memset(f->id_groups[j] + old, 0, (f->alloc_id_groups[j] - old) * sizeof(uint32_t));
	}
	slot = &f->id_groups[j][fr->id];
	if (*slot) {
		push_frame(f, *slot - 1);
		return;
	}
	g = text_group(f, fr, fr->key, fr->key_len);
	if (g < SPAN_SKIPPED - 1)
		*slot = g + 1;
	push_frame(f, g);
}

void folder_forget_frame_ids(struct folder *f)
{
	int j;

	for (j = 0; j < 2; j++) {
		free(f->id_groups[j]);
		f->id_groups[j] = NULL;
		f->alloc_id_groups[j] = 0;
	}
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

		if (fr->key && fr->id)
			add_frame_id(f, fr);
		else if (fr->key)
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

