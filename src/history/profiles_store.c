/*
 * profiles_store.c - full profiles in git notes (refs/notes/trail-profiles):
 *   {"v":1,"key":K,"metric":M,"bench":B,"runs":N,"folded":"# trail-folded ...\nmain;f 12\n..."}
 * one line per environment key and metric, the folded text sorted so that
 * a commit's profile deltas well against its neighbour's in a pack.  A
 * note is read with a size limit and parsed strictly: it is input from
 * whoever pushed the ref.
 */
#include "history/profiles_store.h"

#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_writer.h"
#include "core/strbuf.h"
#include "history/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROFILE_NOTE_VERSION 1

/* p as folded text: its header, then "stack count" lines in byte order. */
static void folded_text(const struct folded_profile *p, struct strbuf *out)
{
	uint32_t *order = folded_profile_sorted(p);
	char hdr[256], num[64];
	size_t i;

	folded_header_format(hdr, sizeof(hdr), &p->weight);
	strbuf_addstr(out, hdr);
	for (i = 0; i < p->stacks.nr; i++) {
		uint32_t id = order[i];

		if (p->counts[0][id] <= 0)
			continue;
		folded_format_count(num, sizeof(num), p->counts[0][id]);
		strbuf_add(out, intern_str(&p->stacks, id), intern_len(&p->stacks, id));
		strbuf_addf(out, " %s\n", num);
	}
	free(order);
}

/* Whether line is a profile of key and metric (a line that is not JSON: no). */
static int line_is(const char *line, size_t len, const char *key, const char *metric)
{
	struct json_value v;
	const struct json_value *k, *m;
	int is;

	if (json_parse(line, len, "profile note", &v))
		return 0;
	k = json_get(&v, "key");
	m = json_get(&v, "metric");
	is = k && m && k->type == JSON_STRING && m->type == JSON_STRING && !strcmp(k->string, key) &&
	     !strcmp(m->string, metric);
	json_release(&v);
	return is;
}

int history_profile_put(const char *top, const char *commit, const struct history_result *r,
			const struct folded_profile *p)
{
	struct strbuf old = STRBUF_INIT, text = STRBUF_INIT, folded = STRBUF_INIT;
	struct json_writer w;
	const char *line, *end;
	int ret;

	if (!history_note_read(top, HISTORY_PROFILES_REF, commit, &old))
		for (line = old.buf; line < old.buf + old.len; line = end + 1) {
			end = memchr(line, '\n', (size_t)(old.buf + old.len - line));
			if (!end)
				end = old.buf + old.len;
			if (end > line && !line_is(line, (size_t)(end - line), r->env.key, r->metric)) {
				strbuf_add(&text, line, (size_t)(end - line));
				strbuf_addch(&text, '\n');
			}
		}
	folded_text(p, &folded);
	json_writer_init(&w, &text, JSON_WRITER_COMPACT);
	json_writer_begin_object(&w);
	json_writer_key_int(&w, "v", PROFILE_NOTE_VERSION);
	json_writer_key_string(&w, "key", r->env.key);
	json_writer_key_string(&w, "metric", r->metric);
	json_writer_key_string(&w, "bench", r->env.bench ? r->env.bench : "");
	json_writer_key_number(&w, "runs", r->profiles > 0 ? r->profiles : (double)r->nruns);
	json_writer_key(&w, "folded");
	json_writer_string_len(&w, folded.buf, folded.len);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(&text, '\n');
	ret = history_note_write(top, HISTORY_PROFILES_REF, commit, &text);
	strbuf_release(&old);
	strbuf_release(&text);
	strbuf_release(&folded);
	return ret;
}

/* The folded text of a stored profile into out's column. */
static int add_folded(const char *s, size_t len, struct folded_profile *out, int column,
		      const char *name)
{
	const char *p = s, *end = s + len;
	int first = 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct folded_line fl;

		if (first && folded_header_parse(p, n, &out->weight)) {
			/* the weight header */
		} else if (n && (folded_parse_line(p, n, &fl) || fl.columns != 1 || !(fl.count[0] >= 0))) {
			return trail_error("%s: a line of the folded stacks has no count", name);
		} else if (n) {
			folded_profile_add(out, fl.stack, fl.stack_len, column, fl.count[0]);
		}
		first = 0;
		p += n + 1;
	}
	return 0;
}

