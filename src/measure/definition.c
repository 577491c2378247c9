/*
 * definition.c - the one definition finder (definition.h): the DWARF of
 * the binaries in a build worktree first, then a reading of the source
 * text at the revision (git grep for candidate files, git cat-file for
 * their text) that tells definitions from prototypes, macros and calls.
 */
#include "measure/definition.h"
#include "measure/source_name.h"
#include "core/alloc.h"
#include "core/strbuf.h"
#include "core/string_list.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BINARIES 64		/* ELF files read from one worktree */
#define MAX_DEPTH 12		/* directories below the worktree walked */
#define MAX_CANDIDATES 50	/* files read looking for a textual definition */
#define KR_SPAN 4096		/* bytes of K&R parameter declarations read */

void flame_defs_init(struct flame_defs *d, const char *build_dir)
{
	memset(d, 0, sizeof(*d));
	d->build_dir = build_dir ? xstrdup(build_dir) : NULL;
}

void flame_defs_release(struct flame_defs *d)
{
	free(d->build_dir);
	dwarf_defs_release(&d->dwarf);
	memset(d, 0, sizeof(*d));
}

void flame_definition_release(struct flame_definition *d)
{
	free(d->file);
	free(d->macro_file);
	memset(d, 0, sizeof(*d));
}

/* ---- the binaries' DWARF ---- */

static int is_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);
	close(fd);
	return ok;
}

static void walk(struct flame_defs *d, const char *dir, int depth)
{
	DIR *dh;
	struct dirent *e;

	if (depth > MAX_DEPTH || !(dh = opendir(dir)))
		return;
	while ((e = readdir(dh)) && d->binaries < MAX_BINARIES) {
		char *path;
		struct stat st;

		/* ., .., .git; libtool's .libs holds the real shared objects */
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		if (!lstat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				walk(d, path, depth + 1);
			else if (S_ISREG(st.st_mode) &&
				 ((st.st_mode & 0111) || strstr(e->d_name, ".so")) &&
				 is_elf(path) && dwarf_defs_read(&d->dwarf, path) == 0)
				d->binaries++;
		}
		free(path);
	}
	closedir(dh);
}

static void load(struct flame_defs *d)
{
	if (d->loaded)
		return;
	d->loaded = 1;
	if (!d->build_dir)
		return;
	walk(d, d->build_dir, 0);
	dwarf_defs_sort(&d->dwarf);
}

/* file under root ("/x/src/" with its slash): the rest, else NULL. */
static const char *under(const char *file, const char *root)
{
	size_t n = strlen(root);

	return root[0] && !strncmp(file, root, n) && file[n] ? file + n : NULL;
}

static int in_repo(struct flame_repo *r, const char *rev, const char *path)
{
	char *spec = xstrfmt("%s:%s", rev, path);
	const char *argv[] = { "cat-file", "-e", spec, NULL };
	int ok = flame_git(r, NULL, argv) == 0;

	free(spec);
	return ok;
}

static int find_in_dwarf(struct flame_repo *r, struct flame_defs *d, const char *rev,
			 const char *name, struct flame_definition *out)
{
	const struct dwarf_def *hit;
	char real[PATH_MAX], *roots[2];
	size_t n, i, k;
	int found = 0;

	memset(out, 0, sizeof(*out));
	load(d);
	if (!d->build_dir || !(hit = dwarf_defs_find(&d->dwarf, name, &n)))
		return -1;
	roots[0] = xstrfmt("%s/", d->build_dir);
	roots[1] = xstrfmt("%s/", realpath(d->build_dir, real) ? real : d->build_dir);
	for (i = 0; i < n && !found; i++)
		for (k = 0; k < 2 && !found; k++) {
			const char *rel = under(hit[i].file, roots[k]);

			if (rel && in_repo(r, rev, rel)) {
				out->file = xstrdup(rel);
				out->line = hit[i].line;
				out->end = hit[i].end;
				out->from_dwarf = 1;
				found = 1;
			}
		}
	free(roots[0]);
	free(roots[1]);
	return found ? 0 : -1;
}

void flame_defs_defined(struct flame_repo *r, struct flame_defs *defs, const char *rev,
			const struct string_list *names, struct string_list *defined)
{
	size_t i;

	for (i = 0; i < names->nr; i++) {
		struct flame_definition d;
		char *name;

		if (string_list_has(defined, names->items[i]))
			continue;
		name = flame_source_name(names->items[i]);
		if (!find_in_dwarf(r, defs, rev, name, &d))
			string_list_append(defined, names->items[i]);
		flame_definition_release(&d);
		free(name);
	}
}

