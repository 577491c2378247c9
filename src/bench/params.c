/*
 * params.c - expanding parameter scans into commands (see params.h).
 */
#include "bench/params.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int valid_name(const char *name)
{
	const char *p;

	if (!*name)
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return 0;
	return 1;
}

static int decimals(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (int)strspn(dot + 1, "0123456789") : 0;
}

int bench_param_range(struct bench_param *p, const char *name, const char *start,
		      const char *end, const char *step)
{
	double a, b, d = 1;
	int dec;
	uint64_t i, n;

	memset(p, 0, sizeof(*p));
	p->name = name;
	if (!valid_name(name))
		return trail_error("parameter name '%s' must be letters, digits, '_' or '-'", name);
	if (parse_double(start, &a))
		return trail_error("parameter scan '%s': start '%s' is not a number", name, start);
	if (parse_double(end, &b))
		return trail_error("parameter scan '%s': end '%s' is not a number", name, end);
	if (step && (parse_double(step, &d) || !(d > 0)))
		return trail_error("parameter scan '%s': step '%s' is not a positive number", name, step);
	if (b < a)
		return trail_error("parameter scan '%s': end %s is smaller than start %s", name, end, start);
	dec = decimals(start);
	if (step && decimals(step) > dec)
		dec = decimals(step);
	/* Count with a tolerance so 0.1 steps reach their end despite rounding. */
	n = (uint64_t)floor((b - a) / d + 1e-9) + 1;
	if (n > BENCH_MAX_SCAN_VALUES)
		return trail_error("parameter scan '%s' would make %llu commands (at most %d)", name,
			     (unsigned long long)n, BENCH_MAX_SCAN_VALUES);
	for (i = 0; i < n; i++)
		string_list_append_nodup(&p->values, xstrfmt("%.*f", dec, a + (double)i * d));
	return 0;
}

int bench_param_list(struct bench_param *p, const char *name, const char *list)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->name = name;
	if (!valid_name(name))
		return trail_error("parameter name '%s' must be letters, digits, '_' or '-'", name);
	string_list_split(&p->values, list, ',');
	for (i = 0; i < p->values.nr; i++)
		if (!*p->values.items[i])
			return trail_error("parameter list '%s' has an empty value: '%s'", name, list);
	return 0;
}

void bench_param_release(struct bench_param *p)
{
	string_list_clear(&p->values);
}

/* Replace every {name} of the parameters in tmpl. */
static char *substitute(const char *tmpl, const struct bench_param *params, size_t nr,
			const size_t *idx)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = tmpl;

	while (*s) {
		size_t k, matched = 0;

		if (*s == '{') {
			for (k = 0; k < nr && !matched; k++) {
				size_t len = strlen(params[k].name);

				if (!strncmp(s + 1, params[k].name, len) && s[1 + len] == '}') {
					strbuf_addstr(&sb, params[k].values.items[idx[k]]);
					matched = len + 2;
				}
			}
		}
		if (matched) {
			s += matched;
		} else {
			strbuf_addch(&sb, *s);
			s++;
		}
	}
	return strbuf_detach(&sb, NULL);
}

int bench_plan_build(struct bench_plan *plan, const char *const *templates, size_t nr_templates,
		     const char *const *names, size_t nr_names,
		     const struct bench_param *params, size_t nr_params)
{
	size_t combos, t, k, i, alloc = 0, idx[BENCH_MAX_PARAMS] = { 0 };

	memset(plan, 0, sizeof(*plan));
	if (nr_params > BENCH_MAX_PARAMS)
		return trail_error("at most %d parameters can be scanned", BENCH_MAX_PARAMS);
	for (k = 0; k < nr_params; k++)
		for (i = 0; i < k; i++)
			if (!strcmp(params[i].name, params[k].name))
				return trail_error("parameter '%s' is given twice", params[k].name);
	for (t = 0; t < nr_templates; t++) {
		const char *name_tmpl = names && t < nr_names ? names[t] : NULL;
		size_t used[BENCH_MAX_PARAMS], nr_used = 0, combo, u;

		/* Only the parameters a command mentions multiply it. */
		combos = 1;
		for (k = 0; k < nr_params; k++) {
			char *needle = xstrfmt("{%s}", params[k].name);

			if (strstr(templates[t], needle) || (name_tmpl && strstr(name_tmpl, needle))) {
				used[nr_used++] = k;
				combos = st_mult(combos, params[k].values.nr);
			}
			free(needle);
		}
		for (combo = 0; combo < combos; combo++) {
			struct bench_command *cmd;
			size_t rest = combo;
			char *line;

			/* mixed-radix digits of combo, the first parameter slowest */
			for (u = nr_used; u-- > 0;) {
				k = used[u];
				idx[k] = rest % params[k].values.nr;
				rest /= params[k].values.nr;
			}
			if (plan->nr >= BENCH_MAX_SCAN_VALUES)
				return trail_error("the parameter scan would make too many commands (at most %d)",
					     BENCH_MAX_SCAN_VALUES);
			ALLOC_GROW(plan->commands, plan->nr + 1, alloc);
			cmd = &plan->commands[plan->nr++];
			memset(cmd, 0, sizeof(*cmd));
			line = substitute(templates[t], params, nr_params, idx);
			string_list_append_nodup(&plan->strings, line);
			cmd->cmdline = line;
			cmd->name = line;
			if (name_tmpl) {
				char *name = substitute(name_tmpl, params, nr_params, idx);

				string_list_append_nodup(&plan->strings, name);
				cmd->name = name;
			}
			for (u = 0; u < nr_used; u++) {
				cmd->param_names[u] = params[used[u]].name;
				cmd->param_values[u] = params[used[u]].values.items[idx[used[u]]];
			}
		}
	}
	return 0;
}

void bench_plan_release(struct bench_plan *plan)
{
	free(plan->commands);
	string_list_clear(&plan->strings);
	memset(plan, 0, sizeof(*plan));
}
