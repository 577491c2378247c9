/*
 * limits.h - the budget every profile reader works within, so that no
 * input (a zip bomb, a pprof whose one location names a 50 KB function
 * 20,000 times) can take unbounded memory or time: bytes held after
 * decompression, the expansion ratio of compressed input, and the size of
 * one folded stack and of all stacks a whole-file format builds.  A reader
 * that reaches a limit fails with an error naming it and the option that
 * raises it (docs/collapse.md, "Limits").
 */
#ifndef TRAIL_COLLAPSE_LIMITS_H
#define TRAIL_COLLAPSE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

struct option;

struct input_limits {
	uint64_t max_input_size;	/* bytes: a whole-file input after decompression, and
					 * the folded text built from it (all stacks summed) */
	uint64_t max_expansion;		/* decompressed bytes per compressed byte */
	uint64_t max_stack_size;	/* bytes: one folded stack built by a whole-file format */
};

#define INPUT_LIMIT_DEFAULT_SIZE ((uint64_t)1 << 30)		/* 1 GiB */
#define INPUT_LIMIT_DEFAULT_EXPANSION 200
#define INPUT_LIMIT_DEFAULT_STACK ((uint64_t)16 << 20)		/* 16 MiB */
/* decompressed bytes before the expansion ratio is checked: small inputs never trip it */
#define INPUT_LIMIT_EXPANSION_FREE ((uint64_t)64 << 20)

/*
 * The process's budget: the defaults above, changed only by the command
 * line (INPUT_LIMIT_OPTIONS) before anything is read.
 */
extern struct input_limits input_limits;

/* --max-input-size's callback: bytes with an optional K, M or G suffix (powers of 1024). */
int input_limits_parse_size(const struct option *opt, const char *arg);

/*
 * The error for a limit that was reached: "name: <fmt ...>; --option
 * raises the limit".  Returns -1.
 */
int input_limit_error(const char *name, const char *option, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether decompressing in bytes into out bytes stays within max_expansion. */
int input_limits_expansion_ok(uint64_t in, uint64_t out);

/*
 * The stack text one whole-file input builds.  Its formats build stacks
 * from ids, so a few bytes can name a 50 KB function 20,000 times: a
 * reader charges every frame it pushes (added bytes, the stack now
 * stack_len long) and stops at the first error.
 */
struct input_budget {
	const char *name;	/* the input, for the message */
	uint64_t built;		/* bytes of stack text built so far */
};
#define INPUT_BUDGET_INIT(name) { (name), 0 }
/* 0, or -1 after input_limit_error() (max-stack-size or max-input-size). */
int input_budget_charge(struct input_budget *b, size_t stack_len, size_t added);

/* The options of every command that reads profiles (core/options.h table entries). */
#define INPUT_LIMIT_OPTIONS \
	OPT_CALLBACK(0, "max-input-size", &input_limits.max_input_size, "SIZE", \
		     "bytes of a whole-file input (pprof, JSON) after decompression " \
		     "(K, M, G; default 1G)", input_limits_parse_size), \
	OPT_U64(0, "max-expansion", &input_limits.max_expansion, "RATIO", \
		"a compressed input grows at most RATIO times (default 200)", 1, 1e12), \
	OPT_CALLBACK(0, "max-stack-size", &input_limits.max_stack_size, "SIZE", \
		     "bytes of one stack built from a whole-file input (default 16M)", \
		     input_limits_parse_size)

#endif
