/*
 * revert_check.c - tries a revert where trail may (revert_check.h): a
 * detached worktree of the private clone at the bad revision, git revert
 * --no-commit there, the unmerged paths read back with git diff
 * --diff-filter=U, the later commits on them with git log, and the
 * worktree removed whatever happened.
 */
#include "measure/revert_check.h"
#include "core/alloc.h"
#include "core/cleanup.h"

#include <stdlib.h>
#include <string.h>

void flame_revert_check_init(struct flame_revert_check *c)
{
	memset(c, 0, sizeof(*c));
}

void flame_revert_check_release(struct flame_revert_check *c)
{
	string_list_clear(&c->commits);
	string_list_clear(&c->conflicts);
	string_list_clear(&c->later);
	memset(c, 0, sizeof(*c));
}

void flame_revert_command(const struct flame_revert_check *c, struct strbuf *sb)
{
	size_t i;

	strbuf_addstr(sb, "git revert");
	if (c->merge)
		strbuf_addstr(sb, " -m 1");
	for (i = 0; i < c->commits.nr; i++)
		strbuf_addf(sb, " %s", c->commits.items[i]);
}

static void split_lines(const char *text, struct string_list *out)
{
	struct string_list l = STRING_LIST_INIT;
	size_t i;

	string_list_split(&l, text, '\n');
	for (i = 0; i < l.nr; i++)
		if (*l.items[i] && !string_list_has(out, l.items[i]))
			string_list_append(out, l.items[i]);
	string_list_clear(&l);
}

/* Commits after oldest up to onto that touched c's conflicting paths. */
static void later_commits(struct flame_repo *r, const char *onto, const char *oldest,
			  struct flame_revert_check *c)
{
	struct strbuf range = STRBUF_INIT, out = STRBUF_INIT;
	const char **argv = xcalloc(c->conflicts.nr + 8, sizeof(*argv));
	size_t n = 0, i;

	strbuf_addf(&range, "%s..%s", oldest, onto);
	argv[n++] = "log";
	argv[n++] = "--no-merges";
	argv[n++] = "--format=%H %s";
	argv[n++] = "--end-of-options";
	argv[n++] = range.buf;
	argv[n++] = "--";
	for (i = 0; i < c->conflicts.nr; i++)
		argv[n++] = c->conflicts.items[i];
	if (flame_git(r, &out, argv) == 0) {
		struct string_list l = STRING_LIST_INIT;

		string_list_split(&l, out.buf, '\n');
		for (i = 0; i < l.nr; i++)
			if (strlen(l.items[i]) > 41 && !string_list_has(&c->later, l.items[i])) {
				char id[41];

				memcpy(id, l.items[i], 40);
				id[40] = '\0';
				if (!string_list_has(&c->commits, id))	/* reverted itself */
					string_list_append(&c->later, l.items[i]);
			}
		string_list_clear(&l);
	}
	free(argv);
	strbuf_release(&range);
	strbuf_release(&out);
}

int flame_revert_try(struct flame_repo *r, const char *onto, const char *const *ids, size_t n,
		     int merge, struct flame_revert_check *c)
{
	char *wt = xstrfmt("%s/revert-check", r->cache);
	const char *add[] = { "worktree", "add", "--detach", "--force", "-q", wt, onto, NULL };
	const char *rm[] = { "worktree", "remove", "--force", wt, NULL };
	const char *prune[] = { "worktree", "prune", NULL };
	const char *unmerged[] = { "diff", "--name-only", "--diff-filter=U", NULL };
	const char **rv = xcalloc(n + 12, sizeof(*rv));
	struct strbuf out = STRBUF_INIT;
	size_t k = 0, i;
	int code, ret = -1;

	c->state = FLAME_REVERT_UNTRIED;
	c->merge = merge;
	for (i = 0; i < n; i++)
		string_list_append(&c->commits, ids[i]);
	flame_git(r, NULL, rm);		/* a leftover of a run that was killed */
	remove_tree(wt);
	flame_git(r, NULL, prune);
	if (!n || flame_git(r, NULL, add) != 0)
		goto out;
	rv[k++] = "-c";
	rv[k++] = "user.name=trail";
	rv[k++] = "-c";
	rv[k++] = "user.email=trail@localhost";
	rv[k++] = "revert";
	rv[k++] = "--no-commit";
	if (merge) {
		rv[k++] = "-m";
		rv[k++] = "1";
	}
	rv[k++] = "--end-of-options";
	for (i = 0; i < n; i++)
		rv[k++] = ids[i];
	code = flame_git_in(wt, NULL, rv);
	if (code == 0) {
		c->state = FLAME_REVERT_CLEAN;
		ret = 0;
	} else if (flame_git_in(wt, &out, unmerged) == 0 && out.len) {
		c->state = FLAME_REVERT_CONFLICTS;
		split_lines(out.buf, &c->conflicts);
		later_commits(r, onto, ids[n - 1], c);
		ret = 0;
	}
out:
	flame_git(r, NULL, rm);
	remove_tree(wt);
	flame_git(r, NULL, prune);
	strbuf_release(&out);
	free(rv);
	free(wt);
	return ret;
}
