/*
 * test_perfdata.c - unit tests of the perf.data reader, the address maps
 * and the symbol-table rules (synthetic inputs; the conformance tests
 * against real perf are tests/cli/50-perfdata.sh).
 */
#include "harness.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "perf/maps.h"
#include "perf/perfdata.h"
#include "perf/perfdata_stacks.h"
#include "perf/stack_memo.h"
#include "perf/time_order.h"
#include "symbols/symbols.h"

#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

TEST(magic_detected)
{
	CHECK(perfdata_is_magic("PERFILE2", 8));
	CHECK(!perfdata_is_magic("PERFILE", 7));
	CHECK(!perfdata_is_magic("PERFILE3", 8));
}

struct counter {
	struct perf_tool tool;	/* first member: the callback gets it back */
	int samples;
};

static int count_samples(struct perf_tool *t, const struct perf_event_header *rec,
			 const struct perf_sample *s)
{
	(void)rec;
	CHECK_INT(s->nr_callchain, 2);
	CHECK_INT(s->period, 1000);
	CHECK_STREQ(s->event, "cycles");
	((struct counter *)t)->samples++;
	return 0;
}

/*
 * A file-mode header and one attr (IP|TID|PERIOD|CALLCHAIN of the given
 * type) at buf; h is written back at buf once the data is known.  Returns
 * where the data starts.
 */
static size_t put_header(unsigned char *buf, struct perf_file_header *h, uint32_t type)
{
	struct perf_event_attr attr;
	size_t off = sizeof(*h);

	memset(h, 0, sizeof(*h));
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_CALLCHAIN;
	h->magic = PERF_FILE_MAGIC;
	h->size = sizeof(*h);
	h->attr_size = sizeof(attr) + 16;
	h->attrs.offset = off;
	h->attrs.size = h->attr_size;
	memcpy(buf + off, &attr, sizeof(attr));
	memset(buf + off + sizeof(attr), 0, 16);
	return off + h->attr_size;
}

/* A file-mode image: header, one attr (IP|TID|PERIOD|CALLCHAIN), one sample. */
static size_t build_file(unsigned char *buf, int truncate_data)
{
	struct perf_file_header h;
	uint64_t rec[7];
	size_t off = put_header(buf, &h, PERF_TYPE_HARDWARE);

	/* sample: header, ip, pid/tid, period, nr, 2 ips */
	rec[0] = PERF_RECORD_SAMPLE | ((uint64_t)PERF_RECORD_MISC_USER << 32) |
		 ((uint64_t)(8 * 7) << 48);
	rec[1] = 0x401000;
	rec[2] = 42 | (42ULL << 32);
	rec[3] = 1000;
	rec[4] = 2;
	rec[5] = 0x401000;
	rec[6] = 0x401100;
	h.data.offset = off;
	h.data.size = truncate_data ? sizeof(rec) - 8 : sizeof(rec);
	memcpy(buf + off, rec, sizeof(rec));
	off += h.data.size;
	memcpy(buf, &h, sizeof(h));
	return off;
}

TEST(reads_a_minimal_file)
{
	static unsigned char buf[4096];
	size_t n = build_file(buf, 0);
	struct perfdata pd;
	struct counter k = { { .sample = count_samples }, 0 };

	CHECK(!perfdata_open_buffer(&pd, buf, n, "mini.data"));
	CHECK_INT(pd.nr_evsel, 1);
	CHECK_STREQ(pd.evsel[0].name, "cycles");
	CHECK(!perfdata_process(&pd, &k.tool));
	CHECK_INT(k.samples, 1);
	perfdata_close(&pd);
}

/* Appends one record (header + body) at *off. */
static void put_rec(unsigned char *buf, size_t *off, uint32_t type, uint16_t misc,
		    const void *body, size_t len)
{
	struct perf_event_header h = { type, misc, (uint16_t)(sizeof(h) + len) };

	memcpy(buf + *off, &h, sizeof(h));
	memcpy(buf + *off + sizeof(h), body, len);
	*off += sizeof(h) + len;
}