/* ---- the source text ---- */

static int is_id(int c)
{
	return isalnum(c) || c == '_';
}

static const char *skip_space(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			p = e ? e + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else {
			return p;
		}
	}
}

/* p at open: the matching close, past strings, characters and comments; NULL: none. */
static const char *match(const char *p, char open, char close)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; *p && *p != q && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return NULL;
		} else if (p[0] == '/' && (p[1] == '*' || p[1] == '/')) {
			const char *e = skip_space(p);

			if (!*e)
				return NULL;
			p = e - 1;
		} else if (*p == open) {
			depth++;
		} else if (*p == close && --depth == 0) {
			return p;
		}
	}
	return NULL;
}

static int is_qualifier(const char *id, size_t len)
{
	static const char *const words[] = { "__attribute__", "__attribute", "__declspec",
		"const", "volatile", "noexcept", "override", "final", "throw", "__THROW",
		"__wur", "__nonnull", NULL };
	const char *const *w;

	for (w = words; *w; w++)
		if (strlen(*w) == len && !memcmp(*w, id, len))
			return 1;
	return 0;
}

/* After the parameters' ')': the body's '{' when one follows (K&R declarations allowed). */
static const char *body_after(const char *p)
{
	const char *start;
	int semis = 0;

	for (;;) {
		const char *id;

		p = skip_space(p);
		if (*p == '{')
			return p;
		if (!is_id((unsigned char)*p) || isdigit((unsigned char)*p))
			return NULL;	/* ';' ',' '=' ')': a declaration or a call */
		for (id = p; is_id((unsigned char)*p); p++)
			;
		if (!is_qualifier(id, (size_t)(p - id))) {
			p = id;
			break;
		}
		p = skip_space(p);
		if (*p == '(' && !(p = match(p, '(', ')')))
			return NULL;
		if (*p == ')')
			p++;
	}
	/* K&R: parameter declarations, each ending in ';', then the body */
	for (start = p; *p && p - start < KR_SPAN; p++) {
		p = skip_space(p);
		if (*p == '{')
			return semis ? p : NULL;
		if (*p == ';')
			semis++;
		else if (!is_id((unsigned char)*p) && !strchr("*,[]", *p))
			return NULL;
	}
	return NULL;
}

static unsigned line_of(const char *src, const char *p)
{
	unsigned line = 1;

	for (; src < p; src++)
		line += *src == '\n';
	return line;
}

/* The length of __attribute__ or __declspec starting at q (a word of its own), else 0. */
static size_t attribute_at(const char *ls, const char *q)
{
	static const char *const words[] = { "__attribute__", "__declspec", NULL };
	size_t i, n;

	if (q > ls && is_id((unsigned char)q[-1]))
		return 0;
	for (i = 0; words[i]; i++) {
		n = strlen(words[i]);
		if (!strncmp(q, words[i], n) && !is_id((unsigned char)q[n]))
			return n;
	}
	return 0;
}

/* The occurrence of the name at p (its line starting at ls) can begin a definition. */
static int may_define(const char *src, const char *ls, const char *p)
{
	const char *q;

	if (*ls == ' ' || *ls == '\t' || *skip_space(ls) == '#')
		return 0;	/* a call in a body, or the preprocessor's */
	if (ls > src + 1 && ls[-2] == '\\')
		return 0;	/* a macro's continuation line */
	for (q = ls; q < p; q++) {
		size_t kw = attribute_at(ls, q);

		if (kw) {
			/* "__attribute__((noinline)) static void f(": its parentheses are not a call */
			const char *open = skip_space(q + kw), *close;

			if (*open != '(' || !(close = match(open, '(', ')')) || close >= p)
				return 0;
			q = close;
			continue;
		}
		if (!is_id((unsigned char)*q) && !strchr(" \t*&:<>,", *q))
			return 0;	/* "x = f(", "(f(", "return f(" is indented */
	}
	return 1;
}

/*
 * Go and Rust: a return type may follow the parameters ("func hash(n int)
 * uint64 {", "fn hash(n: u64) -> u64 {"), and there are no prototypes;
 * the body is the first '{' before any ';'.
 */
static const char *body_after_loose(const char *p)
{
	const char *start = p;

	for (; *p && p - start < KR_SPAN; p++) {
		if (*p == '{')
			return p;
		if (*p == ';' || *p == '}')
			return NULL;
	}
	return NULL;
}

