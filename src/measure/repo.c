/*
 * repo.c - the private clone, build worktrees and commit queries of
 * trail flame (see repo.h).  Every git command here names its repository
 * explicitly with -C, and cmd_flame clears GIT_DIR and friends first, so
 * nothing can fall through to the user's repository by accident.
 */
#include "measure/repo.h"
#include "measure/source_name.h"
#include "core/alloc.h"
#include "core/cache_dir.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/intern.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int path_exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

static int lock_cache(struct flame_repo *r)
{
	char *path = xstrfmt("%s/lock", r->cache);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0) {
		error_errno("cannot open '%s'", path);
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		trail_error("cache '%s' is in use by another 'trail flame'", r->cache);
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	r->lock_fd = fd;
	return 0;
}

/*
 * The clone borrows the user's objects (--shared): after a history
 * rewrite and git gc there, or a repository re-created at the same path,
 * its refs and build worktrees name objects that no longer exist, and git
 * fails late (bisect, worktree add).  rev-list --no-walk --all reads only
 * those tips (every ref, and the HEAD of every worktree).
 */
static int clone_usable(struct flame_repo *r)
{
	const char *tips[] = { "rev-list", "--no-walk", "--all", NULL };
	const char *objects[] = { "rev-parse", "--git-path", "objects/info/alternates", NULL };
	struct strbuf sb = STRBUF_INIT, alt = STRBUF_INIT;
	int ok = flame_git_in(r->clone, &sb, tips) == 0;

	/* The alternates must still name this repository's object store. */
	if (ok && flame_git_in(r->clone, &alt, objects) == 0) {
		char *path;

		strbuf_rtrim(&alt);
		path = alt.buf[0] == '/' ? xstrdup(alt.buf) : xstrfmt("%s/%s", r->clone, alt.buf);
		strbuf_reset(&alt);
		if (!strbuf_read_file(&alt, path)) {
			strbuf_rtrim(&alt);
			ok = path_exists(alt.buf);
		}
		free(path);
	}
	strbuf_release(&sb);
	strbuf_release(&alt);
	return ok;
}

int flame_repo_open(struct flame_repo *r, const char *dir, const char *cache_root)
{
	const char *toplevel[] = { "rev-parse", "--show-toplevel", NULL };
	struct strbuf sb = STRBUF_INIT;
	char *root, *base;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->lock_fd = -1;
	if (flame_git_in(dir, &sb, toplevel) != 0 || !sb.len) {
		strbuf_release(&sb);
		return trail_error("'%s' is not inside a git work tree", dir);
	}
	strbuf_rtrim(&sb);
	r->user_top = strbuf_detach(&sb, NULL);
	root = cache_root ? xstrdup(cache_root) : cache_dir("flame");
	base = strrchr(r->user_top, '/');
	base = base && base[1] ? base + 1 : "repo";
	r->cache = xstrfmt("%s/%s-%08x", root, base,
			   (unsigned)intern_hash(r->user_top, strlen(r->user_top)));
	free(root);
	r->clone = xstrfmt("%s/clone", r->cache);
	if (make_dirs(r->cache) || lock_cache(r))
		goto out;
	if (path_exists(r->clone) && !clone_usable(r)) {
		char *builds = xstrfmt("%s/builds", r->cache);

		note("the cached clone '%s' no longer matches '%s' (its history was rewritten "
		     "and garbage-collected, or the repository was re-created): recreating it",
		     r->clone, r->user_top);
		if (remove_tree(r->clone) || remove_tree(builds)) {
			free(builds);
			goto out;
		}
		free(builds);
	}
	if (!path_exists(r->clone)) {
		/*
		 * --shared borrows the user's objects through alternates (a read
		 * of their object store, nothing written there), so even a big
		 * repository clones in a moment and later commits stay visible.
		 */
		char *tmp = xstrfmt("%s.tmp", r->clone);
		const char *clone[] = { "clone", "-q", "--no-checkout", "--shared",
					r->user_top, tmp, NULL };
		const char *cfg1[] = { "config", "gc.auto", "0", NULL };
		const char *cfg2[] = { "config", "advice.detachedHead", "false", NULL };

		remove_tree(tmp);
		if (flame_git_in(r->cache, NULL, clone) != 0) {
			trail_error("cannot clone '%s' into '%s'", r->user_top, tmp);
			free(tmp);
			goto out;
		}
		flame_git_in(tmp, NULL, cfg1);
		flame_git_in(tmp, NULL, cfg2);
		if (rename(tmp, r->clone)) {
			error_errno("cannot rename '%s'", tmp);
			free(tmp);
			goto out;
		}
		free(tmp);
	}
	ret = 0;
out:
	if (ret)
		flame_repo_release(r);
	return ret;
}

