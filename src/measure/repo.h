/*
 * repo.h - trail flame's git plumbing: a private clone of the user's
 * repository in trail's cache, one worktree per built commit, commit
 * metadata and ranges.  The user's repository is only ever read (rev-parse,
 * log, clone --shared); every checkout, bisect and worktree lives in the
 * private clone, so the user's HEAD, index, stash, refs and any bisect of
 * theirs in progress (refs/bisect/ is shared by all worktrees of one
 * repository) are never touched.
 */
#ifndef TRAIL_FLAME_REPO_H
#define TRAIL_FLAME_REPO_H

#include "core/strbuf.h"
#include "core/string_list.h"

struct flame_repo {
	char *user_top;		/* top-level directory of the user's repository */
	char *cache;		/* this repository's cache: CACHE_ROOT/<key> */
	char *clone;		/* the private clone (non-bare, no checkout) */
	int lock_fd;		/* flock'ed CACHE/lock, -1 when not held */
};

struct flame_commit {
	char id[41];		/* full hex object name */
	char *subject;
	char *author;		/* "Name <email>" */
	char *date;		/* ISO 8601 author date */
};

/*
 * Find the repository containing dir, create or reuse its private clone
 * under cache_root (NULL: $XDG_CACHE_HOME/trail/flame or ~/.cache/...),
 * and take the cache lock.  A clone whose objects are gone from the user's
 * repository (history rewritten and gc'd, repository re-created) is
 * recreated, with a note.  Returns 0 or -1 (error printed).
 */
int flame_repo_open(struct flame_repo *r, const char *dir, const char *cache_root);
/* Open an existing clone from inside it (the probe, run by git bisect). */
int flame_repo_open_clone(struct flame_repo *r, const char *clone_dir);
void flame_repo_release(struct flame_repo *r);

/* Resolve rev in the user's repository (read only) to a full commit id. */
int flame_repo_resolve(struct flame_repo *r, const char *rev, char out[41]);
/* Resolve rev inside the private clone (HEAD during a bisect). */
int flame_clone_resolve(struct flame_repo *r, const char *rev, char out[41]);
/* Subject, author, date of a commit (release with flame_commit_release). */
int flame_repo_commit(struct flame_repo *r, const char *id, struct flame_commit *c);
void flame_commit_release(struct flame_commit *c);
/* 1 when a is an ancestor of b, 0 when not, -1 on error. */
int flame_repo_is_ancestor(struct flame_repo *r, const char *a, const char *b);
/* Commits in good..bad, oldest first (full ids); extra args (pathspec) may follow. */
int flame_repo_range(struct flame_repo *r, const char *good, const char *bad,
		     struct string_list *out);
/* First parent of id ("" for a root commit). */
int flame_repo_parent(struct flame_repo *r, const char *id, char out[41]);

/* Number of parents of commit id (2 or more: a merge), or -1. */
int flame_repo_parents(struct flame_repo *r, const char *id);
/*
 * The commits merge brought in (merge^1..merge, oldest first) that touched
 * func as defined in file (git log -L), or that touched file when func
 * cannot be followed there, or all of them when func is NULL; appended to
 * out.  0 or -1.
 */
int flame_repo_merged(struct flame_repo *r, const char *merge, const char *func,
		      const char *file, struct string_list *out);

/*
 * Run git with argv (without "git") in the clone; stdout into out (may be
 * NULL: discarded).  Returns git's exit code or -1.
 */
int flame_git(struct flame_repo *r, struct strbuf *out, const char *const *argv);

/*
 * Where func is defined at commit rev: the first line of a C, C++, Rust or
 * Go source that names it followed by '(' and neither starts with a blank
 * (a call inside a body) nor ends with ';' (a declaration) - git grep, so
 * no checkout is needed.  0 with *file (malloc'd) and *line, or -1.
 */
int flame_repo_find_definition(struct flame_repo *r, const char *func, const char *rev,
			       char **file, unsigned *line);
/*
 * Which of names (C identifiers; others are ignored) have such a
 * definition at rev: appended to defined.  One git grep per 100 names.
 * 0 or -1.
 */
int flame_repo_defined(struct flame_repo *r, const char *rev, const struct string_list *names,
		       struct string_list *defined);

/*
 * Environment variable that names one trail flame run; its probes inherit
 * it.  A failed build is reused only within the run that failed it.
 */
#define FLAME_RUN_ENV "TRAIL_FLAME_RUN"

/*
 * The build of one commit: a detached worktree of the clone in
 * CACHE/builds/<id>-<key>/src, built there with build_cmd (sh -c, killed
 * after timeout seconds when that is > 0), its log in .../build.log and its
 * exit status in .../status.  The key hashes build_cmd and the compiler
 * and flag variables of the environment (CC, CFLAGS, ...: see repo.c), so
 * a different command or CFLAGS never reuses an old binary.  A later
 * request reuses a successful build; a failed one only within the same
 * run (FLAME_RUN_ENV), else it is built again.
 * Returns 0 when built, 1 when the build failed (or timed out), -1 on
 * error.  *dir receives the worktree path (malloc'd) in both first cases.
 */
int flame_build(struct flame_repo *r, const char *id, const char *build_cmd, double timeout,
		char **dir, int *cached);
/*
 * Submodules (submodules.c): a build worktree gets every submodule its
 * commit records, initialised recursively from where the user's repository
 * has them (its .git/modules, its configured URL, else .gitmodules'),
 * without writing to the user's repository.  trail flame --no-submodules
 * sets FLAME_SUBMODULES_ENV to 0 for itself and its probes (and the build
 * key records it).  0, or -1 after trail_error().
 */
#define FLAME_SUBMODULES_ENV "TRAIL_FLAME_SUBMODULES"
int flame_submodules_enabled(void);
int flame_submodules_checkout(struct flame_repo *r, const char *worktree);
/* git -C dir argv...: its exit code, stdout into out (may be NULL). */
int flame_git_in(const char *dir, struct strbuf *out, const char *const *argv);

/* Path of the build log of (id, build_cmd) (malloc'd). */
char *flame_build_log(struct flame_repo *r, const char *id, const char *build_cmd);

#endif
