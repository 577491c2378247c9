/*
 * escape.h - one escaping function per output kind, for every string that
 * came from outside (symbol names, commit subjects, authors, paths, command
 * lines): SVG/XML, HTML, Markdown text, Markdown code, terminal.  Escaping
 * happens at the boundary where text is written, never earlier, so each
 * writer calls the function for its own output kind.
 *
 * Common rules: invalid UTF-8 becomes U+FFFD; control characters never pass
 * raw (each kind says what they become).
 */
#ifndef TRAIL_CORE_ESCAPE_H
#define TRAIL_CORE_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

struct strbuf;

/*
 * A writer that is not a strbuf (the SVG writer's buffered output) passes
 * a sink; it is called with runs of output bytes in order.
 */
typedef void escape_sink(void *ctx, const char *s, size_t n);

/*
 * SVG/XML text or a double-quoted attribute value (one function: the
 * same escaping is right for both): & < > " become
 * entities, a tab a space, other C0 controls and invalid UTF-8 U+FFFD (XML
 * 1.0 forbids C0 controls even as references).  Byte for byte what
 * flamegraph.pl writes for names it can represent.
 */
void escape_xml_text(struct strbuf *sb, const char *s, size_t len);
void escape_xml_to(escape_sink *emit, void *ctx, const char *s, size_t len);

/*
 * HTML text (newlines and tabs kept, for <pre>) and attribute values
 * (quoted with " or '; newlines and tabs become character references):
 * & < > " ' become references, other controls and invalid UTF-8 U+FFFD.
 */
void escape_html_text(struct strbuf *sb, const char *s, size_t len);
void escape_html_attr(struct strbuf *sb, const char *s, size_t len);

/*
 * Markdown inline text (CommonMark/GFM with raw HTML enabled): < > & become
 * entities, so no tag or autolink (<javascript:...>) can form; \ ` * _ [ ]
 * ~ | are backslash-escaped, so no emphasis, code span, link or table cell
 * boundary can form; newlines and tabs become a space (no new block can
 * start); other controls and invalid UTF-8 become U+FFFD.  Safe inside a
 * table cell.
 */
void escape_md_text(struct strbuf *sb, const char *s, size_t len);

/*
 * A complete Markdown code span, backticks included: the fence is one
 * backtick longer than the longest run inside, padded with a space when the
 * content would otherwise touch the fence.  In a table cell (in_table) a |
 * is written \| (GFM splits cells before it parses code spans).  Newlines
 * become a space, controls and invalid UTF-8 U+FFFD.
 */
void escape_md_code(struct strbuf *sb, const char *s, size_t len, int in_table);

/*
 * A fenced Markdown code block of one or more lines, fences and info string
 * (lang, may be NULL) included: the fence is longer than any backtick run
 * in the content.  Controls other than newline and tab become U+FFFD.
 */
void escape_md_code_block(struct strbuf *sb, const char *s, size_t len, const char *lang);

/*
 * The inside of a JSON string (RFC 8259, no quotes added): " and \ are
 * backslash-escaped, \n and \t spelled so, other C0 controls \u00XX;
 * invalid UTF-8 becomes U+FFFD, so every parser accepts what is written
 * (Python's json.loads rejects a raw 0xff).  Every JSON writer ends here.
 */
void escape_json(struct strbuf *sb, const char *s, size_t len);

/*
 * Terminal: printable ASCII and valid UTF-8 pass; C0 controls and DEL
 * become visible escapes (\t \r \n \x1b ...), C1 controls and the bidi
 * overrides (U+202A..U+202E, U+2066..U+2069) \u+XXXX, invalid UTF-8 U+FFFD.
 * Nothing written can move the cursor, erase a line or change colours.
 * escape_term_lines keeps newlines (for multi-line output).
 */
void escape_term(struct strbuf *sb, const char *s, size_t len);
void escape_term_lines(struct strbuf *sb, const char *s, size_t len);
/* The same, written to f (core/error.c writes every diagnostic this way). */
void escape_term_lines_to(FILE *f, const char *s, size_t len);

/*
 * For quoting input in a diagnostic: sb reset, then escape_term() of at
 * most the first max bytes of s (cut on a UTF-8 boundary).  Returns sb->buf.
 */
const char *escape_term_excerpt(struct strbuf *sb, const char *s, size_t len, size_t max);

/* escape_term() into a new string the caller frees; NULL gives NULL. */
char *escape_term_dup(const char *s);

/* Bytes of a valid UTF-8 sequence at s (2..4), or 0; ASCII is not counted. */
size_t escape_utf8_seq(const unsigned char *s, size_t n);

#endif