static int in_text(const char *src, const char *name, int loose, unsigned *line, unsigned *end);

int flame_definition_in_text(const char *src, const char *name, unsigned *line, unsigned *end)
{
	return in_text(src, name, 0, line, end);
}

static int in_text(const char *src, const char *name, int loose, unsigned *line, unsigned *end)
{
	size_t n = strlen(name);
	const char *p;

	if (!n)
		return 0;
	for (p = strstr(src, name); p; p = strstr(p + 1, name)) {
		const char *ls = p, *q = p + n, *close, *body, *last;

		if ((p > src && is_id((unsigned char)p[-1])) || is_id((unsigned char)*q))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '(')
			continue;
		while (ls > src && ls[-1] != '\n')
			ls--;
		if (!may_define(src, ls, p) || !(close = match(q, '(', ')')) ||
		    !(body = loose ? body_after_loose(close + 1) : body_after(close + 1)) ||
		    !(last = match(body, '{', '}')))
			continue;
		*line = line_of(src, p);
		*end = *line + line_of(p, last) - 1;
		return 1;
	}
	return 0;
}

/* The files at rev whose text has name followed by '(' (git grep -l), into files. */
static int candidate_files(struct flame_repo *r, const char *rev, const char *name,
			   struct string_list *files)
{
	struct strbuf pat = STRBUF_INIT, out = STRBUF_INIT;
	const char *argv[] = { "grep", "-l", "-E", "-e", NULL, rev, "--", "*.c", "*.cc", "*.cpp",
			       "*.cxx", "*.h", "*.hh", "*.hpp", "*.inc", "*.rs", "*.go", NULL };
	size_t rl = strlen(rev);
	char *l, *save = NULL;
	int code;

	strbuf_addf(&pat, "(^|[^A-Za-z0-9_])%s[ \t]*\\(", name);
	argv[4] = pat.buf;
	code = flame_git(r, &out, argv);
	if (code == 0)
		for (l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (!strncmp(l, rev, rl) && l[rl] == ':' && files->nr < MAX_CANDIDATES)
				string_list_append(files, l + rl + 1);
	strbuf_release(&pat);
	strbuf_release(&out);
	return code == 0 ? 0 : -1;
}

static int is_identifier(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (is_id((unsigned char)*s))
		s++;
	return !*s;
}

static int find_in_text(struct flame_repo *r, const char *rev, const char *name,
			struct flame_definition *out)
{
	struct string_list files = STRING_LIST_INIT;
	struct strbuf src = STRBUF_INIT;
	size_t i;
	int found = 0;

