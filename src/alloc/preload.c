/*
 * preload.c - libtrail-alloc.so, the allocation interposer 'trail record
 * -e alloc' puts in LD_PRELOAD.  It wraps the malloc family, C++ operator
 * new/delete and anonymous mmap/munmap, samples allocations by bytes (an
 * exponentially distributed interval, as tcmalloc and Go do), and writes each
 * sampled allocation's raw call stack, and the frees of sampled pointers, to
 * $TRAIL_ALLOC_DIR/alloc.PID.SEQ.raw (format: raw.h).  Nothing is symbolised
 * here: trail does that after the run from the /proc/self/maps copies.
 *
 * Not linked with libtrail: this code runs inside the traced program, so it
 * uses no allocator of its own (buffers come from static storage and raw
 * mmap), keeps its state in initial-exec TLS, and marks every thread that is
 * inside it (t_busy) so that allocations made on its behalf - by dlsym, the
 * unwinder or pthread_getattr_np - pass straight through.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include "alloc/raw.h"

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))
#define unlikely(x) __builtin_expect(!!(x), 0)

/* ---- the real functions, and a bump arena while dlsym runs ---- */

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static void (*real__exit)(int) __attribute__((noreturn));
static void *(*real_new)(size_t);
static void *(*real_new_nothrow)(size_t, const void *);

static char boot_arena[64 * 1024] __attribute__((aligned(64)));	/* dlsym's own callocs */
static size_t boot_used;	/* bytes */
static int resolving;

static int in_boot(const void *p)
{
	return (const char *)p >= boot_arena && (const char *)p < boot_arena + sizeof(boot_arena);
}

static void *boot_alloc(size_t n)
{
	size_t at = (boot_used + 15) & ~(size_t)15;

	if (n > sizeof(boot_arena) - at)
		return NULL;
	boot_used = at + n;
	return boot_arena + at;
}

#define RESOLVE(var, name) (var = (__typeof__(var))dlsym(RTLD_NEXT, name))

static void resolve_all(void)
{
	if (resolving)
		return;
	resolving = 1;
	RESOLVE(real_malloc, "malloc");
	RESOLVE(real_calloc, "calloc");
	RESOLVE(real_realloc, "realloc");
	RESOLVE(real_free, "free");
	RESOLVE(real_posix_memalign, "posix_memalign");
	RESOLVE(real_aligned_alloc, "aligned_alloc");
	RESOLVE(real_memalign, "memalign");
	RESOLVE(real_valloc, "valloc");
	RESOLVE(real_mmap, "mmap");
	RESOLVE(real_munmap, "munmap");
	RESOLVE(real_execve, "execve");
	RESOLVE(real_execvpe, "execvpe");
	RESOLVE(real__exit, "_exit");
	RESOLVE(real_new, "_Znwm");
	RESOLVE(real_new_nothrow, "_ZnwmRKSt9nothrow_t");
	resolving = 0;
}

/* ---- state ---- */

static uint64_t interval = 65536;	/* bytes between samples, on average (trail sets it) */
static int use_fp = 1;			/* frame pointers first, else libgcc's unwinder */
static int enabled;			/* a file is open */
static int initialised;			/* the constructor ran */
static int fd = -1;
static pid_t owner;			/* the process fd belongs to (not a vfork child) */
static char dir[3072];
static uintptr_t self_lo, self_hi;	/* this library's code: frames to drop */
static uintptr_t exe_lo, exe_hi;	/* the main executable's code: frame pointers trusted */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static TLS int t_busy;			/* inside the interposer */
static TLS int t_init;
static TLS int64_t t_left;		/* bytes until the next sample */
static TLS uint64_t t_rng;
static TLS uintptr_t t_stack_lo, t_stack_hi;
static TLS pid_t t_tid;

/* The write buffer (under lock). */
static uint64_t buf[32 * 1024];
static size_t buf_words;

/* ---- the set of sampled live pointers (under lock), memory from mmap ---- */

#define FILTER_BITS 16
static uint32_t filter[1u << FILTER_BITS];	/* members per hash slot: a lock-free "maybe" */
static uintptr_t *set;
static size_t set_mask, set_nr;

