/*
 * preload_sample.c - which allocations are sampled (by bytes: an
 * exponentially distributed interval, as tcmalloc and Go do), recording a
 * sampled one and the free of a sampled pointer, and the busy flag.
 *
 * Re-entrancy: a thread is marked busy (t_busy) whenever it is inside the
 * interposer or holds its lock, so code that interrupts it on the same
 * thread - a signal handler that allocates, or the allocations the
 * unwinder and dlsym make on the interposer's behalf - never waits for the
 * lock: its allocations pass through unsampled, and its frees are queued
 * (the memory released only after the record is written, so it cannot be
 * reused first) and written when the outermost busy section ends.
 */
#include <pthread.h>

#include "alloc/preload.h"

/* Frees that arrived while busy: pointer | 1 when the block is to be released too. */
#define DEFER_SLOTS 32
static TLS uintptr_t t_deferred[DEFER_SLOTS];
static TLS unsigned t_ndeferred;

int busy_enter(void)
{
	int was = t_busy;

	t_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return was;
}

static void drain(void)
{
	for (;;) {
		unsigned k = __atomic_load_n(&t_ndeferred, __ATOMIC_RELAXED);
		uintptr_t e;

		if (!k)
			return;
		e = t_deferred[k - 1];
		/* a handler may have queued one meanwhile: then take that first */
		if (!__atomic_compare_exchange_n(&t_ndeferred, &k, k - 1, 0, __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		free_slow((void *)(e & ~(uintptr_t)1), (int)(e & 1));
	}
}

void busy_leave(int was)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t_busy = was;
	if (!was && unlikely(t_ndeferred))
		drain();
}

static __attribute__((noinline)) void record_alloc(void *p, size_t size, int kind)
{
	uint64_t frames[ALLOC_RAW_MAX_FRAMES + 8], *r;
	int64_t id;
	int n;

	n = unwind(frames, ALLOC_RAW_MAX_FRAMES + 8);
	if (n > ALLOC_RAW_MAX_FRAMES)
		n = ALLOC_RAW_MAX_FRAMES;
	copy_check();
	pthread_mutex_lock(&lock);
	if (interval <= 1) {
		/* every allocation: folded here, no record of its own (preload_fold.c) */
		if (enabled && (id = stack_id_locked(frames, n)) >= 0)
			fold_alloc_locked((uintptr_t)p, size, (uint64_t)id);
	} else if (enabled && set_add((uintptr_t)p) && (id = stack_id_locked(frames, n)) >= 0) {
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
void sample_slow(void *p, size_t size, int kind)
{
	int was;

	if (t_busy || !initialised)
		return;	/* the interposer's own allocations, a handler's; or before the constructor */
	if (!enabled) {
		t_left = INT64_MAX / 2;	/* not recording: keep to the fast path */
		return;
	}
	was = busy_enter();
	copy_check();	/* before the unwinder's caches take the lock */
	if (!t_init) {
		thread_init();
		t_left -= (int64_t)size;
	}
	if (t_left <= 0) {
		t_left = draw_interval();
		if (p)
			record_alloc(p, size, kind);
	}
	busy_leave(was);
}

void free_slow(void *p, int release)
{
	uint64_t *r;
	int was;

	if (t_busy) {
		unsigned k = t_ndeferred;

		if (k < DEFER_SLOTS) {
			t_deferred[k] = (uintptr_t)p | (release ? 1 : 0);
			t_ndeferred = k + 1;
		} else if (release) {
			real.free(p);	/* no room: released unrecorded (it looks leaked) */
		}
		return;
	}
	was = busy_enter();
	copy_check();
	pthread_mutex_lock(&lock);
	if (enabled && interval <= 1) {
		fold_free_locked((uintptr_t)p);
	} else if (enabled && set_remove((uintptr_t)p)) {
		r = reserve_locked(2);
		r[0] = ALLOC_RAW_FREE | ((uint64_t)2 << 32);
		r[1] = (uint64_t)(uintptr_t)p;
	}
	pthread_mutex_unlock(&lock);
	busy_leave(was);
	if (release)
		real.free(p);
}
