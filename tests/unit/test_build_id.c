/*
 * test_build_id.c - build-ids: the libelf reader (sections) and the raw
 * note parser (segments, /sys/kernel/notes) agree on this very program
 * and on the vdso; note sequences with other notes first, truncation and
 * wrong names; and dso_hits marking the modules of sampled addresses and
 * of call chains from real MMAP2 and SAMPLE records.
 */
#include "harness.h"
#include "symbols/build_id.h"
#include "perf/dso_hits.h"

#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>

struct phdr_find {
	const char *want;	/* "" for the main program, else a name substring */
	uint8_t id[BUILD_ID_MAX];
	size_t size;
	int found;
	uintptr_t base;		/* load address of the first PT_LOAD */
};

/* The build-id from the PT_NOTE segments, as the loader mapped them. */
static int find_phdr(struct dl_phdr_info *info, size_t sz, void *ctx)
{
	struct phdr_find *f = ctx;
	int i;

	(void)sz;
	if (f->want[0] ? !strstr(info->dlpi_name, f->want) : info->dlpi_name[0] != '\0')
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && !f->base)
			f->base = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_NOTE && !f->found &&
		    !build_id_from_notes((const void *)(info->dlpi_addr + ph->p_vaddr),
					 ph->p_memsz, f->id, &f->size))
			f->found = 1;
	}
	return 1;
}

TEST(file_and_segment_readers_agree)
{
	struct phdr_find f = { "", { 0 }, 0, 0, 0 };
	uint8_t id[BUILD_ID_MAX];
	size_t size = 0;
	int r = build_id_of_file("/proc/self/exe", id, &size);

	dl_iterate_phdr(find_phdr, &f);
	if (r && !f.found)
		SKIP("this test program was linked without a build-id");
	CHECK_INT(r, 0);
	CHECK(f.found);
	CHECK_INT(size, f.size);
	CHECK(size > 0 && !memcmp(id, f.id, size));
}

TEST(vdso_readers_agree)
{
	struct phdr_find f = { "vdso", { 0 }, 0, 0, 0 };
	uint8_t id[BUILD_ID_MAX];
	size_t size = 0;
	int r = build_id_of_vdso(id, &size);

	dl_iterate_phdr(find_phdr, &f);
	if (r && !f.found)
		SKIP("no vdso, or one without a build-id");
	CHECK_INT(r, 0);
	CHECK_INT(size, f.size);
	CHECK(size > 0 && !memcmp(id, f.id, size));
}

TEST(not_elf_has_no_build_id)
{
	uint8_t id[BUILD_ID_MAX];
	size_t size = 0;

	CHECK_INT(build_id_of_file("/proc/self/cmdline", id, &size), -1);
	CHECK_INT(build_id_of_file("/nonexistent/file", id, &size), -1);
	CHECK_INT(build_id_of_kernel("/nonexistent/notes", id, &size), -1);
}

static void put_note(unsigned char **p, const char *name, uint32_t type, const void *desc,
		     uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;

	memcpy(*p, &namesz, 4);
	memcpy(*p + 4, &descsz, 4);
	memcpy(*p + 8, &type, 4);
	*p += 12;
	memset(*p, 0, (namesz + 3) & ~3u);
	memcpy(*p, name, namesz);
	*p += (namesz + 3) & ~3u;
	memset(*p, 0, (descsz + 3) & ~3u);
	memcpy(*p, desc, descsz);
	*p += (descsz + 3) & ~3u;
}