/* Commit's profile for key and metric out of its note's text: 0, 1 none, -1 corrupt. */
static int parse_note(const char *commit, const struct strbuf *note, const char *key,
		      const char *metric, struct folded_profile *out, int column, double *runs)
{
	const char *line, *end;
	char name[80];
	unsigned lineno = 0;
	int ret = 1;

	snprintf(name, sizeof(name), "profile note of %.12s", commit);
	if (note->len > HISTORY_PROFILE_NOTE_MAX)
		return trail_error("%s: %zu bytes, more than a profile note may hold", name, note->len);
	for (line = note->buf; ret == 1 && line < note->buf + note->len; line = end + 1) {
		const struct json_value *k, *m, *f, *r;
		struct json_value v;
		char where[96];

		end = memchr(line, '\n', (size_t)(note->buf + note->len - line));
		if (!end)
			end = note->buf + note->len;
		lineno++;
		if (end == line)
			continue;
		snprintf(where, sizeof(where), "%s:%u", name, lineno);
		if (json_parse(line, (size_t)(end - line), where, &v))
			return -1;
		k = json_get(&v, "key");
		m = json_get(&v, "metric");
		f = json_get(&v, "folded");
		r = json_get(&v, "runs");
		if (!k || !m || !f || k->type != JSON_STRING || m->type != JSON_STRING ||
		    f->type != JSON_STRING || (r && r->type != JSON_NUMBER))
			ret = trail_error("%s: not a trail history profile", where);
		else if (!strcmp(k->string, key) && !strcmp(m->string, metric)) {
			ret = add_folded(f->string, f->len, out, column, where) ? -1 : 0;
			if (runs)
				*runs = r && r->number > 0 ? r->number : 1;
		}
		json_release(&v);
	}
	return ret;
}

int history_profile_get(const char *top, const char *commit, const char *key, const char *metric,
			struct folded_profile *out, int column, double *runs)
{
	struct strbuf note = STRBUF_INIT;
	int ret = 1;

	if (!history_note_read(top, HISTORY_PROFILES_REF, commit, &note))
		ret = parse_note(commit, &note, key, metric, out, column, runs);
	strbuf_release(&note);
	return ret;
}

static int git_run(const char *top, const char *const *argv, int in_fd, struct strbuf *out)
{
	static const char *const ident[] = {
		"GIT_AUTHOR_NAME=trail history", "GIT_AUTHOR_EMAIL=trail@localhost",
		"GIT_COMMITTER_NAME=trail history", "GIT_COMMITTER_EMAIL=trail@localhost", NULL
	};
	struct child c = CHILD_INIT;

	c.argv = argv;
	c.dir = top;
	c.in = in_fd;
	c.env = ident;	/* the notes ref's own commits: trail's name */
	if (out)
		return child_capture(&c, out);
	c.out = CHILD_DEVNULL;
	return child_run(&c);
}

/* The commits that have a profile note, and their notes' blobs (unless NULL). */
static int list_profiled(const char *top, struct string_list *commits, struct string_list *blobs)
{
	const char *argv[] = { "git", "notes", "--ref=" HISTORY_PROFILES_REF, "list", NULL };
	struct strbuf out = STRBUF_INIT;
	char *p, *nl;
	int ret = 0;

	if (git_run(top, argv, CHILD_DEVNULL, &out)) {
		strbuf_release(&out);
		return 0;	/* no such ref yet: nothing stored */
	}
	for (p = out.buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl || nl - p != 81 || p[40] != ' ') {
			ret = trail_error("git notes list: unexpected line '%.90s'", p);
			break;
		}
		string_list_append_nodup(commits, xstrndup(p + 41, 40));
		if (blobs)
			string_list_append_nodup(blobs, xstrndup(p, 40));
	}
	strbuf_release(&out);
	return ret;
}

int history_profiles_prune(const char *top, const struct string_list *keep, size_t *removed,
			   size_t *kept)
{
	const char *rm[] = { "git", "notes", "--ref=" HISTORY_PROFILES_REF, "remove", "--stdin", NULL };
	const char *tree_argv[] = { "git", "rev-parse", "--verify", "--quiet",
				    HISTORY_PROFILES_REF "^{tree}", NULL };
	struct string_list all = STRING_LIST_INIT;
	struct strbuf in = STRBUF_INIT, tree = STRBUF_INIT, commit = STRBUF_INIT;
	char path[] = "/tmp/trail-prune-XXXXXX";
	int fd = -1, ret = -1;
	size_t i;

	*removed = *kept = 0;
	if (list_profiled(top, &all, NULL))
		goto out;
	for (i = 0; i < all.nr; i++) {
		if (string_list_has(keep, all.items[i])) {
			(*kept)++;
			continue;
		}
		strbuf_addf(&in, "%s\n", all.items[i]);
		(*removed)++;
	}
	if (!*removed) {
		ret = 0;
		goto out;
	}
	fd = mkstemp(path);
	if (fd < 0 || write(fd, in.buf, in.len) != (ssize_t)in.len || lseek(fd, 0, SEEK_SET)) {
		error_errno("cannot write '%s'", path);
		goto out;
	}
	if (git_run(top, rm, fd, NULL)) {
		trail_error("git notes remove failed on %s", HISTORY_PROFILES_REF);
		goto out;
	}
	/* one commit holding what is left: the removed profiles are then unreachable */
	if (git_run(top, tree_argv, CHILD_DEVNULL, &tree)) {
		trail_error("cannot read the tree of %s", HISTORY_PROFILES_REF);
		goto out;
	}
	strbuf_rtrim(&tree);
	{
		const char *ct[] = { "git", "commit-tree", "-m", "trail history prune", tree.buf, NULL };
		const char *ur[] = { "git", "update-ref", "-m", "trail history prune",
				     HISTORY_PROFILES_REF, NULL, NULL };

		if (git_run(top, ct, CHILD_DEVNULL, &commit)) {
			trail_error("git commit-tree failed for %s", HISTORY_PROFILES_REF);
			goto out;
		}
		strbuf_rtrim(&commit);
		ur[5] = commit.buf;
		if (git_run(top, ur, CHILD_DEVNULL, NULL)) {
			trail_error("git update-ref %s failed", HISTORY_PROFILES_REF);
			goto out;
		}
	}
	ret = 0;
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	string_list_clear(&all);
	strbuf_release(&in);
	strbuf_release(&tree);
	strbuf_release(&commit);
	return ret;
}

