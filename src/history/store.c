/*
 * store.c - git notes as trail history's database.  Reading 1,000 notes
 * costs three git processes whatever their number (notes list, cat-file
 * --batch fed from a file, rev-list); writing one is git notes add with
 * the note's text in a temporary file.  A commit identity for the notes
 * commit is supplied when git has none (CI runners often have none).
 */
#include "history/store.h"

#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "history/plausible.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int git_capture(const char *top, struct strbuf *out, const char *const *argv, int in_fd)
{
	struct child c = CHILD_INIT;
	int code;

	c.argv = argv;
	c.dir = top;
	c.in = in_fd;
	code = child_capture(&c, out);
	return code;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct history_entry *)a)->commit,
		      ((const struct history_entry *)b)->commit);
}

static struct history_entry *entry_for(struct history_store *s, const char *commit)
{
	struct history_entry key, *e;

	memcpy(key.commit, commit, sizeof(key.commit));
	e = s->nr ? bsearch(&key, s->entries, s->nr, sizeof(*e), cmp_entry) : NULL;
	if (e)
		return e;
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 64;
		s->entries = xreallocarray(s->entries, s->alloc, sizeof(*s->entries));
	}
	e = &s->entries[s->nr++];
	memset(e, 0, sizeof(*e));
	memcpy(e->commit, commit, sizeof(e->commit));
	qsort(s->entries, s->nr, sizeof(*e), cmp_entry);
	return bsearch(&key, s->entries, s->nr, sizeof(*e), cmp_entry);
}

static int same_series(const struct history_result *a, const struct history_result *b)
{
	return !strcmp(a->env.key, b->env.key) && !strcmp(a->metric, b->metric);
}

/* Add r (taken over) to e, replacing an older result of the same series. */
static void entry_add(struct history_entry *e, struct history_result *r)
{
	size_t i;

	for (i = 0; i < e->nresults; i++)
		if (same_series(&e->results[i], r)) {
			if (e->results[i].time > r->time) {
				history_result_release(r);
				return;
			}
			history_result_release(&e->results[i]);
			e->results[i] = *r;
			return;
		}
	e->results = xreallocarray(e->results, e->nresults + 1, sizeof(*e->results));
	e->results[e->nresults++] = *r;
}

/* Remember that a line of commit's note was skipped, and the first reason. */
static void skip(struct history_store *s, const char *commit, const char *why)
{
	struct history_skip *k = s->nskipped ? &s->skipped[s->nskipped - 1] : NULL;

	if (k && !strcmp(k->commit, commit)) {
		k->lines++;
		return;
	}
	s->skipped = xreallocarray(s->skipped, s->nskipped + 1, sizeof(*s->skipped));
	k = &s->skipped[s->nskipped++];
	memcpy(k->commit, commit, sizeof(k->commit));
	k->why = xstrdup(why);
	k->lines = 1;
}

/*
 * The text of one note (lines of JSON) for commit: a line that is not a
 * result, or whose numbers cannot be a measurement (history/plausible.h),
 * is skipped and remembered, the others kept - a note is what anyone who
 * can push to the notes ref wrote.
 */
static void parse_note(struct history_store *s, struct history_entry *e, const char *text,
		       size_t len)
{
	const char *p = text, *end = text + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct history_result r;
		char name[80], why[300];

		lineno++;
		if (n && strspn(p, " \t\r") < n) {
			snprintf(name, sizeof(name), "line %u", lineno);
			error_capture(why, sizeof(why));
			if (history_result_parse(p, n, name, &r)) {
				error_capture(NULL, 0);
				skip(s, e->commit, why);
			} else {
				error_capture(NULL, 0);
				if (history_result_implausible(&r, why, sizeof(why))) {
					char *full = xstrfmt("line %u: %s", lineno, why);

					skip(s, e->commit, full);
					free(full);
					history_result_release(&r);
				} else {
					entry_add(e, &r);
				}
			}
		}
		p += n + 1;
	}
}

/* "<note blob> <commit>" lines of git notes list into the two lists. */
static int list_notes(const char *top, struct string_list *blobs, struct string_list *commits)
{
	const char *argv[] = { "git", "notes", "--ref=" HISTORY_NOTES_REF, "list", NULL };
	struct strbuf out = STRBUF_INIT;
	const char *p;
	int code = git_capture(top, &out, argv, CHILD_DEVNULL);

	if (code)
		goto out;
	for (p = out.buf; p && *p;) {
		const char *nl = strchr(p, '\n');

		if (strlen(p) < 82 || p[40] != ' ') {
			code = trail_error("git notes list: unexpected line '%.90s'", p);
			goto out;
		}
		string_list_append_nodup(blobs, xstrndup(p, 40));
		string_list_append_nodup(commits, xstrndup(p + 41, 40));
		p = nl ? nl + 1 : NULL;
	}
out:
	strbuf_release(&out);
	return code ? -1 : 0;
}

