/*
 * shell_quote.c - quoting words for a POSIX shell (see shell_quote.h).
 * Safe characters follow POSIX's portable filename set plus a few that no
 * shell expands anywhere in a word ("@%+=:,").
 */
#include "core/shell_quote.h"

#include <stdlib.h>

#include <string.h>

static int is_safe(const char *w)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_@%+=:,./-";

	return *w && strspn(w, safe) == strlen(w);
}

void strbuf_add_shell_quoted(struct strbuf *sb, const char *word)
{
	const char *p;

	if (is_safe(word)) {
		strbuf_addstr(sb, word);
		return;
	}
	strbuf_addch(sb, '\'');
	for (p = word; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

void strbuf_add_shell_argv(struct strbuf *sb, const char *const *argv)
{
	const char *const *a;

	for (a = argv; *a; a++) {
		if (a != argv)
			strbuf_addch(sb, ' ');
		strbuf_add_shell_quoted(sb, *a);
	}
}

void strbuf_add_env_assignments(struct strbuf *sb, const char *const *names)
{
	const char *const *v;

	for (v = names; *v; v++) {
		const char *val = getenv(*v);

		if (!val)
			continue;
		strbuf_addf(sb, "%s=", *v);
		strbuf_add_shell_quoted(sb, val);
		strbuf_addch(sb, ' ');
	}
}
