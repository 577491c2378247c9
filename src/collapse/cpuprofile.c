/*
 * cpuprofile.c - Chrome/V8 .cpuprofile (node --cpu-prof, Chrome DevTools'
 * "Save profile") -> folded stacks (see json_profiles.h).  The file is a
 * tree of nodes (id, callFrame, children ids; newer writers may give a
 * "parent" id instead) and a list of sampled node ids; each sample counts
 * 1 for the path from the root to its node.  Without "samples", each
 * node's hitCount is used.  A named function is its frame name; an
 * anonymous one is "(anonymous) FILE:LINE" so distinct ones stay apart.
 */
#include "collapse/json_profiles.h"
#include "collapse/collapser.h"
#include "collapse/limits.h"
#include "collapse/profile_formats.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int cpuprofile_detect(const char *head, size_t len)
{
	size_t n;

	head = json_head(head, &len);
	n = len > 4096 ? 4096 : len;
	return len && *head == '{' && memmem(head, n, "\"nodes\"", 7) &&
	       memmem(head, n, "\"callFrame\"", 11) ? 80 : 0;
}

struct node_id {
	double id;
	size_t index;
};

static int cmp_node_id(const void *a, const void *b)
{
	const struct node_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static size_t find_node(const struct node_id *ids, size_t n, const struct json_value *v)
{
	size_t lo = 0, hi = n;

	if (!v || v->type != JSON_NUMBER)
		return SIZE_MAX;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid].id < v->number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo].id == v->number ? ids[lo].index : SIZE_MAX;
}

static void frame_name(struct strbuf *name, const struct json_value *node)
{
	const struct json_value *cf = json_get(node, "callFrame");
	const struct json_value *fn = json_get(cf, "functionName"), *url = json_get(cf, "url");
	const struct json_value *line = json_get(cf, "lineNumber");

	strbuf_reset(name);
	if (fn && fn->type == JSON_STRING && fn->len) {
		strbuf_add(name, fn->string, fn->len);
		return;
	}
	strbuf_addstr(name, "(anonymous)");
	if (url && url->type == JSON_STRING && url->len) {
		const char *base = strrchr(url->string, '/');

		strbuf_addf(name, " %s", base ? base + 1 : url->string);
		if (line && line->type == JSON_NUMBER && line->number >= 0 && line->number < 1e9)
			strbuf_addf(name, ":%.0f", line->number + 1);	/* 0-based in the file */
	}
}

int cpuprofile_fold(const char *text, size_t len, const char *name, struct folded_profile *out)
{
	struct json_value root;
	const struct json_value *nodes, *samples;
	struct node_id *ids = NULL;
	size_t *parent = NULL, *path = NULL, i, n;
	double *counts = NULL;
	struct strbuf sb = STRBUF_INIT, fname = STRBUF_INIT;
	struct input_budget budget = INPUT_BUDGET_INIT(name);
	int ret = -1;

	if (json_parse(text, len, name, &root) < 0)
		return -1;
	nodes = json_get(&root, "nodes");
	samples = json_get(&root, "samples");
	if (!nodes || nodes->type != JSON_ARRAY || (samples && samples->type != JSON_ARRAY)) {
		trail_error("%s: not a .cpuprofile (no \"nodes\" array)", name);
		goto out;
	}
	n = nodes->len;
	ids = xmallocarray(n ? n : 1, sizeof(*ids));
	parent = xmallocarray(n ? n : 1, sizeof(*parent));
	path = xmallocarray(n ? n : 1, sizeof(*path));
	counts = xcalloc(n ? n : 1, sizeof(*counts));
	for (i = 0; i < n; i++) {
		const struct json_value *id = json_get(&nodes->items[i], "id");

		if (!id || id->type != JSON_NUMBER) {
			trail_error("%s: node %zu has no numeric \"id\"", name, i);
			goto out;
		}
		ids[i].id = id->number;
		ids[i].index = i;
		parent[i] = SIZE_MAX;
	}
	qsort(ids, n, sizeof(*ids), cmp_node_id);
	for (i = 0; i < n; i++) {
		const struct json_value *nd = &nodes->items[i];
		const struct json_value *children = json_get(nd, "children"), *p = json_get(nd, "parent");
		size_t k, c;

		if (p && (c = find_node(ids, n, p)) != SIZE_MAX)
			parent[i] = c;
		if (!children || children->type != JSON_ARRAY)
			continue;
		for (k = 0; k < children->len; k++)
			if ((c = find_node(ids, n, &children->items[k])) != SIZE_MAX)
				parent[c] = i;
	}
	if (samples) {
		for (i = 0; i < samples->len; i++) {
			size_t k = find_node(ids, n, &samples->items[i]);

			if (k == SIZE_MAX) {
				trail_error("%s: sample %zu names a node that does not exist", name, i);
				goto out;
			}
			counts[k] += 1;
		}
	} else {
		for (i = 0; i < n; i++) {
			const struct json_value *h = json_get(&nodes->items[i], "hitCount");

			if (h && h->type == JSON_NUMBER && h->number > 0)
				counts[i] = h->number;
		}
	}
	for (i = 0; i < n; i++) {
		size_t depth = 0, k = i;

		if (!counts[i])
			continue;
		/* up to the root; a cycle cannot be longer than the node count */
		while (k != SIZE_MAX && depth < n) {
			path[depth++] = k;
			k = parent[k];
		}
		if (k != SIZE_MAX) {
			trail_error("%s: the node tree has a cycle", name);
			goto out;
		}
		strbuf_reset(&sb);
		while (depth-- > 0) {
			const struct json_value *nd = &nodes->items[path[depth]];

			frame_name(&fname, nd);
			if (parent[path[depth]] == SIZE_MAX && !strcmp(fname.buf, "(root)"))
				continue;	/* V8's synthetic root is not a frame */
			folded_stack_push(&sb, fname.buf, fname.len);
			/* a chain of n nodes, each hit, builds n stacks up to n deep */
			if (input_budget_charge(&budget, sb.len, fname.len + 1) < 0)
				goto out;
		}
		if (sb.len)
			folded_profile_add(out, sb.buf, sb.len, 0, counts[i]);
	}
	ret = 0;
out:
	free(ids);
	free(parent);
	free(path);
	free(counts);
	strbuf_release(&sb);
	strbuf_release(&fname);
	json_release(&root);
	return ret;
}

static int fold(const char *data, size_t len, const char *name, const char *sample_type,
		struct folded_profile *out)
{
	return cpuprofile_fold(data, len, name, out);
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	return collapse_read_whole(s, in, f, fold);
}

const struct collapser collapse_cpuprofile = {
	"cpuprofile",
	"Chrome/V8 .cpuprofile (node --cpu-prof, DevTools)",
	cpuprofile_detect,
	read_input,
};