/*
 * A recording of one kernel-mode sample (two kernel frames, one user
 * frame), with or without the kernel text mapping that perf record and
 * trail record write when /proc/kallsyms shows addresses.
 */
/* kernel_map: 0 none, 1 [kernel.kallsyms]_text over 16 MB, 2 that and a frame past it */
static size_t build_kernel_sample(unsigned char *buf, int kernel_map)
{
	struct perf_file_header h;
	size_t off = put_header(buf, &h, PERF_TYPE_SOFTWARE), data;
	/*
	 * Two kernel frames, then a user address after a second kernel marker
	 * (the kernel writes such chains at exec): no kernel map holds it.
	 */
	uint64_t sample[11] = { UINT64_C(0xffffffff81000100), 42 | (42ULL << 32), 1000, 7,
				(uint64_t)PERF_CONTEXT_KERNEL, UINT64_C(0xffffffff81000100),
				UINT64_C(0xffffffff81000200), (uint64_t)PERF_CONTEXT_USER, 0x401000,
				(uint64_t)PERF_CONTEXT_KERNEL, UINT64_C(0x555c74541a68) };
	unsigned char comm[16] = { 42, 0, 0, 0, 42, 0, 0, 0, 's', 'h' };
	unsigned char mm[32 + 24];
	uint32_t ids[2] = { UINT32_MAX, 0 };
	uint64_t range[3] = { UINT64_C(0xffffffff81000000), 0x1000000, UINT64_C(0xffffffff81000000) };

	data = off;
	if (kernel_map == 2)	/* the chain's second kernel frame past the map's end */
		sample[6] = UINT64_C(0xfffffffffff00000);
	put_rec(buf, &off, PERF_RECORD_COMM, 0, comm, sizeof(comm));
	if (kernel_map) {
		memset(mm, 0, sizeof(mm));
		memcpy(mm, ids, 8);
		memcpy(mm + 8, range, 24);
		memcpy(mm + 32, "[kernel.kallsyms]_text", 23);
		put_rec(buf, &off, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, mm, sizeof(mm));
	}
	put_rec(buf, &off, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, sample, sizeof(sample));
	h.data.offset = data;
	h.data.size = off - data;
	memcpy(buf, &h, sizeof(h));
	return off;
}

struct kernel_frames {
	size_t nr, with_dso;
	char dso[64];
};

static int note_kernel_frames(void *ctx, const struct perfdata_stack *st)
{
	struct kernel_frames *k = ctx;
	size_t i;

	k->nr = st->nr;
	for (i = 0; i < st->nr; i++)
		if (st->frames[i].dso && st->frames[i].addr != 0x401000) {
			k->with_dso++;
			snprintf(k->dso, sizeof(k->dso), "%.*s", (int)st->frames[i].dso_len,
				 st->frames[i].dso);
		}
	return 0;
}

/*
 * perf script prints kernel frames as "[unknown] ([unknown])" when the
 * recording has no kernel map (kallsyms hidden while recording), even if
 * the reading machine's /proc/kallsyms could name them, and a user address
 * after a kernel marker always; the native reader must agree, or 'trail
 * collapse' and 'perf script | trail collapse' differ (51-perfdata-discard).
 */
TEST(kernel_frames_need_the_kernel_map)
{
	static unsigned char buf[4096];
	struct perfdata_stacks_opts opts;
	struct kernel_frames k;
	struct perfdata pd;
	int with_map;

	for (with_map = 0; with_map <= 1; with_map++) {
		size_t n = build_kernel_sample(buf, with_map);

		memset(&opts, 0, sizeof(opts));
		memset(&k, 0, sizeof(k));
		CHECK(!perfdata_open_buffer(&pd, buf, n, "kernel.data"));
		CHECK(!perfdata_stacks(&pd, &opts, note_kernel_frames, &k, NULL));
		CHECK_INT(k.nr, 4);
		if (with_map) {
			CHECK_INT(k.with_dso, 2);
			CHECK(strstr(k.dso, "kernel") != NULL || strstr(k.dso, ".ko") != NULL);
		} else {
			CHECK_INT(k.with_dso, 0);
		}
		perfdata_close(&pd);
	}
}

