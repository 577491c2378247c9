/*
 * preload_out.c - the interposer's output file, $TRAIL_ALLOC_DIR/
 * alloc.PID.SEQ.raw (format: raw.h), written from a buffer under lock.
 * The program owns every descriptor number, so the file is never trusted
 * by number: it lives high (F_DUPFD_CLOEXEC near the descriptor limit),
 * and before every write its identity (device, inode) is checked; a
 * descriptor the program closed or reused is left alone and the file is
 * opened again by path, or, when that fails, the records are given up and
 * alloc.PID.SEQ.lost tells trail so.  A process that is a copy made
 * without fork handlers (a raw clone()) is told by a wipe-on-fork page
 * (set up here; preload_image.c starts such a copy over).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc/preload.h"

static int fd = -1;
static char path[sizeof(dir) + 64];	/* the open file's */
static dev_t file_dev;
static ino_t file_ino;
static uint64_t buf[32 * 1024];	/* the write buffer */
static size_t buf_words;

/* The lowest number at or above which the file is kept: far from where programs open theirs. */
static int high_base(void)
{
	struct rlimit rl;
	rlim_t lim = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl))
		lim = rl.rlim_cur;
	if (lim > 4096 + 64)
		return 4096;	/* higher would only grow the kernel's descriptor table */
	return lim > 96 ? (int)lim - 64 : 3;
}

/* f moved to a high number (close-on-exec); f itself when none is free. */
static int move_high(int f)
{
	int h = fcntl(f, F_DUPFD_CLOEXEC, high_base());

	if (h < 0)
		return f;
	close(f);
	return h;
}

/* The file, still linked: writes to a file the program deleted would vanish. */
static int is_ours(int f)
{
	struct stat st;

	return f >= 0 && !fstat(f, &st) && st.st_dev == file_dev && st.st_ino == file_ino &&
	       st.st_nlink > 0;
}

/*
 * open(), even when the program holds every descriptor below its limit
 * (closed ours and dup2'd its own file everywhere): then the soft limit
 * is raised for the one call, and the descriptor stays valid after.
 */
static int open_anyway(const char *name, int flags)
{
	struct rlimit rl, more;
	int f = open(name, flags, 0600), e;

	if (f >= 0 || errno != EMFILE || getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return f;
	more = rl;
	more.rlim_cur = rl.rlim_cur + 1;
	if (setrlimit(RLIMIT_NOFILE, &more))
		return f;
	f = open(name, flags, 0600);
	e = errno;
	setrlimit(RLIMIT_NOFILE, &rl);
	errno = e;
	return f;
}

/* Give up the records, and leave trail a marker that says why. */
static void lost(const char *why)
{
	char marker[sizeof(path) + 8];
	int m;

	enabled = 0;
	fd = -1;
	buf_words = 0;
	if ((size_t)snprintf(marker, sizeof(marker), "%s.lost", path) >= sizeof(marker))
		return;
	m = open_anyway(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
	if (m < 0)
		return;
	if (write(m, why, strlen(why)) < 0)
		enabled = 0;
	close(m);
}

/* The descriptor still names the file, or it was opened again; 0 when the records are lost. */
static int file_ready(void)
{
	int f;

	if (fd < 0)
		return 0;
	if (!copy_mark && (pid_t)syscall(SYS_getpid) != owner) {
		/* a copy made without fork handlers, and no wipe-on-fork to say so */
		enabled = 0;
		fd = -1;
		return 0;
	}
	if (is_ours(fd))
		return 1;
	/* the program closed it, or put a file of its own on that number */
	f = open_anyway(path, O_WRONLY | O_CLOEXEC);
	if (f < 0 || !is_ours(f)) {
		if (f >= 0)
			close(f);
		lost("the program closed or replaced the interposer's descriptor or deleted its file\n");
		return 0;
	}
	fd = move_high(f);
	if (lseek(fd, 0, SEEK_END) < 0) {
		lost("cannot seek in the reopened file\n");
		return 0;
	}
	return 1;
}

static void write_all(const void *p, size_t n)
{
	const char *c = p;

	if (!file_ready())
		return;
	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			lost("a write failed (disk full?)\n");
			return;
		}
		c += w;
		n -= (size_t)w;
	}
}

