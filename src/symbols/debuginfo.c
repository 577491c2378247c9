/*
 * debuginfo.c - prepared copies of separate debug files (see debuginfo.h).
 */
#include "symbols/debuginfo.h"
#include "core/alloc.h"
#include "core/cache_dir.h"
#include "core/cleanup.h"
#include "core/file_map.h"
#include "symbols/build_id.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Debug sections trail's libdw users read; other compressed ones are hidden. */
static int section_needed(const char *name)
{
	static const char *const needed[] = {
		".debug_info", ".debug_abbrev", ".debug_str", ".debug_str_offsets",
		".debug_line_str", ".debug_ranges", ".debug_rnglists", ".debug_aranges",
		".debug_addr", ".debug_frame", ".debug_types",
	};
	size_t i;

	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (!strcmp(name, needed[i]))
			return 1;
	return 0;
}

/* Copy all of from (from offset 0) to the end of to; 0 or -1. */
static int copy_fd(int from, int to)
{
	char buf[1 << 16];
	ssize_t n;
	off_t at = 0;

	while ((n = pread(from, buf, sizeof(buf), at)) > 0) {
		if (write(to, buf, (size_t)n) != n)
			return -1;
		at += n;
	}
	return n < 0 ? -1 : 0;
}

/*
 * Inflate e's needed compressed sections and turn the other compressed ones
 * into SHT_NOBITS (libdw skips those).  1 when something changed, 0 when
 * nothing did, -1 when e cannot be rewritten.
 */
static int prepare_sections(Elf *e)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int changed = 0;

	if (elf_getshdrstrndx(e, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && section_needed(name)) {
			if (elf_compress(scn, 0, 0) < 0)
				return -1;
		} else {
			sh.sh_type = SHT_NOBITS;
			sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
			if (!gelf_update_shdr(scn, &sh))
				return -1;
		}
		changed = 1;
	}
	return changed;
}

/* A prepared copy of fd in a memfd (see prepare_sections), or -1. */
static int prepared_copy(int fd)
{
	int mfd = memfd_create("trail-debuginfo", MFD_CLOEXEC), changed, ok;
	Elf *e;

	if (mfd < 0)
		return -1;
	if (copy_fd(fd, mfd) || !(e = elf_begin(mfd, ELF_C_RDWR, NULL))) {
		close(mfd);
		return -1;
	}
	changed = prepare_sections(e);
	ok = changed == 0 || (changed > 0 && elf_update(e, ELF_C_WRITE) >= 0);
	elf_end(e);
	if (!ok) {
		close(mfd);
		return -1;
	}
	return mfd;
}

/* The cache file for build-id id, or NULL (no id). */
static char *cache_path(const uint8_t *id, size_t size)
{
	char hex[2 * BUILD_ID_MAX + 1], *dir, *path;

	if (!size)
		return NULL;
	build_id_hex(id, size, hex);
	dir = cache_dir("debuginfo-1");
	path = xstrfmt("%s/%.2s/%s.debug", dir, hex, hex + 2);
	free(dir);
	return path;
}

/* The cached prepared copy at path, if it is there and has build-id id. */
static int open_cached(const char *path, const uint8_t *id, size_t size)
{
	int fd = open_regular(path), ok = 0;
	uint8_t got[BUILD_ID_MAX];
	size_t n = 0;
	Elf *e;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ok = e && !build_id_from_elf(e, got, &n) && n == size && !memcmp(got, id, n);
	if (e)
		elf_end(e);
	if (!ok) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Keep the prepared copy mfd at path: written under a temporary name and
 * renamed, so a reader never sees half a file.  Best effort: a cache that
 * cannot be written (read-only home, full disk) only costs time.
 */
static void store_cached(int mfd, const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *tmp;
	int fd;

	*slash = 0;
	if (make_dirs_quiet(dir)) {
		free(dir);
		return;
	}
	free(dir);
	tmp = xstrfmt("%s.tmp%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		int ok = !copy_fd(mfd, fd);

		if (close(fd))
			ok = 0;
		if (!ok || rename(tmp, path))
			unlink(tmp);
	}
	free(tmp);
}

/* The prepared copy of fd: from the cache, else made (and cached). */
static int prepare(int fd, const uint8_t *id, size_t size)
{
	char *path = cache_path(id, size);
	int out = path ? open_cached(path, id, size) : -1;

	if (out < 0) {
		out = prepared_copy(fd);
		if (out >= 0 && path)
			store_cached(out, path);
	}
	free(path);
	return out;
}

int debuginfo_prepared(struct debuginfo_cache *c, int fd, const char *path, const uint8_t *id,
		       size_t size)
{
	struct debuginfo_copy *cp = NULL;
	size_t i;
	int dup_fd;

	if (!path)
		return fd;
	for (i = 0; i < c->nr && !cp; i++)
		if (!strcmp(c->v[i].path, path))
			cp = &c->v[i];
	if (!cp) {
		ALLOC_GROW(c->v, c->nr + 1, c->alloc);
		cp = &c->v[c->nr++];
		cp->path = xstrdup(path);
		cp->fd = prepare(fd, id, size);
	}
	if (cp->fd < 0)
		return fd;
	dup_fd = dup(cp->fd);
	if (dup_fd < 0)
		return fd;
	close(fd);
	return dup_fd;
}

void debuginfo_cache_release(struct debuginfo_cache *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		if (c->v[i].fd >= 0)
			close(c->v[i].fd);
		free(c->v[i].path);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
