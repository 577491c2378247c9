/*
 * debuginfo.c - prepared copies of separate debug files (see debuginfo.h).
 */
#include "profile/debuginfo.h"
#include "core/alloc.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
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

/*
 * A copy of fd in a memfd with the needed compressed sections inflated and
 * the other compressed ones turned into SHT_NOBITS (libdw skips those), or -1.
 */
static int prepared_copy(int fd)
{
	int mfd = memfd_create("trail-debuginfo", MFD_CLOEXEC), changed = 0;
	char buf[1 << 16];
	ssize_t n;
	off_t at = 0;
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (mfd < 0)
		return -1;
	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		if (write(mfd, buf, (size_t)n) != n)
			goto fail;
		at += n;
	}
	if (n < 0)
		goto fail;
	e = elf_begin(mfd, ELF_C_RDWR, NULL);
	if (!e)
		goto fail;
	if (elf_getshdrstrndx(e, &shstrndx))
		scn = (Elf_Scn *)e;	/* not a usable ELF file: give up below */
	else
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED))
				continue;
			name = elf_strptr(e, shstrndx, sh.sh_name);
			if (name && section_needed(name)) {
				if (elf_compress(scn, 0, 0) < 0)
					break;
			} else {
				sh.sh_type = SHT_NOBITS;
				sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
				if (!gelf_update_shdr(scn, &sh))
					break;
			}
			changed = 1;
		}
	if (scn || (changed && elf_update(e, ELF_C_WRITE) < 0)) {
		elf_end(e);
		goto fail;
	}
	elf_end(e);
	return mfd;
fail:
	close(mfd);
	return -1;
}

int debuginfo_prepared(struct debuginfo_cache *c, int fd, const char *path)
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
		cp->fd = prepared_copy(fd);
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