/* git cat-file MODE (--batch-check or --batch) of blobs into out, stdin from a temporary file. */
static int cat_file(const char *top, const char *mode, const struct string_list *blobs,
		    struct strbuf *out)
{
	const char *argv[] = { "git", "cat-file", mode, NULL };
	struct strbuf in = STRBUF_INIT;
	char path[] = "/tmp/trail-history-XXXXXX";
	size_t i;
	int fd = mkstemp(path), ret = -1;

	if (fd < 0)
		return error_errno("cannot create a temporary file");
	for (i = 0; i < blobs->nr; i++) {
		strbuf_addstr(&in, blobs->items[i]);
		strbuf_addch(&in, '\n');
	}
	if (write(fd, in.buf, in.len) != (ssize_t)in.len || lseek(fd, 0, SEEK_SET))
		error_errno("cannot write '%s'", path);
	else if (git_capture(top, out, argv, fd))
		trail_error("git cat-file %s failed in '%s'", mode, top);
	else
		ret = 0;
	close(fd);
	unlink(path);
	strbuf_release(&in);
	return ret;
}

/*
 * The notes of commits (blobs) within the budget into s; a larger one is
 * skipped unread (its size from --batch-check), so one huge note costs
 * nobody memory or time.
 */
static int read_blobs(struct history_store *s, const struct string_list *blobs,
		      const struct string_list *commits, uint64_t max_note)
{
	struct string_list keep = STRING_LIST_INIT, keep_commits = STRING_LIST_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *p, *end;
	size_t i;
	int ret = -1;

	if (cat_file(s->top, "--batch-check", blobs, &out))
		goto out;
	for (p = out.buf, i = 0; i < blobs->nr; i++) {
		unsigned long long size;
		char type[16];

		if (sscanf(p, "%*40s %15s %llu", type, &size) != 2 || strcmp(type, "blob")) {
			skip(s, commits->items[i], "git cat-file gave no blob");
		} else if (size > max_note) {
			char why[160];

			snprintf(why, sizeof(why), "%llu bytes, over the budget of %llu bytes a note "
				 "(--max-note-size)", size, (unsigned long long)max_note);
			skip(s, commits->items[i], why);
		} else {
			string_list_append(&keep, blobs->items[i]);
			string_list_append(&keep_commits, commits->items[i]);
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : out.buf + out.len;
	}
	strbuf_reset(&out);
	if (keep.nr && cat_file(s->top, "--batch", &keep, &out))
		goto out;
	p = out.buf;
	end = out.buf + out.len;
	for (i = 0; i < keep.nr; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		unsigned long long size;

		if (!nl || sscanf(p, "%*40s %*15s %llu", &size) != 1 ||
		    size > (unsigned long long)(end - nl - 1)) {
			trail_error("note of %.12s: git cat-file gave no blob", keep_commits.items[i]);
			goto out;
		}
		parse_note(s, entry_for(s, keep_commits.items[i]), nl + 1, (size_t)size);
		p = nl + 1 + size + 1;
		if (p > end)
			p = end;
	}
	ret = 0;
out:
	string_list_clear(&keep);
	string_list_clear(&keep_commits);
	strbuf_release(&out);
	return ret;
}

int history_store_load(struct history_store *s, const char *top, uint64_t max_note)
{
	struct string_list blobs = STRING_LIST_INIT, commits = STRING_LIST_INIT;
	int ret;

	memset(s, 0, sizeof(*s));
	s->top = xstrdup(top);
	ret = list_notes(top, &blobs, &commits);
	if (!ret && blobs.nr) {
		/* one allocation and sort, not one per note */
		s->alloc = blobs.nr;
		s->entries = xcalloc(s->alloc, sizeof(*s->entries));
		for (s->nr = 0; s->nr < commits.nr; s->nr++)
			memcpy(s->entries[s->nr].commit, commits.items[s->nr], 41);
		qsort(s->entries, s->nr, sizeof(*s->entries), cmp_entry);
		ret = read_blobs(s, &blobs, &commits, max_note);
	}
	string_list_clear(&blobs);
	string_list_clear(&commits);
	return ret;
}

void history_store_release(struct history_store *s)
{
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		for (j = 0; j < s->entries[i].nresults; j++)
			history_result_release(&s->entries[i].results[j]);
		free(s->entries[i].results);
	}
	for (i = 0; i < s->nskipped; i++)
		free(s->skipped[i].why);
	free(s->skipped);
	free(s->entries);
	free(s->top);
	memset(s, 0, sizeof(*s));
}

const struct history_entry *history_store_find(const struct history_store *s, const char *commit)
{
	struct history_entry key;

	if (!s->nr || strlen(commit) != 40)
		return NULL;
	memcpy(key.commit, commit, sizeof(key.commit));
	return bsearch(&key, s->entries, s->nr, sizeof(key), cmp_entry);
}

const struct history_result *history_store_get(const struct history_store *s, const char *commit,
					       const char *key, const char *metric)
{
	const struct history_entry *e = history_store_find(s, commit);
	size_t i;

	for (i = 0; e && i < e->nresults; i++)
		if (!strcmp(e->results[i].env.key, key) && !strcmp(e->results[i].metric, metric))
			return &e->results[i];
	return NULL;
}

