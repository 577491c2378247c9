/*
 * escape.c - the escaping functions of escape.h.  Each walks the input
 * once, copying runs of safe bytes whole (a flame graph escapes hundreds of
 * thousands of names, almost all with nothing to escape).  Markdown rules
 * follow the CommonMark 0.31 spec (backslash escapes, entity references,
 * code spans) and the GFM table extension (escaped pipes).
 */
#include "core/escape.h"
#include "core/alloc.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <string.h>

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

size_t escape_utf8_seq(const unsigned char *s, size_t n)
{
	size_t need, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	need = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (n < need)
		return 0;
	for (i = 1; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (s[0] == 0xe0 && s[1] < 0xa0)
		return 0;	/* overlong */
	if (s[0] == 0xf0 && s[1] < 0x90)
		return 0;
	if (s[0] == 0xf4 && s[1] > 0x8f)
		return 0;	/* above U+10FFFF */
	if (s[0] == 0xed && s[1] > 0x9f)
		return 0;	/* surrogates */
	return need;
}

void escape_json(struct strbuf *sb, const char *s, size_t len)
{
	size_t i, n;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
		} else if (c == '\n') {
			strbuf_addstr(sb, "\\n");
		} else if (c == '\t') {
			strbuf_addstr(sb, "\\t");
		} else if (c < 0x20) {
			strbuf_addf(sb, "\\u%04x", c);
		} else if (c < 0x80) {
			strbuf_addch(sb, c);
		} else if ((n = escape_utf8_seq((const unsigned char *)s + i, len - i))) {
			strbuf_add(sb, s + i, n);
			i += n - 1;
		} else {
			strbuf_addstr(sb, REPLACEMENT);
		}
	}
}

static void sink_strbuf(void *ctx, const char *s, size_t n)
{
	strbuf_add(ctx, s, n);
}

/*
 * The walk shared by every kind: rep() says what byte i becomes.  It
 * returns NULL when the byte passes unchanged, else the replacement (and
 * *adv, the input bytes it consumes).  Valid UTF-8 sequences reach rep()
 * only when it asks for them (want_utf8), so most kinds never see them.
 */
typedef const char *replace_fn(const unsigned char *s, size_t i, size_t len, size_t *adv,
			       char tmp[16]);

/*
 * Which ASCII bytes a kind must look at ('x'; '.' passes unchanged): the
 * walk skips the others without a call.  C0 controls are looked at by all.
 */
#define C0 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
static const char look_xml[129] = C0
	"..x...x.....................x.x."
	"................................"
	"................................";
static const char look_html[129] = C0
	"..x...xx....................x.x."
	"................................"
	"...............................x";
static const char look_md_text[129] = C0
	"......x...x.................x.x."
	"...........................xxx.x"
	"x...........................x.xx";
static const char look_md_cell[129] = C0
	"................................"
	"................................"
	"............................x..x";
/* md code spans and blocks, terminal: controls and DEL only */
static const char look_ctl[129] = C0
	"................................"
	"................................"
	"...............................x";

static void walk(escape_sink *emit, void *ctx, const char *str, size_t len, replace_fn *rep,
		 const char *look)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;
	char tmp[16];

	while (i < len) {
		size_t adv = 1;
		const char *r;

		if (s[i] < 0x80 && look[s[i]] == '.') {
			i++;
			continue;
		}
		if (s[i] >= 0x80) {
			size_t k = escape_utf8_seq(s + i, len - i);

			if (!k) {
				r = REPLACEMENT;
			} else {
				adv = k;
				r = rep(s, i, len, &adv, tmp);
			}
		} else {
			r = rep(s, i, len, &adv, tmp);
		}
		if (!r) {
			i += adv;
			continue;
		}
		if (i > run)
			emit(ctx, str + run, i - run);
		emit(ctx, r, strlen(r));
		i += adv;
		run = i;
	}
	if (i > run)
		emit(ctx, str + run, i - run);
}

