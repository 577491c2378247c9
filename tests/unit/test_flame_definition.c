/*
 * test_flame_definition.c - the one definition finder (measure/definition.h)
 * on a generated C repository built with -g: static forward prototypes
 * (one over two lines), a K&R definition, a function made by a macro, a
 * static function in a header, a function called through a macro
 * (MRB_OBJ_ALLOC-like); from DWARF and from the text alone.
 */
#include "harness.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "measure/definition.h"
#include "measure/repo.h"
#include "flame/session.h"
#include "flame/suspects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

/* Lines numbered in comments so the expected answers read off the text. */
static const char gc_h[] =
	"#ifndef GC_H\n"						/* 1 */
	"#define GC_H\n"						/* 2 */
	"int obj_alloc(int tt,\n"					/* 3 */
	"              int size);\n"					/* 4 */
	"#define OBJ_ALLOC(tt) ((int)obj_alloc(tt, 16))\n"		/* 5 */
	"static inline int hdr_twice(int x)\n"				/* 6 */
	"{\n"								/* 7 */
	"\treturn x * 2 + 1;\n"						/* 8 */
	"}\n"								/* 9 */
	"#endif\n";							/* 10 */

static const char gc_c[] =
	"#include \"../include/gc.h\"\n"					/* 1 */
	"static int hot(int x,\n"					/* 2 */
	"\tint y);\n"							/* 3 */
	"static int cold(int);\n"					/* 4 */
	"#define GEN(n) static int n##_gen(int x) { return x + 3; }\n"	/* 5 */
	"GEN(made)\n"							/* 6 */
	"int kr(a, b)\n"						/* 7 */
	"\tint a;\n"							/* 8 */
	"\tint b;\n"							/* 9 */
	"{\n"								/* 10 */
	"\treturn a - b;\n"						/* 11 */
	"}\n"								/* 12 */
	"int obj_alloc(int tt, int size)\n"				/* 13 */
	"{\n"								/* 14 */
	"\treturn hot(tt, size) + cold(tt);\n"				/* 15 */
	"}\n"								/* 16 */
	"static int hot(int x, int y)\n"				/* 17 */
	"{\n"								/* 18 */
	"\tint i, s = 0;\n"						/* 19 */
	"\tfor (i = 0; i < x; i++)\n"					/* 20 */
	"\t\ts += y;\n"							/* 21 */
	"\treturn s;\n"							/* 22 */
	"}\n"								/* 23 */
	"static int cold(int x) { return x; }\n"			/* 24 */
	"int main(void)\n"						/* 25 */
	"{\n"								/* 26 */
	"\treturn OBJ_ALLOC(1) + made_gen(2) + kr(3, 4) + hdr_twice(5) > 1000;\n"	/* 27 */
	"}\n"								/* 28 */
	"#define INSERT_STRING insert_string\n"				/* 29 */
	"int INSERT_STRING(int x)\n"					/* 30 */
	"{\n"								/* 31 */
	"\treturn x + 7;\n"						/* 32 */
	"}\n";								/* 33 */

/* DIR/repo with the two files (the header sorts first, as mruby's include/ does) committed and built into DIR/repo/prog; -1 without git or cc. */
static int make_repo(const char *dir, struct flame_repo *r, char head[41])
{
	char *repo = xstrfmt("%s/repo", dir), *inc = xstrfmt("%s/include", repo);
	char *src = xstrfmt("%s/src", repo);
	char *cache = xstrfmt("%s/cache", dir), *cmd;
	int ret = -1;

	cmd = xstrfmt("git init -q %s && mkdir %s %s", repo, inc, src);
	if (system(cmd))
		goto out;
	write_file(inc, "gc.h", gc_h);
	write_file(src, "gc.c", gc_c);
	write_file(repo, "x.go", "package main\n\n// gohash(n) is slow\nfunc gohash(n int) uint64 {\n"
		   "\treturn uint64(n)\n}\n");
	free(cmd);
	cmd = xstrfmt("cd %s && git add . && git -c user.name=T -c user.email=t@e commit -q -m one "
		      "&& cc -g -O0 -o prog src/gc.c 2>/dev/null", repo);
	if (system(cmd))
		goto out;
	if (flame_repo_open(r, repo, cache) || flame_repo_resolve(r, "--rev", "HEAD", head))
		goto out;
	ret = 0;
out:
	free(cmd);
	free(repo);
	free(inc);
	free(src);
	free(cache);
	return ret;
}

