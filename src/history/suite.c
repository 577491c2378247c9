/*
 * suite.c - .trail, the repository's benchmark suite: git config reads
 * the file (its syntax, quoting and escapes are git's), this file checks
 * every section, key and value strictly and applies [defaults]; lines
 * come from suite_lines.c.  An unknown section or key, a key given
 * twice, a bad number or budget, a bench without a run command: an error
 * naming FILE:LINE and the key.
 */
#include "history/suite.h"

#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* .trail larger than this is not a suite file: refused before git reads it */
#define SUITE_MAX_BYTES (1 << 20)

enum suite_key { K_BUILD, K_RUN, K_METRIC, K_REPEAT, K_MIN_EFFECT, K_TIMEOUT, K_PROFILER, K_BUDGET,
		 NR_KEYS };
static const char *const key_names[NR_KEYS] = {
	"build", "run", "metric", "repeat", "min-effect", "timeout", "profiler", "budget",
};
static const char *const metrics[] = { "cpu", "wall", "rss", "alloc", "peak-heap" };

struct parse {
	struct history_suite *s;
	struct history_bench defaults;
	unsigned *seen;			/* per bench: keys given, bits */
	unsigned defaults_seen;		/* the same for [defaults] */
	char **names;			/* from the scanner */
	unsigned *lines;
	unsigned char *used;
	size_t nnames;
};

static void bench_init(struct history_bench *b)
{
	memset(b, 0, sizeof(*b));
	b->min_effect = -1;
	b->timeout = -1;
}

static void bench_release(struct history_bench *b)
{
	free(b->name);
	free(b->build);
	free(b->run);
	free(b->metric);
	free(b->profiler);
}

/* The line of the key git listed as name: the first unused one the scanner found so. */
static unsigned line_of(struct parse *ps, size_t index, const char *name)
{
	size_t i;

	if (index < ps->nnames && !ps->used[index] && !strcmp(ps->names[index], name)) {
		ps->used[index] = 1;
		return ps->lines[index];
	}
	for (i = 0; i < ps->nnames; i++)
		if (!ps->used[i] && !strcmp(ps->names[i], name)) {
			ps->used[i] = 1;
			return ps->lines[i];
		}
	return 0;
}

/* "FILE:LINE: " (or "FILE: " when the line is not known) + message; -1. */
__attribute__((format(printf, 3, 4)))
static int suite_error(const struct parse *ps, unsigned line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		trail_error("%s:%u: %s", ps->s->path, line, msg);
	else
		trail_error("%s: %s", ps->s->path, msg);
	return -1;
}

int history_suite_name_ok(const char *n)
{
	size_t len = strlen(n);

	return len && len <= HISTORY_BENCH_NAME_MAX && n[0] != '.' && n[0] != '-' &&
	       strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == len;
}

/* The bench of section "bench.NAME", added at its first key. */
static struct history_bench *bench_for(struct parse *ps, const char *name, unsigned line)
{
	size_t i;

	for (i = 0; i < ps->s->nr; i++)
		if (!strcmp(ps->s->benches[i].name, name))
			return &ps->s->benches[i];
	ps->s->benches = xreallocarray(ps->s->benches, ps->s->nr + 1, sizeof(*ps->s->benches));
	ps->seen = xreallocarray(ps->seen, ps->s->nr + 1, sizeof(*ps->seen));
	ps->seen[ps->s->nr] = 0;
	bench_init(&ps->s->benches[ps->s->nr]);
	ps->s->benches[ps->s->nr].name = xstrdup(name);
	ps->s->benches[ps->s->nr].line = line;
	return &ps->s->benches[ps->s->nr++];
}

static int one_of(const char *v, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, list[i]))
			return 1;
	return 0;
}

