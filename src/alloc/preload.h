/*
 * preload.h - what the files of libtrail-alloc.so (the LD_PRELOAD
 * interposer of 'trail record -e alloc', preload_*.c) share.  Everything
 * here runs inside the traced program: no allocator of its own (static
 * storage and raw mmap), state in initial-exec TLS, and every path that
 * takes the lock marks its thread busy first, so a signal handler that
 * allocates or frees on that thread never waits for a lock its own thread
 * holds (preload_sample.c).  Built with -fvisibility=hidden: only the
 * wrapped functions are exported.
 */
#ifndef TRAIL_ALLOC_PRELOAD_H
#define TRAIL_ALLOC_PRELOAD_H

#include <pthread.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "alloc/raw.h"

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))
#define unlikely(x) __builtin_expect(!!(x), 0)

/* ---- preload_real.c: the wrapped functions' real versions ---- */
struct real_fns {
	void *(*malloc)(size_t);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void (*free)(void *);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*munmap)(void *, size_t);
	int (*execve)(const char *, char *const[], char *const[]);
	int (*execvpe)(const char *, char *const[], char *const[]);
	int (*fexecve)(int, char *const[], char *const[]);
	int (*execveat)(int, const char *, char *const[], char *const[], int);
	int (*posix_spawn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			   const posix_spawnattr_t *, char *const[], char *const[]);
	int (*posix_spawnp)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			    const posix_spawnattr_t *, char *const[], char *const[]);
	void (*_exit)(int) __attribute__((noreturn));
	void *(*new_)(size_t);				/* libstdc++'s: throws */
	void *(*new_nothrow)(size_t, const void *);
	void *(*new_aligned)(size_t, size_t);		/* throws */
	void *(*new_aligned_nothrow)(size_t, size_t, const void *);
};
extern struct real_fns real;
extern int resolving;			/* dlsym is running: allocate from the boot arena */
void resolve_all(void);
void *boot_alloc(size_t n);
int in_boot(const void *p);
/* The bytes of a boot-arena block that can be copied from p. */
size_t boot_room(const void *p);

/*
 * ---- preload_state.c: what every file reads; it calls none of them ----
 * The files call downwards only (scripts/check-circles): state, then the
 * output file, the tables, the unwinder, the image's record, sampling,
 * and on top the wrappers (preload_malloc.c, preload_exec.c) and the
 * constructor (preload.c).
 */
/* the settings, read by preload.c's constructor */
extern uint64_t interval;		/* bytes between samples, on average; 1 = every allocation */
extern int use_fp;			/* frame pointers first, else libgcc's unwinder */
extern int initialised;			/* the constructor ran */
extern uintptr_t self_lo, self_hi;	/* this library's code: frames to drop */
extern uintptr_t exe_lo, exe_hi;	/* the main executable's code: frame pointers trusted */
/* the output file's */
extern pthread_mutex_t lock;
extern int enabled;			/* a file is open and writable */
extern char dir[3072];			/* $TRAIL_ALLOC_DIR, absolute or as given */
extern pid_t owner;			/* the process the file belongs to */
/*
 * A process that is a copy of the one the state belongs to (fork without
 * fork handlers: a raw clone()) sees the wipe-on-fork page zeroed; such a
 * process switches to a file of its own before it records anything
 * (copy_adopt, preload_image.c).
 */
extern volatile uint64_t *copy_mark;	/* 1 in the owner; 0 in a copy */
/* a thread's */
extern TLS int64_t t_left;		/* bytes until this thread's next sample */
extern TLS int t_busy;			/* inside the interposer (or its lock) */
extern TLS pid_t t_tid;
extern TLS uintptr_t t_stack_lo, t_stack_hi;
extern TLS int t_init;			/* thread_init() ran on this thread */
/* This thread's id, stack bounds, random stream and first countdown. */
void thread_init(void);
/* The next countdown: exponential with mean interval (0 at interval 1). */
int64_t draw_interval(void);
/* Memory from the kernel, no allocator (NULL when out of memory). */
void *raw_map(size_t bytes);
void raw_unmap(void *p, size_t bytes);