struct want {
	const char *func, *file;
	unsigned line, end;
	int text;	/* the text alone finds it (a macro-made name it cannot) */
	int macro;	/* made by a macro's invocation: the range is that line */
};

static const struct want wants[] = {
	{ "hot", "src/gc.c", 17, 23, 1, 0 },		/* not the prototype over lines 2-3 */
	{ "cold", "src/gc.c", 24, 24, 1, 0 },		/* not the one-line prototype */
	{ "kr", "src/gc.c", 7, 12, 1, 0 },		/* K&R */
	{ "obj_alloc", "src/gc.c", 13, 16, 1, 0 },	/* not the header's macro calling it */
	{ "hdr_twice", "include/gc.h", 6, 9, 1, 0 },	/* static in a header */
	{ "made_gen", "src/gc.c", 6, 6, 0, 1 },	/* made by GEN(made) */
	{ "insert_string", "src/gc.c", 30, 33, 0, 0 },	/* named by a #define (zlib-ng) */
	{ "hot.constprop.0", "src/gc.c", 17, 23, 1, 0 },	/* a profile's clone name */
};

TEST(definitions_from_dwarf_and_text)
{
	char *dir = tempdir_create("test-flame-def"), *build, head[41];
	struct flame_repo r;
	struct flame_defs defs;
	struct flame_definition d;
	size_t i;

	if (make_repo(dir, &r, head)) {
		tempdir_remove(dir);
		free(dir);
		SKIP("git or cc is not usable");
	}
	build = xstrfmt("%s/repo", dir);
	flame_defs_init(&defs, build);
	for (i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];

		CHECK_INT(flame_definition_find(&r, &defs, head, w->func, &d), 0);
		CHECK_STREQ(d.file, w->file);
		CHECK_INT(d.line, w->line);
		CHECK_INT(d.end, w->end);
		CHECK_INT(d.from_dwarf, 1);
		CHECK_INT(d.by_macro, w->macro);
		flame_definition_release(&d);
		/* without binaries: the text */
		CHECK_INT(flame_definition_find(&r, NULL, head, w->func, &d), w->text ? 0 : -1);
		if (w->text) {
			CHECK_STREQ(d.file, w->file);
			CHECK_INT(d.line, w->line);
			CHECK_INT(d.end, w->end);
			CHECK_INT(d.from_dwarf, 0);
		}
		flame_definition_release(&d);
	}
	CHECK(defs.binaries >= 1);
	/*
	 * The program's own functions: the text alone misses a name a #define
	 * gives (main's hotdiff called zlib-ng's insert_string "not the
	 * program's"); the DWARF has it, and not printf.
	 */
	{
		struct string_list names = STRING_LIST_INIT, text = STRING_LIST_INIT,
				   dwarf = STRING_LIST_INIT;

		string_list_append(&names, "insert_string");
		string_list_append(&names, "printf");
		CHECK_INT(flame_repo_defined(&r, head, &names, &text), 0);
		CHECK(!string_list_has(&text, "insert_string"));
		flame_defs_defined(&r, &defs, head, &names, &dwarf);
		CHECK_INT(dwarf.nr, 1);
		CHECK(string_list_has(&dwarf, "insert_string"));
		string_list_clear(&names);
		string_list_clear(&text);
		string_list_clear(&dwarf);
	}
	/* Go: a return type after the parameters; the profile's name is main.gohash */
	CHECK_INT(flame_definition_find(&r, &defs, head, "main.gohash", &d), 0);
	CHECK_STREQ(d.file, "x.go");
	CHECK_INT(d.line, 4);
	CHECK_INT(d.end, 6);
	flame_definition_release(&d);
	/* a library function is the repository's in neither */
	CHECK_INT(flame_definition_find(&r, &defs, head, "printf", &d), -1);
	flame_defs_release(&defs);
	flame_repo_release(&r);
	tempdir_remove(dir);
	free(build);
	free(dir);
}

