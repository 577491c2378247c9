/*
 * test_flame_report.c - unit tests of trail flame's report writers on a
 * session built by hand (no repository, no profiling): report.html's
 * sections, tables, probe chart in range order, highlighted hunks and
 * handoffs, escaping of hostile commit subjects and function names in
 * HTML and Markdown, the revert and CI-guard commands.
 */
#include "harness.h"
#include "core/alloc.h"
#include "core/verdict.h"
#include "core/strbuf.h"
#include "flame/report.h"
#include "flame/report_facts.h"
#include "flame/session.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOSTILE "fix <script>alert(1)</script> & `x` | *y*"

static const char *ids[4] = {
	"1111111111111111111111111111111111111111",
	"2222222222222222222222222222222222222222",
	"3333333333333333333333333333333333333333",
	"4444444444444444444444444444444444444444",
};

static void add_probe(struct flame_session *s, const char *id, enum trail_probe_verdict v, double value)
{
	struct flame_probe_result *p;

	s->ans.narrow.probes = xreallocarray(s->ans.narrow.probes, s->ans.narrow.nprobes + 1, sizeof(*p));
	p = &s->ans.narrow.probes[s->ans.narrow.nprobes++];
	memset(p, 0, sizeof(*p));
	memcpy(p->id, id, 41);
	p->verdict = v;
	p->value = value;
	p->share = value;
	p->runs = 3;
}

/* A regression found in commit 3 of 4 (range 1..4), probed out of order. */
static void make_session(struct flame_session *s, struct flame_report_facts *f)
{
	size_t i;

	flame_session_init(s);
	flame_report_facts_init(f);
	s->req.run_cmd = "./app --input data.txt";
	s->req.build_cmd = "make";
	s->req.command_line = "trail flame --good g --bad b --build make --run ./app";
	flame_session_set_outcome(s, VERDICT_REGRESSION);
	snprintf(s->ans.message, sizeof(s->ans.message), "checksum_block got hotter in %s", HOSTILE);
	memcpy(s->ans.ends.good, "0000000000000000000000000000000000000000", 41);
	memcpy(s->ans.ends.bad, ids[3], 41);
	s->ans.ends.commits_in_range = 4;
	s->ans.ends.metric_med[0] = 100;
	s->ans.ends.metric_med[1] = 150;
	s->ans.target.function = xstrdup("checksum_block");
	s->ans.suspects.def_file = xstrdup("work.c");
	s->ans.suspects.def_line = 16;
	s->ans.target.share[0] = 0.10;
	s->ans.target.share[1] = 0.40;
	s->ans.target.threshold = 0.25;
	s->ans.narrow.strategy_used = "bisect";
	snprintf(s->ans.narrow.strategy_reason, sizeof(s->ans.narrow.strategy_reason), "many commits");
	for (i = 0; i < 4; i++)
		string_list_append(&s->st.range, ids[i]);
	add_probe(s, ids[1], PROBE_FAST, 0.11);
	add_probe(s, ids[2], PROBE_SLOW, 0.41);
	add_probe(s, ids[0], PROBE_SKIP, 0.2);
	memcpy(s->ans.narrow.culprit, ids[2], 41);
	memcpy(s->ans.narrow.culprit_info.id, ids[2], 41);
	s->ans.narrow.culprit_info.subject = xstrdup(HOSTILE);
	s->ans.narrow.culprit_info.author = xstrdup("A <a@example.com>");
	s->ans.narrow.culprit_info.date = xstrdup("2026-01-01T00:00:00Z");
	s->ans.narrow.suspect_confidence = 0.9;
	/* its revert was tried on top of bad and applied */
	s->ans.fix.revert.state = FLAME_REVERT_CLEAN;
	string_list_append(&s->ans.fix.revert.commits, ids[2]);
	s->ans.target.hot.items = xcalloc(1, sizeof(*s->ans.target.hot.items));
	s->ans.target.hot.nr = 1;
	s->ans.target.hot.items[0].name = xstrdup("checksum_<b>block");
	s->ans.target.hot.items[0].delta_self = 0.3;
	s->ans.target.hot.items[0].confirmed = 1;
	strbuf_addstr(&f->culprit_diff,
		      "commit 3333\n\ndiff --git a/work.c b/work.c\n--- a/work.c\n+++ b/work.c\n"
		      "@@ -10,3 +10,3 @@ static int parse(void)\n-\treturn 0;\n+\treturn 1;\n"
		      "@@ -16,3 +16,4 @@ unsigned checksum_block(const char *p)\n \tsum(p);\n+\tsum(p); /* <twice> */\n");
	string_list_append(&f->later, "4444444444444444444444444444444444444444 later <edit>");
	f->later_by_function = 1;
	string_list_append(&f->env, "kernel\t6.1.0");
	string_list_append(&f->env, "CFLAGS\t-O2 <x>");
	string_list_append(&f->files, "diff.svg");
	string_list_append(&f->files, "good.svg");
}

