/*
 * alloc.h - allocation helpers that check for overflow and out-of-memory.
 *
 * Running out of memory is the one failure library code does not return:
 * the x* helpers print an error and exit(1), as git's do.  Sizes are always
 * computed with st_add()/st_mult(), which refuse to wrap around.
 */
#ifndef TRAIL_CORE_ALLOC_H
#define TRAIL_CORE_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Allocate an array of nmemb elements of size bytes, overflow-checked. */
void *xmallocarray(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
/*
 * A big buffer (freed with free()): from 2 MiB on it is 2 MiB-aligned and
 * advised for transparent huge pages, so filling it takes one page fault
 * per 2 MiB instead of one per 4 KiB (on virtual machines a fault costs
 * microseconds: thousands of them were a third of some runs).
 */
void *xmalloc_huge(size_t size);
/* printf into a fresh allocation. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

size_t st_add(size_t a, size_t b);
size_t st_mult(size_t a, size_t b);

/*
 * Make sure x (an array with alloc elements) can hold nr elements,
 * growing it geometrically.  Usage: ALLOC_GROW(items, nr + 1, alloc);
 */
#define ALLOC_GROW(x, nr, alloc) \
	do { \
		if ((size_t)(nr) > (alloc)) { \
			size_t alloc_grow_new_ = (alloc) < 16 ? 16 : st_add((alloc), (alloc) / 2); \
			if (alloc_grow_new_ < (size_t)(nr)) \
				alloc_grow_new_ = (nr); \
			(x) = xreallocarray((x), alloc_grow_new_, sizeof(*(x))); \
			(alloc) = alloc_grow_new_; \
		} \
	} while (0)

#define FREE_AND_NULL(p) do { free(p); (p) = NULL; } while (0)

#endif