TEST(definition_in_text_skips_what_is_not_one)
{
	unsigned line = 0, end = 0;

	CHECK_INT(flame_definition_in_text("int f(void);\n", "f", &line, &end), 0);
	CHECK_INT(flame_definition_in_text("#define F f(1)\n", "f", &line, &end), 0);
	CHECK_INT(flame_definition_in_text("#define F \\\nf(1) { }\n", "f", &line, &end), 0);
	CHECK_INT(flame_definition_in_text("int g(void)\n{\n\tf(1);\n}\n", "f", &line, &end), 0);
	CHECK_INT(flame_definition_in_text("int x = f(2);\n", "f", &line, &end), 0);
	CHECK_INT(flame_definition_in_text("int f(void) __attribute__((noreturn));\n"
					   "int g(void)\n{\n}\n", "f", &line, &end), 0);
	CHECK_INT(flame_definition_in_text("/* f() { } */\nstatic int\nf (int a)\n{\n\t/* } */\n"
					   "\treturn '}';\n}\n", "f", &line, &end), 1);
	CHECK_INT(line, 3);
	CHECK_INT(end, 7);
	/* an attribute before the definition: its parentheses are not a call (main said 0) */
	CHECK_INT(flame_definition_in_text("static int n;\n__attribute__((noinline)) static void step(void)\n"
					   "{\n\tn++;\n}\n", "step", &line, &end), 1);
	CHECK_INT(line, 2);
	CHECK_INT(end, 5);
	CHECK_INT(flame_definition_in_text("my__attribute__(x) step(void)\n{\n}\n", "step", &line,
					   &end), 0);
}

#define CI "git -c user.name=T -c user.email=t@e commit -q"

/* A session on DIR/repo made by setup, its range good..bad; -1 without git. */
static int session_repo(struct flame_session *s, const char *dir, const char *setup,
			const char *good, const char *bad)
{
	char *cmd = xstrfmt("cd %s && git init -q repo && cd repo && %s", dir, setup);
	char *repo = xstrfmt("%s/repo", dir), *cache = xstrfmt("%s/cache", dir);
	int ret = -1;

	flame_session_init(s);
	if (!system(cmd) && !flame_repo_open(&s->st.repo, repo, cache) &&
	    !flame_repo_resolve(&s->st.repo, "--rev", good, s->ans.ends.good) &&
	    !flame_repo_resolve(&s->st.repo, "--rev", bad, s->ans.ends.bad) &&
	    !flame_repo_range(&s->st.repo, s->ans.ends.good, s->ans.ends.bad, &s->st.range))
		ret = 0;
	free(cmd);
	free(repo);
	free(cache);
	return ret;
}

/*
 * A merge of a branch whose commits do not touch the hot function: none is
 * listed (main listed every merged commit when the function could not be
 * followed, e.g. glibc's __memcmp_evex_movbe), and the one that does is.
 */
TEST(merge_lists_only_commits_touching_the_function)
{
	char *dir = tempdir_create("test-flame-def");
	struct flame_session s;
	char touch[41];

	if (session_repo(&s, dir, "printf 'int f(int x)\\n{\\n\\treturn x;\\n}\\nint k;\\n' > a.c && "
			 "git add a.c && " CI " -m base && git checkout -q -b topic && "
			 "echo 'int g;' > b.c && git add b.c && " CI " -m 'b only' && "
			 "printf 'int f(int x)\\n{\\n\\treturn x;\\n}\\nint k = 1;\\n' > a.c && "
			 CI " -am 'a.c, not f' && git checkout -q - && echo c > c && git add c && "
			 CI " -m side && git -c user.name=T -c user.email=t@e merge -q --no-ff -m merge topic",
			 "HEAD~2", "HEAD")) {
		flame_session_release(&s);
		tempdir_remove(dir);
		free(dir);
		SKIP("git is not usable");
	}
	memcpy(s.ans.narrow.culprit, s.ans.ends.bad, 41);
	s.ans.target.function = xstrdup("f");
	flame_step_merge(&s);
	CHECK_INT(s.ans.fix.is_merge, 1);
	CHECK_INT(s.ans.fix.merged_total, 2);
	CHECK_INT(s.ans.fix.merged.nr, 0);
	CHECK_STREQ(s.ans.fix.merged_file, "a.c");
	CHECK_INT(s.ans.fix.merged_line, 1);
	CHECK_INT(s.ans.fix.merged_end, 4);
	/* a function that is not the repository's: nothing named */
	string_list_clear(&s.ans.fix.merged);
	free(s.ans.target.function);
	s.ans.target.function = xstrdup("__memcmp_evex_movbe");
	flame_step_merge(&s);
	CHECK_INT(s.ans.fix.merged.nr, 0);
	/* a merged commit that changes f is the one listed */
	{
		char *cmd = xstrfmt("cd %s/repo && git checkout -q topic && "
				    "printf 'int f(int x)\\n{\\n\\treturn x * 3;\\n}\\nint k = 1;\\n' > a.c && "
				    CI " -am 'f: slower' && git checkout -q - && "
				    "git -c user.name=T -c user.email=t@e merge -q --no-ff -m merge2 topic", dir);

		CHECK_INT(system(cmd), 0);
		free(cmd);
	}
	CHECK_INT(flame_repo_resolve(&s.st.repo, "--rev", "topic", touch), 0);
	CHECK_INT(flame_repo_resolve(&s.st.repo, "--rev", "HEAD", s.ans.ends.bad), 0);
	memcpy(s.ans.narrow.culprit, s.ans.ends.bad, 41);
	string_list_clear(&s.ans.fix.merged);
	free(s.ans.target.function);
	s.ans.target.function = xstrdup("f");
	flame_step_merge(&s);
	CHECK_INT(s.ans.fix.merged.nr, 1);
	if (s.ans.fix.merged.nr)
		CHECK_STREQ(s.ans.fix.merged.items[0], touch);
	flame_session_release(&s);
	tempdir_remove(dir);
	free(dir);
}