/*
 * A kernel address past the kernel map (start + length of its MMAP
 * record) that kallsyms does not name, like the 0xffffffffffffffff frame
 * that ends a stack deeper than its --call-graph dwarf copy: perf finds
 * it in no map and prints [unknown] ([unknown]), not [kernel.kallsyms].
 */
TEST(past_the_kernel_map_is_unknown)
{
	static unsigned char buf[4096];
	struct perfdata_stacks_opts opts;
	struct kernel_frames k;
	struct perfdata pd;
	size_t n = build_kernel_sample(buf, 2);

	memset(&opts, 0, sizeof(opts));
	memset(&k, 0, sizeof(k));
	CHECK(!perfdata_open_buffer(&pd, buf, n, "kernel.data"));
	CHECK(!perfdata_stacks(&pd, &opts, note_kernel_frames, &k, NULL));
	CHECK_INT(k.nr, 4);
	CHECK_INT(k.with_dso, 1);	/* only 0xffffffff81000100, in the map */
	perfdata_close(&pd);
}

TEST(truncated_record_is_an_error)
{
	static unsigned char buf[4096];
	size_t n = build_file(buf, 1);
	struct perfdata pd;
	struct counter k = { { .sample = count_samples }, 0 };

	trail_quiet = 1;
	CHECK(!perfdata_open_buffer(&pd, buf, n, "mini.data"));
	CHECK(perfdata_process(&pd, &k.tool) == -1);
	CHECK_INT(k.samples, 0);
	perfdata_close(&pd);
	/* a header cut short */
	CHECK(perfdata_open_buffer(&pd, buf, 40, "short.data") == -1);
	perfdata_close(&pd);
}

TEST(symbols_fixup_follows_perf)
{
	struct symbol s[4] = {
		{ .start = 0x200, .end = 0x200, .name = "b_zero_size", .binding = STB_GLOBAL },
		{ .start = 0x100, .end = 0x180, .name = "a", .binding = STB_GLOBAL },
		{ .start = 0x100, .end = 0x180, .name = "__a_alias", .binding = STB_GLOBAL },
		{ .start = 0x300, .end = 0x340, .name = "c", .binding = STB_WEAK },
	};
	size_t n = symbols_fixup(s, 4, 0, NULL);

	CHECK_INT(n, 3);
	CHECK_STREQ(s[0].name, "a");	/* fewer leading underscores wins */
	CHECK_INT(s[1].end, 0x300);	/* zero size runs to the next symbol */
	CHECK(symbols_search(s, n, NULL, 0x17f) == &s[0]);
	CHECK(symbols_search(s, n, NULL, 0x180) == NULL);
	CHECK(symbols_search(s, n, NULL, 0x2ff) == &s[1]);
	CHECK(symbols_search(s, n, NULL, 0x50) == NULL);
}

/*
 * A shuffled table with a module per symbol (as kallsyms has), same-start
 * runs included: the table comes out as the same table sorted first by a
 * plain stable insertion sort (which symbols_fixup() leaves in place), each
 * symbol with its own module.
 */
TEST(symbols_fixup_moves_each_symbol_with_its_module)
{
	enum { N = 2000 };
	struct symbol *s = xcalloc(N, sizeof(*s)), *want = xcalloc(N, sizeof(*want));
	const char **kmod = xcalloc(N, sizeof(*kmod)), **want_kmod = xcalloc(N, sizeof(*want_kmod));
	static const char *const mods[] = { "[a]", "[b]", "[c]" };
	char (*names)[16] = xcalloc(N, sizeof(*names));
	uint64_t r = 12345;
	size_t i, j, n, nw;

	for (i = 0; i < N; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		snprintf(names[i], sizeof(names[i]), "f%zu", (size_t)(r >> 40) % 1000);
		s[i].start = 0x1000 + (r >> 33) % (N / 2) * 0x10;
		s[i].end = s[i].start + 0x10;
		s[i].name = names[i];
		s[i].binding = (r >> 10) % 2 ? STB_GLOBAL : STB_WEAK;
		kmod[i] = mods[(r >> 20) % 3];
	}
	for (i = 0; i < N; i++) {
		struct symbol x = s[i];
		const char *km = kmod[i];

		for (j = i; j > 0 && want[j - 1].start > x.start; j--) {
			want[j] = want[j - 1];
			want_kmod[j] = want_kmod[j - 1];
		}
		want[j] = x;
		want_kmod[j] = km;
	}
	n = symbols_fixup(s, N, 0, kmod);
	nw = symbols_fixup(want, N, 0, want_kmod);
	CHECK_INT(n, nw);
	for (i = 0; i < n && i < nw; i++) {
		CHECK(s[i].name == want[i].name);
		CHECK_INT(s[i].start, want[i].start);
		CHECK_INT(s[i].end, want[i].end);
		CHECK(kmod[i] == want_kmod[i]);
	}
	free(s);
	free(want);
	free(kmod);
	free(want_kmod);
	free(names);
}

