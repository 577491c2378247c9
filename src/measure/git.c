/*
 * git.c - runs one git command in a named repository (git -C DIR ...),
 * its stderr hidden unless TRAIL_FLAME_DEBUG is set (see repo.h): the
 * one door to git that the clone (repo.c), its submodules (submodules.c)
 * and the narrowing use.
 */
#include "measure/repo.h"
#include "core/child.h"
#include "core/string_list.h"

#include <stdlib.h>

int flame_git_in(const char *dir, struct strbuf *out, const char *const *argv)
{
	struct string_list args = STRING_LIST_INIT;
	struct child c = CHILD_INIT;
	struct strbuf sink = STRBUF_INIT;
	int code;

	string_list_append(&args, "git");
	string_list_append(&args, "-C");
	string_list_append(&args, dir);
	for (; *argv; argv++)
		string_list_append(&args, *argv);
	c.argv = (const char *const *)args.items;
	c.err = CHILD_DEVNULL;
	if (getenv("TRAIL_FLAME_DEBUG"))
		c.err = CHILD_INHERIT;
	code = child_capture(&c, out ? out : &sink);
	strbuf_release(&sink);
	string_list_clear(&args);
	return code;
}

int flame_git(struct flame_repo *r, struct strbuf *out, const char *const *argv)
{
	return flame_git_in(r->clone, out, argv);
}
