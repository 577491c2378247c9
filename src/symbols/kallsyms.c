/*
 * kallsyms.c - the kernel's symbols (see kallsyms.h): "ADDR TYPE NAME[\t[MODULE]]"
 * lines parsed as perf's kallsyms__parse() does, and a cache of the parsed,
 * fixed-up table.  Parsing 120,000 lines (and fixing up the table) was
 * 40% of the instructions of 'trail collapse' on a small frame-pointer
 * perf.data; the cached table is read back in a few: a table of fixed
 * records whose names are offsets into the (unchanging) kallsyms file.
 */
#include "symbols/kallsyms.h"
#include "core/alloc.h"
#include "core/cache_dir.h"
#include "core/cleanup.h"
#include "core/file_map.h"
#include "core/hashmap.h"
#include "core/intern.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int kallsyms_type_ok(char t)
{
	t = (char)(t & ~0x20);
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static uint8_t kallsyms_binding(char t)
{
	if (t == 'W' || t == 'w')
		return STB_WEAK;
	return t >= 'A' && t <= 'Z' ? STB_GLOBAL : STB_LOCAL;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * The value of 8 hex digits loaded little-endian into v, or -1 when one
 * is not a hex digit: kallsyms has 120,000 16-digit addresses, and a digit
 * at a time was a third of reading a frame-pointer perf.data file.  Each
 * byte is classified with carries that stay inside it (all bytes < 0x80),
 * then the nibbles are packed pairwise (SWAR, as in Lemire's hex parsing).
 */
static inline int64_t hex8(uint64_t v)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t lower = v | 0x2020202020202020ull, digit, alpha;

	if (v & high)
		return -1;
	digit = (v + (0x80 - '0') * ones) & ~(v + (0x80 - '9' - 1) * ones);
	alpha = (lower + (0x80 - 'a') * ones) & ~(lower + (0x80 - 'f' - 1) * ones);
	if (((digit | alpha) & high) != high)
		return -1;
	v = (v & 0x0f0f0f0f0f0f0f0full) + 9 * ((v >> 6) & ones);
	v = ((v << 4) + (v >> 8)) & 0x00ff00ff00ff00ffull;
	v = ((v << 8) + (v >> 16)) & 0x0000ffff0000ffffull;
	v = ((v << 16) + (v >> 32)) & 0xffffffffull;
	return (int64_t)v;
}

/* Turn module ids (index + 1 in d->kmod) into strings living as long as d. */
static void kallsyms_module_names(struct kallsyms *d, struct intern *mods)
{
	size_t i, total = 0;
	char **names = xcalloc(mods->nr + 1, sizeof(*names));
	char *q;

	for (i = 0; i < mods->nr; i++)
		total += intern_len(mods, (uint32_t)i) + 1;
	d->kmod_names = xmalloc(total + 1);
	q = d->kmod_names;
	for (i = 0; i < mods->nr; i++) {
		size_t len = intern_len(mods, (uint32_t)i);

		memcpy(q, intern_str(mods, (uint32_t)i), len);
		q[len] = 0;
		names[i] = q;
		q += len + 1;
	}
	for (i = 0; i < d->nr_syms; i++)
		if (d->kmod[i])
			d->kmod[i] = names[(uintptr_t)d->kmod[i] - 1];
	free(names);
}

/*
 * "ADDR TYPE NAME[\t[MODULE]]" per line.  The text is mapped, not copied,
 * and never written: names point into it and end at a tab or newline
 * (symbol.unterminated); symbolizer_name() copies the few that are used.
 * A last line without newline gets its name copied.  The table is sized
 * from the line count and huge-page backed: 120,000 symbols fill it with
 * a handful of page faults.
 */
static void parse_kallsyms(struct kallsyms *d, const char *path, struct arena *arena)
{
	const char *p, *end;
	size_t lines = 1;
	struct intern mods;

	if (file_map_path(&d->text, path, FILE_MAP_POPULATE | FILE_MAP_SEQUENTIAL))
		return;
	p = (const char *)d->text.data;
	end = p + d->text.size;
	for (const char *q = p; (q = memchr(q, '\n', (size_t)(end - q))); q++)
		lines++;
	d->syms = xmalloc_huge(st_mult(lines, sizeof(*d->syms)));
	intern_init(&mods);
	while (p < end) {
		const char *line = p, *nl = memchr(p, '\n', (size_t)(end - p)), *name, *mod;
		uint64_t addr = 0;
		int digit;
		char type;
		struct symbol *sym;

		if (!nl)
			nl = end;
		p = nl + 1;
		if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && nl - line > 16 && line[16] == ' ') {
			uint64_t hi, lo;
			int64_t h, l;

			memcpy(&hi, line, 8);
			memcpy(&lo, line + 8, 8);
			h = hex8(hi);
			l = hex8(lo);
			if (h >= 0 && l >= 0) {
				addr = (uint64_t)h << 32 | (uint64_t)l;
				line += 16;
			}
		}
		while (line < nl && (digit = hex_digit((unsigned char)*line)) >= 0) {
			addr = addr << 4 | (uint64_t)digit;
			line++;
		}
		if (nl - line < 4 || line[0] != ' ' || line[2] != ' ')
			continue;
		type = line[1];
		if (!kallsyms_type_ok(type))
			continue;
		name = line + 3;
		if (name[0] == '$' || name[0] == '\t')
			continue;
		sym = &d->syms[d->nr_syms];
		sym->start = sym->end = addr;
		sym->name = name;
		sym->unterminated = 1;
		sym->erased = 0;
		if (nl == end) {	/* no newline after it: copy */
			sym->name = arena_strndup(arena, name, (size_t)(nl - name));
			sym->unterminated = 0;
		}
		sym->demangled = sym->unterminated ? NULL : sym->name;
		sym->demangled_len = 0;
		sym->binding = kallsyms_binding(type);
		sym->type = STT_FUNC;
		mod = memchr(name, '\t', (size_t)(nl - name));
		if (mod && mod[1] == '[') {
			uint32_t id = intern_add(&mods, mod + 1, (size_t)(nl - mod - 1), NULL);

			if (!d->kmod)
				d->kmod = xcalloc(lines, sizeof(*d->kmod));
			d->kmod[d->nr_syms] = (const char *)(uintptr_t)(id + 1);
		}
		d->nr_syms++;
	}
	if (d->kmod)
		kallsyms_module_names(d, &mods);
	intern_release(&mods);
}


/* ---- the cache ------------------------------------------------------------ */

#define CACHE_MAGIC "trailks1"

/* What a cached table was made from: the file must still be exactly that. */
struct cache_key {
	uint64_t dev, ino, size, mtime_ns;
};

struct cache_header {
	char magic[8];
	struct cache_key key;
	uint64_t nr;		/* records that follow */
	uint64_t names_bytes;	/* module names after the records, NUL-separated */
};

struct cache_record {
	uint64_t start, end;
	uint32_t name_off;	/* into the kallsyms file */
	uint32_t kmod;		/* offset + 1 into the module names; 0: core kernel */
	uint8_t binding;
	uint8_t pad[7];
};

/* The key of path when it is a file that stays as it is (size > 0), else -1. */
static int cache_key_of(const char *path, struct cache_key *k)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return -1;
	memset(k, 0, sizeof(*k));
	k->dev = (uint64_t)st.st_dev;
	k->ino = (uint64_t)st.st_ino;
	k->size = (uint64_t)st.st_size;
	k->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	return 0;
}