	if (!is_identifier(name) || candidate_files(r, rev, name, &files))
		goto out;
	for (i = 0; i < files.nr && !found; i++) {
		char *spec = xstrfmt("%s:%s", rev, files.items[i]);
		const char *argv[] = { "cat-file", "blob", spec, NULL };
		const char *dot = strrchr(files.items[i], '.');
		int loose = dot && (!strcmp(dot, ".go") || !strcmp(dot, ".rs"));

		strbuf_reset(&src);
		if (flame_git(r, &src, argv) == 0 &&
		    in_text(src.buf, name, loose, &out->line, &out->end)) {
			out->file = xstrdup(files.items[i]);
			found = 1;
		}
		free(spec);
	}
out:
	string_list_clear(&files);
	strbuf_release(&src);
	return found ? 0 : -1;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int flame_macro_in_text(const char *src, const char *macro, unsigned *line, unsigned *end)
{
	size_t n = strlen(macro);
	const char *l = src, *p;
	unsigned k = 1;

	for (; *l; k++) {
		const char *e = strchr(l, '\n');

		p = skip_blank(l);
		if (*p == '#' && (p = skip_blank(p + 1)) && !strncmp(p, "define", 6) &&
		    (p[6] == ' ' || p[6] == '\t') && (p = skip_blank(p + 6)) &&
		    !strncmp(p, macro, n) && !is_id((unsigned char)p[n])) {
			*line = k;
			/* the continuations: a '\' ends the line (before any trailing space) */
			for (;;) {
				const char *q = e ? e : l + strlen(l);

				while (q > l && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
					q--;
				if (!e || q == l || q[-1] != '\\')
					break;
				l = e + 1;
				e = strchr(l, '\n');
				k++;
			}
			*end = k;
			return 1;
		}
		if (!e)
			break;
		l = e + 1;
	}
	return 0;
}

/*
 * The macro invoked on a macro-made definition's line (its first name
 * followed by '('), and that macro's #define: in the same file first,
 * else in the repository's C sources at rev.
 */
static void find_macro(struct flame_repo *r, const char *rev, const char *src, const char *l,
		       struct flame_definition *d)
{
	struct strbuf pat = STRBUF_INIT, out = STRBUF_INIT;
	const char *p = skip_space(l), *q = p;
	char *macro;

	while (*p && *p != '\n') {
		for (q = p; is_id((unsigned char)*q); q++)
			;
		if (q > p && !isdigit((unsigned char)*p) && *skip_space(q) == '(')
			break;
		p = q > p ? q : p + 1;
	}
	if (!*p || *p == '\n')
		return;
	macro = xstrndup(p, (size_t)(q - p));
	if (flame_macro_in_text(src, macro, &d->macro_line, &d->macro_end)) {
		d->macro_file = xstrdup(d->file);
	} else {
		const char *argv[] = { "grep", "-l", "-E", "-e", NULL, rev, "--", "*.c", "*.cc",
				       "*.cpp", "*.cxx", "*.h", "*.hh", "*.hpp", "*.inc", NULL };
		size_t rl = strlen(rev);
		char *f, *save = NULL;

		strbuf_addf(&pat, "^[ \t]*#[ \t]*define[ \t]+%s([^A-Za-z0-9_]|$)", macro);
		argv[4] = pat.buf;
		if (flame_git(r, &out, argv) == 0)
			for (f = strtok_r(out.buf, "\n", &save); f && !d->macro_file;
			     f = strtok_r(NULL, "\n", &save)) {
				const char *cat[] = { "cat-file", "blob", f, NULL };
				struct strbuf text = STRBUF_INIT;

				if (!strncmp(f, rev, rl) && f[rl] == ':' && flame_git(r, &text, cat) == 0 &&
				    flame_macro_in_text(text.buf, macro, &d->macro_line, &d->macro_end))
					d->macro_file = xstrdup(f + rl + 1);
				strbuf_release(&text);
			}
	}
	free(macro);
	strbuf_release(&pat);
	strbuf_release(&out);
}

/*
 * A DWARF definition whose first line does not name the function (name
 * then '(') and whose lines hold no body ('{'): a macro invocation made
 * it (#define GEN(n) int n(void) {...}; GEN(made)), and the macro's
 * #define is found.  int INSERT_STRING(x) { ... } names it through a
 * macro but has its body in the range.
 */
static int made_by_macro(struct flame_repo *r, const char *rev, const char *name,
			 struct flame_definition *d)
{
	char *spec = xstrfmt("%s:%s", rev, d->file);
	const char *argv[] = { "cat-file", "blob", spec, NULL };
	struct strbuf src = STRBUF_INIT;
	const char *l, *p;
	unsigned k;
	int macro = 0;

	if (flame_git(r, &src, argv) == 0) {
		for (l = src.buf, k = 1; k < d->line && (p = strchr(l, '\n')); k++)
			l = p + 1;
		if (k == d->line) {
			const char *e = strchr(l, '\n');
			size_t n = strlen(name), len = e ? (size_t)(e - l) : strlen(l);

			for (e = l, k = d->line; *e && k <= d->end; e++) {
				if (*e == '{')
					break;
				k += *e == '\n';
			}
			macro = !*e || k > d->end;
			for (p = l; macro && p + n <= l + len; p++)
				if (!strncmp(p, name, n) && (p == l || !is_id((unsigned char)p[-1])) &&
				    *skip_space(p + n) == '(') {
					macro = 0;
					break;
				}
			if (macro)
				find_macro(r, rev, src.buf, l, d);
		}
	}
	free(spec);
	strbuf_release(&src);
	return macro;
}

int flame_definition_find(struct flame_repo *r, struct flame_defs *defs, const char *rev,
			  const char *func, struct flame_definition *out)
{
	char *name = flame_source_name(func);
	int ret;

	memset(out, 0, sizeof(*out));
	/* the DWARF under the profile's name first (Go's "main.hash"), then the source's */
	ret = defs && (!find_in_dwarf(r, defs, rev, func, out) ||
		       !find_in_dwarf(r, defs, rev, name, out)) ? 0 :
	      find_in_text(r, rev, name, out);
	if (!ret && out->from_dwarf)
		out->by_macro = made_by_macro(r, rev, name, out);
	free(name);
	return ret;
}
