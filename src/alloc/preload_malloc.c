/*
 * preload_malloc.c - the wrapped allocation functions: the malloc family,
 * C++ operator new and delete (Itanium ABI names, aligned and nothrow
 * variants included) and anonymous mmap/munmap.  Each calls the real
 * function and then the one-countdown fast path (preload.h).  A failing
 * operator new is handed to libstdc++'s own, which runs the new_handler
 * and throws std::bad_alloc (nothrow variants: returns NULL); nothing of
 * the interposer is left marked when the exception leaves.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "alloc/preload.h"

static inline void before_release(void *p)
{
	if (free_wanted(p))
		free_slow(p, 0);
}

EXPORT void *malloc(size_t n)
{
	void *p;

	if (unlikely(!real.malloc)) {
		if (resolving)
			return boot_alloc(n);
		resolve_all();
	}
	p = real.malloc(n);
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
	if (unlikely(!real.calloc)) {
		if (resolving)
			return boot_alloc(n);	/* static storage is zeroed */
		resolve_all();
	}
	p = real.calloc(nm, sz);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void free(void *p)
{
	if (!p || in_boot(p))
		return;
	if (unlikely(!real.free))
		resolve_all();
	if (free_wanted(p))
		free_slow(p, 1);
	else
		real.free(p);
}

EXPORT void *realloc(void *old, size_t n)
{
	void *p;

	if (in_boot(old)) {
		size_t room = boot_room(old);

		p = malloc(n);
		if (p)
			memcpy(p, old, n < room ? n : room);
		return p;
	}
	if (unlikely(!real.realloc))
		resolve_all();
	/* as heaptrack: the old block is freed, the new one allocated */
	if (old)
		before_release(old);
	p = real.realloc(old, n);
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

	if (unlikely(!real.posix_memalign))
		resolve_all();
	ret = real.posix_memalign(out, align, n);
	if (!ret)
		after_alloc(*out, n, ALLOC_KIND_MALLOC);
	return ret;
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
	void *p;

	if (unlikely(!real.aligned_alloc))
		resolve_all();
	p = real.aligned_alloc(align, n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void *memalign(size_t align, size_t n)
{
	void *p;

	if (unlikely(!real.memalign))
		resolve_all();
	p = real.memalign(align, n);
	after_alloc(p, n, ALLOC_KIND_MALLOC);
	return p;
}

EXPORT void *valloc(size_t n)
{
	void *p;

	if (unlikely(!real.valloc))
		resolve_all();
	p = real.valloc(n);
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

/* ---- C++ operator new and delete ---- */

void *_Znwm(size_t n);
void *_Znam(size_t n);
void *_ZnwmRKSt9nothrow_t(size_t n, const void *t);
void *_ZnamRKSt9nothrow_t(size_t n, const void *t);
void *_ZnwmSt11align_val_t(size_t n, size_t a);
void *_ZnamSt11align_val_t(size_t n, size_t a);
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *t);
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *t);
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
void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *t);
void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *t);
void *mmap64(void *addr, size_t len, int prot, int flags, int mfd, off_t off);

/*
 * Out of memory: libstdc++'s operator new runs the new_handler and
 * retries (through malloc, which records what it gets) or throws.  The
 * exception passes through this frame: nothing may stay marked busy.
 */
static __attribute__((noinline)) void *new_failed(size_t n)
{
	if (!real.new_)
		__builtin_trap();	/* new without libstdc++: nothing can throw */
	return real.new_(n);
}

static void *new_impl(size_t n)
{
	void *p;

	if (unlikely(!real.malloc))
		resolve_all();
	p = real.malloc(n ? n : 1);
	if (unlikely(!p))
		return new_failed(n);
	after_alloc(p, n, ALLOC_KIND_NEW);
	return p;
}

static void *new_nothrow_impl(size_t n, const void *tag)
{
	void *p;

	if (unlikely(!real.malloc))
		resolve_all();
	p = real.malloc(n ? n : 1);
	if (unlikely(!p))	/* NULL, or what the new_handler made room for */
		return real.new_nothrow ? real.new_nothrow(n, tag) : NULL;
	after_alloc(p, n, ALLOC_KIND_NEW);
	return p;
}

static void *aligned_try(size_t n, size_t align)
{
	void *p = NULL;

	if (unlikely(!real.posix_memalign))
		resolve_all();
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (real.posix_memalign(&p, align, n ? n : 1))
		return NULL;
	after_alloc(p, n, ALLOC_KIND_NEW);
	return p;
}

static void *new_aligned_impl(size_t n, size_t align)
{
	void *p = aligned_try(n, align);

	if (unlikely(!p)) {
		if (!real.new_aligned)
			__builtin_trap();
		p = real.new_aligned(n, align);	/* the new_handler, or std::bad_alloc */
	}
	return p;
}

static void *new_aligned_nothrow_impl(size_t n, size_t align, const void *tag)
{
	void *p = aligned_try(n, align);

	if (unlikely(!p) && real.new_aligned_nothrow)
		p = real.new_aligned_nothrow(n, align, tag);	/* NULL, or after the new_handler */
	return p;
}

EXPORT void *_Znwm(size_t n) { return new_impl(n); }
EXPORT void *_Znam(size_t n) { return new_impl(n); }
EXPORT void *_ZnwmRKSt9nothrow_t(size_t n, const void *t) { return new_nothrow_impl(n, t); }
EXPORT void *_ZnamRKSt9nothrow_t(size_t n, const void *t) { return new_nothrow_impl(n, t); }
EXPORT void *_ZnwmSt11align_val_t(size_t n, size_t a) { return new_aligned_impl(n, a); }
EXPORT void *_ZnamSt11align_val_t(size_t n, size_t a) { return new_aligned_impl(n, a); }
EXPORT void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *t)
{
	return new_aligned_nothrow_impl(n, a, t);
}
EXPORT void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *t)
{
	return new_aligned_nothrow_impl(n, a, t);
}
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
EXPORT void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *t)
{
	(void)a;
	(void)t;
	free(p);
}
EXPORT void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *t)
{
	(void)a;
	(void)t;
	free(p);
}

/* ---- anonymous mmap ---- */

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int mfd, off_t off)
{
	void *p;

	if (unlikely(!real.mmap))
		resolve_all();
	p = real.mmap(addr, len, prot, flags, mfd, off);
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
	if (unlikely(!real.munmap))
		resolve_all();
	if (addr)
		before_release(addr);
	return real.munmap(addr, len);
}
