/*
 * suspects.c - what git says about the hot function: the commits in the
 * range that touched it or its callees (git log -L), the function a
 * suspect commit changed (hunk headers), and the size of the culprit for
 * the revert-or-patch recommendation.
 */
#include "flame/session_query.h"
#include "flame/suspects.h"
#include "flame/decide.h"
#include "flame/report.h"
#include "flame/report_facts.h"
#include "measure/definition.h"
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
	struct strbuf spec = STRBUF_INIT, mspec = STRBUF_INIT, range = STRBUF_INIT, out = STRBUF_INIT;
	struct flame_definition def;
	char *l, *save = NULL;

	if (flame_definition_find(&s->st.repo, &s->st.defs, s->ans.ends.bad, func, &def))
		goto out;
	if (is_target) {
		free(s->ans.suspects.def_file);
		s->ans.suspects.def_file = xstrdup(def.file);
		s->ans.suspects.def_line = def.line;
		s->ans.suspects.def_end = def.end;
		s->ans.suspects.def_from_dwarf = def.from_dwarf;
		s->ans.suspects.def_by_macro = def.by_macro;
		free(s->ans.suspects.def_macro_file);
		s->ans.suspects.def_macro_file = def.macro_file ? xstrdup(def.macro_file) : NULL;
		s->ans.suspects.def_macro_line = def.macro_line;
		s->ans.suspects.def_macro_end = def.macro_end;
	}
	/*
	 * the definition's lines, not -L:name: (which can take a prototype or a
	 * macro); for a function a macro made, the macro's #define lines too
	 */
	strbuf_addf(&spec, "-L%u,%u:%s", def.line, def.end, def.file);
	if (def.macro_file)
		strbuf_addf(&mspec, "-L%u,%u:%s", def.macro_line, def.macro_end, def.macro_file);
	strbuf_addf(&range, "%s..%s", s->ans.ends.good, s->ans.ends.bad);
	{
		const char *argv[] = { "log", "-s", "--format=%H", spec.buf, "--end-of-options",
				       range.buf, NULL, NULL };

		if (def.macro_file) {
			/* git log takes several -L: the commits touching either range */
			argv[4] = mspec.buf;
			argv[5] = "--end-of-options";
			argv[6] = range.buf;
		}
		if (flame_git(&s->st.repo, &out, argv) != 0)
			goto out;
	}
	for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t i;

		if (is_target && !string_list_has(&s->st.touching, l))
			string_list_append(&s->st.touching, l);
		for (i = 0; i < s->st.range.nr; i++)
			if (!strcmp(s->st.range.items[i], l))
				mark[i] |= is_target ? 2 : 1;
	}
out:
	flame_definition_release(&def);
	strbuf_release(&spec);
	strbuf_release(&mspec);
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

	if (!s->ans.suspects.def_file)
		return;
	strbuf_addf(&spec, "%s:%s", s->ans.ends.bad, s->ans.suspects.def_file);
	argv[1] = spec.buf;
	if (flame_git(&s->st.repo, &src, argv) != 0)
		goto out;
	for (p = src.buf; *p && line < s->ans.suspects.def_line; p++)
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
	s->ans.suspects.list = xcalloc(n ? n : 1, sizeof(*s->ans.suspects.list));
	for (i = 0; i < s->st.range.nr; i++) {
		if (!mark[i])
			continue;
		if (flame_repo_commit(&s->st.repo, s->st.range.items[i],
				      &s->ans.suspects.list[s->ans.suspects.count].commit))
			continue;
		s->ans.suspects.list[s->ans.suspects.count++].touches_function = (mark[i] & 2) != 0;
	}
	{
		char *shown = escape_term_dup(func), *file = escape_term_dup(s->ans.suspects.def_file);

		if (file)
			note("narrow: %s is defined in %s:%u; %zu commit%s in the range touched it "
			     "or its callees", shown, file, s->ans.suspects.def_line, s->ans.suspects.count,
			     s->ans.suspects.count == 1 ? "" : "s");
		else
			note("narrow: cannot find where %s is defined in the repository; no "
			     "suspect set", shown);
		free(shown);
		free(file);
	}
	string_list_clear(&calls);
	free(mark);
}

