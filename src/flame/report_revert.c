/*
 * report_revert.c - the Fix handoff's sentences about reverting, written
 * once for report.md and report.html (each passes its escapers) from the
 * reverts the session tried (ans.fix.revert, revert_later, revert_all:
 * measure/revert_check.h) - the same facts report.json carries - so every
 * claim that a revert applies or conflicts was seen in git.
 */
#include "flame/report.h"
#include "flame/report_facts.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <string.h>

#define TRIED "(tried with git revert --no-commit in trail's private clone)"

static void code_id(const struct flame_report_esc *e, struct strbuf *sb, const char *id)
{
	char shortid[13];

	snprintf(shortid, sizeof(shortid), "%.12s", id);
	e->code(sb, shortid);
}

static void paths(const struct flame_report_esc *e, struct strbuf *sb, const struct string_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		strbuf_addstr(sb, i ? (i + 1 == l->nr ? " and " : ", ") : "");
		e->code(sb, l->items[i]);
	}
}

static void outcome(const struct flame_report_esc *e, struct strbuf *sb,
		    const struct flame_revert_check *c)
{
	if (c->state == FLAME_REVERT_CLEAN) {
		strbuf_addstr(sb, "applies cleanly");
	} else {
		strbuf_addstr(sb, "conflicts in ");
		paths(e, sb, &c->conflicts);
	}
}

int flame_report_revert_offer(const struct flame_session *s, struct strbuf *cmd)
{
	const struct flame_revert_check *c = &s->ans.fix.revert;

	if (s->ans.outcome != VERDICT_REGRESSION || !s->ans.narrow.culprit_info.subject)
		return 0;
	if (c->state == FLAME_REVERT_CONFLICTS && s->ans.fix.revert_later.state == FLAME_REVERT_CLEAN)
		c = &s->ans.fix.revert_later;
	if (c->state != FLAME_REVERT_CLEAN)
		return 0;
	flame_revert_command(c, cmd);
	return 1;
}

void flame_report_revert_text(const struct flame_session *s, const struct flame_report_esc *e,
			      struct strbuf *sb)
{
	const struct flame_revert_check *c = &s->ans.fix.revert, *l = &s->ans.fix.revert_later;
	struct strbuf cmd = STRBUF_INIT;
	size_t i;

	if (!s->ans.narrow.culprit_info.subject)
		return;
	if (s->ans.outcome != VERDICT_REGRESSION) {
		e->text(sb, "No revert is offered: the answer is inconclusive, so ");
		code_id(e, sb, s->ans.narrow.culprit_info.id);
		e->text(sb, " is not shown to cause the change.");
		return;
	}
	if (c->state == FLAME_REVERT_UNTRIED) {
		e->text(sb, "Whether reverting ");
		code_id(e, sb, s->ans.narrow.culprit_info.id);
		e->text(sb, " applies on top of bad was not tried (no private clone to try it in); "
			"check before relying on it.");
		return;
	}
	e->text(sb, "Reverting ");
	code_id(e, sb, s->ans.narrow.culprit_info.id);
	e->text(sb, " on top of bad (");
	code_id(e, sb, s->ans.ends.bad);
	e->text(sb, ") ");
	outcome(e, sb, c);
	e->text(sb, " " TRIED ".");
	if (c->state == FLAME_REVERT_CONFLICTS) {
		if (c->later.nr) {
			e->text(sb, c->later.nr == 1 ? " A later commit touched " :
				" Later commits touched ");
			e->text(sb, c->conflicts.nr == 1 ? "that file: " : "those files: ");
			for (i = 0; i < c->later.nr; i++) {
				strbuf_addstr(sb, i ? "; " : "");
				code_id(e, sb, c->later.items[i]);
				if (strlen(c->later.items[i]) > 41) {
					strbuf_addch(sb, ' ');
					e->text(sb, c->later.items[i] + 41);
				}
			}
			e->text(sb, ".");
		}
		if (l->state != FLAME_REVERT_UNTRIED) {
			e->text(sb, c->later.nr == 1 ? " Reverting it together with that commit (" :
				" Reverting it together with those commits (");
			flame_revert_command(l, &cmd);
			e->code(sb, cmd.buf);
			e->text(sb, ") ");
			outcome(e, sb, l);
			e->text(sb, ".");
		}
		e->text(sb, " Otherwise patch the slow path in place (the suspect's diff is in this report).");
	}
	if (s->ans.fix.revert_all.state != FLAME_REVERT_UNTRIED) {
		strbuf_reset(&cmd);
		flame_revert_command(&s->ans.fix.revert_all, &cmd);
		e->text(sb, " Reverting every culprit together (");
		e->code(sb, cmd.buf);
		e->text(sb, ") ");
		outcome(e, sb, &s->ans.fix.revert_all);
		e->text(sb, ".");
	}
	strbuf_release(&cmd);
}
