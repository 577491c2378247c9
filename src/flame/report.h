/*
 * report.h - what trail flame writes for people and programs: report.json
 * (schema in docs/flame.md), report.md and report.html in the --out
 * directory, all from the request and the answer of a session.
 */
#ifndef TRAIL_FLAME_REPORT_H
#define TRAIL_FLAME_REPORT_H

#include "core/strbuf.h"
#include "flame/investigation.h"

/*
 * The function the answer names: the one bisected on, else the one that
 * blocks longer (off-CPU profile), else the one the suspect changed; NULL.
 */
const char *flame_session_named_function(const struct flame_session *s);
/*
 * The headline rule: a commit is named as the suspect only when the
 * verdict is regression (its split confirmed).  An inconclusive answer
 * names none; the commit the search ended at is then a candidate, shown
 * below the range the probes established (flame_session_candidate()).
 */
int flame_session_has_suspect(const struct flame_session *s);
int flame_session_candidate(const struct flame_session *s);

struct flame_report_facts;

/*
 * report.html (report_html.c): a self-contained page of the answer, the
 * tables, the probes' chart, the suspect's diff and the handoffs, from the
 * session, the gathered facts (report_facts.h) and the text of diff.svg
 * (NULL: none was drawn).  Pure: writes into sb only.
 */
void flame_report_html(const struct flame_session *s, const struct flame_report_facts *f,
		       const char *diff_svg, struct strbuf *sb);

/* report.md's suspect-diff and handoff sections (report_handoffs.c). */
void flame_report_md_handoffs(const struct flame_session *s, const struct flame_report_facts *f,
			      struct strbuf *sb);

/*
 * Every culprit when more than one commit explains the change
 * (report_culprits.c): a table in report.md and report.html, and an
 * "also culprit:" line each in the terminal's answer.
 */
void flame_report_md_culprits(const struct flame_session *s, struct strbuf *sb);
void flame_report_html_culprits(const struct flame_session *s, struct strbuf *sb);
void flame_report_summary_culprits(const struct flame_session *s, struct strbuf *out);
/*
 * The suspect's evidence, in one sentence with no text from outside:
 * its step beside its parent with the interval and the one-sided p-value
 * adjusted for the looks ("+109.6 ms CPU [+70.37, +148.9] beside its
 * parent, p = 0.0003"), "exact counts" for a counted metric that repeats,
 * or why there is none.  Not a probability that the commit is a culprit.
 */
void flame_report_evidence(const struct flame_session *s, struct strbuf *sb);
/*
 * The unit the culprits' steps are summed in with the ends' change: a
 * CPU time when every step is one (its unit_ms known), else bytes when
 * every step is an allocation profile's (unit_bytes) and the ends' bytes
 * per run are known; NONE: the steps are not summed.
 */
enum flame_sum_unit { FLAME_SUM_NONE, FLAME_SUM_MS, FLAME_SUM_BYTES };
enum flame_sum_unit flame_culprits_sum_unit(const struct flame_session *s);
/* "ms CPU per run", "bytes allocated per run" or "bytes live at the peak per run" */
const char *flame_culprits_sum_unit_name(const struct flame_session *s);
/* A culprit's step per unit of its measure in the sum's unit (0 without one). */
double flame_culprit_sum_scale(const struct flame_session *s, const struct flame_culprit *c);
/* The ends' mean per run in the sum's unit (side 0 good, 1 bad), and its change's standard error. */
double flame_culprits_ends(const struct flame_session *s, int side);
double flame_culprits_ends_se(const struct flame_session *s);
/* Terminal: each culprit's step in the sum's unit with its part of the ends' change, and the rest. */
void flame_report_summary_effects(const struct flame_session *s, struct strbuf *out);
/* The culprits' steps summed, in the sum's unit per run. */
double flame_culprits_sum(const struct flame_session *s);
/*
 * Can the steps be read as parts of the ends' change?  Not when even their
 * intervals' lower ends sum to more: other commits of the range made it
 * faster (the demo's history has a speed-up: +834 ms [+756, +913] for the
 * culprit against +629 between the ends), or the load moved between the
 * ends and the re-probes.  Then the rest is named for what it may be, not
 * "unexplained".
 */
int flame_culprits_add_up(const struct flame_session *s);

/* Write report.json, report.md, report.html into s->req.out_dir; 0 or -1. */
int flame_report_write(const struct flame_session *s);

/*
 * The answer for the terminal (hot function, suspect commit, confidence,
 * report path) appended to out, every string from outside escaped by
 * escape_term(); reads only the session, writes nothing else.
 */
void flame_report_summary(const struct flame_session *s, struct strbuf *out);

#endif
