/*
 * nameattr.c - reading the --nameattr file (see nameattr.h).
 */
#include "flamegraph/nameattr.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"
#include "core/line_reader.h"

#include <stdlib.h>
#include <string.h>

static const char *const attr_names[FG_ATTR_NR] = {
	"title", "class", "id", "href", "target", "g_extra", "a_extra",
};

void fg_nameattr_init(struct fg_nameattr *a)
{
	memset(a, 0, sizeof(*a));
	intern_init(&a->names);
}

void fg_nameattr_release(struct fg_nameattr *a)
{
	for (uint32_t i = 0; i < a->names.nr; i++)
		for (int k = 0; k < FG_ATTR_NR; k++)
			free(a->values[i][k]);
	free(a->values);
	intern_release(&a->names);
	memset(a, 0, sizeof(*a));
}

static void set_field(struct fg_nameattr *a, uint32_t id, const char *field, size_t len,
		      const char *path, uint64_t lineno)
{
	const char *eq = memchr(field, '=', len);
	size_t klen;

	if (!eq) {
		struct strbuf q = STRBUF_INIT;

		warning("%s:%llu: ignoring attribute without '=': '%s'", path,
			(unsigned long long)lineno, escape_term_excerpt(&q, field, len, 80));
		strbuf_release(&q);
		return;
	}
	klen = (size_t)(eq - field);
	for (int k = 0; k < FG_ATTR_NR; k++) {
		if (strlen(attr_names[k]) != klen || memcmp(attr_names[k], field, klen))
			continue;
		free(a->values[id][k]);
		a->values[id][k] = xstrndup(eq + 1, len - klen - 1);
		return;
	}
	{
		struct strbuf q = STRBUF_INIT;

		warning("%s:%llu: ignoring unknown attribute '%s'", path,
			(unsigned long long)lineno, escape_term_excerpt(&q, field, klen, 80));
		strbuf_release(&q);
	}
}

int fg_nameattr_read(struct fg_nameattr *a, const char *path)
{
	struct line_reader r;
	char *line;
	size_t len;
	int ret;

	if (line_reader_open(&r, path))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0) {
		char *tab = memchr(line, '\t', len), *p;
		int is_new;
		uint32_t id;

		if (!len)
			continue;
		if (!tab) {
			struct strbuf q = STRBUF_INIT;

			trail_error("%s:%llu: expected 'function<TAB>name=value...', got '%s'", path,
			      (unsigned long long)r.lineno, escape_term_excerpt(&q, line, len, 80));
			strbuf_release(&q);
			ret = -1;
			break;
		}
		id = intern_add(&a->names, line, (size_t)(tab - line), &is_new);
		if (is_new) {
			size_t old = a->alloc;

			ALLOC_GROW(a->values, (size_t)id + 1, a->alloc);
			memset(a->values + old, 0, (a->alloc - old) * sizeof(*a->values));
		}
		for (p = tab + 1; p <= line + len;) {
			char *end = memchr(p, '\t', (size_t)(line + len - p));

			if (!end)
				end = line + len;
			if (end > p)
				set_field(a, id, p, (size_t)(end - p), path, r.lineno);
			p = end + 1;
		}
	}
	line_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

char **fg_nameattr_get(const struct fg_nameattr *a, const char *name, size_t len)
{
	uint32_t id;

	if (!a || !a->names.nr)
		return NULL;
	id = intern_find(&a->names, name, len);
	return id == UINT32_MAX ? NULL : a->values[id];
}
