/*
 * test_escape.c - unit tests for core/escape.h with hostile strings: HTML
 * tags, javascript: links, table pipes, backtick runs, terminal escape
 * sequences and invalid UTF-8, for every output kind.
 */
#include "harness.h"

#include "core/escape.h"
#include "core/term_printf.h"
#include "core/strbuf.h"

#include <string.h>

#define HOSTILE "<img src=x onerror=alert(1)> [x](javascript:alert(1)) | " \
		"\x1b[2K\rsuspect commit: fake"

typedef void escape_fn(struct strbuf *, const char *, size_t);

static const char *run(struct strbuf *sb, escape_fn *fn, const char *s)
{
	strbuf_reset(sb);
	fn(sb, s, strlen(s));
	return sb->buf;
}

/* No byte below 0x20 other than the ones allowed, and no DEL. */
static int no_controls(const char *s, const char *allowed)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 || *s == 0x7f) && !strchr(allowed, *s))
			return 0;
	return 1;
}

TEST(xml_escapes_markup_and_replaces_controls)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(run(&sb, escape_xml_text, "a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c'");
	CHECK_STREQ(run(&sb, escape_xml_text, "x\ty"), "x y");
	CHECK_STREQ(run(&sb, escape_xml_text, "\x1b[2K\x01"), "\xef\xbf\xbd[2K\xef\xbf\xbd");
	/* invalid UTF-8: a lone continuation byte, an overlong, a surrogate */
	CHECK_STREQ(run(&sb, escape_xml_text, "a\x80" "b\xc0\xafz\xed\xa0\x80"),
		    "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STREQ(run(&sb, escape_xml_text, "caf\xc3\xa9 \xf0\x9f\x94\xa5"),
		    "caf\xc3\xa9 \xf0\x9f\x94\xa5");
	CHECK(!strchr(run(&sb, escape_xml_text, HOSTILE), '<'));
	CHECK(no_controls(sb.buf, ""));
	strbuf_release(&sb);
}

TEST(html_text_keeps_lines_attr_does_not)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(run(&sb, escape_html_text, "<script>a'\"&\n\tb"),
		    "&lt;script&gt;a&#39;&quot;&amp;\n\tb");
	CHECK_STREQ(run(&sb, escape_html_attr, "a\nb\"' onload=x"),
		    "a&#10;b&quot;&#39; onload=x");
	run(&sb, escape_html_text, HOSTILE);
	CHECK(!strstr(sb.buf, "<img"));
	CHECK(no_controls(sb.buf, "\n\t"));
	strbuf_release(&sb);
}

TEST(markdown_text_neutralises_tags_links_pipes_emphasis)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(run(&sb, escape_md_text, "<img src=x onerror=alert(1)>"),
		    "&lt;img src=x onerror=alert(1)&gt;");
	CHECK_STREQ(run(&sb, escape_md_text, "[x](javascript:alert(1))"),
		    "\\[x\\](javascript:alert(1))");
	CHECK_STREQ(run(&sb, escape_md_text, "<javascript:alert(1)>"),
		    "&lt;javascript:alert(1)&gt;");
	CHECK_STREQ(run(&sb, escape_md_text, "a | b *c* _d_ ~~e~~ `f` \\g &amp;"),
		    "a \\| b \\*c\\* \\_d\\_ \\~\\~e\\~\\~ \\`f\\` \\\\g &amp;amp;");
	/* a newline could start a heading, a list or a table row */
	CHECK_STREQ(run(&sb, escape_md_text, "x\n# h\r\n| a |"), "x # h  \\| a \\|");
	run(&sb, escape_md_text, HOSTILE);
	CHECK(!strstr(sb.buf, "<img"));
	CHECK(strstr(sb.buf, "\\[x\\](javascript"));
	CHECK(no_controls(sb.buf, ""));
	strbuf_release(&sb);
}

static const char *code(struct strbuf *sb, const char *s, int in_table)
{
	strbuf_reset(sb);
	escape_md_code(sb, s, strlen(s), in_table);
	return sb->buf;
}

TEST(markdown_code_span_outlasts_backtick_runs)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(code(&sb, "main", 0), "`main`");
	CHECK_STREQ(code(&sb, "a`b", 0), "``a`b``");
	CHECK_STREQ(code(&sb, "a``b```c", 0), "````a``b```c````");
	/* content touching the fence is padded so the fence stays whole */
	CHECK_STREQ(code(&sb, "`x`", 0), "`` `x` ``");
	/* CommonMark strips one space from each end: pad to keep both */
	CHECK_STREQ(code(&sb, " x ", 0), "`  x  `");
	CHECK_STREQ(code(&sb, "", 0), "`  `");
	CHECK_STREQ(code(&sb, "a|b", 0), "`a|b`");
	CHECK_STREQ(code(&sb, "a|b", 1), "`a\\|b`");
	CHECK_STREQ(code(&sb, "a\nb\x1b", 0), "`a b\xef\xbf\xbd`");
	strbuf_reset(&sb);
	escape_md_code_block(&sb, "run ```x```\n", 12, "sh");
	CHECK_STREQ(sb.buf, "````sh\nrun ```x```\n````\n");
	strbuf_release(&sb);
}