int flame_repo_open_clone(struct flame_repo *r, const char *clone_dir)
{
	const char *toplevel[] = { "rev-parse", "--show-toplevel", NULL };
	struct strbuf sb = STRBUF_INIT;
	char *slash;

	memset(r, 0, sizeof(*r));
	r->lock_fd = -1;
	if (flame_git_in(clone_dir, &sb, toplevel) != 0 || !sb.len) {
		strbuf_release(&sb);
		return trail_error("'%s' is not a trail flame clone", clone_dir);
	}
	strbuf_rtrim(&sb);
	r->clone = strbuf_detach(&sb, NULL);
	slash = strrchr(r->clone, '/');
	if (!slash || strcmp(slash, "/clone")) {
		trail_error("'%s' is not a trail flame clone", r->clone);
		flame_repo_release(r);
		return -1;
	}
	r->cache = xstrndup(r->clone, (size_t)(slash - r->clone));
	return 0;
}

void flame_repo_release(struct flame_repo *r)
{
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	free(r->user_top);
	free(r->cache);
	free(r->clone);
	memset(r, 0, sizeof(*r));
	r->lock_fd = -1;
}

static int resolve_in(const char *dir, const char *rev, char out[41])
{
	struct strbuf spec = STRBUF_INIT, sb = STRBUF_INIT;
	const char *argv[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", NULL, NULL };
	int code;

	strbuf_addf(&spec, "%s^{commit}", rev);
	argv[4] = spec.buf;
	code = flame_git_in(dir, &sb, argv);
	strbuf_rtrim(&sb);
	if (code != 0 || sb.len != 40) {
		strbuf_release(&spec);
		strbuf_release(&sb);
		return trail_error("'%s' is not a commit", rev);
	}
	memcpy(out, sb.buf, 41);
	strbuf_release(&spec);
	strbuf_release(&sb);
	return 0;
}

int flame_repo_resolve(struct flame_repo *r, const char *rev, char out[41])
{
	return resolve_in(r->user_top, rev, out);
}

int flame_clone_resolve(struct flame_repo *r, const char *rev, char out[41])
{
	return resolve_in(r->clone, rev, out);
}

int flame_repo_commit(struct flame_repo *r, const char *id, struct flame_commit *c)
{
	const char *argv[] = { "show", "-s", "--no-show-signature",
			       "--format=%H%x00%s%x00%an <%ae>%x00%aI", id, NULL };
	struct strbuf sb = STRBUF_INIT;
	char *p[4];
	size_t i, n = 0;

	memset(c, 0, sizeof(*c));
	if (flame_git(r, &sb, argv) != 0) {
		strbuf_release(&sb);
		return trail_error("cannot read commit '%s'", id);
	}
	strbuf_rtrim(&sb);
	p[n++] = sb.buf;
	for (i = 0; i < sb.len && n < 4; i++)
		if (!sb.buf[i])
			p[n++] = sb.buf + i + 1;
	if (n < 4 || strlen(p[0]) != 40) {
		strbuf_release(&sb);
		return trail_error("cannot parse commit '%s'", id);
	}
	memcpy(c->id, p[0], 41);
	c->subject = xstrdup(p[1]);
	c->author = xstrdup(p[2]);
	c->date = xstrdup(p[3]);
	strbuf_release(&sb);
	return 0;
}

void flame_commit_release(struct flame_commit *c)
{
	free(c->subject);
	free(c->author);
	free(c->date);
	memset(c, 0, sizeof(*c));
}

int flame_repo_is_ancestor(struct flame_repo *r, const char *a, const char *b)
{
	const char *argv[] = { "merge-base", "--is-ancestor", a, b, NULL };
	int code = flame_git(r, NULL, argv);

	if (code == 0 || code == 1)
		return !code;
	return trail_error("cannot compare '%s' and '%s'", a, b);
}

int flame_repo_range(struct flame_repo *r, const char *good, const char *bad,
		     struct string_list *out)
{
	struct strbuf range = STRBUF_INIT, sb = STRBUF_INIT;
	const char *argv[] = { "rev-list", "--reverse", NULL, NULL };
	char *line, *save = NULL;
	int code;

	strbuf_addf(&range, "%s..%s", good, bad);
	argv[2] = range.buf;
	code = flame_git(r, &sb, argv);
	strbuf_release(&range);
	if (code != 0) {
		strbuf_release(&sb);
		return trail_error("cannot list the commits in %.12s..%.12s", good, bad);
	}
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		string_list_append(out, line);
	strbuf_release(&sb);
	return 0;
}

int flame_repo_parent(struct flame_repo *r, const char *id, char out[41])
{
	struct strbuf spec = STRBUF_INIT;
	int ret;

	strbuf_addf(&spec, "%s^1", id);
	out[0] = '\0';
	ret = resolve_in(r->clone, spec.buf, out);
	strbuf_release(&spec);
	return ret;
}

int flame_repo_parents(struct flame_repo *r, const char *id)
{
	const char *argv[] = { "rev-list", "--parents", "-n", "1", id, NULL };
	struct strbuf sb = STRBUF_INIT;
	int n = -1;
	size_t i;

	if (flame_git(r, &sb, argv) == 0) {
		strbuf_rtrim(&sb);
		for (n = 0, i = 0; i < sb.len; i++)
			n += sb.buf[i] == ' ';
	}
	strbuf_release(&sb);
	return n;
}

int flame_repo_merged(struct flame_repo *r, const char *merge, const char *func,
		      const char *file, struct string_list *out)
{
	struct strbuf range = STRBUF_INIT, spec = STRBUF_INIT, sb = STRBUF_INIT;
	char *line, *save = NULL;
	int code = -1;

	strbuf_addf(&range, "%s^1..%s", merge, merge);
	if (func && file) {
		const char *argv[] = { "log", "--reverse", "-s", "--format=%H", spec.buf, range.buf,
				       NULL };

		strbuf_addf(&spec, "-L:%s:%s", func, file);
		argv[4] = spec.buf;
		code = flame_git(r, &sb, argv);
	}
	if (code != 0) {
		const char *argv[] = { "log", "--reverse", "--no-merges", "--format=%H", range.buf,
				       "--", file, NULL };

		if (!func || !file)
			argv[5] = NULL;
		strbuf_reset(&sb);
		code = flame_git(r, &sb, argv);
	}
	if (code == 0)
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (strlen(line) == 40 && strcmp(line, merge) && !string_list_has(out, line))
				string_list_append(out, line);
	strbuf_release(&range);
	strbuf_release(&spec);
	strbuf_release(&sb);
	return code == 0 ? 0 : trail_error("cannot list the commits merged by %.12s", merge);
}

/* ---- where functions are defined ---- */

#define SOURCE_GLOBS "*.c", "*.cc", "*.cpp", "*.cxx", "*.h", "*.hpp", "*.rs", "*.go"

/*
 * Split a git grep -n line "rev:file:line:text" in place; 1 when text can
 * be a definition: it does not start with a blank (a call in a body is
 * indented) and does not end in ';' (a declaration).
 */
static int definition_hit(char *l, char **file, unsigned *line, char **text)
{
	char *f = strchr(l, ':'), *n, *t;
	size_t len;

	if (!f || !(n = strchr(f + 1, ':')) || !(t = strchr(n + 1, ':')))
		return 0;
	len = strlen(t + 1);
	while (len && (t[len] == ' ' || t[len] == '\t'))
		len--;
	if (t[1] == ' ' || t[1] == '\t' || (len && t[len] == ';'))
		return 0;
	*n = '\0';
	*t = '\0';
	*file = f + 1;
	*line = (unsigned)strtoul(n + 1, NULL, 10);
	*text = t + 1;
	return 1;
}

/* git grep -E for the names (an alternation) followed by '('; out gets the lines. */
static int grep_calls(struct flame_repo *r, const char *rev, const char *alternation,
		      struct strbuf *out)
{
	struct strbuf pat = STRBUF_INIT;
	const char *argv[] = { "grep", "-n", "-E", "-e", NULL, rev, "--", SOURCE_GLOBS, NULL };
	int code;

	strbuf_addf(&pat, "(^|[^A-Za-z0-9_])(%s)[ \t]*\\(", alternation);
	argv[4] = pat.buf;
	code = flame_git(r, out, argv);
	strbuf_release(&pat);
	return code;
}

static int is_identifier(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

int flame_repo_find_definition(struct flame_repo *r, const char *func, const char *rev,
			       char **file, unsigned *line)
{
	struct strbuf out = STRBUF_INIT;
	char *l, *save = NULL, *f, *text;
	int found = 0;

	char *name = flame_source_name(func);

	*file = NULL;
	*line = 0;
	if (is_identifier(name) && grep_calls(r, rev, name, &out) == 0)
		for (l = strtok_r(out.buf, "\n", &save); l && !found;
		     l = strtok_r(NULL, "\n", &save))
			if (definition_hit(l, &f, line, &text)) {
				*file = xstrdup(f);
				found = 1;
			}
	strbuf_release(&out);
	free(name);
	return found ? 0 : -1;
}

/* name appears in text as a call or definition: not inside a longer identifier, then '('. */
static int text_names(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *q = p + len;

		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '(')
			return 1;
	}
	return 0;
}

