/*
 * fuzz_diffmerge.c - libFuzzer target for 'trail diff's fast path
 * (diff/diffmerge.c, diffsort.c, core/line_map.c) against the plain one
 * (difffolded_read + difffolded_write): the input, split at its first NUL
 * into BEFORE and AFTER (the first byte picks -s and -n), is written to
 * two in-memory files that are mapped like real ones; both paths must
 * print the same bytes.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff/difffolded.h"
#include "diff/diffmerge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An in-memory file holding buf[0..len), and its /proc/self/fd path. */
static int memfile(const void *buf, size_t len, char *path, size_t path_len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	assert(fd >= 0);
	assert(write(fd, buf, len) == (ssize_t)len);
	snprintf(path, path_len, "/proc/self/fd/%d", fd);
	return fd;
}

/* What fd holds, NUL-terminated (malloc'd), and its length. */
static char *slurp(int fd, size_t *len)
{
	off_t n = lseek(fd, 0, SEEK_END);
	char *buf = malloc((size_t)n + 1);

	assert(n >= 0 && buf);
	assert(pread(fd, buf, (size_t)n, 0) == n);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned flags;
	const uint8_t *nul;
	char bpath[64], apath[64];
	int bfd, afd, out1, out2;
	struct difffolded_stats st[2] = { { 0 }, { 0 } }, st2[2] = { { 0 }, { 0 } };
	struct folded_profile p;
	struct diffmerge m;
	FILE *f1, *f2;
	char *o1, *o2;
	size_t n1, n2;

	if (!size)
		return 0;
	flags = (data[0] & 1 ? DIFFFOLDED_STRIP_HEX : 0) | (data[0] & 2 ? DIFFFOLDED_NORMALIZE : 0);
	data++;
	size--;
	nul = memchr(data, '\0', size);
	bfd = memfile(data, nul ? (size_t)(nul - data) : size, bpath, sizeof(bpath));
	afd = nul ? memfile(nul + 1, size - (size_t)(nul + 1 - data), apath, sizeof(apath))
		  : memfile("", 0, apath, sizeof(apath));
	out1 = memfd_create("out1", MFD_CLOEXEC);
	out2 = memfd_create("out2", MFD_CLOEXEC);
	f1 = fdopen(out1, "w");
	f2 = fdopen(out2, "w");

	folded_profile_init(&p);
	assert(!difffolded_read(&p, 0, bpath, flags & DIFFFOLDED_STRIP_HEX, &st[0]));
	assert(!difffolded_read(&p, 1, apath, flags & DIFFFOLDED_STRIP_HEX, &st[1]));
	p.columns = 2;
	if (flags & DIFFFOLDED_NORMALIZE)
		difffolded_normalize(&p);
	assert(!difffolded_write(&p, f1));
	fflush(f1);

	assert(!diffmerge_read(&m, bpath, apath, flags & DIFFFOLDED_STRIP_HEX, st2));
	if (flags & DIFFFOLDED_NORMALIZE)
		diffmerge_normalize(&m);
	assert(!diffmerge_write(&m, f2));
	fflush(f2);

	o1 = slurp(out1, &n1);
	o2 = slurp(out2, &n2);
	assert(n1 == n2 && !memcmp(o1, o2, n1));
	assert(st[0].stacks == st2[0].stacks && st[1].malformed == st2[1].malformed);

	free(o1);
	free(o2);
	diffmerge_release(&m);
	folded_profile_release(&p);
	fclose(f1);
	fclose(f2);
	close(bfd);
	close(afd);
	return 0;
}
