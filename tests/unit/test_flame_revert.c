/*
 * test_flame_revert.c - the revert the report offers is tried, not
 * assumed (measure/revert_check.h): on generated histories, a suspect whose
 * revert applies, one that a later commit makes conflict (with that
 * commit named), both reverted together, a merge (-m 1), and the user's
 * repository untouched throughout.
 */
#include "harness.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/strbuf.h"
#include "measure/repo.h"
#include "measure/revert_check.h"

#include <stdlib.h>
#include <string.h>

#define CI "git -c user.name=T -c user.email=t@e commit -q"

static int make_repo(const char *dir, const char *setup, struct flame_repo *r)
{
	char *cmd = xstrfmt("cd %s && git init -q repo && cd repo && %s", dir, setup);
	char *repo = xstrfmt("%s/repo", dir), *cache = xstrfmt("%s/cache", dir);
	int ret = system(cmd) ? -1 : flame_repo_open(r, repo, cache);

	free(cmd);
	free(repo);
	free(cache);
	return ret;
}

TEST(revert_tried_on_top_of_bad)
{
	char *dir = tempdir_create("test-flame-revert"), *cmd;
	char bad[41], slow[41], later[41], other[41];
	const char *ids[2];
	struct flame_revert_check c;
	struct flame_repo r;
	struct strbuf sb = STRBUF_INIT;

	/* base; slow: edits f's loop; other: g.c only; later: edits the same lines of f */
	if (make_repo(dir, "printf 'int f(int n)\\n{\\n\\treturn n;\\n}\\n' > f.c && "
		      "echo 'int g;' > g.c && git add . && " CI " -m base && "
		      "printf 'int f(int n)\\n{\\n\\treturn n * n;\\n}\\n' > f.c && " CI " -am slow && "
		      "echo 'int g = 1;' > g.c && " CI " -am other && "
		      "printf 'int f(int n)\\n{\\n\\treturn n * n + 1;\\n}\\n' > f.c && " CI " -am later",
		      &r)) {
		tempdir_remove(dir);
		free(dir);
		SKIP("git is not usable");
	}
	CHECK_INT(flame_repo_resolve(&r, "--rev", "HEAD", bad), 0);
	CHECK_INT(flame_repo_resolve(&r, "--rev", "HEAD~2", slow), 0);
	CHECK_INT(flame_repo_resolve(&r, "--rev", "HEAD~1", other), 0);
	CHECK_INT(flame_repo_resolve(&r, "--rev", "HEAD", later), 0);

	/* other's revert applies */
	flame_revert_check_init(&c);
	ids[0] = other;
	CHECK_INT(flame_revert_try(&r, bad, ids, 1, 0, &c), 0);
	CHECK_INT(c.state, FLAME_REVERT_CLEAN);
	flame_revert_check_release(&c);

	/* slow's conflicts in f.c, because of later */
	ids[0] = slow;
	CHECK_INT(flame_revert_try(&r, bad, ids, 1, 0, &c), 0);
	CHECK_INT(c.state, FLAME_REVERT_CONFLICTS);
	CHECK_INT(c.conflicts.nr, 1);
	if (c.conflicts.nr)
		CHECK_STREQ(c.conflicts.items[0], "f.c");
	CHECK_INT(c.later.nr, 1);
	if (c.later.nr)
		CHECK(!strncmp(c.later.items[0], later, 40) && strstr(c.later.items[0], " later"));
	flame_revert_command(&c, &sb);
	cmd = xstrfmt("git revert %s", slow);
	CHECK_STREQ(sb.buf, cmd);
	free(cmd);
	flame_revert_check_release(&c);

	/* later and slow together (newest first) apply */
	ids[0] = later;
	ids[1] = slow;
	CHECK_INT(flame_revert_try(&r, bad, ids, 2, 0, &c), 0);
	CHECK_INT(c.state, FLAME_REVERT_CLEAN);
	flame_revert_check_release(&c);

	/* the user's repository: still at bad, clean, no revert in progress */
	cmd = xstrfmt("cd %s/repo && test -z \"$(git status --porcelain)\" && "
		      "test \"$(git rev-parse HEAD)\" = %s && ! test -e .git/REVERT_HEAD && "
		      "test \"$(git worktree list | wc -l)\" = 1", dir, bad);
	CHECK_INT(system(cmd), 0);
	free(cmd);
	strbuf_release(&sb);
	flame_repo_release(&r);
	tempdir_remove(dir);
	free(dir);
}

TEST(revert_of_a_merge)
{
	char *dir = tempdir_create("test-flame-revert"), merge[41];
	const char *ids[1];
	struct flame_revert_check c;
	struct flame_repo r;
	struct strbuf sb = STRBUF_INIT;

	if (make_repo(dir, "echo a > a && git add a && " CI " -m base && git checkout -q -b topic && "
		      "echo b > b && git add b && " CI " -m b && git checkout -q - && "
		      "echo c > c && git add c && " CI " -m c && "
		      "git -c user.name=T -c user.email=t@e merge -q --no-ff -m merge topic", &r)) {
		tempdir_remove(dir);
		free(dir);
		SKIP("git is not usable");
	}
	CHECK_INT(flame_repo_resolve(&r, "--rev", "HEAD", merge), 0);
	flame_revert_check_init(&c);
	ids[0] = merge;
	CHECK_INT(flame_revert_try(&r, merge, ids, 1, 1, &c), 0);
	CHECK_INT(c.state, FLAME_REVERT_CLEAN);
	flame_revert_command(&c, &sb);
	CHECK(!strncmp(sb.buf, "git revert -m 1 ", 16));
	flame_revert_check_release(&c);
	/* without -m a merge cannot be reverted: not tried, never "clean" */
	CHECK_INT(flame_revert_try(&r, merge, ids, 1, 0, &c), -1);
	CHECK_INT(c.state, FLAME_REVERT_UNTRIED);
	flame_revert_check_release(&c);
	strbuf_release(&sb);
	flame_repo_release(&r);
	tempdir_remove(dir);
	free(dir);
}

TEST_MAIN("flame_revert", revert_tried_on_top_of_bad, revert_of_a_merge)