static inline uint64_t hash_ptr(uintptr_t p)
{
	uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

static inline uint32_t filter_slot(uintptr_t p)
{
	return (uint32_t)(hash_ptr(p) >> (64 - FILTER_BITS));
}

static void *raw_map(size_t bytes)
{
	void *p = (void *)syscall(SYS_mmap, NULL, bytes, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int set_insert_slot(uintptr_t *tab, size_t mask, uintptr_t p)
{
	size_t i = hash_ptr(p) & mask;

	while (tab[i]) {
		if (tab[i] == p)
			return 0;
		i = (i + 1) & mask;
	}
	tab[i] = p;
	return 1;
}

static int set_add(uintptr_t p)
{
	if ((set_nr + 1) * 2 > set_mask + 1 || !set) {
		size_t n = set ? (set_mask + 1) * 2 : 4096, i;
		uintptr_t *t = raw_map(n * sizeof(*t));

		if (!t)
			return 0;
		for (i = 0; set && i <= set_mask; i++)
			if (set[i])
				set_insert_slot(t, n - 1, set[i]);
		if (set)
			syscall(SYS_munmap, set, (set_mask + 1) * sizeof(*set));
		set = t;
		set_mask = n - 1;
	}
	if (!set_insert_slot(set, set_mask, p))
		return 1;
	set_nr++;
	__atomic_add_fetch(&filter[filter_slot(p)], 1, __ATOMIC_RELAXED);
	return 1;
}

/* Remove p; 1 when it was there.  Linear probing's backward-shift deletion. */
static int set_remove(uintptr_t p)
{
	size_t i, j, k;

	if (!set)
		return 0;
	i = hash_ptr(p) & set_mask;
	while (set[i] != p) {
		if (!set[i])
			return 0;
		i = (i + 1) & set_mask;
	}
	set[i] = 0;
	j = i;
	for (;;) {
		j = (j + 1) & set_mask;
		if (!set[j])
			break;
		k = hash_ptr(set[j]) & set_mask;
		/* move set[j] into the hole unless its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		set[i] = set[j];
		set[j] = 0;
		i = j;
	}
	set_nr--;
	__atomic_sub_fetch(&filter[filter_slot(p)], 1, __ATOMIC_RELAXED);
	return 1;
}

/*
 * The distinct stacks written to this file (under lock): each is written
 * once as a STACK record, and allocations name it by id, so a run that
 * allocates millions of times from a few hundred places writes a few
 * words per allocation.  stk_words holds, per stack, n | id << 32 then its
 * n frames; stk_tab maps a hash of the frames to where they are (+1).
 */
static uint64_t *stk_words;
static size_t stk_words_nr, stk_words_cap;	/* words */
static struct stk_slot {
	uint64_t hash;
	size_t at;		/* index in stk_words + 1; 0 = empty */
} *stk_tab;
static size_t stk_mask;
static uint32_t stk_nr;

static void stacks_reset_locked(void)
{
	if (stk_words)
		syscall(SYS_munmap, stk_words, stk_words_cap * 8);
	if (stk_tab)
		syscall(SYS_munmap, stk_tab, (stk_mask + 1) * sizeof(*stk_tab));
	stk_words = NULL;
	stk_tab = NULL;
	stk_words_nr = stk_words_cap = stk_mask = 0;
	stk_nr = 0;
}

static uint64_t hash_frames(const uint64_t *f, int n)
{
	uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15ull;
	int i;

	for (i = 0; i < n; i++)
		h = (h ^ f[i]) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

/* Grow the table or the word store; 0 when memory ran out. */
static int stacks_room_locked(int n)
{
	if (!stk_tab || (size_t)(stk_nr + 1) * 2 > stk_mask + 1) {
		size_t size = stk_tab ? (stk_mask + 1) * 2 : 1024, i;
		struct stk_slot *t = raw_map(size * sizeof(*t));

		if (!t)
			return 0;
		for (i = 0; stk_tab && i <= stk_mask; i++) {
			size_t j;

			if (!stk_tab[i].at)
				continue;
			for (j = stk_tab[i].hash & (size - 1); t[j].at; j = (j + 1) & (size - 1))
				;
			t[j] = stk_tab[i];
		}
		if (stk_tab)
			syscall(SYS_munmap, stk_tab, (stk_mask + 1) * sizeof(*stk_tab));
		stk_tab = t;
		stk_mask = size - 1;
	}
	if (stk_words_nr + 1 + (size_t)n > stk_words_cap) {
		size_t cap = stk_words_cap ? stk_words_cap * 2 : 64 * 1024;
		uint64_t *w = raw_map(cap * 8);

		if (!w)
			return 0;
		if (stk_words) {
			memcpy(w, stk_words, stk_words_nr * 8);
			syscall(SYS_munmap, stk_words, stk_words_cap * 8);
		}
		stk_words = w;
		stk_words_cap = cap;
	}
	return 1;
}

static uint64_t *reserve_locked(size_t words);

/* The id of frames[0..n), writing a STACK record for a new one; -1 when out of memory. */
static int64_t stack_id_locked(const uint64_t *frames, int n)
{
	uint64_t h = hash_frames(frames, n), *r;
	size_t i;

	if (!stacks_room_locked(n))
		return -1;
	for (i = h & stk_mask; stk_tab[i].at; i = (i + 1) & stk_mask) {
		const uint64_t *w = stk_words + stk_tab[i].at - 1;

		if (stk_tab[i].hash == h && (w[0] & 0xffffffffu) == (uint64_t)n &&
		    !memcmp(w + 1, frames, (size_t)n * 8))
			return (int64_t)(w[0] >> 32);
	}
	stk_tab[i].hash = h;
	stk_tab[i].at = stk_words_nr + 1;
	stk_words[stk_words_nr] = (uint64_t)n | (uint64_t)stk_nr << 32;
	memcpy(stk_words + stk_words_nr + 1, frames, (size_t)n * 8);
	stk_words_nr += 1 + (size_t)n;
	r = reserve_locked(3 + (size_t)n);
	r[0] = ALLOC_RAW_STACK | ((uint64_t)(3 + n) << 32);
	r[1] = stk_nr;
	r[2] = (uint64_t)n;
	memcpy(r + 3, frames, (size_t)n * 8);
	return stk_nr++;
}

/* ---- the file ---- */

static void write_all(const void *p, size_t n)
{
	const char *c = p;

	while (n && fd >= 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			enabled = 0;	/* disk full: stop recording, keep the program running */
			return;
		}
		c += w;
		n -= (size_t)w;
	}
}

static void flush_locked(void)
{
	if (buf_words)
		write_all(buf, buf_words * 8);
	buf_words = 0;
}

static uint64_t *reserve_locked(size_t words)
{
	if (buf_words + words > sizeof(buf) / 8)
		flush_locked();
	buf_words += words;
	return buf + buf_words - words;
}

/* Copy /proc/self/maps into the file as one MAPS record (under lock). */
static void write_maps_locked(void)
{
	char chunk[4096];
	uint64_t hdr[2];
	off_t at, end;
	ssize_t n;
	int mfd;

	flush_locked();
	mfd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (mfd < 0 || fd < 0)
		goto out;
	at = lseek(fd, 0, SEEK_CUR);
	hdr[0] = hdr[1] = 0;
	write_all(hdr, sizeof(hdr));	/* rewritten when the length is known */
	end = 0;
	while ((n = read(mfd, chunk, sizeof(chunk))) > 0) {
		write_all(chunk, (size_t)n);
		end += n;
	}
	if (end % 8) {
		static const char zeros[8];

		write_all(zeros, 8 - (size_t)(end % 8));
	}
	hdr[0] = ALLOC_RAW_MAPS | ((uint64_t)(2 + (end + 7) / 8) << 32);
	hdr[1] = (uint64_t)end;
	if (pwrite(fd, hdr, sizeof(hdr), at) != (ssize_t)sizeof(hdr))
		enabled = 0;
out:
	if (mfd >= 0)
		close(mfd);
}

static void open_file_locked(void)
{
	char path[sizeof(dir) + 64], comm[16] = "";
	uint64_t hdr[ALLOC_RAW_HEADER_WORDS];
	unsigned seq;
	pid_t pid = getpid();

	fd = -1;
	owner = pid;
	enabled = 0;
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	/* exec keeps the pid: each image takes the next free sequence number */
	for (seq = 0; seq < 1000; seq++) {
		int n = snprintf(path, sizeof(path), "%s/alloc.%d.%u.raw", dir, (int)pid, seq);

		if (n < 0 || (size_t)n >= sizeof(path))
			return;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return;
	stacks_reset_locked();	/* ids are per file */
	memset(hdr, 0, sizeof(hdr));
	hdr[0] = ALLOC_RAW_MAGIC;
	hdr[1] = ALLOC_RAW_VERSION;
	hdr[2] = interval;
	hdr[3] = (uint64_t)pid;
	hdr[4] = (uint64_t)getppid();
	hdr[5] = seq;
	memcpy(&hdr[6], comm, sizeof(comm));
	buf_words = 0;
	enabled = 1;
	write_all(hdr, sizeof(hdr));
}

/* ---- sampling ---- */

static uint64_t rng_next(void)
{
	/* xorshift64*, seeded per thread */
	t_rng ^= t_rng >> 12;
	t_rng ^= t_rng << 25;
	t_rng ^= t_rng >> 27;
	return t_rng * 0x2545f4914f6cdd1dull;
}

static int64_t draw_interval(void)
{
	double u;

	if (interval <= 1)
		return 0;
	/* exponential with mean 'interval': the gaps of a Poisson process over bytes */
	u = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	return (int64_t)(-log(u) * (double)interval) + 1;
}

static void thread_init(void)
{
	struct timespec ts;
	pthread_attr_t a;
	void *lo;
	size_t size;

	t_init = 1;
	t_tid = (pid_t)syscall(SYS_gettid);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t_rng = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)t_tid * 0x9e3779b97f4a7c15ull ^
		(uint64_t)ts.tv_sec;
	if (!t_rng)
		t_rng = 88172645463325252ull;
	if (!pthread_getattr_np(pthread_self(), &a)) {
		if (!pthread_attr_getstack(&a, &lo, &size)) {
			t_stack_lo = (uintptr_t)lo;
			t_stack_hi = (uintptr_t)lo + size;
		}
		pthread_attr_destroy(&a);
	}
	t_left = draw_interval();
}

/*
 * Walk the frame-pointer chain inside this thread's stack.  Returns the
 * number of return addresses; *complete is 1 when the chain ended where
 * threads start (a zero frame pointer or return address), 0 when a frame
 * pointer left the stack - code built without frame pointers.
 */
static __attribute__((noinline)) int unwind_fp(uint64_t *out, int max, int *complete)
{
	uintptr_t *fp = __builtin_frame_address(0);
	int n = 0;

	*complete = 0;
	while (n < max) {
		uintptr_t *next;

		if (((uintptr_t)fp & 7) || (uintptr_t)fp < t_stack_lo ||
		    (uintptr_t)fp + 16 > t_stack_hi)
			return n;
		if (!fp[1])
			break;
		out[n++] = fp[1];
		next = (uintptr_t *)fp[0];
		if (!next)
			break;
		if (next <= fp)
			return n;
		fp = next;
	}
	*complete = 1;
	return n;
}

struct uw {
	uint64_t *out;
	uint64_t *cfa;		/* each frame's canonical frame address, or NULL */
	int n, max;
};

static _Unwind_Reason_Code uw_step(struct _Unwind_Context *ctx, void *arg)
{
	struct uw *u = arg;
	uintptr_t ip = _Unwind_GetIP(ctx);

	if (!ip)
		return _URC_END_OF_STACK;
	if (u->n >= u->max)
		return _URC_END_OF_STACK;
	if (u->cfa)
		u->cfa[u->n] = _Unwind_GetCFA(ctx);
	u->out[u->n++] = ip;
	return _URC_NO_REASON;
}

static int in_self(uint64_t a)
{
	return a >= self_lo && a < self_hi;
}

static int in_exe(uint64_t a)
{
	return a >= exe_lo && a < exe_hi;
}

/*
 * The frames above the return address where a frame-pointer chain ends,
 * when that is where a thread starts (main's return into libc's
 * __libc_start_call_main -> __libc_start_main -> _start; a thread routine's
 * into start_thread -> clone3, maybe through libstdc++): found once per
 * return address with the unwind tables, so stacks from both unwinders
 * share their roots.  Anywhere else (a qsort callback, say) the frames above
 * depend on the caller: such an address is marked and always unwound whole.
 */
#define START_SLOTS 16
#define START_FRAMES 8
static struct {
	uint64_t ret;		/* the return address the chain ended at */
	int n;			/* frames above it; -1: not a thread's start */
	uint64_t above[START_FRAMES];
	int ready;		/* published with release order */
} starts[START_SLOTS];

/* Frames appended to out, or -1 when the whole stack must be unwound. */
static int start_frames(uint64_t *out, int n, int max)
{
	uint64_t all[ALLOC_RAW_MAX_FRAMES + 8];
	struct uw u = { all, NULL, 0, ALLOC_RAW_MAX_FRAMES + 8 };
	uint64_t ret = out[n - 1];
	int i, k, at = -1, extra;

	for (i = 0; i < START_SLOTS; i++) {
		if (!__atomic_load_n(&starts[i].ready, __ATOMIC_ACQUIRE))
			break;
		if (starts[i].ret == ret) {
			if (starts[i].n < 0)
				return -1;
			extra = starts[i].n < max - n ? starts[i].n : max - n;
			memcpy(out + n, starts[i].above, (size_t)extra * 8);
			return extra;
		}
	}
	if (i == START_SLOTS)
		return -1;
	_Unwind_Backtrace(uw_step, &u);
	for (k = 0; k < u.n; k++)
		if (all[k] == ret)
			at = k;
	if (at < 0)
		return -1;
	extra = u.n - at - 1;
	/* a start has no program frames above it but _start itself */
	for (k = at + 1; k < u.n - 1; k++)
		if (in_exe(all[k]))
			extra = -1;
	if (extra > START_FRAMES)
		extra = -1;
	pthread_mutex_lock(&lock);
	for (i = 0; i < START_SLOTS; i++) {
		if (starts[i].ready) {
			if (starts[i].ret == ret)
				break;
			continue;
		}
		starts[i].ret = ret;
		starts[i].n = extra;
		if (extra > 0)
			memcpy(starts[i].above, all + at + 1, (size_t)extra * 8);
		__atomic_store_n(&starts[i].ready, 1, __ATOMIC_RELEASE);
		break;
	}
	pthread_mutex_unlock(&lock);
	if (extra < 0)
		return -1;
	if (extra > max - n)
		extra = max - n;
	memcpy(out + n, all + at + 1, (size_t)extra * 8);
	return extra;
}

/*
 * Stacks the unwind tables gave, cached by where the program called in:
 * the return address into the program and the stack slot that holds it.
 * A hit is checked slot by slot - every cached return address must still
 * be at its slot on this thread's stack - so a different path through the
 * same call site misses.  The slots are where each frame's return address
 * lies (its callee's CFA - 8 on x86-64); frames whose address is not there
 * (signal frames) make the stack uncacheable.  libgcc's unwinder costs
 * about a microsecond per stack; at --alloc-interval 1 in C++ code, where
 * libstdc++ has no frame pointers, it was most of the interposer's time.
 * Under lock; the table is mapped on first use.
 */
#if defined(__x86_64__)
#define UCACHE_SLOTS 4096
#define UCACHE_DEPTH 48
struct ucache_entry {
	uint64_t ra0, at0;	/* the key: first program return address, its slot */
	int n;			/* frames; 0 = empty */
	uint64_t frame[UCACHE_DEPTH], slot[UCACHE_DEPTH];
};
static struct ucache_entry *ucache;

/* The first return address outside the interposer and its slot, by our own frame pointers. */
static __attribute__((noinline)) int caller_slot(uint64_t *ra0, uint64_t *at0)
{
	uintptr_t *fp = __builtin_frame_address(0);
	int i;

	for (i = 0; i < 16; i++) {
		if (((uintptr_t)fp & 7) || (uintptr_t)fp < t_stack_lo || (uintptr_t)fp + 16 > t_stack_hi)
			return 0;
		if (!in_self(fp[1])) {
			*ra0 = fp[1];
			*at0 = (uint64_t)(uintptr_t)&fp[1];
			return 1;
		}
		if ((uintptr_t *)fp[0] <= fp)
			return 0;
		fp = (uintptr_t *)fp[0];
	}
	return 0;
}

static struct ucache_entry *ucache_at(uint64_t ra0, uint64_t at0)
{
	return &ucache[(hash_ptr(ra0 ^ (at0 << 16)) >> 40) & (UCACHE_SLOTS - 1)];
}

/* Frames from the cache into out, or 0 on a miss. */
static int ucache_get(uint64_t ra0, uint64_t at0, uint64_t *out, int max)
{
	struct ucache_entry *e;
	int i, n = 0;

	pthread_mutex_lock(&lock);
	if (!ucache)
		goto out;
	e = ucache_at(ra0, at0);
	if (!e->n || e->ra0 != ra0 || e->at0 != at0 || e->n > max)
		goto out;
	for (i = 1; i < e->n; i++)
		if (e->slot[i] < at0 || e->slot[i] + 8 > t_stack_hi ||
		    *(const uint64_t *)(uintptr_t)e->slot[i] != e->frame[i])
			goto out;
	memcpy(out, e->frame, (size_t)e->n * 8);
	n = e->n;
out:
	pthread_mutex_unlock(&lock);
	return n;
}

/*
 * Remember all[skip..total).  cfa[k] is what _Unwind_GetCFA gave with
 * all[k]: the CFA of the frame all[k] returns from, so all[k] lies at
 * cfa[k] - 8.
 */
static void ucache_put(uint64_t ra0, uint64_t at0, const uint64_t *all, const uint64_t *cfa,
		       int skip, int total)
{
	struct ucache_entry *e;
	uint64_t slot[UCACHE_DEPTH];
	int i, n = total - skip;

	if (n < 1 || n > UCACHE_DEPTH || all[skip] != ra0 || cfa[skip] - 8 != at0)
		return;
	for (i = 0; i < n; i++) {
		slot[i] = cfa[skip + i] - 8;
		if (slot[i] < at0 || slot[i] + 8 > t_stack_hi ||
		    *(const uint64_t *)(uintptr_t)slot[i] != all[skip + i])
			return;
	}
	pthread_mutex_lock(&lock);
	if (!ucache)
		ucache = raw_map(UCACHE_SLOTS * sizeof(*ucache));
	if (ucache) {
		e = ucache_at(ra0, at0);
		e->ra0 = ra0;
		e->at0 = at0;
		e->n = n;
		memcpy(e->frame, all + skip, (size_t)n * 8);
		memcpy(e->slot, slot, (size_t)n * 8);
	}
	pthread_mutex_unlock(&lock);
}
#endif

/* libgcc's unwinder, through the cache; frames (self ones included) in out. */
static int unwind_tables(uint64_t *out, int max)
{
#if defined(__x86_64__)
	uint64_t cfa[ALLOC_RAW_MAX_FRAMES + 8], ra0, at0;
	struct uw u = { out, cfa, 0, max < ALLOC_RAW_MAX_FRAMES + 8 ? max : ALLOC_RAW_MAX_FRAMES + 8 };
	int n, skip = 0;

	if (!t_stack_hi || !caller_slot(&ra0, &at0)) {
		u.cfa = NULL;
		_Unwind_Backtrace(uw_step, &u);
		return u.n;
	}
	n = ucache_get(ra0, at0, out, max);
	if (n)
		return n;
	_Unwind_Backtrace(uw_step, &u);
	while (skip < u.n && in_self(out[skip]))
		skip++;
	if (u.n < u.max)	/* whole stacks only */
		ucache_put(ra0, at0, out, cfa, skip, u.n);
	return u.n;
#else
	struct uw u = { out, NULL, 0, max };

	_Unwind_Backtrace(uw_step, &u);
	return u.n;
#endif
}

/*
 * A stack, innermost return address first, without the interposer's frames.
 * Frame pointers are trusted only in the main executable (built with them,
 * as perf -g fp assumes): libc and libstdc++ are built without, and a walk
 * through them can follow a stale frame and name the wrong caller.  So the
 * chain is used when every frame but the outermost (the thread's start) is
 * in the executable; otherwise libgcc's unwinder reads the unwind tables.
 */
static int unwind(uint64_t *out, int max)
{
	int n = 0, complete = 0, skip = 0, i, ok = 0;

	if (use_fp && t_stack_hi) {
		n = unwind_fp(out, max, &complete);
		while (skip < n && in_self(out[skip]))
			skip++;
		ok = n - skip >= 2 && n < max;
		for (i = skip; ok && i < n - 1; i++)
			ok = in_exe(out[i]);
		/* the outermost frame: a start routine outside, or the chain's real end */
		if (ok && in_exe(out[n - 1]) && !complete)
			ok = 0;
		if (ok && !complete) {
			int extra = start_frames(out, n, max);

			if (extra < 0)
				ok = 0;
			else
				n += extra;
		}
	}
	if (!ok)
		n = unwind_tables(out, max);
	/* drop the interposer's own frames */
	skip = 0;
	while (skip < n && in_self(out[skip]))
		skip++;
	for (i = skip; i < n; i++)
		out[i - skip] = out[i];
	return n - skip;
}

static __attribute__((noinline)) void record_alloc(void *p, size_t size, int kind)
{
	uint64_t frames[ALLOC_RAW_MAX_FRAMES + 8], *r;
	int64_t id;
	int n;

	n = unwind(frames, ALLOC_RAW_MAX_FRAMES + 8);
	if (n > ALLOC_RAW_MAX_FRAMES)
		n = ALLOC_RAW_MAX_FRAMES;
	pthread_mutex_lock(&lock);
	/* at interval 1 every pointer is recorded: no set, every free is written */
	if (enabled && (interval <= 1 || set_add((uintptr_t)p)) &&
	    (id = stack_id_locked(frames, n)) >= 0) {
		r = reserve_locked(5);
		r[0] = ALLOC_RAW_ALLOC | ((uint64_t)kind << 8) | ((uint64_t)5 << 32);
		r[1] = (uint64_t)t_tid;
		r[2] = (uint64_t)(uintptr_t)p;
		r[3] = size;
		r[4] = (uint64_t)id;
	}
	pthread_mutex_unlock(&lock);
}

/*
 * The slow path, taken when the thread's byte countdown runs out (or was
 * never started): sample this allocation and draw the next interval.
 */
static __attribute__((noinline)) void maybe_sample(void *p, size_t size, int kind)
{
	if (t_busy || !initialised)
		return;	/* the interposer's own allocations; or before the constructor */
	if (!enabled) {
		t_left = INT64_MAX / 2;	/* not recording: keep to the fast path */
		return;
	}
	t_busy = 1;
	if (!t_init) {
		thread_init();
		t_left -= (int64_t)size;
	}
	if (t_left <= 0) {
		t_left = draw_interval();
		if (p)
			record_alloc(p, size, kind);
	}
	t_busy = 0;
}

/* The fast path of every allocation: one thread-local countdown. */
static inline void after_alloc(void *p, size_t size, int kind)
{
	t_left -= (int64_t)size;
	if (unlikely(t_left <= 0))
		maybe_sample(p, size, kind);
}

static __attribute__((noinline)) void note_free_slow(void *p)
{
	uint64_t *r;

	pthread_mutex_lock(&lock);
	if (enabled && (interval <= 1 || set_remove((uintptr_t)p))) {
		r = reserve_locked(2);
		r[0] = ALLOC_RAW_FREE | ((uint64_t)2 << 32);
		r[1] = (uint64_t)(uintptr_t)p;
	}
	pthread_mutex_unlock(&lock);
}

static inline void before_free(void *p)
{
	/*
	 * removed before the memory is released, so a reuse cannot race with
	 * it; at interval 1 every free is written (the reader drops those of
	 * blocks it never saw allocated)
	 */
	if (interval <= 1 || __atomic_load_n(&filter[filter_slot((uintptr_t)p)], __ATOMIC_RELAXED))
		note_free_slow(p);
}

/* ---- the malloc family ---- */

EXPORT void *malloc(size_t n)
{
	void *p;

	if (unlikely(!real_malloc)) {
		if (resolving)
			return boot_alloc(n);
		resolve_all();
	}
	p = real_malloc(n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void *calloc(size_t nm, size_t sz)
{
	size_t n;
	void *p;

	if (__builtin_mul_overflow(nm, sz, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	if (unlikely(!real_calloc)) {
		if (resolving)
			return boot_alloc(n);	/* static storage is zeroed */
		resolve_all();
	}
	p = real_calloc(nm, sz);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void free(void *p)
{
	if (!p || in_boot(p))
		return;
	if (unlikely(!real_free))
		resolve_all();
	before_free(p);
	real_free(p);
}

EXPORT void *realloc(void *old, size_t n)
{
	void *p;

	if (in_boot(old)) {
		p = malloc(n);
		if (p)
			memcpy(p, old, n < (size_t)(boot_arena + sizeof(boot_arena) - (char *)old)
					   ? n : (size_t)(boot_arena + sizeof(boot_arena) - (char *)old));
		return p;
	}
	if (unlikely(!real_realloc))
		resolve_all();
	/* as heaptrack: the old block is freed, the new one allocated */
	if (old)
		before_free(old);
	p = real_realloc(old, n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void *reallocarray(void *old, size_t nm, size_t sz)
{
	size_t n;

	if (__builtin_mul_overflow(nm, sz, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(old, n);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	int ret;

	if (unlikely(!real_posix_memalign))
		resolve_all();
	ret = real_posix_memalign(out, align, n);
	if (!ret)
		after_alloc(*out, n, ALLOC_KIND_MALLOC);
	return ret;
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
	void *p;

	if (unlikely(!real_aligned_alloc))
		resolve_all();
	p = real_aligned_alloc(align, n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void *memalign(size_t align, size_t n)
{
	void *p;

	if (unlikely(!real_memalign))
		resolve_all();
	p = real_memalign(align, n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void *valloc(size_t n)
{
	void *p;

	if (unlikely(!real_valloc))
		resolve_all();
	p = real_valloc(n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

/*
 * libc's own strdup is built without frame pointers, so its caller would
 * vanish from a frame-pointer stack: these copies keep the chain whole.
 */
EXPORT char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

EXPORT char *strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

/* ---- C++ operator new and delete (Itanium ABI names) ---- */

void *_Znwm(size_t n);
void *_Znam(size_t n);
void *_ZnwmRKSt9nothrow_t(size_t n, const void *t);
void *_ZnamRKSt9nothrow_t(size_t n, const void *t);
void *_ZnwmSt11align_val_t(size_t n, size_t a);
void *_ZnamSt11align_val_t(size_t n, size_t a);
void _ZdlPv(void *p);
void _ZdaPv(void *p);
void _ZdlPvm(void *p, size_t n);
void _ZdaPvm(void *p, size_t n);
void _ZdlPvRKSt9nothrow_t(void *p, const void *t);
void _ZdaPvRKSt9nothrow_t(void *p, const void *t);
void _ZdlPvSt11align_val_t(void *p, size_t a);
void _ZdaPvSt11align_val_t(void *p, size_t a);
void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a);
void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a);
void *mmap64(void *addr, size_t len, int prot, int flags, int mfd, off_t off);

static void *new_impl(size_t n)
{
	void *p;

	if (unlikely(!real_malloc))
		resolve_all();
	p = real_malloc(n ? n : 1);
	if (unlikely(!p)) {
		/* libstdc++ runs the new_handler and throws std::bad_alloc */
		int busy = t_busy;

		t_busy = 1;
		p = real_new ? real_new(n) : NULL;
		t_busy = busy;
	}
	after_alloc(p, n, ALLOC_KIND_NEW);
	return p;
}

static void *new_nothrow_impl(size_t n, const void *tag)
{
	void *p;

	if (unlikely(!real_malloc))
		resolve_all();
	p = real_malloc(n ? n : 1);
	if (unlikely(!p) && real_new_nothrow) {
		int busy = t_busy;

		t_busy = 1;
		p = real_new_nothrow(n, tag);
		t_busy = busy;
	}
	after_alloc(p, n, ALLOC_KIND_NEW);
	return p;
}

static void *new_aligned_impl(size_t n, size_t align)
{
	void *p = NULL;

	if (unlikely(!real_posix_memalign))
		resolve_all();
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (real_posix_memalign(&p, align, n ? n : 1))
		p = NULL;
	if (unlikely(!p))
		abort();	/* no bad_alloc from C: out of memory is fatal here */
	after_alloc(p, n, ALLOC_KIND_NEW);
	return p;
}

EXPORT void *_Znwm(size_t n) { return new_impl(n); }
EXPORT void *_Znam(size_t n) { return new_impl(n); }
EXPORT void *_ZnwmRKSt9nothrow_t(size_t n, const void *t) { return new_nothrow_impl(n, t); }
EXPORT void *_ZnamRKSt9nothrow_t(size_t n, const void *t) { return new_nothrow_impl(n, t); }
EXPORT void *_ZnwmSt11align_val_t(size_t n, size_t a) { return new_aligned_impl(n, a); }
EXPORT void *_ZnamSt11align_val_t(size_t n, size_t a) { return new_aligned_impl(n, a); }
EXPORT void _ZdlPv(void *p) { free(p); }
EXPORT void _ZdaPv(void *p) { free(p); }
EXPORT void _ZdlPvm(void *p, size_t n) { (void)n; free(p); }
EXPORT void _ZdaPvm(void *p, size_t n) { (void)n; free(p); }
EXPORT void _ZdlPvRKSt9nothrow_t(void *p, const void *t) { (void)t; free(p); }
EXPORT void _ZdaPvRKSt9nothrow_t(void *p, const void *t) { (void)t; free(p); }
EXPORT void _ZdlPvSt11align_val_t(void *p, size_t a) { (void)a; free(p); }
EXPORT void _ZdaPvSt11align_val_t(void *p, size_t a) { (void)a; free(p); }
EXPORT void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a) { (void)n; (void)a; free(p); }
EXPORT void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a) { (void)n; (void)a; free(p); }

/* ---- anonymous mmap ---- */

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int mfd, off_t off)
{
	void *p;

	if (unlikely(!real_mmap))
		resolve_all();
	p = real_mmap(addr, len, prot, flags, mfd, off);
	if (p != MAP_FAILED && (flags & MAP_ANONYMOUS) && !(flags & MAP_FIXED))
		after_alloc(p, len, ALLOC_KIND_MMAP);
	return p;
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int mfd, off_t off)
{
	return mmap(addr, len, prot, flags, mfd, off);
}

EXPORT int munmap(void *addr, size_t len)
{
	if (unlikely(!real_munmap))
		resolve_all();
	if (addr)
		before_free(addr);
	return real_munmap(addr, len);
}

/* ---- process lifetime: start, fork, exec, exit ---- */

static void finish(void)
{
	int busy = t_busy;

	if (getpid() != owner)
		return;	/* a vfork child: the file is its parent's */
	t_busy = 1;
	pthread_mutex_lock(&lock);
	if (fd >= 0) {
		write_maps_locked();
		flush_locked();
		close(fd);
		fd = -1;
	}
	enabled = 0;
	pthread_mutex_unlock(&lock);
	t_busy = busy;
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&lock);
	flush_locked();
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

static void atfork_child(void)
{
	/* the child records to its own file; the parent's sampled blocks are not its own */
	pthread_mutex_init(&lock, NULL);
	if (fd >= 0)
		close(fd);
	if (set) {
		syscall(SYS_munmap, set, (set_mask + 1) * sizeof(*set));
		set = NULL;
		set_nr = set_mask = 0;
	}
	memset(filter, 0, sizeof(filter));
	t_tid = (pid_t)syscall(SYS_gettid);
	t_left = draw_interval();
	if (dir[0])
		open_file_locked();
	if (enabled)
		write_maps_locked();
}

extern char **environ;

/* Still here after an exec: it failed; record on in a new file. */
static void reopen_after_failed_exec(void)
{
	int e = errno, busy = t_busy;

	if (getpid() != owner)
		return;
	t_busy = 1;
	pthread_mutex_lock(&lock);
	if (dir[0] && fd < 0)
		open_file_locked();
	pthread_mutex_unlock(&lock);
	t_busy = busy;
	errno = e;
}

/* exec: write what this image has; the environment must keep LD_PRELOAD. */
static char *const *with_preload(char *const envp[], char **out, size_t max)
{
	const char *mine = getenv("TRAIL_ALLOC_PRELOAD");
	static char entry[4096 + 16];
	size_t i, n = 0;

	if (!mine || !envp)
		return envp;
	for (i = 0; envp[i]; i++)
		if (!strncmp(envp[i], "LD_PRELOAD=", 11) && strstr(envp[i], mine))
			return envp;
	for (i = 0; envp[i] && n + 2 < max; i++)
		if (strncmp(envp[i], "LD_PRELOAD=", 11))
			out[n++] = envp[i];
	if (envp[i])
		return envp;	/* too many variables to copy: leave it */
	snprintf(entry, sizeof(entry), "LD_PRELOAD=%s", mine);
	out[n++] = entry;
	out[n] = NULL;
	return out;
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	static char *env[4096];
	int ret;

	if (unlikely(!real_execve))
		resolve_all();
	finish();
	ret = real_execve(path, argv, with_preload(envp, env, sizeof(env) / sizeof(env[0])));
	reopen_after_failed_exec();
	return ret;
}

EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	static char *env[4096];
	int ret;

	if (unlikely(!real_execvpe))
		resolve_all();
	finish();
	ret = real_execvpe(file, argv, with_preload(envp, env, sizeof(env) / sizeof(env[0])));
	reopen_after_failed_exec();
	return ret;
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

EXPORT void _exit(int status)
{
	if (unlikely(!real__exit))
		resolve_all();
	finish();
	real__exit(status);
}

/* The executable segment holding an address: this library's and libc's. */
struct text_range {
	uintptr_t at, lo, hi;
};

static int find_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct text_range *r = arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && r->at >= lo &&
		    r->at < lo + ph->p_memsz) {
			r->lo = lo;
			r->hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

/* The first object dl_iterate_phdr reports is the main program. */
static int find_exe(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			exe_lo = info->dlpi_addr + ph->p_vaddr;
			exe_hi = exe_lo + ph->p_memsz;
			break;
		}
	}
	return 1;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return dflt;
	errno = 0;
	v = strtoull(s, &end, 10);
	return errno || *end ? dflt : (uint64_t)v;
}

__attribute__((constructor)) static void preload_init(void)
{
	const char *d = getenv("TRAIL_ALLOC_DIR"), *uw = getenv("TRAIL_ALLOC_UNWIND");

	t_busy = 1;
	resolve_all();
	{
		struct text_range self = { (uintptr_t)&find_text, 0, 0 };

		dl_iterate_phdr(find_text, &self);
		dl_iterate_phdr(find_exe, NULL);
		self_lo = self.lo;
		self_hi = self.hi;
	}
	interval = env_u64("TRAIL_ALLOC_INTERVAL", interval);
	if (!interval)
		interval = 1;
	use_fp = !uw || strcmp(uw, "dwarf");
	initialised = 1;
	if (d && strlen(d) < sizeof(dir)) {
		strcpy(dir, d);
		pthread_mutex_lock(&lock);
		open_file_locked();
		/* maps now too, for a process killed before it can write them at exit */
		if (enabled)
			write_maps_locked();
		pthread_mutex_unlock(&lock);
		pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
		atexit(finish);
	}
	t_busy = 0;
}

__attribute__((destructor)) static void preload_fini(void)
{
	finish();
}