/* '&', '<' and '>': syntax to every markup reader (XML, HTML, Markdown). */
static const char *markup_char(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	}
	return NULL;
}

/* C0 controls and DEL, shown as U+FFFD by the HTML and Markdown kinds. */
static const char *control_char(unsigned char c)
{
	return c < 0x20 || c == 0x7f ? REPLACEMENT : NULL;
}

static const char *rep_xml(const unsigned char *s, size_t i, size_t len, size_t *adv,
			   char tmp[16])
{
	const char *r = markup_char(s[i]);

	(void)len, (void)adv, (void)tmp;
	if (r)
		return r;
	switch (s[i]) {
	case '"': return "&quot;";
	case '\t': return " ";
	}
	return s[i] < 0x20 ? REPLACEMENT : NULL;
}

void escape_xml_to(escape_sink *emit, void *ctx, const char *s, size_t len)
{
	walk(emit, ctx, s, len, rep_xml, look_xml);
}

void escape_xml_text(struct strbuf *sb, const char *s, size_t len)
{
	walk(sink_strbuf, sb, s, len, rep_xml, look_xml);
}

static const char *rep_html(const unsigned char *s, size_t i, size_t len, size_t *adv,
			    char tmp[16])
{
	const char *r = markup_char(s[i]);

	(void)len, (void)adv, (void)tmp;
	if (r)
		return r;
	switch (s[i]) {
	case '"': return "&quot;";
	case '\'': return "&#39;";
	case '\n': case '\t': return NULL;
	}
	return control_char(s[i]);
}

static const char *rep_html_attr(const unsigned char *s, size_t i, size_t len, size_t *adv,
				 char tmp[16])
{
	if (s[i] == '\n')
		return "&#10;";
	if (s[i] == '\t')
		return "&#9;";
	return rep_html(s, i, len, adv, tmp);
}

void escape_html_text(struct strbuf *sb, const char *s, size_t len)
{
	walk(sink_strbuf, sb, s, len, rep_html, look_html);
}

void escape_html_attr(struct strbuf *sb, const char *s, size_t len)
{
	walk(sink_strbuf, sb, s, len, rep_html_attr, look_html);
}

static const char *rep_md_text(const unsigned char *s, size_t i, size_t len, size_t *adv,
			       char tmp[16])
{
	const char *r = markup_char(s[i]);

	(void)len, (void)adv;
	if (r)
		return r;
	switch (s[i]) {
	case '\n': case '\t': case '\r': return " ";
	case '\\': case '`': case '*': case '_': case '[': case ']': case '~': case '|':
		tmp[0] = '\\';
		tmp[1] = (char)s[i];
		tmp[2] = 0;
		return tmp;
	}
	return control_char(s[i]);
}

void escape_md_text(struct strbuf *sb, const char *s, size_t len)
{
	walk(sink_strbuf, sb, s, len, rep_md_text, look_md_text);
}

/* In code: newlines flatten, controls become U+FFFD. */
static const char *rep_md_code(const unsigned char *s, size_t i, size_t len, size_t *adv,
			       char tmp[16])
{
	(void)len, (void)adv, (void)tmp;
	if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
		return " ";
	return control_char(s[i]);
}

static const char *rep_md_code_cell(const unsigned char *s, size_t i, size_t len, size_t *adv,
				    char tmp[16])
{
	if (s[i] == '|')
		return "\\|";
	return rep_md_code(s, i, len, adv, tmp);
}

static const char *rep_md_block(const unsigned char *s, size_t i, size_t len, size_t *adv,
				char tmp[16])
{
	(void)len, (void)adv, (void)tmp;
	if (s[i] == '\n' || s[i] == '\t')
		return NULL;
	return control_char(s[i]);
}

static size_t longest_backtick_run(const char *s, size_t len)
{
	size_t i, run = 0, max = 0;

	for (i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > max)
			max = run;
	}
	return max;
}

