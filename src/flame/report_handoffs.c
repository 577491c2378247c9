/*
 * report_handoffs.c - the sections of report.md that report.html also
 * has beyond the answer: the bad profile's reading aids, the suspect
 * commit's diff (hunks naming the hot
 * function listed) and the four handoffs (Fix, Optimise, Guard in CI, Check the environment),
 * in escaped Markdown (core/escape.h).
 */
#include "flame/report.h"
#include "core/verdict.h"
#include "flame/report_facts.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <string.h>

static void md(struct strbuf *sb, const char *s)
{
	if (s)
		escape_md_text(sb, s, strlen(s));
}

static void mdc(struct strbuf *sb, const char *s)
{
	if (s)
		escape_md_code(sb, s, strlen(s), 0);
}

/* The @@ headers of the hunks that name func, as a list. */
static void hot_hunks(const struct flame_session *s, const struct flame_report_facts *f, struct strbuf *sb)
{
	const char *p = f->culprit_diff.buf, *end = p + f->culprit_diff.len;
	const char *hunk = NULL, *file = NULL;
	size_t file_len = 0;
	int any = 0;

	while (p <= end) {
		const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		const char *next = nl ? nl + 1 : end;
		int boundary = p == end || !strncmp(p, "@@", 2) || !strncmp(p, "diff --git ", 11);

		if (boundary && hunk && flame_report_hunk_function(s, hunk, (size_t)(p - hunk))) {
			const char *hnl = memchr(hunk, '\n', (size_t)(p - hunk));

			strbuf_addstr(sb, any ? "" : "Hunks that name the function (or the one the commit changed):\n\n");
			strbuf_addstr(sb, "- ");
			if (file)
				escape_md_code(sb, file, file_len, 0);
			strbuf_addch(sb, ' ');
			escape_md_code(sb, hunk, hnl ? (size_t)(hnl - hunk) : (size_t)(p - hunk), 0);
			strbuf_addch(sb, '\n');
			any = 1;
		}
		if (p == end)
			break;
		if (!strncmp(p, "diff --git ", 11)) {
			const char *b = strstr(p, " b/");

			hunk = NULL;
			if (b && b < next) {
				file = b + 3;
				file_len = (size_t)((nl ? nl : end) - file);
			}
		} else if (!strncmp(p, "@@", 2)) {
			hunk = p;
		}
		p = next;
	}
	if (any)
		strbuf_addch(sb, '\n');
}

static void write_commit(const struct flame_session *s, const struct flame_report_facts *f,
			 struct strbuf *sb)
{
	const char *func = flame_session_named_function(s);

	if (!f->culprit_diff.len)
		return;
	strbuf_addstr(sb, "\n## The suspect commit\n\n");
	if (func)
		hot_hunks(s, f, sb);
	escape_md_code_block(sb, f->culprit_diff.buf, f->culprit_diff.len, "diff");
	if (f->culprit_diff_cut)
		strbuf_addstr(sb, "\n(cut: the diff is longer; run `git show` for all of it)\n");
}

void flame_report_md_handoffs(const struct flame_session *s, const struct flame_report_facts *f,
			      struct strbuf *sb)
{
	const char *fn = flame_session_named_function(s);
	int regression = s->ans.outcome == VERDICT_REGRESSION;
	struct strbuf c = STRBUF_INIT;
	size_t i;

