/*
 * preload_state.c - the bottom of libtrail-alloc.so: what every other
 * preload_*.c reads - the settings, the lock and the output file's flags,
 * a thread's own state (its id, stack bounds, byte countdown and the
 * random stream that draws it) - and memory straight from the kernel.  It
 * calls nothing of the interposer's; every other file calls down to it
 * (scripts/check-circles sees the interposer's objects too).
 */
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "alloc/preload.h"

/* the settings (read by preload.c's constructor) */
uint64_t interval = 65536;
int use_fp = 1;
int initialised;
uintptr_t self_lo, self_hi;
uintptr_t exe_lo, exe_hi;

/* the output file's (preload_out.c) */
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int enabled;
char dir[3072];
pid_t owner;
volatile uint64_t *copy_mark;

/* a thread's */
TLS int64_t t_left;		/* bytes until the next sample */
TLS int t_busy;
TLS pid_t t_tid;
TLS uintptr_t t_stack_lo, t_stack_hi;
TLS int t_init;
static TLS uint64_t t_rng;

static uint64_t rng_next(void)
{
	/* xorshift64*, seeded per thread */
	t_rng ^= t_rng >> 12;
	t_rng ^= t_rng << 25;
	t_rng ^= t_rng >> 27;
	return t_rng * 0x2545f4914f6cdd1dull;
}

int64_t draw_interval(void)
{
	double u;

	if (interval <= 1)
		return 0;
	/* exponential with mean 'interval': the gaps of a Poisson process over bytes */
	u = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	return (int64_t)(-log(u) * (double)interval) + 1;
}

void thread_init(void)
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

void *raw_map(size_t bytes)
{
	void *p = (void *)syscall(SYS_mmap, NULL, bytes, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void raw_unmap(void *p, size_t bytes)
{
	if (p)
		syscall(SYS_munmap, p, bytes);
}
