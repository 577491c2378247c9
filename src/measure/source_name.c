/*
 * source_name.c - maps a function name as profilers print it (Go's
 * package.function, C++'s demangled signature, Java's class.method, a
 * compiler's clone) to the identifier written in the source (see
 * source_name.h).
 */
#include "measure/source_name.h"
#include "core/alloc.h"
#include "diff/hotspots.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The length of s[0..len) without one balanced trailing group open..close. */
static size_t strip_trailing_group(const char *s, size_t len, char open, char close)
{
	size_t i = len;
	int depth = 0;

	if (!len || s[len - 1] != close)
		return len;
	while (i > 0) {
		i--;
		if (s[i] == close)
			depth++;
		else if (s[i] == open && --depth == 0)
			return i;
	}
	return len;	/* unbalanced: leave it */
}

/* "f(int) const", "f() &&", "f() noexcept": the length before the parameters. */
static size_t strip_parameters(const char *s, size_t len)
{
	size_t end = len;

	/* qualifiers after the closing parenthesis */
	while (end > 0 && (isalpha((unsigned char)s[end - 1]) || s[end - 1] == ' ' ||
			   s[end - 1] == '&'))
		end--;
	if (end == 0 || s[end - 1] != ')')
		return len;
	end = strip_trailing_group(s, end, '(', ')');
	while (end > 0 && s[end - 1] == ' ')
		end--;
	return end;
}

/* Go closures "main.hash.func1", "main.hash.func1.2" -> "main.hash": where they are written. */
static size_t strip_go_closures(const char *s, size_t len)
{
	for (;;) {
		size_t i = len, j;

		while (i > 0 && isdigit((unsigned char)s[i - 1]))
			i--;
		if (i == len)
			return len;
		if (i >= 5 && !memcmp(s + i - 5, ".func", 5)) {
			len = i - 5;
			continue;
		}
		if (i == 0 || s[i - 1] != '.')
			return len;
		/* ".2" of "func1.2": a closure in a closure */
		for (j = i - 1; j > 0 && isdigit((unsigned char)s[j - 1]); j--)
			;
		if (j == i - 1 || j < 5 || memcmp(s + j - 5, ".func", 5))
			return len;
		len = j - 5;
	}
}

/* Rust's legacy mangling leaves "::h0123456789abcdef" after the name. */
static size_t strip_rust_hash(const char *s, size_t len)
{
	size_t i;

	if (len < 19 || memcmp(s + len - 19, "::h", 3))
		return len;
	for (i = len - 16; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return len;
	return len - 19;
}

/*
 * Qualifiers of standard libraries and runtimes: their functions are not
 * the repository's, even when a repository has a function of the same
 * last name (a Lock method beside Go's sync.(*Mutex).Lock).
 */
static int standard_library(const char *s, size_t len)
{
	static const char *const prefixes[] = {
		"std::", "__gnu_cxx::", "__cxxabiv1::", "core::", "alloc::",	/* C++, Rust */
		"runtime.", "runtime/", "sync.", "sync/", "syscall.", "internal/", "reflect.",
		"fmt.", "os.", "net.", "net/", "strings.", "strconv.", "sort.", "bytes.", "io.",
		"bufio.", "encoding/", "math.", "math/", "time.", "context.", "errors.",	/* Go */
		"java.", "javax.", "jdk.", "sun.", "java/", "jdk/", "sun/",	/* Java */
	};
	size_t k;

	for (k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		size_t n = strlen(prefixes[k]);

		if (len > n && !memcmp(s, prefixes[k], n))
			return 1;
	}
	return 0;
}

char *flame_source_name(const char *frame)
{
	const char *s;
	size_t len = hotspot_frame_name(frame, strlen(frame), HOTSPOT_STRIP_ANNOTATIONS |
					HOTSPOT_STRIP_MODULE | HOTSPOT_STRIP_CLONES, &s), n, i;

	for (;;) {
		n = strip_parameters(s, len);
		n = strip_trailing_group(s, n, '<', '>');	/* C++ templates, Rust generics */
		n = strip_trailing_group(s, n, '[', ']');	/* Go generics */
		n = strip_go_closures(s, n);
		n = strip_rust_hash(s, n);
		if (n == len)
			break;
		len = n;
	}
	if (standard_library(s, len))
		return xstrdup(frame);
	/* the last component after "::", '.', '/' or a space (a return type) */
	for (i = len; i > 0 && is_ident_char(s[i - 1]); i--)
		;
	if (i == len || isdigit((unsigned char)s[i]) ||
	    (i > 0 && !strchr(":./ ;$", s[i - 1])))
		return xstrdup(frame);
	return xstrndup(s + i, len - i);
}

int flame_same_source_name(const char *a, const char *b)
{
	char *x, *y;
	int same;

	if (!a || !b)
		return 0;
	x = flame_source_name(a);
	y = flame_source_name(b);
	same = !strcmp(x, y);
	free(x);
	free(y);
	return same;
}
