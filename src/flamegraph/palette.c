/*
 * palette.c - the palette table.  Hue ranges follow flamegraph.pl's
 * documented palettes; the three random-looking variables come from a
 * hash of the name instead of rand(), so colours are deterministic.
 */
#include "flamegraph/palette.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"
#include "core/line_reader.h"
#include "core/parse_number.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

static int contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	return n <= len && memmem(s, len, needle, n) != NULL;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static struct fg_rgb rgb(int r, int g, int b)
{
	return (struct fg_rgb){ (uint8_t)r, (uint8_t)g, (uint8_t)b };
}

/* flat palettes: one hue, the hash picks the shade */
static struct fg_rgb red(const char *n, size_t l, const double v[3])
{
	int x = 50 + (int)(80 * v[0]);

	return rgb(200 + (int)(55 * v[0]), x, x);
}

static struct fg_rgb green(const char *n, size_t l, const double v[3])
{
	int x = 50 + (int)(60 * v[0]);

	return rgb(x, 200 + (int)(55 * v[0]), x);
}

static struct fg_rgb blue(const char *n, size_t l, const double v[3])
{
	int x = 80 + (int)(60 * v[0]);

	return rgb(x, x, 205 + (int)(50 * v[0]));
}

static struct fg_rgb yellow(const char *n, size_t l, const double v[3])
{
	int x = 175 + (int)(55 * v[0]);

	return rgb(x, x, 50 + (int)(20 * v[0]));
}

static struct fg_rgb purple(const char *n, size_t l, const double v[3])
{
	int x = 190 + (int)(65 * v[0]);

	return rgb(x, 80 + (int)(60 * v[0]), x);
}

static struct fg_rgb aqua(const char *n, size_t l, const double v[3])
{
	return rgb(50 + (int)(60 * v[0]), 165 + (int)(55 * v[0]), 165 + (int)(55 * v[0]));
}

static struct fg_rgb orange(const char *n, size_t l, const double v[3])
{
	return rgb(190 + (int)(65 * v[0]), 90 + (int)(65 * v[0]), 0);
}

/* theme palettes: several hues */
static struct fg_rgb hot(const char *n, size_t l, const double v[3])
{
	return rgb(205 + (int)(50 * v[2]), (int)(230 * v[0]), (int)(55 * v[1]));
}

static struct fg_rgb mem(const char *n, size_t l, const double v[3])
{
	return rgb(0, 190 + (int)(50 * v[1]), (int)(210 * v[0]));
}

static struct fg_rgb io(const char *n, size_t l, const double v[3])
{
	int x = 80 + (int)(60 * v[0]);

	return rgb(x, x, 190 + (int)(55 * v[1]));
}

/* language palettes: pick a flat palette from the shape of the name */
static struct fg_rgb java(const char *n, size_t l, const double v[3])
{
	if (ends_with(n, l, "_[j]"))
		return green(n, l, v);		/* JIT-compiled */
	if (ends_with(n, l, "_[i]"))
		return aqua(n, l, v);		/* inlined */
	if (contains(n, l, "/") && (starts_with(n, l, "java/") || starts_with(n, l, "javax/") ||
		starts_with(n, l, "jdk/") || starts_with(n, l, "net/") || starts_with(n, l, "org/") ||
		starts_with(n, l, "com/") || starts_with(n, l, "io/") || starts_with(n, l, "sun/") ||
		starts_with(n, l, "Ljava/") || starts_with(n, l, "Lorg/") || starts_with(n, l, "Lcom/")))
		return green(n, l, v);		/* Java package path */
	if (contains(n, l, ":::"))
		return green(n, l, v);		/* perf-map-agent method separator */
	if (contains(n, l, "::"))
		return yellow(n, l, v);		/* C++ */
	if (ends_with(n, l, "_[k]"))
		return orange(n, l, v);		/* kernel */
	return red(n, l, v);			/* native user space */
}

static struct fg_rgb js(const char *n, size_t l, const double v[3])
{
	if (ends_with(n, l, "_[j]"))
		return contains(n, l, "/") ? green(n, l, v) : aqua(n, l, v);
	if (contains(n, l, "::"))
		return yellow(n, l, v);
	if (contains(n, l, "/") && contains(n, l, ".js"))
		return green(n, l, v);
	if (contains(n, l, ":"))
		return aqua(n, l, v);
	if (l == 1 && n[0] == ' ')
		return green(n, l, v);		/* missing symbol */
	if (contains(n, l, "_[k]"))
		return orange(n, l, v);
	return red(n, l, v);
}

static struct fg_rgb perl(const char *n, size_t l, const double v[3])
{
	if (contains(n, l, "::"))
		return yellow(n, l, v);
	if (contains(n, l, "Perl") || contains(n, l, ".pl"))
		return green(n, l, v);
	if (ends_with(n, l, "_[k]"))
		return orange(n, l, v);
	return red(n, l, v);
}