/*
 * The suspect changed the function itself when its diff overlaps the
 * definition's lines, whatever its first hunk is (jq: configure.ac's
 * AC_CHECK_MEMBER came first; main named it), and otherwise the
 * function of its largest source hunk - one whose definition holds the
 * hunk's lines, not the function its header names when the hunk only
 * follows it.
 */
TEST(changed_function_from_the_definition_range)
{
	char *dir = tempdir_create("test-flame-def");
	struct flame_session s;

	if (session_repo(&s, dir, "printf 'AC_INIT(x)\\nAC_CHECK_MEMBER(a)\\n' > configure.ac && "
			 "printf 'int other(int x)\\n{\\n\\treturn x;\\n}\\n\\n"
			 "int decToString(int x)\\n{\\n\\tint y = x;\\n\\treturn y;\\n}\\n' > jv.c && "
			 "git add . && " CI " -m base && "
			 "printf 'AC_INIT(x)\\nAC_CHECK_MEMBER(a)\\nAC_CHECK_MEMBER(b)\\n' > configure.ac && "
			 "printf 'int other(int x)\\n{\\n\\treturn x;\\n}\\n\\n"
			 "int decToString(int x)\\n{\\n\\tint y = x * x;\\n\\ty += 1;\\n\\treturn y;\\n}\\n' > jv.c && "
			 CI " -am 'decNumber' && "
			 "printf 'int other(int x)\\n{\\n\\tint z = x + 1;\\n\\tz *= 2;\\n\\treturn z;\\n}\\n\\n"
			 "int decToString(int x)\\n{\\n\\tint y = x * x;\\n\\ty += 1;\\n\\treturn y;\\n}\\n' > jv.c && "
			 CI " -am 'other only'",
			 "HEAD~2", "HEAD")) {
		flame_session_release(&s);
		tempdir_remove(dir);
		free(dir);
		SKIP("git is not usable");
	}
	s.ans.target.function = xstrdup("decToString");
	flame_step_find_suspects(&s, s.ans.target.function);
	CHECK_STREQ(s.ans.suspects.def_file, "jv.c");
	CHECK_INT(s.ans.suspects.def_line, 8);
	CHECK_INT(s.ans.suspects.def_end, 13);
	CHECK_INT(s.st.touching.nr, 1);
	CHECK_INT(flame_repo_resolve(&s.st.repo, "--rev", "HEAD~1", s.ans.narrow.culprit), 0);
	flame_step_changed_function(&s);
	CHECK_STREQ(s.ans.suspects.changed_function, "decToString");
	/* the later commit changed other, not decToString */
	free(s.ans.suspects.changed_function);
	s.ans.suspects.changed_function = NULL;
	CHECK_INT(flame_repo_resolve(&s.st.repo, "--rev", "HEAD", s.ans.narrow.culprit), 0);
	flame_step_changed_function(&s);
	CHECK_STREQ(s.ans.suspects.changed_function, "other");
	/*
	 * A commit that adds helper after decToString and rewords the top
	 * comment: its largest hunk's header names decToString (the line
	 * before the hunk), which it did not change (main named it).
	 */
	{
		char *cmd = xstrfmt("cd %s/repo && printf '/* jv.c - numbers */\\n' > h && cat jv.c >> h && "
				    "printf '\\nint helper(int x)\\n{\\n\\tint y = x + 7;\\n"
				    "\\treturn y;\\n}\\n' >> h && mv h jv.c && " CI " -am 'helper'", dir);

		CHECK_INT(system(cmd), 0);
		free(cmd);
	}
	free(s.ans.suspects.changed_function);
	s.ans.suspects.changed_function = NULL;
	free(s.ans.target.function);
	s.ans.target.function = NULL;
	CHECK_INT(flame_repo_resolve(&s.st.repo, "--rev", "HEAD", s.ans.narrow.culprit), 0);
	flame_step_changed_function(&s);
	CHECK_STREQ(s.ans.suspects.changed_function, "helper");
	flame_session_release(&s);
	tempdir_remove(dir);
	free(dir);
}

