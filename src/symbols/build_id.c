/*
 * build_id.c - GNU build-ids from ELF files (libelf), from our own vdso
 * image and from raw note sequences such as /sys/kernel/notes.  Shared by
 * the symbolizer (which checks that a binary is the one recorded) and
 * trail record (which writes the ids into perf.data's BUILD_ID section).
 */
#include "symbols/build_id.h"
#include "core/file_map.h"
#include "core/strbuf.h"
#include "core/unaligned.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

#define NOTES_MAX (64u << 10)	/* bytes of /sys/kernel/notes read at most */

static void take(const void *desc, size_t descsz, uint8_t *out, size_t *size)
{
	size_t n = descsz > BUILD_ID_MAX ? BUILD_ID_MAX : descsz;

	memcpy(out, desc, n);
	*size = n;
}

int build_id_from_elf(Elf *elf, uint8_t out[BUILD_ID_MAX], size_t *size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz &&
			    !memcmp((char *)data->d_buf + noff, "GNU", 4)) {
				take((char *)data->d_buf + doff, nh.n_descsz, out, size);
				return 0;
			}
		}
	}
	return -1;
}

int build_id_of_file(const char *path, uint8_t out[BUILD_ID_MAX], size_t *size)
{
	int fd, ret = -1;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open_regular(path);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		ret = build_id_from_elf(elf, out, size);
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

Elf *vdso_elf_open(void)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	size_t size = 8192;
	GElf_Ehdr eh;

	if (!base)
		return NULL;
	elf_version(EV_CURRENT);
	/* the image size: the section headers sit at its end */
	memcpy(&eh, (void *)base, sizeof(eh) < 64 ? sizeof(eh) : 64);
	if (eh.e_shoff && eh.e_shnum)
		size = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	return elf_memory((char *)base, size);
}

int build_id_of_vdso(uint8_t out[BUILD_ID_MAX], size_t *size)
{
	Elf *elf = vdso_elf_open();
	int ret;

	if (!elf)
		return -1;
	ret = build_id_from_elf(elf, out, size);
	elf_end(elf);
	return ret;
}

int build_id_from_notes(const void *notes, size_t len, uint8_t out[BUILD_ID_MAX], size_t *size)
{
	const unsigned char *p = notes, *end = p + len;

	while (end - p >= 12) {
		uint32_t namesz = rd32(p), descsz = rd32(p + 4), type = rd32(p + 8);
		size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
		size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
		const unsigned char *name = p + 12, *desc;

		if (name_pad > (size_t)(end - name))
			return -1;
		desc = name + name_pad;
		if (desc_pad > (size_t)(end - desc))
			return -1;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && descsz && !memcmp(name, "GNU", 4)) {
			take(desc, descsz, out, size);
			return 0;
		}
		p = desc + desc_pad;
	}
	return -1;
}

int build_id_of_kernel(const char *notes_path, uint8_t out[BUILD_ID_MAX], size_t *size)
{
	unsigned char buf[4096];
	struct strbuf sb = STRBUF_INIT;
	int fd = open(notes_path, O_RDONLY | O_CLOEXEC), ret = -1;
	ssize_t n;

	if (fd < 0)
		return -1;
	/* sysfs binary attribute: read until EOF, bounded */
	while (sb.len < NOTES_MAX && (n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	close(fd);
	if (sb.len)
		ret = build_id_from_notes(sb.buf, sb.len, out, size);
	strbuf_release(&sb);
	return ret;
}

void build_id_hex(const uint8_t *id, size_t size, char out[2 * BUILD_ID_MAX + 1])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (size > BUILD_ID_MAX)
		size = BUILD_ID_MAX;
	for (i = 0; i < size; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * size] = '\0';
}
