/*
 * revert_check.h - whether reverting commits on top of a revision applies,
 * found by doing it: git revert --no-commit (-m 1 for a merge) in a
 * throwaway worktree of trail's private clone, never the user's, and, when
 * it conflicts, which files conflict and which later commits touched them.
 * The report's revert sentences and the recommendation read this, not a
 * guess from git log.
 */
#ifndef TRAIL_FLAME_REVERT_CHECK_H
#define TRAIL_FLAME_REVERT_CHECK_H

#include "measure/repo.h"

enum flame_revert_state {
	FLAME_REVERT_UNTRIED = 0,	/* no suspect, no clone, or git failed otherwise */
	FLAME_REVERT_CLEAN,		/* applies cleanly */
	FLAME_REVERT_CONFLICTS,		/* stops with conflicts in files */
};

struct flame_revert_check {
	enum flame_revert_state state;
	struct string_list commits;	/* the commits reverted, newest first (full ids) */
	int merge;			/* -m 1 was given (one of them is a merge) */
	struct string_list conflicts;	/* paths left unmerged, sorted */
	struct string_list later;	/* "id subject": commits after the oldest reverted one,
					 * up to onto, that touched a conflicting path */
};

void flame_revert_check_init(struct flame_revert_check *c);
void flame_revert_check_release(struct flame_revert_check *c);

/*
 * Revert ids[0..n) (newest first; merge: any is a merge) on top of onto
 * in a worktree of r's clone under its cache, then remove the worktree.
 * Fills c; 0, or -1 when it could not be tried (c->state UNTRIED).
 */
int flame_revert_try(struct flame_repo *r, const char *onto, const char *const *ids, size_t n,
		     int merge, struct flame_revert_check *c);

/* "git revert [-m 1] ID..." for c's commits into sb. */
void flame_revert_command(const struct flame_revert_check *c, struct strbuf *sb);

#endif
