/*
 * alloc.c - checked allocation (see alloc.h for the contract).
 */
#include "core/alloc.h"
#include "core/program.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE (2u << 20)	/* bytes */

static void out_of_memory(size_t size)
{
	program_fatal("out of memory (failed to allocate %zu bytes)", size);
}

size_t st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		program_fatal("size overflow: %zu + %zu", a, b);
	return a + b;
}

size_t st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		program_fatal("size overflow: %zu * %zu", a, b);
	return a * b;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory(st_mult(nmemb, size));
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *xmallocarray(size_t nmemb, size_t size)
{
	return xmalloc(st_mult(nmemb, size));
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	return xrealloc(ptr, st_mult(nmemb, size));
}

void *xmalloc_huge(size_t size)
{
	void *p;

	if (size < HUGE_PAGE)
		return xmalloc(size);
	size = st_add(size, HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	p = aligned_alloc(HUGE_PAGE, size);
	if (!p)
		return xmalloc(size);
	madvise(p, size, MADV_HUGEPAGE);	/* a hint: failure is harmless */
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(st_add(n, 1));

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap, ap2;
	int len;
	char *p;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		program_fatal("cannot format string");
	p = xmalloc((size_t)len + 1);
	vsnprintf(p, (size_t)len + 1, fmt, ap2);
	va_end(ap2);
	return p;
}