void flush_locked(void)
{
	if (buf_words)
		write_all(buf, buf_words * 8);
	buf_words = 0;
}

uint64_t *reserve_locked(size_t words)
{
	if (buf_words + words > sizeof(buf) / 8)
		flush_locked();
	buf_words += words;
	return buf + buf_words - words;
}

/* Copy /proc/self/maps into the file as one MAPS record. */
void write_maps_locked(void)
{
	char chunk[4096];
	uint64_t hdr[2];
	off_t at, end;
	ssize_t n;
	int mfd;

	flush_locked();
	if (!enabled || !file_ready())
		return;
	mfd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (mfd < 0)
		return;
	at = lseek(fd, 0, SEEK_CUR);
	hdr[0] = hdr[1] = 0;
	write_all(hdr, sizeof(hdr));	/* rewritten when the length is known */
	end = 0;
	while ((n = read(mfd, chunk, sizeof(chunk))) > 0) {
		write_all(chunk, (size_t)n);
		end += n;
	}
	close(mfd);
	if (end % 8) {
		static const char zeros[8];

		write_all(zeros, 8 - (size_t)(end % 8));
	}
	hdr[0] = ALLOC_RAW_MAPS | ((uint64_t)(2 + (end + 7) / 8) << 32);
	hdr[1] = (uint64_t)end;
	if (!file_ready() || pwrite(fd, hdr, sizeof(hdr), at) != (ssize_t)sizeof(hdr))
		lost("cannot complete the maps record\n");
}

int open_file_locked(void)
{
	char comm[16] = "";
	uint64_t hdr[ALLOC_RAW_HEADER_WORDS];
	unsigned seq;
	pid_t pid = (pid_t)syscall(SYS_getpid);
	struct stat st;
	int f = -1;

	fd = -1;
	owner = pid;
	enabled = 0;
	buf_words = 0;
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	/* exec keeps the pid: each image takes the next free sequence number */
	for (seq = 0; seq < 1000; seq++) {
		int n = snprintf(path, sizeof(path), "%s/alloc.%d.%u.raw", dir, (int)pid, seq);

		if (n < 0 || (size_t)n >= sizeof(path))
			return 0;
		f = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (f >= 0 || errno != EEXIST)
			break;
	}
	if (f < 0)
		return 0;
	f = move_high(f);
	if (fstat(f, &st)) {
		close(f);
		return 0;
	}
	fd = f;
	file_dev = st.st_dev;
	file_ino = st.st_ino;
	memset(hdr, 0, sizeof(hdr));
	hdr[0] = ALLOC_RAW_MAGIC;
	hdr[1] = ALLOC_RAW_VERSION;
	hdr[2] = interval;
	hdr[3] = (uint64_t)pid;
	hdr[4] = (uint64_t)getppid();
	hdr[5] = seq;
	memcpy(&hdr[6], comm, sizeof(comm));
	enabled = 1;
	write_all(hdr, sizeof(hdr));
	return 1;
}

void close_file_locked(void)
{
	uint64_t *r;

	if (fd < 0)
		return;
	if (enabled) {
		write_maps_locked();
		r = reserve_locked(1);
		r[0] = ALLOC_RAW_END | ((uint64_t)1 << 32);
		flush_locked();
	}
	if (is_ours(fd))
		close(fd);
	fd = -1;
	enabled = 0;
}

void forget_file(void)
{
	buf_words = 0;		/* the parent's records: the parent writes them */
	if (is_ours(fd))
		close(fd);	/* this process's descriptor only; the parent's stays open */
	fd = -1;
	enabled = 0;
}

void copy_mark_init(void)
{
	void *p = raw_map(4096);

	if (!p)
		return;
	if (madvise(p, 4096, MADV_WIPEONFORK)) {	/* Linux < 4.14 */
		raw_unmap(p, 4096);
		return;
	}
	copy_mark = p;
	*copy_mark = 1;
}
