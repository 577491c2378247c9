/*
 * preload_unwind.c - the interposer's stack walks: frame pointers where the
 * program was built with them, libgcc's unwinder (through a cache keyed by
 * where the program called in) elsewhere, and the frames above where a
 * thread starts, found once per start address.  Runs with the thread
 * marked busy (preload_sample.c); the caches are under lock.
 */
#include <string.h>
#include <unwind.h>

#include "alloc/preload.h"

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
int unwind(uint64_t *out, int max)
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