/*
 * Try the reverts the report will offer: the suspect's alone and, with
 * several culprits, all of them together (newest first), on top of bad.
 */
static void try_reverts(struct flame_session *s)
{
	const char **ids = xcalloc(s->ans.culprits.count + 1, sizeof(*ids));
	size_t i, k, n = 0;
	int merge = 0;

	ids[0] = s->ans.narrow.culprit;
	flame_revert_try(&s->st.repo, s->ans.ends.bad, ids, 1, s->ans.fix.is_merge, &s->ans.fix.revert);
	if (s->ans.fix.revert.state == FLAME_REVERT_CONFLICTS && s->ans.fix.revert.later.nr) {
		/* the option the report offers then: the later commits (newest first) with it */
		const struct string_list *later = &s->ans.fix.revert.later;
		const char **with = xcalloc(later->nr + 1, sizeof(*with));
		char (*idv)[41] = xcalloc(later->nr, sizeof(*idv));

		for (i = 0; i < later->nr; i++) {
			memcpy(idv[i], later->items[i], 40);
			with[i] = idv[i];
		}
		with[later->nr] = s->ans.narrow.culprit;
		flame_revert_try(&s->st.repo, s->ans.ends.bad, with, later->nr + 1,
				 s->ans.fix.is_merge, &s->ans.fix.revert_later);
		free(with);
		free(idv);
	}
	for (i = 0; i < s->ans.culprits.count; i++) {
		const char *id = s->ans.culprits.list[i].id;
		int at = flame_session_range_index(s, id);

		/* insertion by range position, newest first */
		for (k = n; k > 0 && flame_session_range_index(s, ids[k - 1]) < at; k--)
			ids[k] = ids[k - 1];
		ids[k] = id;
		n++;
		merge |= flame_repo_parents(&s->st.repo, id) > 1;
	}
	if (n > 1)
		flame_revert_try(&s->st.repo, s->ans.ends.bad, ids, n, merge, &s->ans.fix.revert_all);
	free(ids);
}

void flame_step_recommend(struct flame_session *s)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[] = { "show", "--numstat", "--format=", s->ans.narrow.culprit, NULL };
	size_t later = 0, i;
	long lines = 0, files = 0;
	int ci = flame_session_range_index(s, s->ans.narrow.culprit);
	char *l, *save = NULL;

	for (i = 0; i < s->ans.suspects.count; i++)
		if (s->ans.suspects.list[i].touches_function &&
		    flame_session_range_index(s, s->ans.suspects.list[i].commit.id) > ci)
			later++;
	if (!flame_git(&s->st.repo, &out, argv))
		for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			files++;
			lines += strtol(l, &l, 10);
			lines += strtol(l, NULL, 10);
		}
	strbuf_release(&out);
	try_reverts(s);
	s->ans.fix.recommendation = flame_recommend(later, s->ans.fix.revert.state,
						s->ans.fix.revert.conflicts.nr, files, lines,
						flame_session_named_function(s),
						s->ans.fix.recommendation_reason,
						sizeof(s->ans.fix.recommendation_reason));
}

/* The function a hunk header ("@@ -63 +63,3 @@ void flush_output(void)") names, or NULL. */
static char *header_function(const char *l)
{
	const char *h, *paren, *start;

	if (strncmp(l, "@@ ", 3) || !(h = strstr(l + 3, "@@ ")))
		return NULL;
	/* The identifier before the first '(' that is not an attribute. */
	for (paren = strchr(h + 3, '('); paren; paren = strchr(paren + 1, '(')) {
		const char *e = paren;
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
		return xstrndup(start, (size_t)(e - start));
	}
	return NULL;
}

static int is_source(const char *path)
{
	static const char *const exts[] = { ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp",
		".inc", ".rs", ".go", NULL };
	const char *dot = strrchr(path, '.');
	const char *const *e;

	for (e = exts; dot && *e; e++)
		if (!strcmp(dot, *e))
			return 1;
	return 0;
}

