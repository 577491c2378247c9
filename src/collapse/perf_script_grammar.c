/*
 * perf_script_grammar.c - the line grammar of 'perf script' text:
 * stackcollapse-perf.pl's (FlameGraph, CDDL) three regular expressions, as
 * the conformance corpus README documents them, matched here by hand,
 * reproducing Perl's leftmost/greedy/backtracking choices exactly, in time
 * linear in the line.
 */
#include "collapse/perf_script.h"
#include "collapse/perf_script_parts.h"

#include <string.h>

/*
 * ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ (written here with [/] for "\/"): the comm is the shortest prefix (at
 * least two bytes, the first not blank) followed by blanks, digits,
 * optional slashes and digits, and a blank.  For a given end of the comm
 * only the greedy reading of the rest can be followed by a blank, so each
 * run of blanks is tried once.
 */
int perf_script_match_event(const char *s, size_t len, struct perf_event_line *ev)
{
	size_t k = 2;

	if (len < 2 || is_space((unsigned char)s[0]))
		return 0;
	while (k < len) {
		size_t w, d1, sl, d2, end;

		if (!is_space((unsigned char)s[k])) {
			k++;
			continue;
		}
		for (w = k; w < len && is_space((unsigned char)s[w]); w++)
			;
		for (d1 = w; d1 < len && is_digit((unsigned char)s[d1]); d1++)
			;
		if (d1 > w) {
			for (sl = d1; sl < len && s[sl] == '/'; sl++)
				;
			for (d2 = sl; d2 < len && is_digit((unsigned char)s[d2]); d2++)
				;
			end = d2;
			if (end < len && is_space((unsigned char)s[end])) {
				ev->comm = s;
				ev->comm_len = k;
				/* Perl: "if (not $tid)": an empty or "0" TID means "only a TID" */
				if (d2 == sl || (d2 - sl == 1 && s[sl] == '0')) {
					ev->pid = NULL;
					ev->pid_len = 0;
					ev->tid = s + w;
					ev->tid_len = d1 - w;
				} else {
					ev->pid = s + w;
					ev->pid_len = d1 - w;
					ev->tid = s + sl;
					ev->tid_len = d2 - sl;
				}
				return 1;
			}
		}
		/* any end of the comm inside this run of blanks gives the same result */
		k = w > k + 1 ? w : k + 1;
	}
	return 0;
}

/*
 * The tail (\S+):\s*$ from position q: one last word ending in ':' and
 * only blanks after it.  The event name is the word without that ':'.
 */
static int match_event_name(const char *s, size_t len, size_t q, const char **event,
			    size_t *event_len)
{
	size_t t, i;

	if (q >= len || is_space((unsigned char)s[q]))
		return 0;
	for (t = q; t < len && !is_space((unsigned char)s[t]); t++)
		;
	for (i = t; i < len; i++)
		if (!is_space((unsigned char)s[i]))
			return 0;
	if (t - q < 2 || s[t - 1] != ':')
		return 0;
	*event = s + q;
	*event_len = t - 1 - q;
	return 1;
}

int perf_script_match_period(const char *s, size_t len, const char **event, size_t *event_len,
			     const char **digits, size_t *digits_len)
{
	const char *c = s, *end = s + len;

	while ((c = memchr(c, ':', (size_t)(end - c)))) {
		size_t p = (size_t)(c - s) + 1, w, d, w2;

		for (w = p; w < len && is_space((unsigned char)s[w]); w++)
			;
		/* first with a period: \s* (\d+) \s+ */
		for (d = w; d < len && is_digit((unsigned char)s[d]); d++)
			;
		if (d > w) {
			for (w2 = d; w2 < len && is_space((unsigned char)s[w2]); w2++)
				;
			if (w2 > d && match_event_name(s, len, w2, event, event_len)) {
				*digits = s + w;
				*digits_len = d - w;
				return 1;
			}
		}
		/* then without: \s* \s+ needs at least one blank */
		if (w > p && match_event_name(s, len, w, event, event_len)) {
			*digits = NULL;
			*digits_len = 0;
			return 1;
		}
		c++;
	}
	return 0;
}

/*
 * /^\s*(\w+)\s*(.+) \((.*)\)/.  The module runs from the last " (" that
 * has a ')' after it to the last ')'.  The function starts after the
 * address and its blanks, or earlier when that leaves it empty (Perl
 * backtracks into the blanks, then into the address).
 */
int perf_script_match_stack(const char *s, size_t len, struct fold_frame *fr)
{
	size_t ws, we, se, close, open, f;
	const char *rp;

	for (ws = 0; ws < len && is_space((unsigned char)s[ws]); ws++)
		;
	if (ws >= len || !is_word((unsigned char)s[ws]))
		return 0;
	for (we = ws; we < len && is_word((unsigned char)s[we]); we++)
		;
	for (se = we; se < len && is_space((unsigned char)s[se]); se++)
		;
	rp = memrchr(s, ')', len);
	if (!rp)
		return 0;
	close = (size_t)(rp - s);
	/* rightmost " (" with the '(' before the last ')' */
	for (open = close;;) {
		const char *q = open > 1 ? memrchr(s + 1, '(', open - 1) : NULL;

		if (!q)
			return 0;
		open = (size_t)(q - s);
		if (s[open - 1] == ' ')
			break;
	}
	open--;		/* position of the blank */
	f = se < open ? se : open - 1;
	if (open == 0 || f < ws + 1)
		return 0;
	fr->addr = s + ws;
	fr->addr_len = (f < we ? f : we) - ws;
	fr->func = s + f;
	fr->func_len = open - f;
	fr->module = s + open + 2;
	fr->module_len = close - (open + 2);
	return 1;
}