int flame_repo_defined(struct flame_repo *r, const char *rev, const struct string_list *names,
		       struct string_list *defined)
{
	size_t i = 0, k;

	while (i < names->nr) {
		struct strbuf alt = STRBUF_INIT, out = STRBUF_INIT;
		/* the names as profiled, and as written in the source */
		struct string_list batch = STRING_LIST_INIT, source = STRING_LIST_INIT;
		char *l, *save = NULL, *f, *text;
		unsigned line;
		int code;

		for (; i < names->nr && batch.nr < 100; i++) {
			char *name = flame_source_name(names->items[i]);

			if (is_identifier(name) && !string_list_has(&batch, names->items[i])) {
				strbuf_addf(&alt, "%s%s", batch.nr ? "|" : "", name);
				string_list_append(&batch, names->items[i]);
				string_list_append(&source, name);
			}
			free(name);
		}
		code = batch.nr ? grep_calls(r, rev, alt.buf, &out) : 1;
		if (code == 0)
			for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
				if (!definition_hit(l, &f, &line, &text))
					continue;
				for (k = 0; k < batch.nr; k++)
					if (!string_list_has(defined, batch.items[k]) &&
					    text_names(text, source.items[k]))
						string_list_append(defined, batch.items[k]);
			}
		strbuf_release(&alt);
		strbuf_release(&out);
		string_list_clear(&batch);
		string_list_clear(&source);
		if (code < 0 || code > 1)
			return trail_error("git grep failed looking for function definitions at %.12s", rev);
	}
	return 0;
}