static struct fg_rgb python(const char *n, size_t l, const double v[3])
{
	if (contains(n, l, "<built-in") || contains(n, l, "<method") || starts_with(n, l, "<frozen"))
		return aqua(n, l, v);		/* interpreter built-ins */
	if (contains(n, l, ".py"))
		return green(n, l, v);		/* Python source (py-spy, austin) */
	if (ends_with(n, l, "_[k]"))
		return orange(n, l, v);
	if (contains(n, l, "::"))
		return yellow(n, l, v);		/* C++ extension code */
	return red(n, l, v);			/* native: CPython, libc */
}

static struct fg_rgb rust(const char *n, size_t l, const double v[3])
{
	const char *s = n;
	size_t m = l;

	if (m && s[0] == '<') {
		s++;
		m--;
	}
	if (starts_with(s, m, "core::") || starts_with(s, m, "std::") || starts_with(s, m, "alloc::"))
		return orange(n, l, v);		/* the standard library */
	if (ends_with(n, l, "_[k]"))
		return yellow(n, l, v);		/* kernel */
	if (contains(n, l, "::"))
		return aqua(n, l, v);		/* Rust paths */
	return red(n, l, v);			/* native, unmangled C */
}

static struct fg_rgb wakeup(const char *n, size_t l, const double v[3])
{
	return aqua(n, l, v);
}

static struct fg_rgb chain(const char *n, size_t l, const double v[3])
{
	return contains(n, l, "_[w]") ? aqua(n, l, v) : blue(n, l, v);
}

static const struct fg_palette palettes[] = {
	{ "hot", "yellow", "red-yellow, for CPU (the default)", hot },
	{ "mem", "green", "green-blue, for memory", mem },
	{ "io", "blue", "blue-grey, for I/O and off-CPU time", io },
	{ "wakeup", "blue", "aqua, for wakeup stacks", wakeup },
	{ "chain", "blue", "off-CPU blue, wakers (_[w]) aqua", chain },
	{ "java", "yellow", "JIT/Java green, inlined aqua, C++ yellow, kernel orange, native red", java },
	{ "js", "yellow", "JS green/aqua, C++ yellow, kernel orange, native red", js },
	{ "perl", "yellow", "Perl green, C++ yellow, kernel orange, native red", perl },
	{ "python", "yellow", "Python source green, built-ins aqua, kernel orange, native red", python },
	{ "rust", "yellow", "std/core/alloc orange, other Rust paths aqua, kernel yellow, C red", rust },
	{ "red", "grey", "shades of red", red },
	{ "green", "grey", "shades of green", green },
	{ "blue", "grey", "shades of blue", blue },
	{ "aqua", "grey", "shades of aqua", aqua },
	{ "yellow", "grey", "shades of yellow", yellow },
	{ "purple", "grey", "shades of purple", purple },
	{ "orange", "grey", "shades of orange", orange },
};

static const struct fg_background backgrounds[] = {
	{ "yellow", "#eeeeee", "#eeeeb0" },
	{ "blue", "#eeeeee", "#e0e0ff" },
	{ "green", "#eef2ee", "#e0ffe0" },
	{ "grey", "#f8f8f8", "#e8e8e8" },
};

const struct fg_palette *fg_palette_find(const char *name)
{
	for (size_t i = 0; i < sizeof(palettes) / sizeof(palettes[0]); i++)
		if (!strcmp(palettes[i].name, name))
			return &palettes[i];
	return NULL;
}

const char *fg_palette_names(void)
{
	return "hot, mem, io, wakeup, chain, java, js, perl, python, rust, "
	       "red, green, blue, aqua, yellow, purple, orange";
}