TEST(notes_sequence)
{
	unsigned char buf[256], *p = buf;
	uint8_t want[20], got[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1];
	size_t size = 0, i, len, note_start, note_end;

	for (i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(0xa0 + i);
	/* what /sys/kernel/notes holds: other notes around the GNU one */
	put_note(&p, "Xen", 6, "\1\2\3\4\5", 5);
	put_note(&p, "GNU", 1, "\7\7\7\7", 4);	/* a GNU note, not a build-id */
	note_start = (size_t)(p - buf);
	put_note(&p, "GNU", 3, want, 20);
	note_end = (size_t)(p - buf);
	put_note(&p, "Linux", 1, "\0\0\0\0", 4);
	len = (size_t)(p - buf);
	CHECK_INT(build_id_from_notes(buf, len, got, &size), 0);
	CHECK_INT(size, 20);
	CHECK(!memcmp(got, want, 20));
	build_id_hex(got, size, hex);
	CHECK_STREQ(hex, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3");
	/* cut anywhere before the build-id's end: not found (ASan sees overreads) */
	for (i = 0; i < note_end; i++) {
		unsigned char *cut = malloc(i ? i : 1);

		memcpy(cut, buf, i);
		CHECK_INT(build_id_from_notes(cut, i, got, &size), -1);
		free(cut);
	}
	CHECK(note_start > 0);
	/* a descriptor size that runs past the end */
	{
		uint32_t huge = 0xfffffff0u;

		memcpy(buf + note_start + 4, &huge, 4);
		CHECK_INT(build_id_from_notes(buf, len, got, &size), -1);
		memcpy(buf + note_start + 4, &(uint32_t){ 20 }, 4);
	}
	/* a file holding the notes, read as the kernel's */
	{
		char path[] = "/tmp/trail-notes.XXXXXX";
		int fd = mkstemp(path);

		CHECK(fd >= 0);
		CHECK_INT(write(fd, buf, len), (long long)len);
		close(fd);
		memset(got, 0, sizeof(got));
		CHECK_INT(build_id_of_kernel(path, got, &size), 0);
		CHECK(!memcmp(got, want, 20));
		unlink(path);
	}
}

/* ---- dso_hits ---- */

struct rec_buf {
	uint64_t u[64];		/* aligned record storage */
};

static const struct perf_event_header *mmap2(struct rec_buf *b, uint32_t pid, uint64_t start,
					     uint64_t len, uint32_t prot, const char *name)
{
	unsigned char *r = (unsigned char *)b->u;
	size_t nlen = strlen(name) + 1, size = (72 + nlen + 7) & ~(size_t)7;
	struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, (uint16_t)size };
	uint64_t zero = 0;
	uint32_t flags = MAP_PRIVATE;

	memset(b, 0, sizeof(*b));
	memcpy(r, &h, 8);
	memcpy(r + 8, &pid, 4);
	memcpy(r + 12, &pid, 4);
	memcpy(r + 16, &start, 8);
	memcpy(r + 24, &len, 8);
	memcpy(r + 32, &zero, 8);
	memcpy(r + 64, &prot, 4);
	memcpy(r + 68, &flags, 4);
	memcpy(r + 72, name, nlen);
	return (const void *)r;
}

/* sample_type IP | TID | CALLCHAIN */
static const struct perf_event_header *sample(struct rec_buf *b, uint16_t cpumode, uint32_t pid,
					      uint64_t ip, const uint64_t *chain, uint64_t nr)
{
	unsigned char *r = (unsigned char *)b->u;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, cpumode, (uint16_t)(8 + 8 + 8 + 8 + nr * 8) };

	memset(b, 0, sizeof(*b));
	memcpy(r, &h, 8);
	memcpy(r + 8, &ip, 8);
	memcpy(r + 16, &pid, 4);
	memcpy(r + 20, &pid, 4);
	memcpy(r + 24, &nr, 8);
	memcpy(r + 32, chain, nr * 8);
	return (const void *)r;
}

static const struct perf_event_header *fork_rec(struct rec_buf *b, uint32_t pid, uint32_t ppid)
{
	unsigned char *r = (unsigned char *)b->u;
	struct perf_event_header h = { PERF_RECORD_FORK, 0, 8 + 24 };

	memset(b, 0, sizeof(*b));
	memcpy(r, &h, 8);
	memcpy(r + 8, &pid, 4);
	memcpy(r + 12, &ppid, 4);
	memcpy(r + 16, &pid, 4);
	memcpy(r + 20, &ppid, 4);
	return (const void *)r;
}

struct listed {
	char names[8][256];
	int kernel[8];
	uint8_t ids[8][BUILD_ID_MAX];
	size_t sizes[8];
	int n;
};

static int collect(void *ctx, const char *name, int kernel, const uint8_t *id, size_t size)
{
	struct listed *l = ctx;

	if (l->n < 8) {
		snprintf(l->names[l->n], sizeof(l->names[0]), "%s", name);
		l->kernel[l->n] = kernel;
		memcpy(l->ids[l->n], id, size);
		l->sizes[l->n] = size;
		l->n++;
	}
	return 0;
}

struct loaded_object {
	const char *needle;	/* part of the path to find */
	char *out;		/* 256 bytes: the first loaded path holding needle */
};