/*
 * What a build depends on besides the commit: the command and the
 * environment variables build systems read for compilers and flags.
 */
static const char *const build_env[] = { "CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS",
	"LDFLAGS", "LDLIBS", "RUSTFLAGS", "GOFLAGS", "CARGO_BUILD_TARGET", NULL };

static void build_key(const char *build_cmd, struct strbuf *key)
{
	const char *const *e;

	strbuf_addf(key, "build: %s\n", build_cmd);
	if (!flame_submodules_enabled())
		strbuf_addstr(key, "submodules: no\n");
	for (e = build_env; *e; e++)
		if (getenv(*e))
			strbuf_addf(key, "%s=%s\n", *e, getenv(*e));
}

/* CACHE/builds/<id>-<hash of the build key>: one build per (commit, command, env). */
static char *build_dir(struct flame_repo *r, const char *id, const char *build_cmd)
{
	struct strbuf key = STRBUF_INIT;
	char *dir;
	uint32_t h1, h2;

	build_key(build_cmd, &key);
	h1 = intern_hash(key.buf, key.len);
	strbuf_addch(&key, '\n');	/* a second, different hash: 64 bits in all */
	h2 = intern_hash(key.buf, key.len);
	dir = xstrfmt("%s/builds/%s-%08x%08x", r->cache, id, (unsigned)h1, (unsigned)h2);
	strbuf_release(&key);
	return dir;
}