/* Whether git has a committer identity here; else the notes commit gets trail's. */
static int have_identity(const char *top)
{
	const char *argv[] = { "git", "var", "GIT_COMMITTER_IDENT", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int code;

	c.argv = argv;
	c.dir = top;
	c.err = CHILD_DEVNULL;
	code = child_capture(&c, &out);
	strbuf_release(&out);
	return code == 0;
}

int history_note_write(const char *top, const char *ref, const char *commit, const struct strbuf *text)
{
	static const char *const ident[] = {
		"GIT_AUTHOR_NAME=trail history", "GIT_AUTHOR_EMAIL=trail@localhost",
		"GIT_COMMITTER_NAME=trail history", "GIT_COMMITTER_EMAIL=trail@localhost", NULL
	};
	char *ref_arg = xstrfmt("--ref=%s", ref);
	const char *argv[] = { "git", "notes", ref_arg, "add", "-f", "-F", NULL, commit, NULL };
	struct child c = CHILD_INIT;
	char path[] = "/tmp/trail-note-XXXXXX";
	int fd, code;

	fd = mkstemp(path);
	if (fd < 0) {
		free(ref_arg);
		return error_errno("cannot create a temporary file");
	}
	close(fd);
	if (strbuf_write_file(text, path)) {
		unlink(path);
		free(ref_arg);
		return -1;
	}
	argv[6] = path;
	c.argv = argv;
	c.dir = top;
	c.out = CHILD_DEVNULL;
	c.err = CHILD_DEVNULL;	/* "Overwriting existing notes": expected; a failure is reported */
	if (!have_identity(top))
		c.env = ident;
	code = child_run(&c);
	unlink(path);
	free(ref_arg);
	if (code)
		return trail_error("git notes add failed for %.12s (%s)", commit,
				   child_describe_status(code));
	return 0;
}

int history_note_read(const char *top, const char *ref, const char *commit, struct strbuf *out)
{
	char *ref_arg = xstrfmt("--ref=%s", ref);
	const char *argv[] = { "git", "notes", ref_arg, "show", commit, NULL };
	struct child c = CHILD_INIT;
	int code;

	c.argv = argv;
	c.dir = top;
	c.err = CHILD_DEVNULL;	/* "no note found": not an error here */
	code = child_capture(&c, out);
	free(ref_arg);
	return code ? 1 : 0;
}

int history_store_put(struct history_store *s, const char *commit, const struct history_result *r)
{
	struct history_entry *e = entry_for(s, commit);
	struct history_result copy;
	struct strbuf text = STRBUF_INIT;
	size_t i;
	int ret;
	char why[200];

	if (history_result_implausible(r, why, sizeof(why)))
		return trail_error("not storing the result of %.12s: %s", commit, why);
	history_result_copy(&copy, r);
	copy.time = copy.time > 0 ? copy.time : 0;
	for (i = 0; i < e->nresults; i++)
		if (same_series(&e->results[i], &copy)) {
			history_result_release(&e->results[i]);
			e->results[i] = copy;
			break;
		}
	if (i == e->nresults)
		entry_add(e, &copy);
	for (i = 0; i < e->nresults; i++) {
		history_result_write(&e->results[i], &text);
		strbuf_addch(&text, '\n');
	}
	ret = history_note_write(s->top, HISTORY_NOTES_REF, commit, &text);
	strbuf_release(&text);
	return ret;
}

int history_first_parents(const char *top, const struct git_range *range, struct string_list *ids,
			  struct string_list *dates, struct string_list *subjects)
{
	char *not_from = range->from[0] ? xstrfmt("^%s", range->from) : NULL;
	const char *argv[] = { "git", "log", "--first-parent", "--reverse", "--date=short",
			       "--format=%H%x1f%ad%x1f%s", "--end-of-options", range->to, not_from,
			       NULL, NULL };
	struct strbuf buf = STRBUF_INIT;
	char *p, *nl;
	int code;

	argv[not_from ? 9 : 8] = "--";
	code = git_capture(top, &buf, argv, CHILD_DEVNULL);
	free(not_from);
	if (code) {
		strbuf_release(&buf);
		return trail_error("cannot list the commits of %.12s", range->to);
	}
	for (p = buf.buf; p && *p; p = nl ? nl + 1 : NULL) {
		char *f1, *f2;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		f1 = strchr(p, '\x1f');
		f2 = f1 ? strchr(f1 + 1, '\x1f') : NULL;
		if (!f2 || f1 - p != 40) {
			strbuf_release(&buf);
			return trail_error("git log: unexpected line '%.60s'", p);
		}
		*f1 = *f2 = '\0';
		string_list_append(ids, p);
		if (dates)
			string_list_append(dates, f1 + 1);
		if (subjects)
			string_list_append(subjects, f2 + 1);
	}
	strbuf_release(&buf);
	return 0;
}
