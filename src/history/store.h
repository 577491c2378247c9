/*
 * store.h - trail history's results in the user's repository, as git notes
 * under refs/notes/trail: read all at once (git notes list + one git
 * cat-file --batch), written one commit at a time (git notes add -f -F),
 * never through the work tree or the index.  Also the first-parent list
 * of a range, in the order series are drawn.
 */
#ifndef TRAIL_HISTORY_STORE_H
#define TRAIL_HISTORY_STORE_H

#include "core/git_rev.h"
#include "core/string_list.h"
#include "history/result.h"

#include <stdint.h>

#define HISTORY_NOTES_REF "refs/notes/trail"
/* detect --bisect's answers (trail flame's), one note per first commit after a change */
#define HISTORY_BISECT_REF "refs/notes/trail-bisect"

struct history_entry {
	char commit[41];
	struct history_result *results;	/* one per environment key and metric */
	size_t nresults;
};

/* A note (or lines of it) left out when the store was read, and why. */
struct history_skip {
	char commit[41];
	char *why;		/* the first skipped line's reason */
	unsigned lines;		/* lines of the note skipped (1 for a note not read at all) */
};

/* Default budget of one note, bytes (--max-note-size): a result is a few KiB. */
#define HISTORY_NOTE_BUDGET (1024 * 1024)

struct history_store {
	char *top;			/* the user's repository (work tree top or git dir) */
	struct history_entry *entries;	/* sorted by commit id */
	size_t nr, alloc;
	struct history_skip *skipped;	/* in the order met */
	size_t nskipped;
};

/*
 * Read every note of refs/notes/trail in the repository at top.  Notes
 * are what anyone who can push wrote: a note over max_note bytes is not
 * read, a line that is not a result or holds numbers no measurement gives
 * (history/plausible.h) is left out, each remembered in s->skipped; the
 * rest is read.  When two lines of a note have the same key and metric
 * (two machines' notes merged) the later measurement wins.  0, or -1 when
 * git fails.
 */
int history_store_load(struct history_store *s, const char *top, uint64_t max_note);
void history_store_release(struct history_store *s);
const struct history_entry *history_store_find(const struct history_store *s, const char *commit);
/*
 * The result of commit for env key and metric, or NULL.
 */
const struct history_result *history_store_get(const struct history_store *s, const char *commit,
					       const char *key, const char *metric);
/*
 * Store r for commit (refused, -1, when it is implausible): replaces a result with the same key and metric and
 * keeps the others; rewrites the commit's note.  0 or -1.
 */
int history_store_put(struct history_store *s, const char *commit, const struct history_result *r);

/* Write text as commit's note under ref (git notes add -f).  0 or -1. */
int history_note_write(const char *top, const char *ref, const char *commit, const struct strbuf *text);
/* commit's note under ref into out: 0, or 1 when there is none (or git fails). */
int history_note_read(const char *top, const char *ref, const char *commit, struct strbuf *out);

/*
 * Full ids of the first-parent commits of range (resolved through
 * core/git_rev.h: from..to, or all of to's first-parent ancestors when
 * from is ""), oldest first, into ids; their author dates (YYYY-MM-DD)
 * and subjects into dates and subjects unless NULL.  0 or -1.
 */
int history_first_parents(const char *top, const struct git_range *range, struct string_list *ids,
			  struct string_list *dates, struct string_list *subjects);

#endif