char *flame_build_log(struct flame_repo *r, const char *id, const char *build_cmd)
{
	char *dir = build_dir(r, id, build_cmd), *log = xstrfmt("%s/build.log", dir);

	free(dir);
	return log;
}

/*
 * The run that failed a build: failures are remembered for the rest of
 * this trail flame run (the bisect's probes inherit it), and retried by
 * the next one - a build may fail for reasons that go away.
 */
static const char *run_token(void)
{
	const char *t = getenv(FLAME_RUN_ENV);

	return t && *t ? t : NULL;
}

/* status: "0", or "1 TOKEN" for a failure; -1 when absent or unreadable. */
static int read_status(const char *path, int *code, int *same_run)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	*same_run = 0;
	if (!path_exists(path))
		return -1;
	if (!strbuf_read_file(&sb, path)) {
		strbuf_rtrim(&sb);
		if (sb.len && (sb.buf[0] == '0' || sb.buf[0] == '1') &&
		    (!sb.buf[1] || sb.buf[1] == ' ')) {
			*code = sb.buf[0] - '0';
			*same_run = sb.buf[1] == ' ' && run_token() && !strcmp(sb.buf + 2, run_token());
			ret = 0;
		}
	}
	strbuf_release(&sb);
	return ret;
}

int flame_build(struct flame_repo *r, const char *id, const char *build_cmd, double timeout,
		char **dir, int *cached)
{
	char *bdir = build_dir(r, id, build_cmd);
	char *src = xstrfmt("%s/src", bdir);
	char *status = xstrfmt("%s/status", bdir);
	char *log = xstrfmt("%s/build.log", bdir);
	char *keyfile = xstrfmt("%s/key", bdir);
	char *env_commit = xstrfmt("TRAIL_FLAME_COMMIT=%s", id);
	const char *env[] = { env_commit, NULL };
	const char *sh[] = { "sh", "-c", build_cmd, NULL };
	struct strbuf sb = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int code, same_run, ret = -1;

	*cached = 0;
	*dir = NULL;
	if (!read_status(status, &code, &same_run) && path_exists(src) && (!code || same_run)) {
		*cached = 1;
		ret = code;
		goto out;
	}
	/* A build interrupted earlier, or failed in an earlier run: start again. */
	if (path_exists(bdir)) {
		const char *prune[] = { "worktree", "prune", NULL };

		if (remove_tree(bdir))
			goto out;
		flame_git(r, NULL, prune);
	}
	if (make_dirs(bdir))
		goto out;
	{
		const char *add[] = { "worktree", "add", "-q", "--detach", "-f", src, id, NULL };

		if (flame_git(r, NULL, add) != 0) {
			trail_error("cannot check out %.12s in '%s'", id, src);
			goto out;
		}
	}
	build_key(build_cmd, &sb);
	strbuf_write_file(&sb, keyfile);	/* for people looking at the cache */
	strbuf_reset(&sb);
	c.argv = sh;
	c.dir = src;
	c.env = env;
	c.in = CHILD_DEVNULL;
	c.out_path = log;
	c.err_to_out = 1;
	c.timeout = timeout;
	/* a commit whose submodules cannot be had is a failed build: skipped */
	if (flame_submodules_enabled() && flame_submodules_checkout(r, src)) {
		strbuf_addstr(&sb, "trail flame: the submodules could not be checked out "
			      "(--no-submodules skips them)\n");
		strbuf_write_file(&sb, log);
		strbuf_reset(&sb);
		code = 1;
	} else {
		code = child_run(&c);
	}
	if (code < 0)
		goto out;
	if (c.timed_out) {
		FILE *f = fopen(log, "a");

		if (f) {
			fprintf(f, "\ntrail flame: the build timed out after %g s and was killed\n",
				timeout);
			fclose(f);
		}
	}
	if (code)
		strbuf_addf(&sb, "1 %s\n", run_token() ? run_token() : "-");
	else
		strbuf_addstr(&sb, "0\n");
	if (strbuf_write_file(&sb, status))
		goto out;
	ret = code ? 1 : 0;
out:
	if (ret >= 0)
		*dir = xstrdup(src);
	strbuf_release(&sb);
	free(bdir);
	free(src);
	free(status);
	free(log);
	free(keyfile);
	free(env_commit);
	return ret;
}