static int is_hex_color(const char *s)
{
	if (strlen(s) != 7 || s[0] != '#')
		return 0;
	for (int i = 1; i < 7; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	return 1;
}

const struct fg_background *fg_background_find(const char *name, struct fg_background *custom,
					       char *buf, size_t bufsize)
{
	for (size_t i = 0; i < sizeof(backgrounds) / sizeof(backgrounds[0]); i++)
		if (!strcmp(backgrounds[i].name, name))
			return &backgrounds[i];
	if (!is_hex_color(name) || bufsize < 8)
		return NULL;
	memcpy(buf, name, 8);
	custom->name = buf;
	custom->from = custom->to = buf;
	return custom;
}

/* A number in [0, 1) from the name; seed picks one of three independent ones. */
static double name_hash(const char *s, size_t len, uint64_t seed)
{
	/* FNV-1a 64 (Fowler, Noll, Vo), then a murmur3 finaliser to spread the bits */
	uint64_t h = 0xcbf29ce484222325ull ^ seed;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (double)(h >> 11) / 9007199254740992.0;
}

struct fg_rgb fg_palette_color(const struct fg_palette *p, const char *name, size_t len)
{
	double v[3];

	/* flamegraph.pl draws its "-" and "--" separator frames grey */
	if (len == 2 && name[0] == '-' && name[1] == '-')
		return rgb(160, 160, 160);
	if (len == 1 && name[0] == '-')
		return rgb(200, 200, 200);
	v[0] = name_hash(name, len, 0);
	v[1] = name_hash(name, len, 0x9e3779b97f4a7c15ull);
	v[2] = name_hash(name, len, 0xc2b2ae3d27d4eb4full);
	return p->color(name, len, v);
}

void fg_palette_map_init(struct fg_palette_map *m)
{
	memset(m, 0, sizeof(*m));
	intern_init(&m->names);
}

void fg_palette_map_release(struct fg_palette_map *m)
{
	intern_release(&m->names);
	free(m->colors);
	memset(m, 0, sizeof(*m));
}

static void map_set(struct fg_palette_map *m, const char *name, size_t len, struct fg_rgb c)
{
	uint32_t id = intern_add(&m->names, name, len, NULL);

	ALLOC_GROW(m->colors, (size_t)id + 1, m->alloc);
	m->colors[id] = c;
}

/* "rgb(R,G,B)" with each component 0-255 */
static int parse_rgb(const char *s, size_t len, struct fg_rgb *out)
{
	uint64_t v[3];
	size_t i = 4, k;

	if (len < 10 || memcmp(s, "rgb(", 4) || s[len - 1] != ')')
		return -1;
	for (k = 0; k < 3; k++) {
		size_t j = i;

		while (j < len - 1 && s[j] != ',')
			j++;
		if ((k < 2) != (j < len - 1))
			return -1;
		if (parse_u64_n(s + i, j - i, &v[k]) || v[k] > 255)
			return -1;
		i = j + 1;
	}
	*out = rgb((int)v[0], (int)v[1], (int)v[2]);
	return 0;
}

int fg_palette_map_read(struct fg_palette_map *m, const char *path)
{
	struct line_reader r;
	char *line;
	size_t len;
	int ret;
	FILE *probe = fopen(path, "r");

	if (!probe) {
		if (errno == ENOENT)
			return 0;	/* first run: the file is created afterwards */
		return error_errno("cannot open '%s'", path);
	}
	fclose(probe);
	if (line_reader_open(&r, path))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0) {
		char *arrow = len ? strstr(line, "->") : NULL;
		struct fg_rgb c;

		if (!len)
			continue;
		if (!arrow || parse_rgb(arrow + 2, len - (size_t)(arrow + 2 - line), &c)) {
			struct strbuf q = STRBUF_INIT;

			trail_error("%s:%llu: expected 'name->rgb(R,G,B)', got '%s'", path,
			      (unsigned long long)r.lineno, escape_term_excerpt(&q, line, len, 80));
			strbuf_release(&q);
			ret = -1;
			break;
		}
		map_set(m, line, (size_t)(arrow - line), c);
	}
	line_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

static const struct fg_palette_map *sort_map;

static int cmp_entry(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct intern *t = &sort_map->names;
	uint32_t la = intern_len(t, a), lb = intern_len(t, b);
	int c = memcmp(intern_str(t, a), intern_str(t, b), la < lb ? la : lb);

	if (c)
		return c;
	return (la > lb) - (la < lb);
}

int fg_palette_map_write(const struct fg_palette_map *m, const char *path)
{
	uint32_t *ids = xmallocarray(m->names.nr ? m->names.nr : 1, sizeof(*ids));
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		free(ids);
		return error_errno("cannot write '%s'", path);
	}
	for (uint32_t i = 0; i < m->names.nr; i++)
		ids[i] = i;
	sort_map = m;
	qsort(ids, m->names.nr, sizeof(*ids), cmp_entry);
	for (uint32_t i = 0; i < m->names.nr; i++) {
		struct fg_rgb c = m->colors[ids[i]];

		fprintf(f, "%s->rgb(%d,%d,%d)\n", intern_str(&m->names, ids[i]), c.r, c.g, c.b);
	}
	if (ferror(f))
		ret = -1;
	if (fclose(f) || ret)
		ret = error_errno("cannot write '%s'", path);
	free(ids);
	return ret;
}

struct fg_rgb fg_palette_map_color(struct fg_palette_map *m, const struct fg_palette *p,
				   const char *name, size_t len)
{
	uint32_t id = intern_find(&m->names, name, len);
	struct fg_rgb c;

	if (id != UINT32_MAX)
		return m->colors[id];
	c = fg_palette_color(p, name, len);
	map_set(m, name, len, c);
	m->dirty = 1;
	return c;
}