/* The text of blobs (ids, one a line in a temporary file) through one git cat-file --batch. */
static int cat_blobs(const char *top, const struct string_list *ids, struct strbuf *notes)
{
	const char *argv[] = { "git", "cat-file", "--batch", NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char path[] = "/tmp/trail-profiles-XXXXXX";
	const char *p, *end;
	int fd = mkstemp(path), ret = -1;
	size_t i;

	if (fd < 0)
		return error_errno("cannot create a temporary file");
	for (i = 0; i < ids->nr; i++)
		strbuf_addf(&in, "%s\n", ids->items[i]);
	if (write(fd, in.buf, in.len) != (ssize_t)in.len || lseek(fd, 0, SEEK_SET)) {
		error_errno("cannot write '%s'", path);
		goto out;
	}
	if (git_run(top, argv, fd, &out)) {
		trail_error("git cat-file --batch failed on %s", HISTORY_PROFILES_REF);
		goto out;
	}
	p = out.buf;
	end = out.buf + out.len;
	for (i = 0; i < ids->nr; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		unsigned long long size;
		char type[16];

		if (!nl || sscanf(p, "%*40s %15s %llu", type, &size) != 2 || strcmp(type, "blob") ||
		    size > (unsigned long long)(end - nl - 1)) {
			trail_error("%s: git cat-file gave no blob for %.12s", HISTORY_PROFILES_REF,
				    ids->items[i]);
			goto out;
		}
		strbuf_add(&notes[i], nl + 1, (size_t)size);
		p = nl + 1 + size + 1;
		if (p > end)
			p = end;
	}
	ret = 0;
out:
	close(fd);
	unlink(path);
	strbuf_release(&in);
	strbuf_release(&out);
	return ret;
}

int history_profiles_get_many(const char *top, const struct string_list *commits, const char *key,
			      const char *metric, struct folded_profile *out, int *found,
			      double *runs)
{
	struct string_list all = STRING_LIST_INIT, blobs = STRING_LIST_INIT, want = STRING_LIST_INIT;
	struct strbuf *notes = NULL;
	size_t *at = xcalloc(commits->nr + 1, sizeof(*at)), i, j;
	int ret = -1;

	for (i = 0; i < commits->nr; i++) {
		found[i] = 0;
		if (runs)
			runs[i] = 1;
	}
	if (list_profiled(top, &all, &blobs))
		goto out;
	for (i = 0; i < commits->nr; i++)
		for (j = 0; j < all.nr; j++)
			if (!strcmp(all.items[j], commits->items[i])) {
				at[want.nr] = i;
				string_list_append(&want, blobs.items[j]);
				break;
			}
	notes = xcalloc(want.nr + 1, sizeof(*notes));
	for (i = 0; i < want.nr; i++)
		strbuf_init(&notes[i], 0);
	if (want.nr && cat_blobs(top, &want, notes))
		goto out;
	for (i = 0; i < want.nr; i++) {
		int rc = parse_note(commits->items[at[i]], &notes[i], key, metric, &out[at[i]], 0,
				    runs ? &runs[at[i]] : NULL);

		if (rc < 0)
			goto out;
		found[at[i]] = !rc;
	}
	ret = 0;
out:
	for (i = 0; notes && i < want.nr; i++)
		strbuf_release(&notes[i]);
	free(notes);
	free(at);
	string_list_clear(&all);
	string_list_clear(&blobs);
	string_list_clear(&want);
	return ret;
}