/*
 * One cache file per kallsyms path (a changed file replaces its entry, so
 * a file rewritten again and again does not fill the directory); the key
 * inside says which version of the file it holds.
 */
static char *cache_path(const char *path)
{
	char *dir = cache_dir("kallsyms-1"), *out;
	size_t len = strlen(path);

	out = xstrfmt("%s/%08x%08x.ks", dir, hashmap_hash_bytes(path, len),
		      hashmap_hash_bytes(path, len / 2) ^ (uint32_t)len);
	free(dir);
	return out;
}

/* d's table from the cache file for key k; 0, or -1 (d untouched) when absent or stale. */
static int cache_read(struct kallsyms *d, const char *cpath, const struct cache_key *k)
{
	struct file_map m = { 0 };
	const struct cache_header *h;
	const struct cache_record *r;
	const char *names;
	size_t i, nr;
	int ret = -1;

	int fd = open_regular(cpath);

	if (fd < 0)
		return -1;
	if (file_map_fd(&m, fd, cpath, FILE_MAP_POPULATE)) {
		close(fd);
		return -1;
	}
	close(fd);
	h = (const void *)m.data;
	if (m.size < sizeof(*h) || memcmp(h->magic, CACHE_MAGIC, 8) || memcmp(&h->key, k, sizeof(*k)) ||
	    h->nr > (m.size - sizeof(*h)) / sizeof(*r) ||
	    h->names_bytes != m.size - sizeof(*h) - h->nr * sizeof(*r) ||
	    (h->names_bytes && m.data[m.size - 1]))
		goto out;
	nr = (size_t)h->nr;
	r = (const void *)(h + 1);
	names = (const char *)(r + nr);
	for (i = 0; i < nr; i++)
		if (r[i].name_off >= d->text.size || r[i].kmod > h->names_bytes)
			goto out;
	d->syms = xmalloc_huge(st_mult(nr ? nr : 1, sizeof(*d->syms)));
	if (h->names_bytes) {
		d->kmod_names = xmalloc(h->names_bytes);
		memcpy(d->kmod_names, names, h->names_bytes);
		d->kmod = xcalloc(nr ? nr : 1, sizeof(*d->kmod));
	}
	for (i = 0; i < nr; i++) {
		struct symbol *sym = &d->syms[i];

		sym->start = r[i].start;
		sym->end = r[i].end;
		sym->name = (const char *)d->text.data + r[i].name_off;
		sym->demangled = NULL;
		sym->demangled_len = 0;
		sym->binding = r[i].binding;
		sym->type = STT_FUNC;
		sym->unterminated = 1;
		sym->erased = 0;	/* the cache keeps only the symbols kept */
		if (d->kmod && r[i].kmod)
			d->kmod[i] = d->kmod_names + r[i].kmod - 1;
	}
	d->nr_syms = nr;
	ret = 0;
out:
	file_map_release(&m);
	return ret;
}

