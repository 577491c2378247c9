/*
 * fuzz_flamegraph.c - libFuzzer target for the flame graph's stack order
 * (flamegraph/stack_sort.c) and merge (flamegraph/layout.c): the input's
 * folded lines are sorted by the path shuffled input takes (the 8-byte key
 * sort, which hands the layout each stack's shared prefix length) and, as
 * a reference, by qsort on fg_stack_cmp; both must give the same order,
 * exact shared lengths and the same frames.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/input.h"
#include "flamegraph/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp_stack(const void *pa, const void *pb)
{
	const struct fg_stack *a = pa, *b = pb;

	return fg_stack_cmp(a->s, a->len, b->s, b->len);
}

static uint32_t shared_bytes(const struct fg_stack *a, const struct fg_stack *b)
{
	uint32_t n = 0;

	while (n < a->len && n < b->len && a->s[n] == b->s[n])
		n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fg_input in, ref;
	struct fg_layout l, lref;
	struct fg_layout_options o = { .width = 1000 };
	size_t i;

	fg_input_init(&in, NULL);
	fg_input_init(&ref, NULL);
	fg_input_read_buffer(&in, (const char *)data, size);
	fg_input_read_buffer(&ref, (const char *)data, size);
	/* as if shuffled: the key sort, whatever order the lines came in */
	in.sorted = 0;
	in.descents = SIZE_MAX;
	fg_input_sort(&in);
	if (ref.nr)
		qsort(ref.stacks, ref.nr, sizeof(*ref.stacks), cmp_stack);
	assert(in.nr == ref.nr);
	for (i = 0; i < in.nr; i++) {
		/* equal stacks may come in either order: compare the text */
		assert(in.stacks[i].len == ref.stacks[i].len);
		assert(!memcmp(in.stacks[i].s, ref.stacks[i].s, in.stacks[i].len));
		if (in.lcp && i)
			assert(in.lcp[i] == shared_bytes(&in.stacks[i - 1], &in.stacks[i]));
	}
	fg_layout_build(&l, &in, &o);
	fg_layout_build(&lref, &ref, &o);
	assert(l.nr == lref.nr);
	for (i = 0; i < l.nr; i++) {
		assert(l.frames[i].depth == lref.frames[i].depth);
		assert(l.frames[i].len == lref.frames[i].len);
		assert(!memcmp(l.frames[i].name, lref.frames[i].name, l.frames[i].len));
	}
	fg_layout_release(&l);
	fg_layout_release(&lref);
	fg_input_release(&in);
	fg_input_release(&ref);
	return 0;
}
