/*
 * tree.c - merging folded stacks into the flame graph's stack tree.
 * Nodes are found by a (parent id, name id) hash table; consecutive stacks
 * that share a prefix (sorted input, as collapse writes it) reuse the
 * previous stack's path and skip those lookups entirely.
 */
#include "flamegraph/tree.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "profile/folded.h"

#include <stdlib.h>
#include <string.h>

#define MAX_REPORTED_MALFORMED 5

static uint32_t slot_hash(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

static uint32_t new_node(struct fg_tree *t, uint32_t parent, uint32_t name)
{
	uint32_t id = t->nr;
	struct fg_node *n;

	if (t->nr == UINT32_MAX - 1)
		die("flame graph has too many frames");
	ALLOC_GROW(t->nodes, (size_t)t->nr + 1, t->alloc);
	n = &t->nodes[t->nr++];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->first_child = n->last_child = n->next_sibling = FG_NONE;
	if (parent != FG_NONE) {
		struct fg_node *p = &t->nodes[parent];

		n->depth = p->depth + 1;
		if (p->last_child == FG_NONE)
			p->first_child = id;
		else
			t->nodes[p->last_child].next_sibling = id;
		p->last_child = id;
		if (n->depth > t->max_depth)
			t->max_depth = n->depth;
	}
	return id;
}

static void grow_slots(struct fg_tree *t)
{
	uint32_t nslots = (t->mask + 1) * 2, i;

	if (!nslots)
		die("flame graph has too many frames");
	free(t->slots);
	t->slots = xcalloc(nslots, sizeof(*t->slots));
	t->mask = nslots - 1;
	for (i = 1; i < t->nr; i++) {
		uint32_t h = slot_hash(t->nodes[i].parent, t->nodes[i].name) & t->mask;

		while (t->slots[h])
			h = (h + 1) & t->mask;
		t->slots[h] = i + 1;
	}
}

/* The child of parent called name, created when missing. */
static uint32_t child(struct fg_tree *t, uint32_t parent, uint32_t name)
{
	uint32_t h, id;

	if (t->opts.flamechart) {
		/* a flame chart merges a frame only with the one just before it */
		id = t->nodes[parent].last_child;
		if (id != FG_NONE && t->nodes[id].name == name)
			return id;
		return new_node(t, parent, name);
	}
	h = slot_hash(parent, name) & t->mask;
	while ((id = t->slots[h])) {
		struct fg_node *n = &t->nodes[id - 1];

		if (n->parent == parent && n->name == name)
			return id - 1;
		h = (h + 1) & t->mask;
	}
	id = new_node(t, parent, name);
	t->slots[h] = id + 1;
	if ((uint64_t)t->nr * 2 > (uint64_t)t->mask)
		grow_slots(t);
	return id;
}

void fg_tree_init(struct fg_tree *t, const struct fg_tree_options *opts)
{
	memset(t, 0, sizeof(*t));
	if (opts)
		t->opts = *opts;
	if (!(t->opts.factor > 0))
		t->opts.factor = 1;
	intern_init(&t->names);
	intern_add(&t->names, "all", 3, NULL);
	t->mask = 1023;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
	t->columns = 1;
	new_node(t, FG_NONE, 0);
}

void fg_tree_release(struct fg_tree *t)
{
	intern_release(&t->names);
	free(t->nodes);
	free(t->slots);
	free(t->prev);
	free(t->path);
	free(t->scratch);
	memset(t, 0, sizeof(*t));
}

/* Offset of the first frame named base in stack, or -1. */
static long find_base(const char *stack, size_t len, const char *base)
{
	size_t blen = strlen(base), i = 0;

	while (i <= len) {
		const char *semi = memchr(stack + i, ';', len - i);
		size_t end = semi ? (size_t)(semi - stack) : len;

		if (end - i == blen && !memcmp(stack + i, base, blen))
			return (long)i;
		if (!semi)
			break;
		i = end + 1;
	}
	return -1;
}

static const char *reverse_frames(struct fg_tree *t, const char *stack, size_t len)
{
	size_t end = len, out = 0;

	ALLOC_GROW(t->scratch, len + 1, t->scratch_alloc);
	while (1) {
		size_t start = end;

		while (start > 0 && stack[start - 1] != ';')
			start--;
		memcpy(t->scratch + out, stack + start, end - start);
		out += end - start;
		if (!start)
			break;
		t->scratch[out++] = ';';
		end = start - 1;
	}
	return t->scratch;
}

void fg_tree_add(struct fg_tree *t, const char *stack, size_t len,
		 const double *count, int columns)
{
	double c[2];
	size_t i, common = 0, limit;
	uint32_t depth = 0, node;

	c[0] = count[0] * t->opts.factor;
	/* a one-column line in a differential file is unchanged: before = after */
	c[1] = (columns == 2 ? count[1] : count[0]) * t->opts.factor;
	if (columns == 2)
		t->columns = 2;
	if (t->opts.base) {
		long off = find_base(stack, len, t->opts.base);

		if (off < 0) {
			t->dropped++;
			return;
		}
		stack += off;
		len -= (size_t)off;
	}
	if (t->opts.reverse && len)
		stack = reverse_frames(t, stack, len);

	/* frames shared with the previous stack: their nodes are in t->path */
	limit = len < t->prev_len ? len : t->prev_len;
	while (common < limit && stack[common] == t->prev[common])
		common++;
	i = 0;
	node = 0;
	if (t->path_len) {
		size_t pos = 0;

		while (depth + 1 < t->path_len) {
			const char *semi = memchr(stack + pos, ';', len - pos);
			size_t end = semi ? (size_t)(semi - stack) : len;

			if (end > common || !len)
				break;
			if (end == common && !(end == t->prev_len || t->prev[end] == ';'))
				break;
			depth++;
			node = t->path[depth];
			if (!semi) {
				pos = len + 1;
				break;
			}
			pos = end + 1;
		}
		i = pos;
	}
	ALLOC_GROW(t->path, (size_t)depth + 1, t->path_alloc);
	t->path[0] = 0;
	if (len) {
		while (i <= len) {
			const char *semi = memchr(stack + i, ';', len - i);
			size_t end = semi ? (size_t)(semi - stack) : len;
			uint32_t name = intern_add(&t->names, stack + i, end - i, NULL);

			node = child(t, node, name);
			depth++;
			ALLOC_GROW(t->path, (size_t)depth + 1, t->path_alloc);
			t->path[depth] = node;
			i = end + 1;
		}
	}
	t->path_len = depth + 1;
	ALLOC_GROW(t->prev, len + 1, t->prev_alloc);
	memcpy(t->prev, stack, len);
	t->prev_len = len;

	t->nodes[node].self[0] += c[0];
	t->nodes[node].self[1] += c[1];
	for (i = 0; i <= depth; i++) {
		struct fg_node *n = &t->nodes[t->path[i]];

		n->total[0] += c[0];
		n->total[1] += c[1];
	}
}

static void add_line(struct fg_tree *t, const char *line, size_t len, const char *path,
		     uint64_t lineno)
{
	struct folded_line fl;

	t->lines++;
	if (!len)
		return;
	if (folded_parse_line(line, len, &fl)) {
		if (++t->malformed <= MAX_REPORTED_MALFORMED && path)
			warning("%s:%llu: ignoring line without a sample count: '%.80s'",
				path, (unsigned long long)lineno, line);
		return;
	}
	fg_tree_add(t, fl.stack, fl.stack_len, fl.count, fl.columns);
}

int fg_tree_read(struct fg_tree *t, const char *path)
{
	struct line_reader r;
	char *line;
	size_t len;
	int ret;

	if (line_reader_open(&r, path))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0)
		add_line(t, line, len, r.path, r.lineno);
	line_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

void fg_tree_read_buffer(struct fg_tree *t, const char *buf, size_t len)
{
	size_t pos = 0;
	char *line = NULL;
	size_t alloc = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - pos;

		/* a NUL-terminated copy, as the line reader hands out */
		ALLOC_GROW(line, n + 1, alloc);
		memcpy(line, buf + pos, n);
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		add_line(t, line, n, NULL, 0);
		pos = end + 1;
	}
	free(line);
}