/* One hunk of the culprit's diff (-U0) in a source file. */
struct hunk {
	char *path;		/* the file at the culprit */
	char *header;		/* the function its header names, or NULL */
	char *added;		/* the first added line that may start a definition */
	unsigned start, count;	/* its lines at the culprit (count 0: a deletion after start) */
	long size;		/* lines added and removed */
};

static void hunk_clear(struct hunk *h)
{
	free(h->path);
	free(h->header);
	free(h->added);
	memset(h, 0, sizeof(*h));
}

/*
 * name's definition in the file at the culprit overlaps the hunk's lines:
 * a hunk header names the function *before* the hunk, which is not the
 * one changed when the hunk lies after its closing brace (an added
 * function, a changed comment).
 */
static int hunk_in_definition(struct flame_session *s, const struct hunk *h, const char *name)
{
	struct strbuf spec = STRBUF_INIT, text = STRBUF_INIT;
	const char *argv[] = { "show", NULL, NULL };
	unsigned line, end;
	int in = 0;

	strbuf_addf(&spec, "%s:%s", s->ans.narrow.culprit, h->path);
	argv[1] = spec.buf;
	if (!flame_git(&s->st.repo, &text, argv) && flame_definition_in_text(text.buf, name, &line, &end))
		in = h->count ? line <= h->start + h->count - 1 && h->start <= end :
				line <= h->start && h->start + 1 <= end;
	strbuf_release(&spec);
	strbuf_release(&text);
	return in;
}

/* The function the hunk changes, checked against its definition, or NULL. */
static char *hunk_function(struct flame_session *s, const struct hunk *h)
{
	if (h->header && hunk_in_definition(s, h, h->header))
		return xstrdup(h->header);
	if (h->added && hunk_in_definition(s, h, h->added))
		return xstrdup(h->added);
	return NULL;
}

/* The new side of "@@ -a,b +c,d @@": start c and count d (1 when left out). */
static void hunk_lines(const char *l, unsigned *start, unsigned *count)
{
	const char *plus = strstr(l, " +");
	char *e;

	*start = 0;
	*count = 1;
	if (!plus)
		return;
	*start = (unsigned)strtoul(plus + 2, &e, 10);
	if (*e == ',')
		*count = (unsigned)strtoul(e + 1, NULL, 10);
}

/*
 * The function the suspect commit changed.  When the session names one and
 * the commit's diff overlaps its definition's lines (git log -L over the
 * range: st.touching), that function itself; without a definition, when a
 * hunk names it.  Otherwise (a flat profile, or a commit that changed
 * something else) the function of the largest hunk in a source file whose
 * lines lie in that function's definition at the culprit: the one its
 * header names, or one the hunk adds - not the first hunk, which may be
 * configure.ac's, and not a header's function the hunk only follows.
 */
