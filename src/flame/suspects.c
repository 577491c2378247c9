/*
 * suspects.c - what git says about the hot function: the commits in the
 * range that touched it or its callees (git log -L), the function a
 * suspect commit changed (hunk headers), and the size of the culprit for
 * the revert-or-patch recommendation.
 */
#include "flame/steps.h"
#include "flame/decide.h"
#include "flame/report.h"
#include "measure/source_name.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_suspects_of(struct flame_session *s, const char *func, int is_target,
			    unsigned char *mark)
{
	struct strbuf spec = STRBUF_INIT, range = STRBUF_INIT, out = STRBUF_INIT;
	char *file = NULL, *l, *save = NULL, *name = flame_source_name(func);
	unsigned line;

	if (flame_repo_find_definition(&s->st.repo, func, s->ans.bad, &file, &line))
		goto out;
	if (is_target) {
		s->ans.def_file = xstrdup(file);
		s->ans.def_line = line;
	}
	strbuf_addf(&spec, "-L:%s:%s", name, file);
	strbuf_addf(&range, "%s..%s", s->ans.good, s->ans.bad);
	{
		const char *argv[] = { "log", "-s", "--format=%H", spec.buf, range.buf, NULL };

		if (flame_git(&s->st.repo, &out, argv) != 0)
			goto out;
	}
	for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t i;

		for (i = 0; i < s->st.range.nr; i++)
			if (!strcmp(s->st.range.items[i], l))
				mark[i] |= is_target ? 2 : 1;
	}
out:
	free(file);
	free(name);
	strbuf_release(&spec);
	strbuf_release(&range);
	strbuf_release(&out);
}

/* The functions func calls, by samples in the bad profile (at most max). */
static void callees(struct flame_session *s, const char *func, struct string_list *out,
		    size_t max)
{
	size_t k, flen = strlen(func);
	struct string_list seen = STRING_LIST_INIT;

	for (k = 0; k < s->st.nruns[1] && seen.nr < max; k++) {
		const struct folded_profile *p = &s->st.runs[1][k].folded;
		uint32_t id;

		for (id = 0; id < p->stacks.nr && seen.nr < max; id++) {
			const char *st = intern_str(&p->stacks, id), *f = st, *next;

			while ((next = strchr(f, ';'))) {
				if ((size_t)(next - f) == flen && !memcmp(f, func, flen)) {
					const char *g = next + 1, *e = strchr(g, ';');
					char *name = e ? xstrndup(g, (size_t)(e - g)) : xstrdup(g);

					if (strcmp(name, func) && !string_list_has(&seen, name) &&
					    !strchr(name, '['))
						string_list_append(&seen, name);
					free(name);
					break;
				}
				f = next + 1;
			}
		}
	}
	for (k = 0; k < seen.nr; k++)
		string_list_append(out, seen.items[k]);
	string_list_clear(&seen);
}

/*
 * The functions func's body calls, read from its source at the bad end:
 * inlined callees never appear in the profile, but they are still code
 * that can make func slower.
 */
static void lexical_callees(struct flame_session *s, const char *func, struct string_list *out,
			    size_t max)
{
	static const char *const keywords[] = { "if", "for", "while", "switch", "return",
		"sizeof", "_Alignof", "defined", "__attribute__", NULL };
	struct strbuf spec = STRBUF_INIT, src = STRBUF_INIT;
	const char *argv[] = { "show", NULL, NULL };
	unsigned line = 1;
	char *p, *end;
	int depth = 0, started = 0;

	if (!s->ans.def_file)
		return;
	strbuf_addf(&spec, "%s:%s", s->ans.bad, s->ans.def_file);
	argv[1] = spec.buf;
	if (flame_git(&s->st.repo, &src, argv) != 0)
		goto out;
	for (p = src.buf; *p && line < s->ans.def_line; p++)
		line += *p == '\n';
	for (end = p; *end; end++) {
		if (*end == '{') {
			depth++;
			started = 1;
		} else if (*end == '}' && --depth == 0 && started) {
			break;
		}
	}
	while (p < end && out->nr < max) {
		char *id, *q;
		const char *const *k;
		int kw = 0;

		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		id = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		for (q = p; q < end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q >= end || *q != '(')
			continue;
		*p = '\0';
		for (k = keywords; *k; k++)
			kw |= !strcmp(*k, id);
		if (!kw && strcmp(id, func) && !string_list_has(out, id))
			string_list_append(out, id);
		*p = ' ';
	}
out:
	strbuf_release(&spec);
	strbuf_release(&src);
}

