/*
 * hosts.c - parse the hosts file of trail flame --hosts (GNU parallel's
 * --sshloginfile syntax; see hosts.h).  Only the syntax is checked here:
 * whether a host answers is found out by the ssh transport (remote.c).
 */
#include "fleet/hosts.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HOSTS_MAX_SLOTS 1024
#define HOSTS_MAX_LINE 4096

/* A host name or user@host: no shell or ssh option characters. */
static int valid_dest(const char *s)
{
	const char *at = strchr(s, '@');
	const char *host = at ? at + 1 : s;

	if (!*s || *s == '-' || !*host || (at && (at == s || strchr(host, '@'))))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@:[]%") ==
	       strlen(s);
}

static void split_words(const char *s, struct string_list *out)
{
	while (*s) {
		size_t n;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (n) {
			char *w = xstrndup(s, n);

			string_list_append_nodup(out, w);
		}
		s += n;
	}
}

/* One non-blank, non-comment line; 0 or -1 (error printed). */
static int parse_line(const char *line, const char *name, unsigned lineno, struct flame_host *h)
{
	const char *slash = strchr(line, '/'), *space = strpbrk(line, " \t"), *login = line;
	struct string_list words = STRING_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	uint64_t n = 1;
	size_t i;

	memset(h, 0, sizeof(*h));
	h->line = lineno;
	/* "N/login": a slash before any blank (an ssh path has one after) */
	if (slash && (!space || slash < space) && slash > line &&
	    strspn(line, "0123456789") == (size_t)(slash - line)) {
		char *num = xstrndup(line, (size_t)(slash - line));
		int bad = parse_u64(num, &n) || n < 1 || n > HOSTS_MAX_SLOTS;

		free(num);
		if (bad)
			return trail_error("%s:%u: the number of probes at once before '/' must be "
					   "1 to %d", name, lineno, HOSTS_MAX_SLOTS);
		login = slash + 1;
	}
	h->slots = (unsigned)n;
	split_words(login, &words);
	if (!words.nr)
		return trail_error("%s:%u: no host after '/'", name, lineno);
	if (words.nr == 1 && !strcmp(words.items[0], ":")) {
		h->name = xstrdup("local");
		string_list_clear(&words);
		return 0;
	}
	if (words.nr == 1) {
		string_list_append(&h->ssh, "ssh");
	} else {
		const char *cmd = strrchr(words.items[0], '/');

		cmd = cmd ? cmd + 1 : words.items[0];
		if (strcmp(cmd, "ssh")) {
			trail_error("%s:%u: '%s': expected [N/]host, [N/]user@host, [N/]ssh OPTIONS "
				    "host or ':'", name, lineno, words.items[0]);
			goto fail;
		}
		for (i = 0; i + 1 < words.nr; i++)
			string_list_append(&h->ssh, words.items[i]);
	}
	if (!valid_dest(words.items[words.nr - 1])) {
		trail_error("%s:%u: '%s' is not a host name or user@host", name, lineno,
			    words.items[words.nr - 1]);
		goto fail;
	}
	h->dest = xstrdup(words.items[words.nr - 1]);
	/* named by where it goes: the login and its port, not the key files */
	strbuf_addstr(&sb, h->dest);
	for (i = 1; i + 1 < h->ssh.nr; i++)
		if (!strcmp(h->ssh.items[i], "-p"))
			strbuf_addf(&sb, " -p %s", h->ssh.items[i + 1]);
	h->name = strbuf_detach(&sb, NULL);
	string_list_clear(&words);
	return 0;
fail:
	string_list_clear(&words);
	string_list_clear(&h->ssh);
	return -1;
}

int flame_hosts_parse(const char *text, size_t len, const char *name, struct flame_hosts *out)
{
	size_t pos = 0;
	unsigned lineno = 0;

	while (pos < len) {
		const char *start = text + pos, *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		struct flame_host h;
		char *line;
		int rc;

		pos += n + (nl != NULL);
		lineno++;
		if (n > HOSTS_MAX_LINE)
			return trail_error("%s:%u: line longer than %d bytes", name, lineno,
					   HOSTS_MAX_LINE);
		if (memchr(start, '\0', n))
			return trail_error("%s:%u: NUL byte in the line", name, lineno);
		line = xstrndup(start, n);
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
			line[--n] = '\0';
		{
			const char *p = line + strspn(line, " \t");

			rc = !*p || *p == '#' ? 1 : parse_line(p, name, lineno, &h);
		}
		free(line);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		ALLOC_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr++] = h;
		out->slots += h.slots;
	}
	return 0;
}

int flame_hosts_read(const char *path, struct flame_hosts *out)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (strbuf_read_file(&sb, path)) {	/* it says why */
		strbuf_release(&sb);
		return -1;
	}
	rc = flame_hosts_parse(sb.buf, sb.len, path, out);
	strbuf_release(&sb);
	if (!rc && !out->nr)
		return trail_error("%s: no hosts in the file", path);
	return rc;
}

void flame_hosts_add_local(struct flame_hosts *h, unsigned slots)
{
	struct flame_host *l;

	ALLOC_GROW(h->items, h->nr + 1, h->alloc);
	l = &h->items[h->nr++];
	memset(l, 0, sizeof(*l));
	l->name = xstrdup("local");
	l->slots = slots;
	h->slots += slots;
}

void flame_hosts_release(struct flame_hosts *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++) {
		free(h->items[i].name);
		free(h->items[i].dest);
		string_list_clear(&h->items[i].ssh);
	}
	free(h->items);
	memset(h, 0, sizeof(*h));
}