/*
 * Keep d's fixed-up table for key k: written under a temporary name and
 * renamed, so a reader never sees half a file.  Best effort: a cache that
 * cannot be written only costs time.  Tables with a name outside the file
 * (a last line without newline) are not kept.
 */
static void cache_write(const struct kallsyms *d, const char *cpath, const struct cache_key *k)
{
	struct cache_header h;
	struct cache_record *r;
	const char *text = (const char *)d->text.data;
	char *dir = xstrdup(cpath), *tmp = NULL;
	size_t i, names_bytes = 0;
	FILE *f = NULL;
	int ok = 0;

	for (i = 0; i < d->nr_syms; i++)
		if (!d->syms[i].unterminated || d->syms[i].name < text ||
		    d->syms[i].name >= text + d->text.size || d->text.size > UINT32_MAX)
			goto out;
	if (d->kmod_names)
		for (i = 0; i < d->nr_syms; i++)
			if (d->kmod[i] && (size_t)(d->kmod[i] - d->kmod_names) + strlen(d->kmod[i]) + 1 > names_bytes)
				names_bytes = (size_t)(d->kmod[i] - d->kmod_names) + strlen(d->kmod[i]) + 1;
	*strrchr(dir, '/') = 0;
	if (make_dirs_quiet(dir))
		goto out;
	tmp = xstrfmt("%s.tmp%ld", cpath, (long)getpid());
	f = fopen(tmp, "wbx");
	if (!f)
		goto out;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, 8);
	h.key = *k;
	h.nr = d->nr_syms;
	h.names_bytes = names_bytes;
	ok = fwrite(&h, sizeof(h), 1, f) == 1;
	r = xcalloc(4096, sizeof(*r));
	for (i = 0; ok && i < d->nr_syms; i++) {
		struct cache_record *c = &r[i % 4096];
		const struct symbol *sym = &d->syms[i];

		c->start = sym->start;
		c->end = sym->end;
		c->name_off = (uint32_t)(sym->name - text);
		c->kmod = d->kmod && d->kmod[i] ? (uint32_t)(d->kmod[i] - d->kmod_names) + 1 : 0;
		c->binding = sym->binding;
		if (i % 4096 == 4095 || i + 1 == d->nr_syms)
			ok = fwrite(r, sizeof(*r), i % 4096 + 1, f) == i % 4096 + 1;
	}
	free(r);
	if (ok && names_bytes)
		ok = fwrite(d->kmod_names, 1, names_bytes, f) == names_bytes;
	if (fclose(f))
		ok = 0;
	if (!ok || rename(tmp, cpath))
		unlink(tmp);
out:
	free(tmp);
	free(dir);
}

void kallsyms_load(struct kallsyms *k, const char *path, struct arena *arena)
{
	struct cache_key key;
	char *cpath = NULL;
	int cacheable = !cache_key_of(path, &key);

	memset(k, 0, sizeof(*k));
	if (cacheable) {
		/* names are read in place, a few of them: no need to read it all */
		if (file_map_path(&k->text, path, 0))
			return;
		cpath = cache_path(path);
		if (!cache_read(k, cpath, &key)) {
			free(cpath);
			return;
		}
		file_map_release(&k->text);
	}
	parse_kallsyms(k, path, arena);
	k->nr_syms = symbols_fixup(k->syms, k->nr_syms, 1, k->kmod);
	if (cacheable && k->nr_syms)
		cache_write(k, cpath, &key);
	free(cpath);
}