static int find_loaded(struct dl_phdr_info *info, size_t sz, void *ctx)
{
	struct loaded_object *o = ctx;

	(void)sz;
	if (strstr(info->dlpi_name, o->needle) && !o->out[0])
		snprintf(o->out, 256, "%s", info->dlpi_name);
	return 0;
}

/* The paths of the loaded libc and dynamic loader ("" when not found). */
static void find_libc_and_ld(char libc[256], char ld[256])
{
	struct loaded_object o = { "libc.so", libc };

	dl_iterate_phdr(find_loaded, &o);
	o.needle = "ld-linux";
	o.out = ld;
	dl_iterate_phdr(find_loaded, &o);
}

/* Run the same records through dso_hits; all_mapped selects the mode. */
static void hits_of(int all_mapped, const char *exe, const char *libc, const char *ld,
		    const char *notes, struct listed *l)
{
	struct perf_event_attr attr;
	struct dso_hits h;
	struct rec_buf b;
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, PERF_CONTEXT_USER,
				   0x400010, 0x700020 };
	const uint64_t ld_chain[] = { PERF_CONTEXT_USER, 0x900010 };

	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	dso_hits_init(&h, &attr, all_mapped);
	h.kernel_notes = notes;
	CHECK_INT(dso_hits_add(&h, mmap2(&b, 100, 0x400000, 0x1000, PROT_READ | PROT_EXEC, exe)), 0);
	CHECK_INT(dso_hits_add(&h, mmap2(&b, 100, 0x700000, 0x1000, PROT_READ | PROT_EXEC, libc)), 0);
	CHECK_INT(dso_hits_add(&h, mmap2(&b, 100, 0x900000, 0x1000, PROT_READ | PROT_EXEC, ld)), 0);
	/* data mapping of a module: never marked */
	CHECK_INT(dso_hits_add(&h, mmap2(&b, 100, 0xa00000, 0x1000, PROT_READ, "/proc/self/exe")), 0);
	CHECK_INT(dso_hits_add(&h, mmap2(&b, 100, 0x800000, 0x1000, PROT_READ | PROT_EXEC, "[vdso]")), 0);
	/* a kernel sample whose chain goes through exe into libc */
	CHECK_INT(dso_hits_add(&h, sample(&b, PERF_RECORD_MISC_KERNEL, 100, 0xffffffff81000010ULL,
					  chain, 5)), 0);
	/* a forked child hits ld through the maps it inherited */
	CHECK_INT(dso_hits_add(&h, fork_rec(&b, 200, 100)), 0);
	CHECK_INT(dso_hits_add(&h, sample(&b, PERF_RECORD_MISC_USER, 200, 0x900010, ld_chain, 2)), 0);
	/* a sample nowhere mapped: nothing */
	CHECK_INT(dso_hits_add(&h, sample(&b, PERF_RECORD_MISC_USER, 300, 0x123456, ld_chain, 0)), 0);
	/* malformed: callchain longer than the record */
	{
		struct perf_event_header *r = (void *)sample(&b, PERF_RECORD_MISC_USER, 100, 1, chain, 1);

		b.u[3] = 1000;
		CHECK_INT(dso_hits_add(&h, r), -1);
	}
	memset(l, 0, sizeof(*l));
	CHECK_INT(dso_hits_build_ids(&h, collect, l), 0);
	dso_hits_release(&h);
}