/*
 * symbolizer_lookup() answers as symbolizer_find() and symbolizer_name()
 * do, for more addresses than its front cache has slots (so slots are
 * taken over) and again for the same ones, from a JIT map.
 */
TEST(symbol_lookup_agrees_with_find)
{
	char path[] = "/tmp/trail-test-jitmap.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct symbolizer sym;
	struct dso *d;
	unsigned i, round, bad = 0, ids_bad = 0;
	uint32_t first_id[4000];

	CHECK(f != NULL);
	if (!f)
		return;
	for (i = 0; i < 3000; i++)
		fprintf(f, "%x %x jit_fn_%u\n", 0x100000 + i * 0x40, 0x30, i);
	fclose(f);
	symbolizer_init(&sym);
	d = symbolizer_dso(&sym, path, DSO_JIT);
	for (round = 0; round < 2; round++)
		for (i = 0; i < 4000; i++) {
			uint64_t addr = 0x100000 + (uint64_t)i * 0x31;
			struct sym_found found;
			const struct symbol *a = symbolizer_lookup(&sym, d, addr, &found);
			const struct symbol *b = symbolizer_find(&sym, d, addr);

			if (a != b || (a && (strcmp(found.name, symbolizer_name(&sym, b)) ||
					     found.name_len != strlen(found.name) ||
					     found.symoff != addr - b->start || !found.id)))
				bad++;
			if (a && !round)
				first_id[i] = found.id;
			else if (a && first_id[i] != found.id)
				ids_bad++;
		}
	CHECK_INT(bad, 0);
	CHECK_INT(ids_bad, 0);
	symbolizer_release(&sym);
	unlink(path);
}

TEST(maps_insert_splits_overlaps)
{
	struct maps ms;
	struct map a = { 0x1000, 0x5000, 0, 0, NULL }, b = { 0x2000, 0x3000, 0x10000, 0, NULL };

	memset(&ms, 0, sizeof(ms));
	maps_insert(&ms, &a);
	maps_insert(&ms, &b);
	CHECK_INT(ms.nr, 3);
	CHECK_INT(ms.v[0].end, 0x2000);
	CHECK_INT(ms.v[1].pgoff, 0x10000);
	CHECK_INT(ms.v[2].start, 0x3000);
	CHECK_INT(ms.v[2].pgoff, 0x2000);	/* offset of the cut tail */
	free(ms.v);
}

/* The map found last is tried first: it must not answer for an address it lost. */
TEST(find_map_after_the_maps_change)
{
	struct symbolizer sym;
	struct machine m;
	struct thread *t;
	const struct map *mp;

	symbolizer_init(&sym);
	machine_init(&m, &sym);
	machine_mmap(&m, 10, 10, 0x1000, 0x4000, 0, "/bin/a", 1);
	t = machine_thread(&m, 10, 10);
	mp = thread_find_map(t, 0x2100);
	CHECK(mp && !strcmp(mp->dso->path, "/bin/a"));
	/* /bin/b cuts the middle out of /bin/a's map, which was found last */
	machine_mmap(&m, 10, 10, 0x2000, 0x1000, 0, "/bin/b", 1);
	mp = thread_find_map(t, 0x2100);
	CHECK(mp && !strcmp(mp->dso->path, "/bin/b"));
	mp = thread_find_map(t, 0x1100);
	CHECK(mp && !strcmp(mp->dso->path, "/bin/a"));
	mp = thread_find_map(t, 0x3100);
	CHECK(mp && !strcmp(mp->dso->path, "/bin/a") && mp->pgoff == 0x2000);
	CHECK(thread_find_map(t, 0x5000) == NULL);
	machine_release(&m);
	symbolizer_release(&sym);
}

