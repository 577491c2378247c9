/*
 * submodules.c - the submodules of a build worktree of trail flame (see
 * repo.h).  Each submodule is cloned from where the user's repository
 * already has it - its module directory (.git/modules/NAME), else the URL
 * the user configured (submodule.NAME.url), else .gitmodules' own URL,
 * relative ones resolved against the user's repository as git does - and
 * checked out at the commit the worktree records.  The user's repository
 * is only read: URLs are written into the private clone's config.
 */
#include "measure/repo.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/string_list.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int flame_submodules_enabled(void)
{
	const char *v = getenv(FLAME_SUBMODULES_ENV);

	return !v || strcmp(v, "0");
}

/* The user's repository: the clone's origin (also when opened by a probe). */
static char *user_repo(const char *worktree)
{
	const char *origin[] = { "config", "--get", "remote.origin.url", NULL };
	struct strbuf sb = STRBUF_INIT;

	if (flame_git_in(worktree, &sb, origin) != 0 || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_rtrim(&sb);
	return strbuf_detach(&sb, NULL);
}

/* Where the user's repository has submodule name: a path or URL (malloc'd), or NULL. */
static char *user_url(const char *user, const char *name)
{
	const char *common[] = { "rev-parse", "--path-format=absolute", "--git-common-dir", NULL };
	struct strbuf sb = STRBUF_INIT;
	char *key = xstrfmt("submodule.%s.url", name), *url = NULL;
	const char *get[] = { "config", "--get", key, NULL };
	struct stat st;

	if (!flame_git_in(user, &sb, common) && sb.len) {
		strbuf_rtrim(&sb);
		url = xstrfmt("%s/modules/%s", sb.buf, name);
		if (stat(url, &st) || !S_ISDIR(st.st_mode)) {
			free(url);
			url = NULL;
		}
	}
	strbuf_reset(&sb);
	if (!url && !flame_git_in(user, &sb, get) && sb.len) {
		strbuf_rtrim(&sb);
		url = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	free(key);
	return url;
}

/* The names of the submodules .gitmodules declares in worktree. */
static void submodule_names(const char *worktree, struct string_list *names)
{
	const char *list[] = { "config", "-f", ".gitmodules", "--name-only", "--get-regexp",
			       "^submodule\\..*\\.path$", NULL };
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;

	if (flame_git_in(worktree, &sb, list) != 0)
		goto out;
	for (line = sb.buf; line && *line; line = next) {
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		len = strlen(line);
		/* submodule.NAME.path: NAME may hold dots */
		if (len > strlen("submodule..path") && !strncmp(line, "submodule.", 10))
			string_list_append_nodup(names, xstrndup(line + 10, len - 15));
	}
out:
	strbuf_release(&sb);
}

int flame_submodules_checkout(struct flame_repo *r, const char *worktree)
{
	const char *update[] = { "-c", "protocol.file.allow=always", "submodule", "--quiet",
				 "update", "--init", "--recursive", "--checkout", NULL };
	struct string_list names = STRING_LIST_INIT;
	char *gitmodules = xstrfmt("%s/.gitmodules", worktree), *user = NULL;
	struct stat st;
	size_t i;
	int ret = 0;

	if (stat(gitmodules, &st))
		goto out;
	user = user_repo(worktree);
	submodule_names(worktree, &names);
	for (i = 0; user && i < names.nr; i++) {
		char *url = user_url(user, names.items[i]);
		char *key = xstrfmt("submodule.%s.url", names.items[i]);
		const char *set[] = { "config", key, url, NULL };

		/* the clone's config, shared by its worktrees: never the user's */
		if (url && flame_git(r, NULL, set) != 0)
			ret = trail_error("cannot set the URL of submodule '%s' in the private clone",
					  names.items[i]);
		free(url);
		free(key);
	}
	if (!ret && flame_git_in(worktree, NULL, update) != 0)
		ret = trail_error("cannot check out the submodules in '%s' (run with "
				  "TRAIL_FLAME_DEBUG=1 to see git's error; --no-submodules skips them)",
				  worktree);
out:
	string_list_clear(&names);
	free(gitmodules);
	free(user);
	return ret;
}
