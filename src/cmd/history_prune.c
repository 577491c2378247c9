/*
 * history_prune.c - 'trail history prune --keep N': the full profiles
 * (refs/notes/trail-profiles) are what grows; keep those of the newest N
 * first-parent commits of --range (default HEAD) and drop the rest, the
 * ref rewritten as one commit so that git gc can reclaim them.  Results
 * (refs/notes/trail) are never pruned: the series stay whole.
 */
#include "cmd/history.h"
#include "core/git_rev.h"
#include "core/error.h"
#include "history/profiles_store.h"

#include <stdio.h>

int history_prune_cmd(struct history_cmd *h)
{
	struct string_list ids = STRING_LIST_INIT, keep = STRING_LIST_INIT;
	struct git_range range;
	size_t i, removed, kept;
	int ret = EXIT_FAILURE_;

	if (!h->keep) {
		trail_error("prune needs --keep N (the newest N commits keep their profiles)");
		return EXIT_USAGE;
	}
	if (h->benches.nr) {
		trail_error("prune works on every bench at once: not with --bench");
		return EXIT_USAGE;
	}
	if (history_cmd_range(h, &range) ||
	    history_first_parents(h->top_dir, &range, &ids, NULL, NULL))
		goto out;
	for (i = ids.nr > h->keep ? ids.nr - h->keep : 0; i < ids.nr; i++)
		string_list_append(&keep, ids.items[i]);
	if (history_profiles_prune(h->top_dir, &keep, &removed, &kept))
		goto out;
	printf("prune: %zu commit(s)' profiles removed, %zu kept (%s rewritten as one commit; "
	       "push it with +%s)\n", removed, kept, HISTORY_PROFILES_REF, HISTORY_PROFILES_REF);
	ret = EXIT_OK;
out:
	string_list_clear(&ids);
	string_list_clear(&keep);
	return ret;
}