/*
 * The suspects of fn (defined in file): the commit culprit_rev among the
 * commits touching it, other_rev not; and the culprit "changed fn itself".
 */
static void follow(struct flame_session *s, const char *fn, const char *file, const char *culprit_rev,
		   const char *other_rev)
{
	char culprit[41], other[41];

	CHECK_INT(flame_repo_resolve(&s->st.repo, "--rev", culprit_rev, culprit), 0);
	CHECK_INT(flame_repo_resolve(&s->st.repo, "--rev", other_rev, other), 0);
	s->ans.target.function = xstrdup(fn);
	flame_step_find_suspects(s, s->ans.target.function);
	CHECK_STREQ(s->ans.suspects.def_file, file);
	CHECK(string_list_has(&s->st.touching, culprit));
	CHECK(!string_list_has(&s->st.touching, other));
	memcpy(s->ans.narrow.culprit, culprit, 41);
	flame_step_changed_function(s);
	CHECK_STREQ(s->ans.suspects.changed_function, fn);
}

/*
 * A function a macro made: the suspects follow the macro's #define (in a
 * header, over two lines) as well as its invocation, so a commit that
 * changes only the macro's body touched the function and "changed the
 * function itself" (main followed the invocation line alone: no suspect,
 * and the culprit "changed" nothing of it).  A static function in a
 * header is followed in the header.
 */
TEST(macro_body_and_header_static_are_followed)
{
	char *dir = tempdir_create("test-flame-def"), *repo;
	struct flame_session s;

	if (session_repo(&s, dir, "printf '#ifndef GEN_H\n#define GEN_H\n"
			 "#define GEN(n) static int n##_gen(int x) \\\n\t{ return x + 3; }\n"
			 "static inline int hdr_twice(int x)\n{\n\treturn x * 2 + 1;\n}\n#endif\n' > gen.h && "
			 "printf '#include \"gen.h\"\nGEN(made)\nint main(void)\n{\n"
			 "\treturn made_gen(2) + hdr_twice(5) > 1000;\n}\n' > main.c && "
			 "git add . && " CI " -m base && "
			 "sed -i 's/x + 3/x * 3 + 1/' gen.h && " CI " -am 'GEN: the body' && "
			 "sed -i 's/x \\* 2 + 1/x * 4 + 1/' gen.h && " CI " -am 'hdr_twice' && "
			 "echo 'int unrelated;' > u.c && git add u.c && " CI " -m unrelated && "
			 "cc -g -O0 -o prog main.c",
			 "HEAD~3", "HEAD")) {
		flame_session_release(&s);
		tempdir_remove(dir);
		free(dir);
		SKIP("git or cc is not usable");
	}
	repo = xstrfmt("%s/repo", dir);
	flame_defs_init(&s.st.defs, repo);
	/* HEAD~2 changed the macro's body, HEAD~1 hdr_twice */
	follow(&s, "made_gen", "main.c", "HEAD~2", "HEAD~1");
	CHECK_INT(s.ans.suspects.def_line, 2);
	CHECK_INT(s.ans.suspects.def_by_macro, 1);
	CHECK_STREQ(s.ans.suspects.def_macro_file, "gen.h");
	CHECK_INT(s.ans.suspects.def_macro_line, 3);
	CHECK_INT(s.ans.suspects.def_macro_end, 4);
	flame_session_release(&s);
	/* the header's static function: the commit that changed its body */
	CHECK_INT(session_repo(&s, dir, "true", "HEAD~3", "HEAD"), 0);
	flame_defs_init(&s.st.defs, repo);
	follow(&s, "hdr_twice", "gen.h", "HEAD~1", "HEAD~2");
	CHECK_INT(s.ans.suspects.def_from_dwarf, 1);
	CHECK_INT(s.ans.suspects.def_by_macro, 0);
	flame_session_release(&s);
	tempdir_remove(dir);
	free(repo);
	free(dir);
}

