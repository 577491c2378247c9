/*
 * options.c - the table-driven command-line parser (see options.h).
 */
#include "core/options.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/string_list.h"

#include <stdio.h>
#include <string.h>

int options_help_lists;

static const char *option_name(const struct option *o, int as_short, char *buf, size_t n)
{
	if (as_short)
		snprintf(buf, n, "-%c", o->short_name);
	else
		snprintf(buf, n, "--%s", o->long_name);
	return buf;
}

static int takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPTION_FLAG:
		return 0;
	case OPTION_CALLBACK:
		return !(o->flags & OPTION_NOARG);
	default:
		return 1;
	}
}

/* The choices' words, "a, b or c", into buf. */
static void choice_words(const struct option_choice *c, const char *sep, const char *last,
			 char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; c && c->name && used < n; c++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? (c[1].name ? sep : last) : "",
					 c->name);
}

static int store_choice(const struct option *o, const char *name, const char *arg)
{
	const struct option_choice *c;
	char words[256];

	for (c = o->choices; c && c->name; c++)
		if (!strcmp(c->name, arg)) {
			if (o->type == OPTION_CHOICE)
				*(int *)o->value = c->value;
			else
				*(const char **)o->value = c->name;
			return 0;
		}
	choice_words(o->choices, ", ", " or ", words, sizeof(words));
	return trail_error("option '%s' must be %s, not '%s'", name, words, arg);
}

const char *options_values_of;

/* 'trail help --values CMD OPTION': the words of a choice option, one a line; 0, or -1 for another option. */
static int print_choices(FILE *f, const struct option *opts, const char *spelling)
{
	const struct option *o;
	const struct option_choice *c;
	char name[128];

	for (o = opts; o->type != OPTION_END; o++) {
		if (o->type != OPTION_CHOICE && o->type != OPTION_CHOICE_NAME)
			continue;
		if (strcmp(option_name(o, 0, name, sizeof(name)), spelling) &&
		    !(o->short_name && !strcmp(option_name(o, 1, name, sizeof(name)), spelling)))
			continue;
		for (c = o->choices; c && c->name; c++)
			fprintf(f, "%s\n", c->name);
		return 0;
	}
	return -1;
}

static int store(const struct option *o, int as_short, const char *arg)
{
	char name[128];
	double d;
	uint64_t u;

	option_name(o, as_short, name, sizeof(name));
	switch (o->type) {
	case OPTION_FLAG:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_STRING_LIST:
		string_list_append(o->value, arg);
		return 0;
	case OPTION_UINT:
	case OPTION_U64:
		if (parse_u64(arg, &u))
			return trail_error("option '%s' expects a non-negative whole number, not '%s'", name, arg);
		if ((double)u < o->min || (double)u > o->max)
			return trail_error("option '%s' must be between %.0f and %.0f, not '%s'",
				     name, o->min, o->max, arg);
		if (o->type == OPTION_UINT)
			*(unsigned *)o->value = (unsigned)u;	/* max <= UINT_MAX: the table's promise */
		else
			*(uint64_t *)o->value = u;
		return 0;
	case OPTION_PERCENT:
	case OPTION_DOUBLE:
		if (parse_double(arg, &d))
			return trail_error("option '%s' expects a number, not '%s'", name, arg);
		if (d < o->min || d > o->max)
			return trail_error("option '%s' must be between %g and %g, not '%s'",
				     name, o->min, o->max, arg);
		*(double *)o->value = o->type == OPTION_PERCENT ? d / 100 : d;
		return 0;
	case OPTION_SECONDS:
		if (parse_seconds(arg, &d))
			return trail_error("option '%s' expects a duration such as 10, 2.5s or 500ms, not '%s'",
				     name, arg);
		*(double *)o->value = d;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg);
	case OPTION_CHOICE:
	case OPTION_CHOICE_NAME:
		return store_choice(o, name, arg);
	default:
		return trail_error("internal: option '%s' has no type", name);
	}
}

static const struct option *find_long(const struct option *opts, const char *name,
				      size_t len, int *negated)
{
	const struct option *o;

	*negated = 0;
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->type == OPTION_FLAG && o->long_name &&
			    strlen(o->long_name) == len - 3 && !strncmp(o->long_name, name + 3, len - 3)) {
				*negated = 1;
				return o;
			}
	}
	return NULL;
}