static void release(struct flame_session *s, struct flame_report_facts *f)
{
	flame_report_facts_release(f);
	flame_session_release(s);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

TEST(html_sections_and_escaping)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;

	make_session(&s, &f);
	flame_report_html(&s, &f, "<?xml?><svg width=\"1200\" height=\"300\"></svg>", &sb);
	CHECK(strstr(sb.buf, "<!DOCTYPE html>") == sb.buf);
	CHECK(!strstr(sb.buf, "<script>"));
	CHECK(!strstr(sb.buf, "<b>block"));
	CHECK(!strstr(sb.buf, "<twice>"));
	CHECK(count(sb.buf, "fix &lt;script&gt;alert(1)&lt;/script&gt; &amp;") >= 3);
	CHECK(strstr(sb.buf, "checksum_&lt;b&gt;block"));
	CHECK(strstr(sb.buf, "id=\"verdict\""));
	CHECK(strstr(sb.buf, "class=\"verdict v-regression\""));
	/* the answer comes before the graph, the graph before the tables */
	CHECK(strstr(sb.buf, "id=\"answer\"") < strstr(sb.buf, "id=\"graph\""));
	CHECK(strstr(sb.buf, "id=\"graph\"") < strstr(sb.buf, "id=\"hotspots\""));
	CHECK(strstr(sb.buf, "src=\"data:image/svg+xml;base64,"));
	CHECK(strstr(sb.buf, "height=\"304\""));
	CHECK(strstr(sb.buf, "<a href=\"diff.svg\">"));
	CHECK(strstr(sb.buf, "<a href=\"good.svg\">"));
	CHECK(!strstr(sb.buf, "<a href=\"bad.svg\">"));	/* not among the files */
	CHECK_INT(count(sb.buf, "<table"), 4);	/* answer, hotspots, probes, Bolt */
	CHECK_INT(count(sb.buf, "<g class=\"probe\">"), 3);
	CHECK_INT(count(sb.buf, "class=\"threshold\""), 1);
	CHECK_INT(count(sb.buf, "class=\"culprit\""), 1);
	/* one hunk of two names the function */
	CHECK_INT(count(sb.buf, "<pre class=\"hunk hot\">"), 1);
	CHECK_INT(count(sb.buf, "<pre class=\"hunk\">"), 1);
	CHECK(strstr(sb.buf, "git revert 3333333333333333333333333333333333333333"));
	CHECK(strstr(sb.buf, "later &lt;edit&gt;"));
	CHECK(strstr(sb.buf, "--max-regression 25% -- &#39;./app --input data.txt&#39;") ||
	      strstr(sb.buf, "--max-regression 25% -- &#x27;./app --input data.txt&#x27;"));
	CHECK(strstr(sb.buf, "id=\"builder\""));
	CHECK(strstr(sb.buf, "id=\"bolt\""));
	CHECK(strstr(sb.buf, "id=\"radar\""));
	CHECK(!strstr(sb.buf, "id=\"scout\""));	/* a regression was found */
	CHECK(!strstr(sb.buf, "id=\"reading\""));	/* no reading aids gathered */
	CHECK(!strstr(sb.buf, "<th>Hot frame</th>"));	/* the function's own code */
	strbuf_release(&sb);
	release(&s, &f);
}

