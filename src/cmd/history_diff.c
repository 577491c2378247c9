/*
 * history_diff.c - 'trail history diff A B': two stored commits (or two
 * ranges, each commit's stored profile one run of its side, so the
 * commit-to-commit spread is the error) compared from their full
 * profiles (refs/notes/trail-profiles) - the ranked function changes of
 * trail diff's table (src/diff/table.h) and the differential flame graph
 * of trail flamegraph (src/flamegraph/render.h).  Nothing is measured.
 */
#include "cmd/history.h"
#include "core/git_rev.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/numfmt.h"
#include "core/strbuf.h"
#include "diff/table_json.h"
#include "history/profile_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* spec's commits: a range's first-parent commits, or one revision. */
static int side_commits(struct history_cmd *h, const char *spec, struct string_list *ids)
{
	struct git_range range;
	char id[41];

	if (strstr(spec, ".."))
		return git_range_resolve(h->top_dir, "A/B", spec, &range) ||
		       history_first_parents(h->top_dir, &range, ids, NULL, NULL) ? -1 : 0;
	if (git_rev_resolve(h->top_dir, "A/B", spec, id))
		return -1;
	string_list_append(ids, id);
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A number of the table (in the header's unit) as numfmt writes it, right-aligned. */
static void cell(struct strbuf *sb, double v, int flags)
{
	struct strbuf n = STRBUF_INIT;

	numfmt_count(&n, v, flags);
	strbuf_addf(sb, "%9s  ", n.buf);
	strbuf_release(&n);
}

static void text_rows(struct strbuf *sb, const struct diff_table *t, const char *change,
		      const struct diff_table_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct diff_test *x = &rows[i].t;
		const char *name = diff_table_name(t, rows[i].func);

		strbuf_addf(sb, "%-6s  %-5s  ", change, hotspot_measure_name(rows[i].measure));
		cell(sb, history_diff_shown(t, x->before), 0);
		cell(sb, history_diff_shown(t, x->after), 0);
		cell(sb, history_diff_shown(t, x->delta), NUMFMT_SIGN);
		strbuf_addf(sb, "%7.2g  ", x->p);
		escape_term(sb, name, strlen(name));
		strbuf_addch(sb, '\n');
	}
}

static int write_output(struct history_cmd *h, const struct history_diff_sides *d,
			const struct diff_table *t, const char *title)
{
	struct strbuf page = STRBUF_INIT;
	FILE *f;
	int html = ends_with(h->out, ".html") || ends_with(h->out, ".htm"), ret;

	if (!html) {
		f = fopen(h->out, "w");
		if (!f)
			return error_errno("cannot write '%s'", h->out);
		ret = history_diff_svg(d, title, f);
		if (fclose(f))
			ret = error_errno("cannot write '%s'", h->out);
		return ret;
	}
	ret = history_diff_page(d, t, title, &page);
	if (!ret)
		ret = strbuf_write_file(&page, h->out);
	strbuf_release(&page);
	return ret;
}

/*
 * --json: trail diff --json's object (its keys, units intact: values per
 * run in "unit", ns or bytes, by time or bytes) with the stored sides
 * named - commits as the runs' names - and history's own keys.
 */
static void json_answer(struct strbuf *sb, const struct history_cmd *h,
			const struct history_series *s, const struct history_diff_sides *d,
			const struct diff_table *t)
{
	struct json_writer w;

	json_writer_init(&w, sb, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "a", h->args[0]);
	json_writer_key_string(&w, "b", h->args[1]);
	if (h->bench)
		json_writer_key_string(&w, "bench", h->bench);
	json_writer_key_string(&w, "env", s->key);
	json_writer_key_string(&w, "metric", s->metric);
	/* trail diff's defaults (history_diff_table): 1 pt floor, 2 pt confirmation, 5 % FDR */
	diff_table_json(&w, t, (const char *const *)d->names, 1, 1, 2, 0.05);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(sb, '\n');
}

int history_diff_cmd(struct history_cmd *h)
{
	struct string_list a = STRING_LIST_INIT, b = STRING_LIST_INIT, all = STRING_LIST_INIT;
	struct history_diff_sides d = { 0 };
	struct history_series s = { 0 };
	struct diff_table t;
	struct strbuf out = STRBUF_INIT;
	char title[256];
	size_t i;
	int ret = EXIT_FAILURE_, built = 0;

	if (h->nargs != 2) {
		trail_error("diff needs two commits or ranges: trail history diff A B");
		return EXIT_USAGE;
	}
	if (side_commits(h, h->args[0], &a) || side_commits(h, h->args[1], &b))
		goto out;
	for (i = 0; i < a.nr; i++)
		string_list_append(&all, a.items[i]);
	for (i = 0; i < b.nr; i++)
		string_list_append(&all, b.items[i]);
	if (history_cmd_series(h, &all, &s) || history_diff_load(h->top_dir, &s, &a, &b, &d))
		goto out;
	if (history_diff_table(&d, &t))
		goto out;
	built = 1;
	snprintf(title, sizeof(title), "%s%s%s%.12s%s -> %.12s%s", h->bench ? "bench " : "",
		 h->bench ? h->bench : "", h->bench ? ": " : "", a.items[0], a.nr > 1 ? " (range)" : "",
		 b.items[b.nr - 1], b.nr > 1 ? " (range)" : "");
	if (h->json) {
		json_answer(&out, h, &s, &d, &t);
		goto print;
	}
	strbuf_addf(&out, "diff %s: %zu commit(s) -> %zu commit(s), metric %s, by %s (%s)\n",
		    s.key, d.nside[0], d.nside[1], s.metric, history_diff_basis(&t),
		    d.nside[0] > 1 && d.nside[1] > 1 ? "commit-to-commit spread" :
		    "sampling error only: a lower bound");
	strbuf_addf(&out, "%-6s  %-5s  %9s  %9s  %9s  %7s  function (%s)\n", "change", "kind",
		    "before", "after", "delta", "p", history_diff_unit(&t));
	text_rows(&out, &t, "hotter", t.hotter, t.nr_hotter);
	text_rows(&out, &t, "cooler", t.cooler, t.nr_cooler);
	if (!t.nr_hotter && !t.nr_cooler)
		strbuf_addstr(&out, "no function changed beyond the noise\n");
print:
	if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout)) {
		trail_error("cannot write to standard output");
		goto out;
	}
	if (h->out && write_output(h, &d, &t, title))
		goto out;
	if (h->out)
		note("wrote %s", h->out);
	ret = EXIT_OK;
out:
	if (built)
		diff_table_release(&t);
	history_diff_sides_release(&d);
	history_series_release(&s);
	string_list_clear(&a);
	string_list_clear(&b);
	string_list_clear(&all);
	strbuf_release(&out);
	return ret;
}
