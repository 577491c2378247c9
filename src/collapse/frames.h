/*
 * frames.h - helpers shared by the text formats of src/collapse/: a stack
 * of frame names being built (pushed root first or leaf first, cut back
 * to a depth for indented call trees) and handed to the folder as one
 * ';'-joined stack; small text predicates; the lines of a detector's
 * head; and the clean-up of Rust names
 * that tools print half-demangled.
 */
#ifndef TRAIL_COLLAPSE_FRAMES_H
#define TRAIL_COLLAPSE_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

struct folder;

struct frame_stack {
	struct strbuf text;	/* the frames' bytes, back to back */
	size_t *end;		/* end offset in text of frame i */
	size_t nr, alloc;	/* frames */
	struct strbuf joined;	/* scratch for frame_stack_fold */
};

void frame_stack_init(struct frame_stack *fs);
void frame_stack_release(struct frame_stack *fs);
/* Append a frame (the next one away from wherever the stack started). */
void frame_stack_push(struct frame_stack *fs, const char *s, size_t len);
/* Keep the first nr frames. */
void frame_stack_truncate(struct frame_stack *fs, size_t nr);
/* Frame i: its bytes (not NUL-terminated) and length. */
const char *frame_stack_get(const struct frame_stack *fs, size_t i, size_t *len);
/*
 * Add count to the stack in f: frames joined by ';', in push order when
 * the first frame pushed is the root, reversed when it is the leaf.
 */
void frame_stack_fold(struct frame_stack *fs, struct folder *f, int leaf_first, uint64_t count);

/* Whitespace as Rust's str::trim and Perl's \s see it in ASCII. */
int frames_is_space(char c);
/* The length of s[0..len) without its trailing whitespace. */
size_t frames_trim_end(const char *s, size_t len);
/* s[0..*len) without leading and trailing whitespace (returns the new start). */
const char *frames_trim(const char *s, size_t *len);
/* 1 when s[0..len) is one or more ASCII digits; *value gets them (saturating). */
int frames_parse_u64(const char *s, size_t len, uint64_t *value);

/*
 * The next line of a detector's head at *pos: 1 with *line and *len set
 * (the '\n' and a '\r' before it left out) and *pos moved past it; 0 at
 * the end.  With FRAMES_HEAD_WHOLE a last line that the end of the head
 * cut (no '\n') is not returned, since it says nothing about the format;
 * with FRAMES_HEAD_CUT it is (perf script's detector has always taken it).
 */
enum frames_head_mode { FRAMES_HEAD_WHOLE, FRAMES_HEAD_CUT };
int frames_head_line(const char *head, size_t n, size_t *pos, const char **line, size_t *len,
		     enum frames_head_mode mode);

/*
 * A folded line "frame;frame;... COUNT" with an integer count: 1 with the
 * stack (trailing blanks removed) and count set, 0 when the line is not one.
 */
int frames_parse_folded(const char *line, size_t len, const char **stack, size_t *stack_len,
			uint64_t *count);

/*
 * Names in Rust's legacy mangling that a tool printed without demangling
 * the escapes: "_$LT$T$u20$as$u20$Tr$GT$::f::h0123456789abcdef" becomes
 * "<T as Tr>::f" ('..' -> '::', $-escapes undone, hash dropped).  Only
 * names ending in a 17-byte "h<16 hex>" hash are touched; out gets the
 * result (replaced, not appended).  Returns 1 when rewritten, 0 when out
 * holds a plain copy.
 */
int frames_fix_rust_name(const char *s, size_t len, struct strbuf *out);

#endif