/* The probes' table and chart follow the range's order, not the probing order. */
/* A libc frame under the function, and a commit that changed another function. */
TEST(html_frame_and_changed_function)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT, md = STRBUF_INIT;

	make_session(&s, &f);
	s.ans.target.frame = xstrdup("__memcmp_<avx2>");
	s.ans.suspects.changed_function = xstrdup("make_keys");
	s.ans.ends.change = 0.8;
	flame_report_html(&s, &f, NULL, &sb);
	CHECK(strstr(sb.buf, "<th>Hot frame</th><td><code>__memcmp_&lt;avx2&gt;</code>"));
	CHECK(strstr(sb.buf, "<th>Changed function</th><td><code>make_keys</code>"));
	CHECK(strstr(sb.buf, "+80.0%"));
	CHECK(strstr(sb.buf, ": median 100 us &rarr; 150 us "));	/* cpu: microseconds */	/* the session's change, not the medians' +50% */
	/* named for what it is: the paired estimate, not the medians' change */
	CHECK(strstr(sb.buf, "+80.0%</strong> <span class=\"muted\">(the paired estimate; 95% intervals of the medians "));
	CHECK(strstr(sb.buf, "--max-regression 40%"));
	/* the commit changed make_keys: its hunk is marked too */
	CHECK_INT(count(sb.buf, "<pre class=\"hunk hot\">"), 1);
	strbuf_reset(&f.culprit_diff);
	strbuf_addstr(&f.culprit_diff, "diff --git a/k.c b/k.c\n@@ -1 +1 @@ void make_keys(void)\n-a\n+b\n");
	strbuf_reset(&sb);
	flame_report_html(&s, &f, NULL, &sb);
	CHECK(strstr(sb.buf, "<pre class=\"hunk hot\"><span class=\"tag\">make_keys</span>"));
	flame_report_md_handoffs(&s, &f, &md);
	CHECK(strstr(md.buf, "- hottest frame: `__memcmp_<avx2>`"));
	strbuf_release(&sb);
	strbuf_release(&md);
	release(&s, &f);
}

TEST(html_probes_in_range_order)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;
	const char *a, *b, *c;

	make_session(&s, &f);
	flame_report_html(&s, &f, NULL, &sb);
	a = strstr(sb.buf, "<tr><td><code class=\"id\" title=\"1111");
	b = strstr(sb.buf, "<tr><td><code class=\"id\" title=\"2222");
	c = strstr(sb.buf, "<tr><td><code class=\"id\" title=\"3333");
	CHECK(a && b && c && a < b && b < c);
	CHECK(strstr(sb.buf, "No differential flame graph"));
	strbuf_release(&sb);
	release(&s, &f);
}

TEST(html_scout_when_no_regression)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;

	make_session(&s, &f);
	flame_session_set_outcome(&s, VERDICT_NO_REGRESSION);
	strbuf_addstr(&f.reading, "wide plateaus: <hot>\n");
	flame_report_html(&s, &f, NULL, &sb);
	CHECK(strstr(sb.buf, "id=\"reading\""));
	CHECK(strstr(sb.buf, "wide plateaus: &lt;hot&gt;"));
	CHECK(strstr(sb.buf, "class=\"verdict v-no-regression\""));
	s.ans.ends.metric_med[0] = 2500;
	s.ans.ends.metric_med[1] = 1.5e6;
	strbuf_reset(&sb);
	flame_report_html(&s, &f, NULL, &sb);
	CHECK(strstr(sb.buf, ": median 2.5 ms &rarr; 1.5 s "));
	CHECK(strstr(sb.buf, "id=\"scout\""));
	CHECK(strstr(sb.buf, "<th>kernel</th><td><code>6.1.0</code>"));
	CHECK(strstr(sb.buf, "-O2 &lt;x&gt;"));
	strbuf_release(&sb);
	release(&s, &f);
}