void flame_step_changed_function(struct flame_session *s)
{
	const char *argv[] = { "show", "--format=", "--no-color", "-U0",
			       "--diff-merges=first-parent", s->ans.narrow.culprit, NULL };
	const char *fn = s->ans.target.function;
	struct strbuf out = STRBUF_INIT;
	struct hunk cur;
	char *l, *save = NULL, *best = NULL, *path = NULL;
	long best_size = 0;
	int source = 0, named = 0;

	memset(&cur, 0, sizeof(cur));
	if (fn && s->ans.suspects.def_file && string_list_has(&s->st.touching, s->ans.narrow.culprit)) {
		s->ans.suspects.changed_function = xstrdup(fn);
		return;
	}
	if (flame_git(&s->st.repo, &out, argv) != 0)
		goto out;
	for (l = strtok_r(out.buf, "\n", &save); ; l = strtok_r(NULL, "\n", &save)) {
		int boundary = !l || !strncmp(l, "@@ ", 3) || !strncmp(l, "diff --git ", 11);

		if (boundary && cur.path && cur.size > best_size) {
			char *f = hunk_function(s, &cur);

			if (f) {
				free(best);
				best = f;
				best_size = cur.size;
			}
		}
		if (boundary)
			hunk_clear(&cur);
		if (!l)
			break;
		if (!strncmp(l, "+++ ", 4)) {
			source = is_source(l + 4);
			free(path);
			path = source && !strncmp(l + 4, "b/", 2) ? xstrdup(l + 6) : NULL;
		} else if (!strncmp(l, "@@ ", 3) && path) {
			cur.path = xstrdup(path);
			cur.header = header_function(l);
			hunk_lines(l, &cur.start, &cur.count);
		} else if ((*l == '+' || *l == '-') && cur.path) {
			cur.size++;
			/* an added line that may start a definition: "int f(int x)" */
			if (*l == '+' && !cur.added && l[1] && !isspace((unsigned char)l[1]) &&
			    l[1] != '#' && strchr(l, '(') && !strchr(l, ';')) {
				struct strbuf fake = STRBUF_INIT;

				strbuf_addf(&fake, "@@ -0 +0 @@ %s", l + 1);
				cur.added = header_function(fake.buf);
				strbuf_release(&fake);
			}
		}
		if (fn && !s->ans.suspects.def_file && (*l == '+' || *l == '-' || *l == '@') &&
		    flame_report_hunk_names(l, strlen(l), fn))
			named = 1;
	}
	if (named) {
		free(best);
		best = xstrdup(fn);
	} else if (best && fn && s->ans.suspects.def_file && flame_same_source_name(best, fn)) {
		/* a hunk headed by fn whose lines lie outside its definition: not fn itself */
		free(best);
		best = NULL;
	}
	s->ans.suspects.changed_function = best;
out:
	free(path);
	strbuf_release(&out);
}

/*
 * A merge as the culprit: the commits it brought in whose diffs overlap
 * the function's definition (its lines at bad, followed back by git log
 * -L), so the list names only commits that touched it; none when the
 * function has no definition in the repository (then nothing is listed
 * rather than every merged commit).
 */
void flame_step_merge(struct flame_session *s)
{
	const char *func = flame_session_named_function(s);
	struct flame_definition def = { .file = NULL };
	char *shown;
	size_t i;

	if (flame_repo_parents(&s->st.repo, s->ans.narrow.culprit) < 2)
		return;
	s->ans.fix.is_merge = 1;
	if (func && s->ans.suspects.def_file && (s->ans.target.function || s->ans.target.blocked_function)) {
		/* the definition find_suspects found is this function's */
		def.file = xstrdup(s->ans.suspects.def_file);
		def.line = s->ans.suspects.def_line;
		def.end = s->ans.suspects.def_end;
	} else if (func && flame_definition_find(&s->st.repo, &s->st.defs, s->ans.ends.bad, func, &def)) {
		/* a function, but not the repository's: which merged commit is unknown */
		struct string_list all = STRING_LIST_INIT;

		shown = escape_term_dup(func);
		note("narrow: %.12s is a merge; %s is not defined in the repository, so no merged "
		     "commit is named", s->ans.narrow.culprit, shown);
		free(shown);
		flame_repo_merged(&s->st.repo, s->ans.narrow.culprit, NULL, 0, 0, &all, &s->ans.fix.merged_total);
		string_list_clear(&all);
		goto out;
	}
	if (flame_repo_merged(&s->st.repo, s->ans.narrow.culprit, def.file, def.line, def.end,
			      &s->ans.fix.merged, &s->ans.fix.merged_total))
		goto out;
	if (def.file) {
		s->ans.fix.merged_file = xstrdup(def.file);
		s->ans.fix.merged_line = def.line;
		s->ans.fix.merged_end = def.end;
	}
	shown = escape_term_dup(func ? func : "the code");
	note("narrow: %.12s is a merge of %zu commit%s; %zu of them touched %s%s", s->ans.narrow.culprit,
	     s->ans.fix.merged_total, s->ans.fix.merged_total == 1 ? "" : "s", s->ans.fix.merged.nr, shown,
	     s->ans.fix.merged.nr ? ":" : "");
	free(shown);
	for (i = 0; i < s->ans.fix.merged.nr; i++) {
		shown = escape_term_dup(s->ans.fix.merged.items[i]);
		note("narrow:   %.12s", shown);
		free(shown);
	}
out:
	flame_definition_release(&def);
}