static const struct option *find_short(const struct option *opts, int c)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* Returns the number of argv entries consumed beyond argv[*i], or -1. */
static int parse_long(const struct option *opts, int argc, const char **argv, int i)
{
	const char *name = argv[i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int negated;
	const struct option *o = find_long(opts, name, len, &negated);

	if (!o && !eq && len == 5 && !strncmp(name, "quiet", 5)) {
		trail_quiet = 1;
		return 0;
	}
	if (!o && !eq && len == 7 && !strncmp(name, "verbose", 7)) {
		trail_verbose++;
		return 0;
	}
	if (!o)
		return trail_error("unknown option '--%.*s'", (int)len, name);
	if (negated) {
		if (eq)
			return trail_error("option '--%.*s' takes no value", (int)len, name);
		*(int *)o->value = 0;
		return 0;
	}
	if (!takes_arg(o)) {
		if (eq)
			return trail_error("option '--%s' takes no value", o->long_name);
		return store(o, 0, NULL);
	}
	if (eq)
		return store(o, 0, eq + 1);
	if (i + 1 >= argc)
		return trail_error("option '--%s' needs a value (%s)", o->long_name, o->argh ? o->argh : "ARG");
	return store(o, 0, argv[i + 1]) ? -1 : 1;
}

static int parse_short(const struct option *opts, int argc, const char **argv, int i)
{
	const char *p = argv[i] + 1;

	for (; *p; p++) {
		const struct option *o = find_short(opts, (unsigned char)*p);

		if (!o && *p == 'q') {
			trail_quiet = 1;
			continue;
		}
		if (!o && *p == 'v') {
			trail_verbose++;
			continue;
		}
		if (!o)
			return trail_error("unknown option '-%c'", *p);
		if (!takes_arg(o)) {
			if (store(o, 1, NULL))
				return -1;
			continue;
		}
		if (p[1])
			return store(o, 1, p + 1);
		if (i + 1 >= argc)
			return trail_error("option '-%c' needs a value (%s)", *p, o->argh ? o->argh : "ARG");
		return store(o, 1, argv[i + 1]) ? -1 : 1;
	}
	return 0;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usage, unsigned flags)
{
	int i, out = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int used, negated;

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				argv[out++] = argv[i];
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			if (options_values_of) {
				/* an option without words: nothing to offer */
				print_choices(stdout, opts, options_values_of);
				return PARSE_OPT_HELP;
			}
			if (options_help_lists)
				options_list(stdout, opts);
			else
				usage_print(stdout, opts, usage);
			return PARSE_OPT_HELP;
		}
		if (!strcmp(a, "--version") && !find_long(opts, "version", 7, &negated))
			return PARSE_OPT_VERSION;
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION) {
				for (; i < argc; i++)
					argv[out++] = argv[i];
				break;
			}
			argv[out++] = a;
			continue;
		}
		used = a[1] == '-' ? parse_long(opts, argc, argv, i)
				   : parse_short(opts, argc, argv, i);
		if (used < 0)
			return PARSE_OPT_ERROR;
		i += used;
	}
	argv[out] = NULL;
	return out;
}

static const char *const common_options[] = {
	"-q", "--quiet", "-v", "--verbose", "--version", "-h", "--help", NULL
};

void options_list(FILE *f, const struct option *opts)
{
	const struct option *o;
	const char *const *c;
	int negated;

	for (o = opts; o->type != OPTION_END; o++) {
		const char *arg = takes_arg(o) ? (o->argh ? o->argh : "ARG") : NULL;

		if (o->type == OPTION_GROUP)
			continue;
		if (o->long_name)
			fprintf(f, "--%s%s%s\n", o->long_name, arg ? " " : "", arg ? arg : "");
		if (o->long_name && o->type == OPTION_FLAG && strncmp(o->long_name, "no-", 3))
			fprintf(f, "--no-%s\n", o->long_name);
		if (o->short_name)
			fprintf(f, "-%c%s%s\n", o->short_name, arg ? " " : "", arg ? arg : "");
	}
	for (c = common_options; *c; c++) {
		if (c[0][1] == '-' ? find_long(opts, *c + 2, strlen(*c + 2), &negated) != NULL
				   : find_short(opts, (unsigned char)c[0][1]) != NULL)
			continue;
		fprintf(f, "%s\n", *c);
	}
}

void usage_print(FILE *f, const struct option *opts, const char *const *usage)
{
	const struct option *o;

	if (usage && usage[0]) {
		fprintf(f, "usage: %s\n", usage[0]);
		for (usage++; *usage; usage++)
			fprintf(f, "%s%s\n", **usage ? "    " : "", *usage);
	}
	fputc('\n', f);
	for (o = opts; o->type != OPTION_END; o++) {
		char spec[96];
		int n = 0;

		if (o->type == OPTION_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->flags & OPTION_HIDDEN)
			continue;
		if (o->short_name && o->long_name)
			n = snprintf(spec, sizeof(spec), "-%c, --%s", o->short_name, o->long_name);
		else if (o->short_name)
			n = snprintf(spec, sizeof(spec), "-%c", o->short_name);
		else
			n = snprintf(spec, sizeof(spec), "    --%s", o->long_name);
		if (takes_arg(o) && n > 0 && (size_t)n < sizeof(spec)) {
			char words[64];

			if (!o->argh && o->choices)
				choice_words(o->choices, "|", "|", words, sizeof(words));
			snprintf(spec + n, sizeof(spec) - (size_t)n, " %s",
				 o->argh ? o->argh : o->choices ? words : "ARG");
		}
		if (strlen(spec) <= 24)
			fprintf(f, "    %-24s  %s\n", spec, o->help ? o->help : "");
		else
			fprintf(f, "    %s\n    %-24s  %s\n", spec, "", o->help ? o->help : "");
	}
}