/* Check value and set key k of b; what names the section in messages. */
static int set_key(struct parse *ps, struct history_bench *b, enum suite_key k, const char *value,
		   unsigned line, const char *what)
{
	const char *why = NULL;
	int is_pct;

	if (!*value)
		return suite_error(ps, line, "%s: '%s' is empty", what, key_names[k]);
	switch (k) {
	case K_BUILD:
		b->build = xstrdup(value);
		break;
	case K_RUN:
		b->run = xstrdup(value);
		break;
	case K_METRIC:
		if (!one_of(value, metrics, sizeof(metrics) / sizeof(metrics[0])))
			why = "is not cpu, wall, rss, alloc or peak-heap";
		else
			b->metric = xstrdup(value);
		break;
	case K_PROFILER:
		if (strcmp(value, "trail") && strcmp(value, "perf"))
			why = "is not trail or perf";
		else
			b->profiler = xstrdup(value);
		break;
	case K_REPEAT:
		if (parse_u64(value, &b->repeat) || b->repeat < 1 || b->repeat > 1000)
			why = "is not a whole number from 1 to 1000";
		break;
	case K_MIN_EFFECT:
		if (parse_amount_or_percent(value, &b->min_effect, &is_pct) || b->min_effect > 1e6)
			why = "is not a percentage (e.g. 3%)";
		break;
	case K_TIMEOUT:
		if (parse_seconds(value, &b->timeout) || b->timeout < 0 || b->timeout > 1e9)
			why = "is not a duration (e.g. 300, 90s, 500ms)";
		break;
	case K_BUDGET:
		if (history_budget_parse(value, &b->budget, &why)) {
			struct strbuf v = STRBUF_INIT;
			int ret;

			escape_term(&v, value, strlen(value));
			ret = suite_error(ps, line, "%s: budget '%s': %s", what, v.buf, why);
			strbuf_release(&v);
			return ret;
		}
		b->has_budget = 1;
		b->budget_line = line;
		break;
	case NR_KEYS:
		break;
	}
	if (why) {
		struct strbuf v = STRBUF_INIT;

		escape_term(&v, value, strlen(value));
		suite_error(ps, line, "%s: %s '%s' %s", what, key_names[k], v.buf, why);
		strbuf_release(&v);
		return -1;
	}
	return 0;
}

/* One "section[.sub].key" = value (value NULL: a key without '='). */
static int one_entry(struct parse *ps, const char *name, const char *value, unsigned line)
{
	const char *dot = strchr(name, '.'), *last = strrchr(name, '.');
	struct history_bench *b;
	struct strbuf what = STRBUF_INIT, esc = STRBUF_INIT;
	unsigned *seen;
	size_t k;
	int ret = -1;

	if (!dot)
		return suite_error(ps, line, "'%s' is outside a section", name);
	escape_term(&esc, name, strlen(name));
	if (dot - name == 5 && !memcmp(name, "bench", 5) && last > dot + 1) {
		char *sub = xstrndup(dot + 1, (size_t)(last - dot - 1));

		if (!history_suite_name_ok(sub)) {
			strbuf_reset(&esc);
			escape_term(&esc, sub, strlen(sub));
			suite_error(ps, line, "bench name '%s' is not 1 to %d letters, digits, '.', '_' "
				    "or '-' (not starting with '.' or '-')", esc.buf,
				    HISTORY_BENCH_NAME_MAX);
			free(sub);
			goto out;
		}
		b = bench_for(ps, sub, line);
		seen = &ps->seen[b - ps->s->benches];
		strbuf_addf(&what, "bench \"%s\"", sub);
		free(sub);
	} else if (dot - name == 8 && !memcmp(name, "defaults", 8) && last == dot) {
		b = &ps->defaults;
		seen = &ps->defaults_seen;
		strbuf_addstr(&what, "[defaults]");
	} else {
		suite_error(ps, line, "'%s': unknown section (only [bench \"NAME\"] and [defaults])",
			    esc.buf);
		goto out;
	}
	for (k = 0; k < NR_KEYS && strcmp(last + 1, key_names[k]); k++)
		;
	if (k == NR_KEYS) {
		suite_error(ps, line, "%s: unknown key '%s' (build, run, metric, repeat, min-effect, "
			    "timeout, profiler, budget)", what.buf, esc.buf + (last + 1 - name));
		goto out;
	}
	if (*seen & (1u << k)) {
		suite_error(ps, line, "%s: '%s' given twice", what.buf, key_names[k]);
		goto out;
	}
	*seen |= 1u << k;
	if (!value) {
		suite_error(ps, line, "%s: '%s' has no value ('%s = ...')", what.buf, key_names[k],
			    key_names[k]);
		goto out;
	}
	ret = set_key(ps, b, (enum suite_key)k, value, line, what.buf);
out:
	strbuf_release(&what);
	strbuf_release(&esc);
	return ret;
}

/* Unset fields of b from d. */
static void inherit(struct history_bench *b, const struct history_bench *d)
{
	if (!b->build && d->build)
		b->build = xstrdup(d->build);
	if (!b->run && d->run)
		b->run = xstrdup(d->run);
	if (!b->metric && d->metric)
		b->metric = xstrdup(d->metric);
	if (!b->profiler && d->profiler)
		b->profiler = xstrdup(d->profiler);
	if (!b->repeat)
		b->repeat = d->repeat;
	if (b->min_effect < 0)
		b->min_effect = d->min_effect;
	if (b->timeout < 0)
		b->timeout = d->timeout;
	if (!b->has_budget && d->has_budget) {
		b->budget = d->budget;
		b->has_budget = 1;
		b->budget_line = d->budget_line;
	}
}