/* The commits in the range that touched func or the functions it calls. */
void flame_step_find_suspects(struct flame_session *s, const char *func)
{
	unsigned char *mark = xcalloc(s->st.range.nr ? s->st.range.nr : 1, 1);
	struct string_list calls = STRING_LIST_INIT;
	size_t i, n = 0;

	add_suspects_of(s, func, 1, mark);
	callees(s, func, &calls, 5);
	lexical_callees(s, func, &calls, 12);
	for (i = 0; i < calls.nr; i++)
		add_suspects_of(s, calls.items[i], 0, mark);
	for (i = 0; i < s->st.range.nr; i++)
		n += mark[i] != 0;
	s->ans.suspects = xcalloc(n ? n : 1, sizeof(*s->ans.suspects));
	for (i = 0; i < s->st.range.nr; i++) {
		if (!mark[i])
			continue;
		if (flame_repo_commit(&s->st.repo, s->st.range.items[i],
				      &s->ans.suspects[s->ans.nsuspects].commit))
			continue;
		s->ans.suspects[s->ans.nsuspects++].touches_function = (mark[i] & 2) != 0;
	}
	{
		char *shown = escape_term_dup(func), *file = escape_term_dup(s->ans.def_file);

		if (file)
			note("narrow: %s is defined in %s:%u; %zu commit%s in the range touched it "
			     "or its callees", shown, file, s->ans.def_line, s->ans.nsuspects,
			     s->ans.nsuspects == 1 ? "" : "s");
		else
			note("narrow: cannot find where %s is defined in the repository; no "
			     "suspect set", shown);
		free(shown);
		free(file);
	}
	string_list_clear(&calls);
	free(mark);
}

void flame_step_recommend(struct flame_session *s)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[] = { "show", "--numstat", "--format=", s->ans.culprit, NULL };
	size_t later = 0, i;
	long lines = 0, files = 0;
	int ci = flame_session_range_index(s, s->ans.culprit);
	char *l, *save = NULL;

	for (i = 0; i < s->ans.nsuspects; i++)
		if (s->ans.suspects[i].touches_function &&
		    flame_session_range_index(s, s->ans.suspects[i].commit.id) > ci)
			later++;
	if (!flame_git(&s->st.repo, &out, argv))
		for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			files++;
			lines += strtol(l, &l, 10);
			lines += strtol(l, NULL, 10);
		}
	strbuf_release(&out);
	s->ans.recommendation = flame_recommend(later, files, lines,
						flame_session_named_function(s),
						s->ans.recommendation_reason,
						sizeof(s->ans.recommendation_reason));
}

/*
 * With a flat CPU profile there is no hot function to name; the function
 * the suspect commit changed is the next best answer: git's hunk headers
 * ("@@ -63 +63,3 @@ void flush_output(void)") name the enclosing function.
 */
void flame_step_changed_function(struct flame_session *s)
{
	const char *argv[] = { "show", "--format=", "-U0", s->ans.culprit, NULL };
	struct strbuf out = STRBUF_INIT;
	char *l, *save = NULL;

	if (flame_git(&s->st.repo, &out, argv) != 0)
		goto out;
	for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *h, *paren, *start;

		if (strncmp(l, "@@ ", 3) || !(h = strstr(l + 3, "@@ ")))
			continue;
		/* The identifier before the first '(' that is not an attribute. */
		for (paren = strchr(h + 3, '('); paren; paren = strchr(paren + 1, '(')) {
			char *e = paren;
			int depth = 0;

			while (e > h + 3 && e[-1] == ' ')
				e--;
			start = e;
			while (start > h + 3 && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
				start--;
			if (start == e)
				continue;
			if (!strncmp(start, "__attribute__", 13) || !strncmp(start, "__declspec", 10)) {
				for (; *paren; paren++) {	/* skip the attribute's parentheses */
					depth += *paren == '(';
					depth -= *paren == ')';
					if (!depth)
						break;
				}
				if (!*paren)
					break;
				continue;
			}
			s->ans.changed_function = xstrndup(start, (size_t)(e - start));
			break;
		}
		if (s->ans.changed_function)
			break;
	}
out:
	strbuf_release(&out);
}

void flame_step_merge(struct flame_session *s)
{
	const char *func = flame_session_named_function(s);
	char *shown;
	size_t i;

	if (flame_repo_parents(&s->st.repo, s->ans.culprit) < 2)
		return;
	s->ans.culprit_is_merge = 1;
	if (flame_repo_merged(&s->st.repo, s->ans.culprit, func, s->ans.def_file,
			      &s->ans.merged))
		return;
	shown = escape_term_dup(func ? func : "the code");
	note("narrow: %.12s is a merge; %zu of the commits it merged touched %s%s", s->ans.culprit,
	     s->ans.merged.nr, shown, s->ans.merged.nr ? ":" : "");
	free(shown);
	for (i = 0; i < s->ans.merged.nr; i++) {
		shown = escape_term_dup(s->ans.merged.items[i]);
		note("narrow:   %.12s", shown);
		free(shown);
	}
}
