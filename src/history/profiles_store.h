/*
 * profiles_store.h - the whole profile of each stored result, beside the
 * result's top functions: a git note per commit under
 * refs/notes/trail-profiles, one JSON line per environment key and metric
 * (as refs/notes/trail, so 'git notes merge -s cat_sort_uniq' joins two
 * machines' notes) holding the pooled folded stacks with their weight
 * header.  git stores the note zlib-compressed and, packed, as deltas
 * against the neighbouring commits' profiles.
 */
#ifndef TRAIL_HISTORY_PROFILES_STORE_H
#define TRAIL_HISTORY_PROFILES_STORE_H

#include "core/string_list.h"
#include "history/result.h"
#include "profile/folded.h"

#define HISTORY_PROFILES_REF "refs/notes/trail-profiles"
/* a profiles note larger than this is refused when read (a note is untrusted input) */
#define HISTORY_PROFILE_NOTE_MAX ((size_t)256 << 20)

/*
 * Store p (the pooled profile of r's profiled runs) as commit's profile
 * for r's key and metric, keeping the note's other lines.  0 or -1.
 */
int history_profile_put(const char *top, const char *commit, const struct history_result *r,
			const struct folded_profile *p);

/*
 * Add commit's stored profile for key and metric to out's column
 * (0 or 1; its weight header into out->weight); *runs (may be NULL) gets
 * the profiled runs it pools.  0, 1 when none is stored, -1 on a corrupt
 * note (error naming the commit).
 */
int history_profile_get(const char *top, const char *commit, const char *key, const char *metric,
			struct folded_profile *out, int column, double *runs);

/*
 * The same for many commits in two git processes (notes list, one
 * cat-file --batch): out[i] (initialised) gets commits' i-th profile and
 * found[i] says whether it is stored, runs[i] (unless runs is NULL) how
 * many runs it sums.  0, or -1 on a corrupt note.
 */
int history_profiles_get_many(const char *top, const struct string_list *commits, const char *key,
			      const char *metric, struct folded_profile *out, int *found,
			      double *runs);

/*
 * prune: remove the profiles of every commit but those of keep (full
 * ids), then rewrite refs/notes/trail-profiles as one commit so the
 * removed profiles' objects can be collected.  *removed counts them.  0 or -1.
 */
int history_profiles_prune(const char *top, const struct string_list *keep, size_t *removed,
			   size_t *kept);

#endif