/*
 * The thread found last answers again only while it is the thread asked
 * for: not once a fork has retired it, nor for another process.
 */
TEST(thread_lookup_after_a_fork_reuses_the_tid)
{
	struct symbolizer sym;
	struct machine m;
	struct thread *old, *t;

	symbolizer_init(&sym);
	machine_init(&m, &sym);
	machine_comm(&m, 20, 20, "first");
	machine_mmap(&m, 20, 20, 0x1000, 0x1000, 0, "/bin/first", 1);
	old = machine_thread(&m, 20, 20);
	CHECK(machine_thread(&m, 20, 20) == old);
	CHECK_STREQ(thread_comm(&m, old), "first");
	/* pid 20 exits; 30 forks a new process that gets tid 20 again */
	machine_comm(&m, 30, 30, "parent");
	machine_fork(&m, 20, 30, 20, 30, 0);
	t = machine_thread(&m, 20, 20);
	CHECK_STREQ(thread_comm(&m, t), "parent");
	CHECK(thread_find_map(t, 0x1800) == NULL);	/* not the old process's maps */
	/* the same tid asked for under another pid is not the cached one */
	CHECK(machine_thread(&m, 20, 20) == t);
	t = machine_thread(&m, 40, 41);
	CHECK(t->pid == 40 && t->tid == 41);
	machine_release(&m);
	symbolizer_release(&sym);
}

/*
 * kallsyms is mapped and never written: names end at a tab or newline.
 * Out-of-order lines, module symbols, skipped types, same-address
 * duplicates and a last line without newline.
 */