/*
 * A flat profile (no function's rise confirmed alone): the terminal says
 * where the time rose, in percentage points of inclusive share, not
 * "hot function: ?" (main) nor a bare "no function named".
 */
TEST(summary_flat_profile_says_where_the_time_rose)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;
	static const char *const names[] = { "has_object", "bsearch_hash", "cold" };
	static const double total[] = { 0.029, 0.011, -0.02 };
	size_t i;

	make_session(&s, &f);
	free(s.ans.target.function);
	s.ans.target.function = NULL;
	s.ans.target.share[0] = 100e3;
	s.ans.target.share[1] = 150e3;
	flame_hotspots_release(&s.ans.target.hot);
	s.ans.target.hot.items = xcalloc(3, sizeof(*s.ans.target.hot.items));
	s.ans.target.hot.nr = 3;
	for (i = 0; i < 3; i++) {
		s.ans.target.hot.items[i].name = xstrdup(names[i]);
		s.ans.target.hot.items[i].delta_total = total[i];
	}
	flame_report_summary(&s, &sb);
	CHECK(strstr(sb.buf, "the time rose across has_object, bsearch_hash (inclusive share "
			     "+2.9 pp, +1.1 pp; none confirmed alone)"));
	CHECK(strstr(sb.buf, "cpu: 100 ms -> 150 ms"));
	CHECK(!strstr(sb.buf, "?"));
	/* report.html says it too (it said only "none named") */
	strbuf_reset(&sb);
	flame_report_html(&s, &f, NULL, &sb);
	CHECK(strstr(sb.buf, "none named: the search ran on the metric; the time rose across "
			     "<code>has_object</code>, <code>bsearch_hash</code> (inclusive share "
			     "+2.9 pp, +1.1 pp; none confirmed alone)"));
	strbuf_release(&sb);
	release(&s, &f);
}

/*
 * Issue 31: the headline said "confidence: 1.00" and the culprits'
 * column "P(step > 0)" for 1 - p, read as a probability that the commit
 * is the culprit.  The suspect's evidence is its step beside its parent
 * with its interval and the p-value adjusted for the looks.
 */
TEST(evidence_is_a_step_and_its_p_value)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;

	make_session(&s, &f);
	s.ans.target.measure_share = 1;
	s.ans.narrow.pair.looks = 2;
	s.ans.narrow.pair.step.step = 0.30;
	s.ans.narrow.pair.step.lo = 0.20;
	s.ans.narrow.pair.step.hi = 0.40;
	s.ans.narrow.suspect_confidence = 0.9997;
	flame_report_summary(&s, &sb);
	CHECK(strstr(sb.buf, "\nevidence:       +30.0 pp [+20.0, +40.0] beside its parent, "
			     "p = 0.0003 (regression)\n"));
	CHECK(!strstr(sb.buf, "confidence"));
	strbuf_reset(&sb);
	flame_report_html(&s, &f, NULL, &sb);
	CHECK(strstr(sb.buf, "<tr><th>Evidence</th><td><strong>+30.0 pp [+20.0, +40.0] beside its "
			     "parent, p = 0.0003</strong>"));
	CHECK(!strstr(sb.buf, "Confidence"));
	CHECK(!strstr(sb.buf, "P(step"));
	/* a counted metric that repeats has no test to report */
	s.ans.ends.exact_counts = 1;
	strbuf_reset(&sb);
	flame_report_evidence(&s, &sb);
	CHECK_STREQ(sb.buf, "+30.0 pp [+20.0, +40.0] beside its parent, exact counts");
	/* a suspect never re-probed has none, not "p = 1" */
	s.ans.narrow.pair.looks = 0;
	strbuf_reset(&sb);
	flame_report_evidence(&s, &sb);
	CHECK_STREQ(sb.buf, "none: the suspect could not be re-probed beside its parent");
	strbuf_release(&sb);
	release(&s, &f);
}