TEST(hits_follow_samples_chains_and_forks)
{
	char exe[256] = "", libc[256] = "", ld[256] = "";
	char notes[] = "/tmp/trail-knotes.XXXXXX";
	unsigned char nbuf[64], *p = nbuf;
	uint8_t kid[20], id[BUILD_ID_MAX];
	size_t size, i;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct listed l;
	int fd;

	find_libc_and_ld(libc, ld);
	if (n <= 0 || !libc[0] || !ld[0] || build_id_of_file(exe, id, &size) ||
	    build_id_of_file(libc, id, &size) || build_id_of_file(ld, id, &size))
		SKIP("needs a dynamically linked test program with build-ids");
	exe[n] = '\0';
	for (i = 0; i < sizeof(kid); i++)
		kid[i] = (uint8_t)(i * 11);
	put_note(&p, "GNU", 3, kid, 20);
	fd = mkstemp(notes);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, nbuf, (size_t)(p - nbuf)), (long long)(p - nbuf));
	close(fd);

	hits_of(0, exe, libc, ld, notes, &l);
	/* kernel first, then in order of mapping; the data map adds nothing */
	CHECK_INT(l.n, 5);
	CHECK_STREQ(l.names[0], "[kernel.kallsyms]");
	CHECK_INT(l.kernel[0], 1);
	CHECK(l.sizes[0] == 20 && !memcmp(l.ids[0], kid, 20));
	CHECK_STREQ(l.names[1], exe);
	CHECK_STREQ(l.names[2], libc);
	CHECK_STREQ(l.names[3], ld);
	CHECK_STREQ(l.names[4], "[vdso]");
	for (i = 1; i < 4 && i < (size_t)l.n; i++) {
		CHECK_INT(l.kernel[i], 0);
		CHECK_INT(build_id_of_file(l.names[i], id, &size), 0);
		CHECK(size == l.sizes[i] && !memcmp(id, l.ids[i], size));
	}
	unlink(notes);
}

TEST(hits_only_when_hit)
{
	char exe[256] = "", libc[256] = "", ld[256] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct perf_event_attr attr;
	struct dso_hits h;
	struct rec_buf b;
	struct listed l;
	uint8_t id[BUILD_ID_MAX];
	size_t size;
	const uint64_t chain[] = { PERF_CONTEXT_USER, 0x400010 };

	find_libc_and_ld(libc, ld);
	if (n <= 0 || !libc[0] || build_id_of_file(libc, id, &size))
		SKIP("needs a dynamically linked test program with build-ids");
	exe[n] = '\0';
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	/* hits: libc mapped but never sampled is left out */
	dso_hits_init(&h, &attr, 0);
	h.kernel_notes = "/nonexistent";
	dso_hits_add(&h, mmap2(&b, 1, 0x400000, 0x1000, PROT_EXEC, exe));
	dso_hits_add(&h, mmap2(&b, 1, 0x700000, 0x1000, PROT_EXEC, libc));
	dso_hits_add(&h, mmap2(&b, 1, 0xa00000, 0x1000, PROT_READ, ld));
	CHECK_INT(dso_hits_add(&h, sample(&b, PERF_RECORD_MISC_USER, 1, 0x400010, chain, 2)), 0);
	memset(&l, 0, sizeof(l));
	dso_hits_build_ids(&h, collect, &l);
	dso_hits_release(&h);
	CHECK_INT(l.n, 1);
	CHECK_STREQ(l.names[0], exe);
	/* all_mapped (-g dwarf): every executable module, hit or not; not data maps */
	dso_hits_init(&h, &attr, 1);
	dso_hits_add(&h, mmap2(&b, 1, 0x400000, 0x1000, PROT_EXEC, exe));
	dso_hits_add(&h, mmap2(&b, 1, 0x700000, 0x1000, PROT_EXEC, libc));
	dso_hits_add(&h, mmap2(&b, 1, 0xa00000, 0x1000, PROT_READ, ld));
	memset(&l, 0, sizeof(l));
	dso_hits_build_ids(&h, collect, &l);
	dso_hits_release(&h);
	CHECK_INT(l.n, 2);
	CHECK_STREQ(l.names[0], exe);
	CHECK_STREQ(l.names[1], libc);
	/* per-CPU buffers: a sample may come before its module's MMAP2 */
	dso_hits_init(&h, &attr, 0);
	h.kernel_notes = "/nonexistent";
	CHECK_INT(dso_hits_add(&h, sample(&b, PERF_RECORD_MISC_USER, 1, 0x400010, chain, 2)), 0);
	dso_hits_add(&h, mmap2(&b, 1, 0x400000, 0x1000, PROT_EXEC, exe));
	dso_hits_add(&h, mmap2(&b, 1, 0x700000, 0x1000, PROT_EXEC, libc));
	memset(&l, 0, sizeof(l));
	dso_hits_build_ids(&h, collect, &l);
	dso_hits_release(&h);
	CHECK_INT(l.n, 1);
	CHECK_STREQ(l.names[0], exe);
}

TEST_MAIN("build_id", file_and_segment_readers_agree, vdso_readers_agree,
	  not_elf_has_no_build_id, notes_sequence, hits_follow_samples_chains_and_forks,
	  hits_only_when_hit)