	if (f->reading.len) {
		strbuf_addstr(sb, "\n## Reading aids (the bad profile)\n\nWhat `trail explain bad.folded` "
				  "finds:\n\n");
		escape_md_code_block(sb, f->reading.buf, f->reading.len, NULL);
	}
	write_commit(s, f, sb);
	strbuf_addstr(sb, "\n## Handoffs\n");
	if (s->ans.narrow.culprit_info.subject) {
		static const struct flame_report_esc esc = { md, mdc };

		strbuf_addstr(sb, "\n### Fix: revert or patch the suspect\n\n");
		flame_report_revert_text(s, &esc, sb);
		strbuf_addstr(sb, "\n\n");
		if (flame_report_revert_offer(s, &c))
			escape_md_code_block(sb, c.buf, c.len, "sh");
		if (f->later.nr) {
			strbuf_addf(sb, "\nLater commits in the range that touched %s:\n\n",
				    f->later_by_function ? "the function's lines (`git log -L`)" :
				    "the suspect's files");
			for (i = 0; i < f->later.nr; i++) {
				const char *it = f->later.items[i];

				strbuf_addf(sb, "- `%.12s` ", it);
				md(sb, strlen(it) > 41 ? it + 41 : "");
				strbuf_addch(sb, '\n');
			}
		}
	}
	if (regression || (s->ans.target.hot.nr && s->ans.target.hot.items[0].confirmed)) {
		strbuf_addstr(sb, "\n### Optimise: the hot code\n\n- hot function: ");
		mdc(sb, fn ? fn : s->ans.target.hot.nr ? s->ans.target.hot.items[0].name : "(none)");
		if (s->ans.suspects.def_file) {
			strbuf_addstr(sb, " in ");
			mdc(sb, s->ans.suspects.def_file);
			strbuf_addf(sb, " line %u", s->ans.suspects.def_line);
		}
		strbuf_addstr(sb, "\n- hottest frame: ");
		if (s->ans.target.frame) {
			mdc(sb, s->ans.target.frame);
			strbuf_addstr(sb, " (library or kernel code under the function)\n");
		} else if (s->ans.target.hot.nr) {
			mdc(sb, s->ans.target.hot.items[0].name);
			strbuf_addf(sb, " %+.1f pp self share\n", 100 * s->ans.target.hot.items[0].delta_self);
		} else {
			strbuf_addstr(sb, "none rose\n");
		}
		if (s->ans.narrow.culprit_info.subject) {
			strbuf_addf(sb, "- suspect: `%.12s` ", s->ans.narrow.culprit_info.id);
			md(sb, s->ans.narrow.culprit_info.subject);
			strbuf_addch(sb, '\n');
		}
		strbuf_addstr(sb, "- graphs:");
		if (flame_report_has_file(f, "diff.svg"))
			strbuf_addstr(sb, " [diff.svg](diff.svg)");
		if (flame_report_has_file(f, "bad.svg"))
			strbuf_addstr(sb, " [bad.svg](bad.svg)");
		if (flame_report_has_file(f, "bad.folded"))
			strbuf_addstr(sb, " [bad.folded](bad.folded)");
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "\n### Guard in CI: against its return\n\n");
	flame_report_change_text(s, sb);
	strbuf_addf(sb, "; the guard fails a change %u%% or more slower than the baseline:\n\n",
		    flame_report_guard_percent(s));
	strbuf_reset(&c);
	flame_report_guard_cmds(s, &c);
	escape_md_code_block(sb, c.buf, c.len, "sh");
	if (!regression) {
		strbuf_addstr(sb, "\n### Check the environment: the symptom persists?\n\n"
				  "The profiles of good and bad do not differ enough to name a commit. If the "
				  "slowdown is real where it was seen, compare these facts of this run with "
				  "that machine:\n\n| fact | value |\n| --- | --- |\n");
		for (i = 0; i < f->env.nr; i++) {
			const char *tab = strchr(f->env.items[i], '\t');

			if (!tab)
				continue;
			strbuf_addstr(sb, "| ");
			escape_md_text(sb, f->env.items[i], (size_t)(tab - f->env.items[i]));
			strbuf_addstr(sb, " | ");
			escape_md_code(sb, tab + 1, strlen(tab + 1), 1);
			strbuf_addstr(sb, " |\n");
		}
		strbuf_addstr(sb, "\nAlso: the input (size, contents), the compiler and its flags, the "
				  "libraries loaded (`ldd`), other load on the machine, thermal throttling.\n");
	}
	strbuf_release(&c);
}