TEST(md_handoffs_escaped)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;

	make_session(&s, &f);
	flame_session_set_outcome(&s, VERDICT_INCONCLUSIVE);
	s.ans.fix.is_merge = 1;
	flame_report_md_handoffs(&s, &f, &sb);
	CHECK(strstr(sb.buf, "## The suspect commit"));
	CHECK(strstr(sb.buf, "```diff\n"));
	CHECK(strstr(sb.buf, "Hunks that name the function (or the one the commit changed):"));
	CHECK(strstr(sb.buf, "`@@ -16,3 +16,4 @@ unsigned checksum_block(const char *p)`"));
	CHECK(!strstr(sb.buf, "`@@ -10,3"));
	CHECK(strstr(sb.buf, "### Fix:"));
	/* inconclusive: no revert offered, even one that applies (it failed on main) */
	CHECK(!strstr(sb.buf, "git revert"));
	CHECK(strstr(sb.buf, "No revert is offered: the answer is inconclusive"));
	CHECK(strstr(sb.buf, "later &lt;edit&gt;"));
	CHECK(strstr(sb.buf, "### Optimise:"));
	CHECK(strstr(sb.buf, "fix &lt;script&gt;alert(1)&lt;/script&gt; &amp; \\`x\\` \\| \\*y\\*"));
	CHECK(strstr(sb.buf, "### Guard in CI:"));
	CHECK(strstr(sb.buf, "--max-regression 25% -- './app --input data.txt'"));
	CHECK(strstr(sb.buf, "### Check the environment:"));
	CHECK(strstr(sb.buf, "| kernel | `6.1.0` |"));
	CHECK(strstr(sb.buf, "| CFLAGS | `-O2 <x>` |"));	/* a code span shows < as text */
	strbuf_release(&sb);
	release(&s, &f);
}

TEST(guard_percent_and_hunks)
{
	struct flame_session s;

	flame_session_init(&s);
	CHECK_INT(flame_report_guard_percent(&s), 5);	/* nothing measured */
	s.ans.ends.metric_med[0] = 100;
	s.ans.ends.metric_med[1] = 90;
	CHECK_INT(flame_report_guard_percent(&s), 5);	/* faster */
	s.ans.ends.metric_med[1] = 101;
	CHECK_INT(flame_report_guard_percent(&s), 1);	/* at least 1% */
	s.ans.ends.metric_med[1] = 300;
	CHECK_INT(flame_report_guard_percent(&s), 100);	/* half of +200% */
	CHECK(flame_report_hunk_names("@@ -1 +1 @@ int f(void)\n+x\n", 24, "f"));
	CHECK(!flame_report_hunk_names("@@ -1 +1 @@ int ff(void)\n+x\n", 25, "f"));
	CHECK(!flame_report_hunk_names("@@ -1 +1 @@ int f_(void)\n", 24, "f"));
	CHECK(!flame_report_hunk_names("@@ x\n", 5, NULL));
	flame_session_release(&s);
}