/* After defaults: every bench runs something, and its budget is of its metric. */
static int check_benches(struct parse *ps)
{
	size_t i;

	if (!ps->s->nr)
		return suite_error(ps, 0, "no [bench \"NAME\"] section");
	for (i = 0; i < ps->s->nr; i++) {
		struct history_bench *b = &ps->s->benches[i];
		const char *m = b->metric ? b->metric : "cpu";

		inherit(b, &ps->defaults);
		if (!b->run)
			return suite_error(ps, b->line, "bench \"%s\": no 'run' (the workload's "
					   "command), here or in [defaults]", b->name);
		if (b->has_budget && b->budget.metric && strcmp(b->budget.metric, b->metric ?
								b->metric : "cpu"))
			return suite_error(ps, b->budget_line, "bench \"%s\": budget '%s' is about %s, "
					   "but the bench measures %s", b->name, b->budget.text,
					   b->budget.metric, m);
		if (b->has_budget && !b->budget.metric &&
		    (b->budget.dim == HISTORY_BUDGET_TIME) != (!strcmp(m, "cpu") || !strcmp(m, "wall")))
			return suite_error(ps, b->budget_line, "bench \"%s\": budget '%s' is in %s, but "
					   "the bench's metric %s is %s", b->name, b->budget.text,
					   b->budget.dim == HISTORY_BUDGET_TIME ? "time" : "bytes", m,
					   b->budget.dim == HISTORY_BUDGET_TIME ? "bytes" : "a time");
	}
	return 0;
}

int history_suite_parse(struct history_suite *s, const char *path, const char *list, size_t len,
			const char *text, size_t tlen)
{
	struct parse ps;
	const char *p = list, *end = list + len;
	size_t index = 0, i;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	memset(&ps, 0, sizeof(ps));
	s->path = xstrdup(path);
	ps.s = s;
	bench_init(&ps.defaults);
	ps.nnames = text ? history_suite_scan_lines(text, tlen, &ps.names, &ps.lines) : 0;
	ps.used = xcalloc(ps.nnames + 1, 1);
	while (p < end) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		const char *nl;
		char *name;

		if (!z) {
			suite_error(&ps, 0, "git config gave an unterminated entry");
			goto out;
		}
		nl = memchr(p, '\n', (size_t)(z - p));
		name = xstrndup(p, (size_t)((nl ? nl : z) - p));
		if (one_entry(&ps, name, nl ? nl + 1 : NULL, line_of(&ps, index++, name))) {
			free(name);
			goto out;
		}
		free(name);
		p = z + 1;
	}
	ret = check_benches(&ps);
out:
	bench_release(&ps.defaults);
	for (i = 0; i < ps.nnames; i++)
		free(ps.names[i]);
	free(ps.names);
	free(ps.lines);
	free(ps.used);
	free(ps.seen);
	if (ret)
		history_suite_release(s);
	return ret;
}

int history_suite_load(struct history_suite *s, const char *top)
{
	char *path = xstrfmt("%s/%s", top, HISTORY_SUITE_FILE);
	const char *argv[] = { "git", "config", "--no-includes", "--file", path, "-z", "--list", NULL };
	struct strbuf text = STRBUF_INIT, list = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct stat st;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	if (lstat(path, &st)) {
		free(path);
		return 1;
	}
	if (!S_ISREG(st.st_mode))
		trail_error("%s: not a regular file", HISTORY_SUITE_FILE);
	else if (st.st_size > SUITE_MAX_BYTES)
		trail_error("%s: %lld bytes; a suite file holds at most %d", HISTORY_SUITE_FILE,
			    (long long)st.st_size, SUITE_MAX_BYTES);
	else if (strbuf_read_file(&text, path) == 0) {
		c.argv = argv;
		c.dir = top;
		c.in = CHILD_DEVNULL;
		if (child_capture(&c, &list))
			trail_error("%s: git config cannot read it (see above)", HISTORY_SUITE_FILE);
		else
			ret = history_suite_parse(s, HISTORY_SUITE_FILE, list.buf, list.len, text.buf,
						  text.len);
	}
	strbuf_release(&text);
	strbuf_release(&list);
	free(path);
	return ret;
}

void history_suite_release(struct history_suite *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		bench_release(&s->benches[i]);
	free(s->benches);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

const struct history_bench *history_suite_find(const struct history_suite *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->benches[i].name, name))
			return &s->benches[i];
	return NULL;
}