TEST(kallsyms_parsed_in_place)
{
	static const char text[] =
		"ffffffff81000200 T second\n"
		"ffffffff81000100 T first\n"
		"ffffffff81000100 T __first_alias\n"
		"ffffffff81000180 r rodata_skipped\n"
		"ffffffffc0000000 t mod_func\t[ext4]\n"
		"ffffffff81000300 T last_no_newline";
	char path[] = "/tmp/trail-test-kallsyms.XXXXXX";
	int fd = mkstemp(path);
	struct symbolizer s;
	struct dso *k;
	const struct symbol *sym;

	CHECK(fd >= 0);
	CHECK(write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(fd);
	symbolizer_init(&s);
	s.kallsyms_path = path;
	k = symbolizer_kernel(&s);
	sym = symbolizer_find(&s, k, 0xffffffff81000150);
	CHECK(sym != NULL);
	if (sym) {
		/* perf: the earlier duplicate ends where the later starts, size 0 loses */
		CHECK_STREQ(symbolizer_name(&s, sym), "__first_alias");
		CHECK_INT(sym->demangled_len, 13);
		CHECK(symbolizer_kmod(k, sym) == NULL);
	}
	sym = symbolizer_find(&s, k, 0xffffffff81000210);
	CHECK(sym && !strcmp(symbolizer_name(&s, sym), "second"));
	sym = symbolizer_find(&s, k, 0xffffffffc0000004);
	CHECK(sym && !strcmp(symbolizer_name(&s, sym), "mod_func"));
	if (sym) {
		const char *mod = symbolizer_kmod(k, sym);

		CHECK(mod && !strcmp(mod, "[ext4]"));
	}
	sym = symbolizer_find(&s, k, 0xffffffff81000300);
	CHECK(sym && !strcmp(symbolizer_name(&s, sym), "last_no_newline"));
	CHECK_INT(k->nr_syms, 4);
	symbolizer_release(&s);
	unlink(path);
}

/* The symbols of a kallsyms file as "start end name [module]" lines. */
static void kallsyms_table(const char *path, struct strbuf *out)
{
	struct symbolizer s;
	struct dso *k;
	size_t i;

	symbolizer_init(&s);
	s.kallsyms_path = path;
	k = symbolizer_kernel(&s);
	(void)symbolizer_find(&s, k, 0xffffffff81000000);
	strbuf_reset(out);
	for (i = 0; i < k->nr_syms; i++) {
		const char *mod = symbolizer_kmod(k, &k->syms[i]);

		/* each symbol is found at its start, served fresh or cached */
		strbuf_addf(out, "%llx %llx %s %d %s%s\n", (unsigned long long)k->syms[i].start,
			    (unsigned long long)k->syms[i].end, symbolizer_name(&s, &k->syms[i]),
			    k->syms[i].binding, mod ? mod : "-",
			    symbolizer_find(&s, k, k->syms[i].start) == &k->syms[i] ? "" : " NOT FOUND");
	}
	symbolizer_release(&s);
}

static int files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/*
 * A kallsyms file that stays as it is (perf's build-id copy) is parsed
 * once: the second load comes from the cache and is the same table; a
 * changed file or a damaged cache file is parsed again.  Upper-case and
 * bad hex digits go through the 8-digits-at-a-time reader.
 */
TEST(kallsyms_cache_serves_the_parsed_table)
{
	static const char text[] =
		"ffffffff81000200 T second\n"
		"ffffffff81000100 T first\n"
		"ffffffff81000100 t __first_alias\n"
		"FFFFFFFF81000400 W upper_case\n"
		"ffffffff8100g000 T bad_digit\n"
		"ffffffff81000180 r rodata_skipped\n"
		"ffffffffc0000000 t mod_func\t[ext4]\n"
		"ffffffffc0001000 t other_mod\t[xfs]\n";
	char dir[] = "/tmp/trail-test-kcache.XXXXXX", *path, *cache, *old_cache = NULL;
	struct strbuf first = STRBUF_INIT, again = STRBUF_INIT;
	const char *old_env = getenv("XDG_CACHE_HOME");
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	path = xstrfmt("%s/kallsyms", dir);
	cache = xstrfmt("%s/trail/kallsyms-1", dir);
	if (old_env)
		old_cache = xstrdup(old_env);
	setenv("XDG_CACHE_HOME", dir, 1);
	f = fopen(path, "w");
	CHECK(f && fputs(text, f) >= 0 && !fclose(f));
	kallsyms_table(path, &first);
	CHECK_STREQ(first.buf,
		    "ffffffff81000100 ffffffff81000200 __first_alias 0 -\n"
		    "ffffffff81000200 ffffffff81000400 second 1 -\n"
		    "ffffffff81000400 ffffffff81002000 upper_case 2 -\n"
		    "ffffffffc0000000 ffffffffc0001000 mod_func 0 [ext4]\n"
		    "ffffffffc0001000 ffffffffc0002000 other_mod 0 [xfs]\n");
	CHECK_INT(files_in(cache), 1);
	kallsyms_table(path, &again);
	CHECK_STREQ(again.buf, first.buf);
	/* a different file under the same name is not served the old table */
	f = fopen(path, "w");
	CHECK(f && fputs("ffffffff81000100 T renamed\n", f) >= 0 && !fclose(f));
	kallsyms_table(path, &again);
	CHECK_STREQ(again.buf, "ffffffff81000100 ffffffff81002000 renamed 1 -\n");
	CHECK_INT(files_in(cache), 1);	/* its entry replaced, not a second one */
	/* a damaged cache file is ignored (and replaced) */
	{
		DIR *d = opendir(cache);
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.') {
				char *p = xstrfmt("%s/%s", cache, e->d_name);

				CHECK(!truncate(p, 70));
				free(p);
			}
		if (d)
			closedir(d);
	}
	kallsyms_table(path, &again);
	CHECK_STREQ(again.buf, "ffffffff81000100 ffffffff81002000 renamed 1 -\n");
	if (old_cache)
		setenv("XDG_CACHE_HOME", old_cache, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(old_cache);
	{
		char *rm = xstrfmt("rm -rf '%s'", dir);

		CHECK(!system(rm));
		free(rm);
	}
	free(path);
	free(cache);
	strbuf_release(&first);
	strbuf_release(&again);
}

TEST(stack_memo_finds_repeats)
{
	struct stack_memo m;
	uint64_t key[3] = { 1, 2, 3 };
	struct stack_memo_entry *e;
	int created, i;

	stack_memo_init(&m);
	e = stack_memo_get(&m, key, 3, &created);
	CHECK(e && created);
	if (e)
		e->memo = 7;
	e = stack_memo_get(&m, key, 3, &created);
	CHECK(e && !created && e->memo == 7);
	e = stack_memo_get(&m, key, 2, &created);	/* a prefix is another stack */
	CHECK(e && created && e->memo == 0);
	for (i = 0; i < 5000; i++) {	/* past several table growths */
		key[0] = (uint64_t)i + 100;
		e = stack_memo_get(&m, key, 3, &created);
		CHECK(e && created);
		if (e)
			e->memo = (uint32_t)i + 1;
	}
	key[0] = 1;
	e = stack_memo_get(&m, key, 3, &created);
	CHECK(e && !created && e->memo == 7);
	key[0] = 4099 + 100;
	e = stack_memo_get(&m, key, 3, &created);
	CHECK(e && !created && e->memo == 4100);
	CHECK_INT(m.nr, 5002);
	stack_memo_release(&m);
}

/* Entries across several blocks keep their keys and memos; a key longer than a block is refused. */
TEST(stack_memo_spans_blocks)
{
	struct stack_memo m;
	size_t n = 1000, nr = 3 * STACK_MEMO_BLOCK_WORDS / 1000 + 7, i, j;
	uint64_t *key = xmallocarray(STACK_MEMO_BLOCK_WORDS + 1, sizeof(*key));
	struct stack_memo_entry *e;
	int created;

	stack_memo_init(&m);
	for (i = 0; i < nr; i++) {
		for (j = 0; j < n; j++)
			key[j] = i * 7919 + j;
		e = stack_memo_get(&m, key, n, &created);
		CHECK(e && created);
		if (e)
			e->memo = (uint32_t)i + 1;
	}
	CHECK(m.nr_blocks >= 3);
	for (i = nr; i-- > 0;) {
		for (j = 0; j < n; j++)
			key[j] = i * 7919 + j;
		e = stack_memo_get(&m, key, n, &created);
		CHECK(e && !created && e->memo == (uint32_t)i + 1 && e->len == n);
		key[n - 1] ^= 1;	/* the last word tells them apart too */
		e = stack_memo_get(&m, key, n, &created);
		CHECK(e && created && e->memo == 0);
	}
	memset(key, 0, (STACK_MEMO_BLOCK_WORDS + 1) * sizeof(*key));
	CHECK(!stack_memo_get(&m, key, STACK_MEMO_BLOCK_WORDS, &created));
	CHECK_INT(m.nr, 2 * nr);
	stack_memo_release(&m);
	free(key);
}

/* What .peek sees of a sample is what the decoder reads, for each layout of the fixed fields. */
TEST(peek_callchain_agrees_with_the_decoder)
{
	static const uint64_t extra[] = {
		0, PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU,
		PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_TIME,
	};
	uint64_t rec[32], pid_tid = 0;
	size_t i, k, n = 0, words;

	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		struct perf_event_attr a;
		struct perf_event_header h;
		struct perf_sample s;
		const uint64_t *chain;
		struct perf_peek_layout l;
		const char *why;

		memset(&a, 0, sizeof(a));
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
				PERF_SAMPLE_CALLCHAIN | extra[i];
		memset(rec, 0, sizeof(rec));
		words = 1;	/* the header */
		for (k = 0; k < 64; k++)
			if (a.sample_type & ((uint64_t)1 << k) & ~(uint64_t)PERF_SAMPLE_CALLCHAIN)
				rec[words++] = 0x1000 + k;	/* each fixed field */
		/* TID: pid 4242, tid 4243 */
		rec[1 + !!(a.sample_type & PERF_SAMPLE_IDENTIFIER) + 1] = (uint64_t)4243 << 32 | 4242;
		rec[words++] = 3;
		rec[words++] = 0xffffffffffffff80ull;	/* PERF_CONTEXT_KERNEL */
		rec[words++] = 0x401000;
		rec[words++] = 0x402000;
		h.type = PERF_RECORD_SAMPLE;
		h.misc = 0;
		h.size = (uint16_t)(words * 8);
		memcpy(rec, &h, sizeof(h));
		CHECK_INT(perf_sample_parse(&a, (const struct perf_event_header *)(void *)rec, NULL, &s, &why), 0);
		CHECK_INT(perf_sample_peek_layout(&a, &l), 0);
		chain = perf_sample_peek_callchain(&l, (const unsigned char *)rec, words * 8, &pid_tid, &n);
		CHECK(chain == s.callchain);
		CHECK_INT(n, s.nr_callchain);
		CHECK_INT(s.pid, 4242);
		CHECK(pid_tid == ((uint64_t)s.pid << 32 | s.tid));
		/* a count past the record's end, a READ before the chain: no peek */
		CHECK(!perf_sample_peek_callchain(&l, (const unsigned char *)rec, words * 8 - 8, &pid_tid, &n));
		a.sample_type |= PERF_SAMPLE_READ;
		CHECK_INT(perf_sample_peek_layout(&a, &l), -1);
	}
}