/* Without a repository: the environment of this machine and the files present. */
TEST(facts_gather_environment_and_files)
{
	struct flame_session s;
	struct flame_report_facts f;
	char dir[] = "/tmp/trail-report-facts.XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	char *p, *q;
	size_t i;
	int kernel = 0, nproc = 0, input = 0;

	CHECK(mkdtemp(dir) != NULL);
	p = xstrfmt("%s/diff.svg", dir);
	strbuf_addstr(&sb, "<svg/>");
	CHECK_INT(strbuf_write_file(&sb, p), 0);
	q = xstrfmt("%s/bad.folded", dir);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "app;main;hot 90\napp;main;cold 10\n");
	CHECK_INT(strbuf_write_file(&sb, q), 0);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "<svg/>");
	flame_session_init(&s);
	flame_report_facts_init(&f);
	s.req.out_dir = dir;
	s.req.run_cmd = sb.len ? p : NULL;	/* an input file named on the command line */
	flame_report_facts_gather(&s, &f);
	CHECK(flame_report_has_file(&f, "diff.svg"));
	CHECK(!flame_report_has_file(&f, "good.svg"));
	for (i = 0; i < f.env.nr; i++) {
		kernel |= !strncmp(f.env.items[i], "kernel\t", 7);
		nproc |= !strncmp(f.env.items[i], "nproc\t", 6);
		input |= strstr(f.env.items[i], "input\t") && strstr(f.env.items[i], ": 6 bytes");
	}
	CHECK(kernel);
	CHECK(nproc);
	CHECK(input);
	CHECK_INT(f.culprit_diff.len, 0);	/* no clone: no git */
	CHECK(flame_report_has_file(&f, "bad.folded"));
	CHECK(strstr(f.reading.buf, "wide plateaus"));	/* trail explain of bad.folded */
	CHECK(strstr(f.reading.buf, "hot"));
	unlink(q);
	free(q);
	unlink(p);
	rmdir(dir);
	free(p);
	strbuf_release(&sb);
	flame_report_facts_release(&f);
	flame_session_release(&s);
}

/*
 * A revert that conflicts is said to conflict, with the files and the
 * later commits, and the option that applies is the one offered; main
 * said "the revert should apply cleanly" whenever git log -L found no
 * later commit (jq, zlib-ng, re2).
 */
TEST(revert_conflict_sentences)
{
	struct flame_session s;
	struct flame_report_facts f;
	struct strbuf sb = STRBUF_INIT;
	char *later = xstrfmt("%s Clean up insert_match()", ids[3]), *cmd;

	make_session(&s, &f);
	flame_revert_check_release(&s.ans.fix.revert);
	s.ans.fix.revert.state = FLAME_REVERT_CONFLICTS;
	string_list_append(&s.ans.fix.revert.commits, ids[2]);
	string_list_append(&s.ans.fix.revert.conflicts, "src/jv.c");
	string_list_append(&s.ans.fix.revert.conflicts, "tests/jq.test");
	string_list_append(&s.ans.fix.revert.later, later);
	s.ans.fix.revert_later.state = FLAME_REVERT_CLEAN;
	string_list_append(&s.ans.fix.revert_later.commits, ids[3]);
	string_list_append(&s.ans.fix.revert_later.commits, ids[2]);
	flame_report_md_handoffs(&s, &f, &sb);
	CHECK(strstr(sb.buf, "Reverting `333333333333` on top of bad (`444444444444`) conflicts in "
			     "`src/jv.c` and `tests/jq.test` (tried with git revert --no-commit"));
	CHECK(strstr(sb.buf, "A later commit touched those files: `444444444444` Clean up insert\\_match()."));
	cmd = xstrfmt("```sh\ngit revert %s %s\n```", ids[3], ids[2]);
	CHECK(strstr(sb.buf, cmd));
	CHECK(strstr(sb.buf, "applies cleanly."));
	CHECK(!strstr(sb.buf, "should apply"));
	free(cmd);
	/* neither applies: nothing offered, patching is */
	s.ans.fix.revert_later.state = FLAME_REVERT_CONFLICTS;
	string_list_append(&s.ans.fix.revert_later.conflicts, "src/jv.c");
	strbuf_reset(&sb);
	flame_report_md_handoffs(&s, &f, &sb);
	CHECK(!strstr(sb.buf, "```sh\ngit revert"));
	CHECK(strstr(sb.buf, "Otherwise patch the slow path in place"));
	free(later);
	strbuf_release(&sb);
	flame_report_facts_release(&f);
	flame_session_release(&s);
}

TEST_MAIN("flame_report", summary_flat_profile_says_where_the_time_rose, evidence_is_a_step_and_its_p_value, revert_conflict_sentences, facts_gather_environment_and_files, html_frame_and_changed_function, html_sections_and_escaping, html_probes_in_range_order,
	  html_scout_when_no_regression, md_handoffs_escaped, guard_percent_and_hunks)
