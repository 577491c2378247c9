/*
 * report_facts.h - what trail flame's report shows beyond the answer,
 * gathered once when the report is written: the suspect commit's diff and
 * the later commits that touched the same function (from the private
 * clone, never the user's worktree), the environment of the run (for the
 * Scout handoff) and which artifact files exist in the report directory.
 * The writers (report_html.c, report_handoffs.c) are pure functions of a
 * session and these facts, so tests can build both by hand.
 */
#ifndef TRAIL_FLAME_REPORT_FACTS_H
#define TRAIL_FLAME_REPORT_FACTS_H

#include "core/strbuf.h"
#include "core/string_list.h"

struct flame_session;

struct flame_report_facts {
	struct strbuf culprit_diff;	/* git show --stat -p of the suspect, capped; empty: none */
	int culprit_diff_cut;		/* the diff was longer than the cap */
	struct string_list later;	/* "id subject" of commits after the suspect, up to
					 * bad, that touched the function (git log -L) or,
					 * without one, the suspect's files */
	int later_by_function;		/* later was found with git log -L */
	struct string_list env;		/* "name\tvalue": kernel, governor, nproc, load, env vars */
	struct string_list files;	/* artifact files present in the report directory */
	struct strbuf reading;		/* trail explain's text for bad.folded; empty: none */
};

void flame_report_facts_init(struct flame_report_facts *f);
void flame_report_facts_release(struct flame_report_facts *f);

/*
 * Fill f for session s: git plumbing runs in s->st.repo's private clone
 * when it is open; environment facts come from this machine, now.  Facts
 * that cannot be had are left out, never an error.
 */
void flame_report_facts_gather(const struct flame_session *s, struct flame_report_facts *f);

/* 1 when name (e.g. "diff.svg") is among f->files. */
int flame_report_has_file(const struct flame_report_facts *f, const char *name);

/*
 * The CI guard's allowed slowdown, in percent: half the measured change of
 * the metric (flame_report_change()), rounded down, at least 1; 5
 * when nothing rose.  A regression of that size fails the guard, noise
 * well below it does not.
 */
unsigned flame_report_guard_percent(const struct flame_session *s);
/* The metric's change, bad / good - 1 (the session's paired estimate when it has one). */
double flame_report_change(const struct flame_session *s);

/* One output kind's escapers, for sentences written once for two writers. */
struct flame_report_esc {
	void (*text)(struct strbuf *sb, const char *s);	/* prose */
	void (*code)(struct strbuf *sb, const char *s);	/* an identifier, path or command */
};

/*
 * The Fix handoff's sentences about reverting (report_revert.c), from the
 * reverts the session tried: applies cleanly or conflicts in which files,
 * the later commits that touched them, the options; none offered on an
 * inconclusive answer.
 */
void flame_report_revert_text(const struct flame_session *s, const struct flame_report_esc *e,
			      struct strbuf *sb);
/*
 * The revert command to offer into cmd: the suspect's when its revert
 * applied, else the suspect's with the later commits when that applied;
 * 1 when one is offered, 0 for none (inconclusive, conflicts, untried).
 */
int flame_report_revert_offer(const struct flame_session *s, struct strbuf *cmd);

/*
 * What the metric did from good to bad, in one sentence with no text from
 * outside (safe in Markdown and HTML): the paired estimate when the ends
 * were run in pairs, named as such, beside what the medians say.
 */
void flame_report_change_text(const struct flame_session *s, struct strbuf *sb);

/*
 * The change between the ends with its interval and what it says of
 * --min-effect, in one sentence with no text from outside (safe in
 * Markdown and HTML): "+5.2% [+3.4%, +7.1%] (98.7% interval, 20 ABBA
 * pairs): at least the 3% minimum", or, when the interval's lower end
 * does not clear it (flame_change_at_least()), "...: it may be below the
 * 3% minimum (narrowed on its estimate)".  0 and nothing written when the
 * ends gave no interval.
 */
int flame_report_min_effect_text(const struct flame_session *s, struct strbuf *sb);

/* The two trail bench lines of the Radar handoff (save on good, check on a PR). */
void flame_report_guard_cmds(const struct flame_session *s, struct strbuf *sb);

/*
 * The hunk of a unified diff that starts at hunk ("@@ ...") concerns func:
 * its header's context or one of its lines names func as a word.
 */
int flame_report_hunk_names(const char *hunk, size_t len, const char *func);
/*
 * Which function a hunk of the suspect's diff concerns: the named function
 * (flame_session_named_function), else the one the suspect changed when
 * that differs (the hot function calls it); NULL for neither.
 */
const char *flame_report_hunk_function(const struct flame_session *s, const char *hunk, size_t len);

#endif