static int cmp_time_seq(const void *pa, const void *pb)
{
	const struct pending *a = pa, *b = pb;

	if (a->time != b->time)
		return (a->time > b->time) - (a->time < b->time);
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/*
 * Records arrive as a few runs already in time order (one per CPU buffer,
 * plus what the last round left), with equal times across runs: the
 * merge must give exactly qsort's (time, seq) order, whatever the runs.
 */
TEST(time_order_sort_matches_a_full_sort)
{
	enum { N = 5000 };
	static struct pending q[N], want[N];
	struct pending *tmp = NULL;
	size_t tmp_alloc = 0;
	unsigned seed = 7;

	for (int shape = 0; shape < 5; shape++) {
		size_t n = shape == 0 ? 0 : shape == 1 ? 1 : N;
		int runs = shape == 2 ? 1 : shape == 3 ? 3 : 64;
		uint64_t t[64] = { 0 };

		for (size_t i = 0; i < n; i++) {
			int r = (int)(i * (size_t)runs / (n ? n : 1));

			seed = seed * 1103515245 + 12345;
			t[r] += (seed >> 16) % 4;	/* repeats: ties across runs */
			q[i].time = t[r] + (uint64_t)(shape == 4 ? (seed >> 8) % 3 : 0);
			q[i].seq = (uint64_t)(n - i) * 2;	/* seq need not follow position */
			q[i].rec = NULL;
			q[i].off = i;
		}
		memcpy(want, q, n * sizeof(*q));
		qsort(want, n, sizeof(*want), cmp_time_seq);
		time_order_sort(q, n, &tmp, &tmp_alloc);
		for (size_t i = 0; i < n; i++) {
			CHECK_INT(q[i].time, want[i].time);
			CHECK_INT(q[i].off, want[i].off);
		}
	}
	free(tmp);
}

TEST_MAIN("perfdata", magic_detected, reads_a_minimal_file, kernel_frames_need_the_kernel_map,
	  past_the_kernel_map_is_unknown, truncated_record_is_an_error,
	  symbols_fixup_follows_perf, maps_insert_splits_overlaps, kallsyms_parsed_in_place,
	  kallsyms_cache_serves_the_parsed_table,
	  stack_memo_finds_repeats, stack_memo_spans_blocks, peek_callchain_agrees_with_the_decoder,
	  time_order_sort_matches_a_full_sort,
	  find_map_after_the_maps_change, thread_lookup_after_a_fork_reuses_the_tid,
	  symbols_fixup_moves_each_symbol_with_its_module, symbol_lookup_agrees_with_find)
