/*
 * massif.c - the "massif" input format: valgrind --tool=massif's out file
 * (massif.out.PID, what ms_print reads; valgrind's Massif manual).  Of its
 * snapshots, the peak one (heap_tree=peak) is read, else the last
 * detailed one.  Its heap tree is inverted - the root is the allocation
 * functions, each node's children are its callers, indented one space
 * per depth: "nK: BYTES 0xADDR: func (file:line)".  A node's bytes that
 * its callers do not account for (a leaf's, or the "in N places, below
 * massif's threshold" entries) become one stack, outermost caller first,
 * weighed in bytes.  Frame names drop the address and the location.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct node {
	size_t depth;
	uint64_t bytes, children_bytes;
	size_t name_at, name_len;	/* in the snapshot text */
};

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* "0x4005E7: f (a.c:10)" -> "f"; "in 3 places, ..." -> "[below massif's threshold]" */
static const char *frame_name(const char *d, size_t len, size_t *out_len)
{
	size_t i, depth = 0;

	if (starts_with(d, len, "in ") || starts_with(d, len, "(heap allocation functions)")) {
		*out_len = strlen("[below massif's threshold]");
		return "[below massif's threshold]";
	}
	if (starts_with(d, len, "0x")) {
		const char *colon = memmem(d, len, ": ", 2);

		if (colon) {
			len -= (size_t)(colon + 2 - d);
			d = colon + 2;
		}
	}
	/* drop the last " (...)" when it closes the line: the location */
	if (len && d[len - 1] == ')') {
		for (i = len; i-- > 0;) {
			if (d[i] == ')')
				depth++;
			else if (d[i] == '(' && !--depth) {
				if (i > 0 && d[i - 1] == ' ')
					len = i - 1;
				break;
			}
		}
	}
	*out_len = len;
	return d;
}

/* The snapshot to read: [*start, *end) of data, the peak one or else the last detailed. */
static int pick_snapshot(const char *data, size_t len, size_t *start, size_t *end)
{
	size_t pos = 0, snap = SIZE_MAX, last_detailed = SIZE_MAX, peak = SIZE_MAX;

	while (pos < len) {
		const char *s = data + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		if (starts_with(s, n, "snapshot="))
			snap = pos;
		else if (starts_with(s, n, "heap_tree=peak"))
			peak = snap;
		else if (starts_with(s, n, "heap_tree=detailed"))
			last_detailed = snap;
		pos += n + 1;
	}
	*start = peak != SIZE_MAX ? peak : last_detailed;
	if (*start == SIZE_MAX)
		return -1;
	/* up to the next snapshot */
	{
		const char *next = memmem(data + *start + 1, len - *start - 1, "\nsnapshot=", 10);

		*end = next ? (size_t)(next - data) : len;
	}
	return 0;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct node *nodes = NULL;
	struct frame_stack fs;
	size_t nr = 0, alloc = 0, pos, start, end, i, lineno = 0;
	char *data = NULL;
	size_t len;
	int ret = -1;

	frame_stack_init(&fs);
	if (collapse_input_slurp(in, &data, &len))
		goto out;
	if (pick_snapshot(data, len, &start, &end)) {
		trail_error("%s: no detailed snapshot (heap_tree=peak or detailed) in this massif file", in->name);
		goto out;
	}
	for (pos = start; pos < end;) {
		const char *l = data + pos, *nl = memchr(l, '\n', end - pos), *p, *colon;
		size_t n = nl ? (size_t)(nl - l) : end - pos, depth = 0, rest;
		uint64_t bytes, kids;
		struct node *nd;

		pos += n + 1;
		lineno++;
		while (depth < n && l[depth] == ' ')
			depth++;
		if (depth >= n || l[depth] != 'n')
			continue;	/* snapshot=, time=, mem_heap_B= ... */
		p = l + depth + 1;
		rest = n - depth - 1;
		colon = memchr(p, ':', rest);
		if (!colon || !frames_parse_u64(p, (size_t)(colon - p), &kids)) {
			collapse_session_bad_line(s, in->name, lineno, "not a massif heap tree node", l, n);
			continue;
		}
		p = colon + 1;
		rest = n - (size_t)(p - l);
		while (rest && *p == ' ')
			p++, rest--;
		{
			const char *sp = memchr(p, ' ', rest);
			size_t blen = sp ? (size_t)(sp - p) : rest;

			if (!frames_parse_u64(p, blen, &bytes)) {
				collapse_session_bad_line(s, in->name, lineno, "massif node without bytes", l, n);
				continue;
			}
			p += blen;
			rest -= blen;
			while (rest && *p == ' ')
				p++, rest--;
		}
		if (nr && depth > nodes[nr - 1].depth + 1) {
			collapse_session_bad_line(s, in->name, lineno, "massif node deeper than its parent + 1", l, n);
			continue;
		}
		ALLOC_GROW(nodes, nr + 1, alloc);
		nd = &nodes[nr++];
		nd->depth = depth;
		nd->bytes = bytes;
		nd->children_bytes = 0;
		nd->name_at = (size_t)(p - data);
		nd->name_len = rest;
	}
	/* children's bytes, then each node's own (a leaf's all) as one stack */
	for (i = 1; i < nr; i++) {
		size_t k = i;

		while (k-- > 0)
			if (nodes[k].depth + 1 == nodes[i].depth) {
				nodes[k].children_bytes += nodes[i].bytes;
				break;
			} else if (nodes[k].depth < nodes[i].depth) {
				break;
			}
	}
	for (i = 0; i < nr; i++) {
		uint64_t own = nodes[i].bytes > nodes[i].children_bytes
			       ? nodes[i].bytes - nodes[i].children_bytes : 0;
		size_t k = i, want, fl;
		const char *name;

		if (!own || !nodes[i].depth)
			continue;	/* the root: the allocation functions themselves */
		frame_stack_truncate(&fs, 0);
		/* from this node (the outermost caller) up to depth 1 (the allocation site) */
		want = nodes[i].depth;
		for (;;) {
			if (nodes[k].depth == want) {
				name = frame_name(data + nodes[k].name_at, nodes[k].name_len, &fl);
				frame_stack_push(&fs, name, fl);
				if (want == 1)
					break;
				want--;
			}
			if (!k--)
				break;
		}
		frame_stack_fold(&fs, f, 0, own);	/* pushed root (outermost) first */
	}
	ret = 0;
out:
	free(nodes);
	free(data);
	frame_stack_release(&fs);
	return ret;
}

static int detect(const char *head, size_t n)
{
	if (starts_with(head, n, "desc:") && memmem(head, n, "\ncmd:", 5) &&
	    memmem(head, n, "\ntime_unit:", 11))
		return 90;
	return 0;
}

const struct collapser collapse_massif = {
	"massif",
	"valgrind --tool=massif out files: the peak snapshot's heap tree, in bytes",
	detect,
	read_input,
};
