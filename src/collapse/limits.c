/*
 * limits.c - the process's input budget (limits.h): its defaults, the
 * size option's parser and the one wording of a reached limit.
 */
#include "collapse/limits.h"
#include "core/error.h"
#include "core/options.h"
#include "core/parse_number.h"

#include <stdarg.h>
#include <stdio.h>

#include <string.h>

struct input_limits input_limits = {
	INPUT_LIMIT_DEFAULT_SIZE,
	INPUT_LIMIT_DEFAULT_EXPANSION,
	INPUT_LIMIT_DEFAULT_STACK,
};

int input_limits_parse_size(const struct option *opt, const char *arg)
{
	size_t len = strlen(arg);
	unsigned shift = 0;
	uint64_t v;

	if (len && strchr("kKmMgG", arg[len - 1])) {
		shift = strchr("kK", arg[len - 1]) ? 10 : strchr("mM", arg[len - 1]) ? 20 : 30;
		len--;
	}
	if (!len || parse_u64_n(arg, len, &v) || !v || v > (UINT64_MAX >> shift))
		return trail_error("--%s: expected a positive number of bytes (K, M or G "
				   "suffix allowed), not '%s'", opt->long_name, arg);
	*(uint64_t *)opt->value = v << shift;
	return 0;
}

int input_limit_error(const char *name, const char *option, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return trail_error("%s: %s; --%s raises the limit", name, what, option);
}

int input_budget_charge(struct input_budget *b, size_t stack_len, size_t added)
{
	b->built += added;
	if (stack_len > input_limits.max_stack_size)
		return input_limit_error(b->name, "max-stack-size", "a stack of more than %llu bytes",
					 (unsigned long long)input_limits.max_stack_size);
	if (b->built > input_limits.max_input_size)
		return input_limit_error(b->name, "max-input-size", "more than %llu bytes of "
					 "stacks in all", (unsigned long long)input_limits.max_input_size);
	return 0;
}

int input_limits_expansion_ok(uint64_t in, uint64_t out)
{
	if (out <= INPUT_LIMIT_EXPANSION_FREE)
		return 1;
	/* out / in <= max, without dividing: in may be 0 only for an empty stream */
	return in && out / in <= input_limits.max_expansion;
}