/* ---- preload_out.c: the output file and its buffer, under lock ---- */
/* A new file with its header; 1 when one was taken (even if its writes failed since). */
int open_file_locked(void);
void write_maps_locked(void);
void flush_locked(void);
uint64_t *reserve_locked(size_t words);
/* Flush, write the maps and the END record, close. */
void close_file_locked(void);
/* In a fork child: drop the parent's file (without touching a descriptor not ours). */
void forget_file(void);
void copy_mark_init(void);

/* ---- preload_table.c: sampled live pointers and written stacks, under lock ---- */
#define FILTER_BITS 16
extern uint32_t filter[1u << FILTER_BITS];	/* members per hash slot: a lock-free "maybe" */
static inline uint64_t hash_ptr(uintptr_t p)
{
	uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}
static inline uint32_t filter_slot(uintptr_t p)
{
	return (uint32_t)(hash_ptr(p) >> (64 - FILTER_BITS));
}
int set_add(uintptr_t p);
int set_remove(uintptr_t p);
void set_clear(void);
void stacks_reset_locked(void);
/* The id of frames[0..n), writing a STACK record for a new one; -1 when out of memory. */
int64_t stack_id_locked(const uint64_t *frames, int n);

/* ---- preload_fold.c: interval 1, folded per stack while the program runs, under lock ---- */
/* A new file: no stacks, no live blocks. */
void fold_reset_locked(void);
void fold_alloc_locked(uintptr_t p, uint64_t size, uint64_t stack);
/* A pointer not allocated in this image is ignored. */
void fold_free_locked(uintptr_t p);
/* A SITE record for every stack so far (raw.h). */
void fold_write_locked(void);

/* ---- preload_unwind.c ---- */
/* A stack, innermost return address first, without the interposer's frames. */
int unwind(uint64_t *out, int max);

/* ---- preload_image.c: one image's record, under lock ---- */
/* A new file, the per-file tables emptied. */
void image_open_locked(void);
/* The folded sites (interval 1), the maps, the END record: the image's record is whole. */
void image_close_locked(void);
/* In a copy made without fork handlers: start over with a file of its own. */
void copy_adopt(void);
static inline void copy_check(void)
{
	if (unlikely(copy_mark && !*copy_mark))
		copy_adopt();
}

/* ---- preload_sample.c: sampling and the busy flag ---- */
void sample_slow(void *p, size_t size, int kind);
void free_slow(void *p, int release);
/* Mark the thread busy; the previous value, for busy_leave. */
int busy_enter(void);
/* Unmark it; at the outermost level, write the frees deferred meanwhile. */
void busy_leave(int was);

/* The fast path of every allocation: one thread-local countdown. */
static inline void after_alloc(void *p, size_t size, int kind)
{
	t_left -= (int64_t)size;
	if (unlikely(t_left <= 0))
		sample_slow(p, size, kind);
}

/*
 * Before a block is released (release: and then release it with free).
 * The record is written before the memory can be reused, so a reuse
 * cannot race with it; at interval 1 every free is looked up in the
 * table of live blocks (preload_fold.c).
 */
static inline int free_wanted(void *p)
{
	return interval <= 1 ||
	       __atomic_load_n(&filter[filter_slot((uintptr_t)p)], __ATOMIC_RELAXED);
}

/* ---- preload_exec.c: the exec family and the end of an image ---- */
/* Write what this image has (not in a vfork child); before exec and exit. */
void finish(void);
/* Still here after an exec: it failed; record on in a new file. */
void reopen_after_failed_exec(void);
/* "NAME=value" entries the exec'd programs get when their environment lacks them. */
void exec_env_init(void);

#endif