static void add_fence(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, '`');
}

void escape_md_code(struct strbuf *sb, const char *s, size_t len, int in_table)
{
	size_t fence = longest_backtick_run(s, len) + 1;
	/* CommonMark strips one space from each end when both ends have one */
	int pad = !len || s[0] == '`' || s[len - 1] == '`' ||
		  (s[0] == ' ' && s[len - 1] == ' ');

	add_fence(sb, fence);
	if (pad)
		strbuf_addch(sb, ' ');
	walk(sink_strbuf, sb, s, len, in_table ? rep_md_code_cell : rep_md_code,
	     in_table ? look_md_cell : look_ctl);
	if (pad)
		strbuf_addch(sb, ' ');
	add_fence(sb, fence);
}

void escape_md_code_block(struct strbuf *sb, const char *s, size_t len, const char *lang)
{
	size_t fence = longest_backtick_run(s, len) + 1;

	if (fence < 3)
		fence = 3;
	add_fence(sb, fence);
	if (lang)
		strbuf_addstr(sb, lang);
	strbuf_addch(sb, '\n');
	walk(sink_strbuf, sb, s, len, rep_md_block, look_ctl);
	if (!len || s[len - 1] != '\n')
		strbuf_addch(sb, '\n');
	add_fence(sb, fence);
	strbuf_addch(sb, '\n');
}

static const char *rep_term(const unsigned char *s, size_t i, size_t len, size_t *adv,
			    char tmp[16])
{
	(void)len;
	if (*adv > 1) {
		/* C1 controls U+0080..U+009F and the bidi overrides */
		if ((s[i] == 0xc2 && s[i + 1] <= 0x9f) ||
		    (s[i] == 0xe2 && s[i + 1] == 0x80 && s[i + 2] >= 0xaa && s[i + 2] <= 0xae) ||
		    (s[i] == 0xe2 && s[i + 1] == 0x81 && s[i + 2] >= 0xa6 && s[i + 2] <= 0xa9)) {
			unsigned cp = *adv == 2 ? (unsigned)(s[i + 1] & 0x3f) | 0x80 :
				      ((unsigned)(s[i] & 0x0f) << 12) |
				      ((unsigned)(s[i + 1] & 0x3f) << 6) | (s[i + 2] & 0x3fu);

			snprintf(tmp, 16, "\\u+%04X", cp);
			return tmp;
		}
		return NULL;
	}
	switch (s[i]) {
	case '\t': return "\\t";
	case '\r': return "\\r";
	case '\n': return "\\n";
	}
	if (s[i] < 0x20 || s[i] == 0x7f) {
		snprintf(tmp, 16, "\\x%02x", s[i]);
		return tmp;
	}
	return NULL;
}

static const char *rep_term_lines(const unsigned char *s, size_t i, size_t len, size_t *adv,
				  char tmp[16])
{
	if (s[i] == '\n')
		return NULL;
	return rep_term(s, i, len, adv, tmp);
}

void escape_term(struct strbuf *sb, const char *s, size_t len)
{
	walk(sink_strbuf, sb, s, len, rep_term, look_ctl);
}

void escape_term_lines(struct strbuf *sb, const char *s, size_t len)
{
	walk(sink_strbuf, sb, s, len, rep_term_lines, look_ctl);
}

static void sink_file(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

void escape_term_lines_to(FILE *f, const char *s, size_t len)
{
	walk(sink_file, f, s, len, rep_term_lines, look_ctl);
}

const char *escape_term_excerpt(struct strbuf *sb, const char *s, size_t len, size_t max)
{
	strbuf_reset(sb);
	if (len > max) {
		len = max;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	escape_term(sb, s, len);
	return sb->buf;
}

char *escape_term_dup(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		return NULL;
	escape_term(&sb, s, strlen(s));
	return strbuf_detach(&sb, NULL);
}