TEST(terminal_shows_escapes_visibly)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(run(&sb, escape_term, "\x1b[2K\rsuspect commit: fake"),
		    "\\x1b[2K\\rsuspect commit: fake");
	CHECK_STREQ(run(&sb, escape_term, "a\nb\tc\x7f\x07"), "a\\nb\\tc\\x7f\\x07");
	CHECK_STREQ(run(&sb, escape_term_lines, "a\nb\x1b"), "a\nb\\x1b");
	/* C1 CSI (U+009B), a bidi override (U+202E), invalid UTF-8 */
	CHECK_STREQ(run(&sb, escape_term, "\xc2\x9b" "2K \xe2\x80\xae" "x \xff"),
		    "\\u+009B2K \\u+202Ex \xef\xbf\xbd");
	CHECK_STREQ(run(&sb, escape_term, "caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
	run(&sb, escape_term, HOSTILE);
	CHECK(no_controls(sb.buf, ""));
	strbuf_release(&sb);
}

TEST(excerpt_cuts_on_a_character)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(escape_term_excerpt(&sb, "ab\x1b" "c", 4, 3), "ab\\x1b");
	/* "é" is 2 bytes: a cut inside it drops it whole */
	CHECK_STREQ(escape_term_excerpt(&sb, "a\xc3\xa9z", 4, 2), "a");
	CHECK_STREQ(escape_term_excerpt(&sb, "a\xc3\xa9z", 4, 80), "a\xc3\xa9z");
	strbuf_release(&sb);
}

TEST(escape_term_dup_copies)
{
	char *s = escape_term_dup("x\x1b");

	CHECK_STREQ(s, "x\\x1b");
	free(s);
	CHECK(!escape_term_dup(NULL));
}

TEST(json_replaces_invalid_utf8)
{
	struct strbuf sb = STRBUF_INIT;

	escape_json(&sb, "a\"\\\n\x01\xc3\xa9\xff\xe2\x82", 10);
	CHECK_STREQ(sb.buf, "a\\\"\\\\\\n\\u0001\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	strbuf_reset(&sb);
	escape_json(&sb, "\xed\xa0\x80", 3);	/* a surrogate is not UTF-8 */
	CHECK_STREQ(sb.buf, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	strbuf_release(&sb);
}

/* term_addf: numbers as printf writes them, every string escaped and padded */
TEST(term_addf_escapes_every_string)
{
	struct strbuf sb = STRBUF_INIT;
	char want[200];
	size_t z = 42;
	long long ll = -7;
	unsigned char hh = 200;

	term_addf(&sb, "%d|%5.2f|%+.1f%%|%zu|%lld|%x|%-4u|%c|%.3g|%hhu|%*d|%.*f", -3, 3.14159, 2.25,
		  z, ll, 255u, 7u, 'q', 1e15, hh, 4, 9, 2, 0.125);
	snprintf(want, sizeof(want), "%d|%5.2f|%+.1f%%|%zu|%lld|%x|%-4u|%c|%.3g|%hhu|%*d|%.*f", -3,
		 3.14159, 2.25, z, ll, 255u, 7u, 'q', 1e15, hh, 4, 9, 2, 0.125);
	CHECK_STREQ(sb.buf, want);
	strbuf_reset(&sb);
	/* colour, OSC title with BEL, bidi override, a cut before an escape */
	term_addf(&sb, "[%s] [%-6s] [%4s] [%.3s] [%s]", "\x1b[31mred", "\xc3\xa9\x07", "a",
		  "abc\x1b]0;x\x07", "\xe2\x80\xae");
	CHECK_STREQ(sb.buf, "[\\x1b[31mred] [\xc3\xa9\\x07 ] [   a] [abc] [\\u+202E]");
	CHECK(!strchr(sb.buf, 0x1b) && !strchr(sb.buf, 0x07));
	strbuf_reset(&sb);
	term_addf(&sb, "%.3s|", "\xc3\xa9\xc3\xa9");	/* a cut keeps whole characters */
	CHECK_STREQ(sb.buf, "\xc3\xa9|");
	strbuf_release(&sb);
}

TEST_MAIN("escape", xml_escapes_markup_and_replaces_controls, html_text_keeps_lines_attr_does_not,
	  markdown_text_neutralises_tags_links_pipes_emphasis,
	  markdown_code_span_outlasts_backtick_runs, terminal_shows_escapes_visibly, excerpt_cuts_on_a_character,
	  escape_term_dup_copies, json_replaces_invalid_utf8, term_addf_escapes_every_string)