/*
 * issue 28's parson.c: a static function with a forward prototype (over
 * two lines) long before its definition.  git log -L:hot:gc.c takes the
 * prototype and lists no commit; the suspects follow the definition's
 * lines, so the commit that changed hot's body is among them (from the
 * text alone, and from the build's DWARF), and one that changed only
 * cold (also prototyped) is not.
 */
TEST(static_forward_prototype_suspects_include_the_culprit)
{
	char *dir = tempdir_create("test-flame-def"), *repo;
	struct flame_session s;
	int pass;

	if (session_repo(&s, dir, "printf 'static int hot(int x,\n\t       int y);\nstatic int cold(int x);\n\n"
			 "int main(void)\n{\n\treturn hot(3, 4) + cold(5) > 1000;\n}\n\n"
			 "static int hot(int x, int y)\n{\n\tint i, s = 0;\n\tfor (i = 0; i < x; i++)\n"
			 "\t\ts += y;\n\treturn s;\n}\n\nstatic int cold(int x)\n{\n\treturn x;\n}\n' > gc.c && "
			 "git add . && " CI " -m base && "
			 "sed -i 's/s += y;/s += y * y;/' gc.c && " CI " -am 'hot: the body' && "
			 "sed -i 's/return x;/return x + 1;/' gc.c && " CI " -am 'cold' && "
			 "echo 'int unrelated;' > u.c && git add u.c && " CI " -m unrelated",
			 "HEAD~3", "HEAD")) {
		flame_session_release(&s);
		tempdir_remove(dir);
		free(dir);
		SKIP("git is not usable");
	}
	repo = xstrfmt("%s/repo", dir);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			/* the build's DWARF, when there is a compiler */
			char *cmd = xstrfmt("cd %s && cc -g -O0 -o prog gc.c 2>/dev/null", repo);
			int built = !system(cmd);

			free(cmd);
			if (!built)
				break;
			CHECK_INT(session_repo(&s, dir, "true", "HEAD~3", "HEAD"), 0);
			flame_defs_init(&s.st.defs, repo);
		}
		follow(&s, "hot", "gc.c", "HEAD~2", "HEAD~1");	/* hot's body, cold's */
		CHECK_INT(s.ans.suspects.def_line, 10);
		CHECK_INT(s.ans.suspects.def_end, 16);
		CHECK_INT(s.ans.suspects.def_from_dwarf, pass);
		flame_session_release(&s);
	}
	tempdir_remove(dir);
	free(repo);
	free(dir);
}

TEST(macro_definition_in_text)
{
	unsigned line = 0, end = 0;

	CHECK_INT(flame_macro_in_text("#define GENX 1\n  #  define GEN(n) \\\n int n(void) \\ \n"
				      "{ }\nint x;\n", "GEN", &line, &end), 1);
	CHECK_INT(line, 2);
	CHECK_INT(end, 4);
	CHECK_INT(flame_macro_in_text("int GEN(int);\n#undef GEN\n", "GEN", &line, &end), 0);
}

TEST_MAIN("flame_definition", definitions_from_dwarf_and_text, definition_in_text_skips_what_is_not_one,
	  merge_lists_only_commits_touching_the_function, changed_function_from_the_definition_range,
	  macro_body_and_header_static_are_followed, static_forward_prototype_suspects_include_the_culprit,
	  macro_definition_in_text)
