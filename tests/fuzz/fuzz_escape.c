/*
 * fuzz_escape.c - libFuzzer target for core/escape.h and the folded weight
 * header parser: on any bytes, every escaping function's output holds no
 * byte that its output kind forbids (raw C0 controls, markup characters,
 * invalid UTF-8), the header round-trips, and a frame name made safe by
 * folded_stack_push() never changes what its folded line means (one
 * column, its own count).
 */
#include "core/escape.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Valid UTF-8 throughout, and no C0 control outside allowed. */
static void check_clean(const struct strbuf *sb, const char *allowed, const char *forbidden)
{
	const unsigned char *s = (const unsigned char *)sb->buf;
	size_t i = 0;

	while (i < sb->len) {
		if (s[i] >= 0x80) {
			size_t k = escape_utf8_seq(s + i, sb->len - i);

			if (!k)
				abort();
			i += k;
			continue;
		}
		if ((s[i] < 0x20 && !strchr(allowed, s[i])) || (s[i] && strchr(forbidden, s[i])))
			abort();
		i++;
	}
}

/* "main;NAME 10" read back: the stack built and 10, never two columns. */
static void check_frame_name(const char *s, size_t size)
{
	struct strbuf stack = STRBUF_INIT, line = STRBUF_INIT;
	struct folded_line fl;

	folded_stack_push(&stack, "main", 4);
	folded_stack_push(&stack, s, size);
	if (memchr(stack.buf, '\n', stack.len) || memchr(stack.buf, '\r', stack.len))
		abort();
	strbuf_addf(&line, "%s 10", stack.buf);
	/* a NUL inside a name ends the C string: check what was written */
	if (strlen(stack.buf) == stack.len &&
	    (folded_parse_line(line.buf, line.len, &fl) || fl.columns != 1 || fl.count[0] != 10 ||
	     fl.stack_len != stack.len || memcmp(fl.stack, stack.buf, stack.len)))
		abort();
	strbuf_release(&stack);
	strbuf_release(&line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct strbuf sb = STRBUF_INIT;
	struct folded_weight_info w;

	escape_xml_text(&sb, s, size);
	check_clean(&sb, "", "<>\"");
	strbuf_reset(&sb);
	escape_html_attr(&sb, s, size);
	check_clean(&sb, "", "<>\"'");
	strbuf_reset(&sb);
	escape_html_text(&sb, s, size);
	check_clean(&sb, "\n\t", "<>");
	strbuf_reset(&sb);
	escape_md_text(&sb, s, size);
	check_clean(&sb, "", "<>");
	strbuf_reset(&sb);
	escape_md_code(&sb, s, size, 1);
	check_clean(&sb, "", "");
	strbuf_reset(&sb);
	escape_md_code_block(&sb, s, size, "sh");
	check_clean(&sb, "\n\t", "");
	strbuf_reset(&sb);
	escape_term(&sb, s, size);
	check_clean(&sb, "", "\x7f");
	strbuf_reset(&sb);
	escape_term_lines(&sb, s, size);
	check_clean(&sb, "\n", "\x7f");
	strbuf_reset(&sb);
	escape_json(&sb, s, size);	/* quotes and backslashes come escaped */
	check_clean(&sb, "", "");
	check_frame_name(s, size);
	if (folded_header_parse(s, size, &w)) {
		char buf[96];
		struct folded_weight_info back;
		struct folded_line fl;

		folded_header_format(buf, sizeof(buf), &w);
		/* a header never reads as a stack to flamegraph.pl's grammar */
		if (buf[0] && !folded_parse_line(buf, strlen(buf) - 1, &fl))
			abort();
		if (buf[0] && (!folded_header_parse(buf, strlen(buf) - 1, &back) ||
			       back.weight != w.weight))
			abort();
	}
	strbuf_release(&sb);
	return 0;
}
