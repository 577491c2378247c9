/*
 * test_flame_fleet.c - the pure parts of trail flame on many machines:
 * the hosts file (GNU parallel's --sshloginfile syntax, errors with
 * file:line), the k-ary bisection's choices and range updates on
 * constructed verdicts (every culprit position, every K), the probe's JSON
 * line both ways, the ssh command line, and the reports' Hosts section
 * (report.md and report.html) on a constructed fleet.
 */
#include "harness.h"
#include "core/strbuf.h"
#include "core/verdict.h"
#include "flame/fleet.h"
#include "flame/fleet_report.h"
#include "fleet/hosts.h"
#include "flame/kary.h"
#include "flame/probe_json.h"
#include "fleet/remote.h"

/* What the code under test prints on stderr between begin and end. */
static int saved_fd = -1;
static FILE *capture_file;

static void error_capture_begin(struct strbuf *sb)
{
	(void)sb;
	fflush(stderr);
	capture_file = tmpfile();
	saved_fd = dup(2);
	dup2(fileno(capture_file), 2);
}

static struct strbuf *capture_into;
#define error_capture_begin(sb) (capture_into = (sb), error_capture_begin(sb))

static void error_capture_end(void)
{
	char buf[4096];
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(capture_file);
	while ((n = fread(buf, 1, sizeof(buf), capture_file)) > 0)
		strbuf_add(capture_into, buf, n);
	fclose(capture_file);
}

static int parse(const char *text, struct flame_hosts *h)
{
	return flame_hosts_parse(text, strlen(text), "hosts", h);
}

TEST(hosts_sshloginfile_forms)
{
	struct flame_hosts h = FLAME_HOSTS_INIT;

	CHECK_INT(parse("# build machines\n\nbox1\n4/alice@box2\n  2/ssh -i key -p 2222 bob@box3  \n"
			":\n3/:\n/usr/bin/ssh -F /tmp/cfg box4\r\n", &h), 0);
	flame_hosts_release(&h);
	/* flags, grouped flags and values joined to their option are ssh's too */
	CHECK_INT(parse("ssh -4 -Cq -p2222 -oBatchMode=yes -l bob box\n", &h), 0);
	CHECK_STREQ(h.items[0].dest, "box");
	flame_hosts_release(&h);
	CHECK_INT(parse("# build machines\n\nbox1\n4/alice@box2\n  2/ssh -i key -p 2222 bob@box3  \n"
			":\n3/:\n/usr/bin/ssh -F /tmp/cfg box4\r\n", &h), 0);
	CHECK_INT(h.nr, 6);
	CHECK_STREQ(h.items[0].dest, "box1");
	CHECK_INT(h.items[0].slots, 1);
	CHECK_INT(h.items[0].ssh.nr, 1);
	CHECK_STREQ(h.items[0].ssh.items[0], "ssh");
	CHECK_STREQ(h.items[1].dest, "alice@box2");
	CHECK_INT(h.items[1].slots, 4);
	CHECK_STREQ(h.items[2].dest, "bob@box3");
	CHECK_INT(h.items[2].slots, 2);
	CHECK_INT(h.items[2].ssh.nr, 5);
	CHECK_STREQ(h.items[2].ssh.items[3], "-p");
	CHECK_STREQ(h.items[2].ssh.items[4], "2222");
	CHECK_STREQ(h.items[2].name, "bob@box3 -p 2222");
	CHECK(h.items[3].dest == NULL);
	CHECK_STREQ(h.items[3].name, "local");
	CHECK_INT(h.items[4].slots, 3);
	CHECK(h.items[4].dest == NULL);
	CHECK_STREQ(h.items[5].ssh.items[0], "/usr/bin/ssh");
	CHECK_STREQ(h.items[5].dest, "box4");
	CHECK_INT(h.items[5].line, 8);
	CHECK_INT(h.slots, 1 + 4 + 2 + 1 + 3 + 1);
	flame_hosts_release(&h);
}

/* Each bad line is an error that names the file and the line. */
TEST(hosts_bad_lines)
{
	static const char *const bad[][2] = {
		{ "ok\n0/box\n", "hosts:2:" },
		{ "x/box\n", "hosts:1:" },
		{ "99999999999999999999/box\n", "hosts:1:" },
		{ "\n\n4/\n", "hosts:3:" },
		{ "rsh box\n", "hosts:1:" },
		{ "ssh -p\n", "hosts:1:" },
		{ "box;rm -rf /\n", "hosts:1:" },
		{ "-oProxyCommand=x\n", "hosts:1:" },
		{ "a@b@c\n", "hosts:1:" },
		{ "@box\n", "hosts:1:" },
		/* issue 29: the real host taken as an ssh argument, 'extra' as the host */
		{ "2/ssh -p 2222 127.0.0.1 extra\n", "hosts:1: '127.0.0.1' is neither an ssh option" },
		{ "ok\nssh -4 -i key -p 2222 box extra\n", "hosts:2: 'box'" },
		{ "ssh -o BatchMode=yes -i box\n", "hosts:1: ssh option '-i' has no value" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct flame_hosts h = FLAME_HOSTS_INIT;
		struct strbuf err = STRBUF_INIT;

		error_capture_begin(&err);
		CHECK_INT(parse(bad[i][0], &h), -1);
		error_capture_end();
		if (!strstr(err.buf ? err.buf : "", bad[i][1]))
			fprintf(stderr, "    line %zu: %s", i, err.buf ? err.buf : "(none)\n");
		CHECK(strstr(err.buf ? err.buf : "", bad[i][1]) != NULL);
		strbuf_release(&err);
		flame_hosts_release(&h);
	}
}

/* Run the k-ary search against a culprit at c (positions >= c are slow). */
static unsigned search_rounds(int n, unsigned k, int c, int *found)
{
	struct flame_kary ks;
	int pts[64];
	enum trail_probe_verdict v[64];
	size_t m, i;
	unsigned rounds;

	flame_kary_init(&ks, n);
	while (flame_kary_done(&ks, found) < 0) {
		m = flame_kary_next(&ks, k, pts);
		CHECK(m >= 1 && m <= k);
		for (i = 0; i < m; i++) {
			CHECK(pts[i] > ks.lo && pts[i] < ks.hi);
			CHECK(i == 0 || pts[i] > pts[i - 1]);
			v[i] = pts[i] >= c ? PROBE_SLOW : PROBE_FAST;
		}
		flame_kary_update(&ks, pts, v, m);
	}
	rounds = ks.rounds;
	flame_kary_release(&ks);
	return rounds;
}

TEST(kary_finds_every_culprit_within_the_bound)
{
	static const int sizes[] = { 1, 2, 3, 7, 8, 63, 64, 200 };
	static const unsigned ks[] = { 1, 2, 3, 4, 8 };
	size_t a, b;

	for (a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++)
		for (b = 0; b < sizeof(ks) / sizeof(ks[0]); b++) {
			int n = sizes[a], c, found;

			for (c = 0; c <= n; c++) {
				unsigned r = search_rounds(n, ks[b], c, &found);

				CHECK_INT(found, c);
				CHECK(r <= flame_kary_rounds(n, ks[b]));
			}
		}
	/* 63 candidates: binary search 6 probes in a row, 3 slots 3 rounds */
	CHECK_INT(flame_kary_rounds(63, 1), 6);
	CHECK_INT(flame_kary_rounds(63, 3), 3);
	CHECK_INT(flame_kary_rounds(63, 4), 3);
	CHECK_INT(flame_kary_rounds(0, 4), 0);
}

TEST(kary_points_are_spread)
{
	struct flame_kary k;
	int pts[8];

	flame_kary_init(&k, 63);
	CHECK_INT(flame_kary_next(&k, 3, pts), 3);
	CHECK_INT(pts[0], 15);
	CHECK_INT(pts[1], 31);
	CHECK_INT(pts[2], 47);
	flame_kary_release(&k);
}

/* Skipped commits are not probed again; beside the culprit they are ambiguous. */
TEST(kary_skips)
{
	struct flame_kary k;
	int pts[4], found;
	enum trail_probe_verdict v[4] = { PROBE_FAST, PROBE_SKIP, PROBE_SLOW, PROBE_SLOW };

	flame_kary_init(&k, 7);
	CHECK_INT(flame_kary_next(&k, 3, pts), 3);	/* 1, 3, 5 */
	CHECK_INT(pts[0], 1);
	CHECK_INT(pts[1], 3);
	CHECK_INT(pts[2], 5);
	v[0] = PROBE_FAST;
	v[1] = PROBE_FAST;
	v[2] = PROBE_SLOW;
	flame_kary_update(&k, pts, v, 3);
	CHECK_INT(k.lo, 3);
	CHECK_INT(k.hi, 5);
	CHECK_INT(flame_kary_next(&k, 3, pts), 1);	/* only 4 is left */
	CHECK_INT(pts[0], 4);
	v[0] = PROBE_SKIP;
	flame_kary_update(&k, pts, v, 1);
	CHECK_INT(flame_kary_next(&k, 3, pts), 0);
	CHECK_INT(flame_kary_done(&k, &found), 0);	/* 4 or 5 */
	CHECK_INT(found, 5);
	/* a fast answer above the first slow one is noise: lo stays below hi */
	flame_kary_release(&k);
	flame_kary_init(&k, 7);
	pts[0] = 1;
	pts[1] = 3;
	pts[2] = 5;
	v[0] = PROBE_SLOW;
	v[1] = PROBE_FAST;
	v[2] = PROBE_FAST;
	flame_kary_update(&k, pts, v, 3);
	CHECK_INT(k.lo, -1);
	CHECK_INT(k.hi, 1);
	CHECK_INT(flame_kary_next(&k, 3, pts), 1);
	CHECK_INT(pts[0], 0);
	flame_kary_release(&k);
}

TEST(probe_json_round_trip)
{
	struct flame_probe_result r, *back = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	memset(&r, 0, sizeof(r));
	memcpy(r.id, "0123456789abcdef0123456789abcdef01234567", 41);
	r.verdict = PROBE_SKIP;
	r.value = 0.25;
	r.share = 0.25;
	r.se = 0.01;
	r.runs = 3;
	r.seconds = 1.5;
	snprintf(r.why, sizeof(r.why), "build failed (log: /x \"y\")");
	strbuf_addstr(&sb, "trail flame probe: a note\n");
	flame_probe_json_write(&sb, &r);
	r.verdict = PROBE_SLOW;
	r.why[0] = '\0';
	flame_probe_json_write(&sb, &r);
	CHECK_INT(flame_probe_json_read(sb.buf, sb.len, "out", &back, &n), 0);
	CHECK_INT(n, 2);
	CHECK_STREQ(back[0].id, r.id);
	CHECK_INT(back[0].verdict, PROBE_SKIP);
	CHECK(flame_probe_build_failed(&back[0]));
	CHECK_STREQ(back[0].why, "build failed (log: /x \"y\")");
	CHECK_INT(back[1].verdict, PROBE_SLOW);
	CHECK(!flame_probe_build_failed(&back[1]));
	CHECK_NEAR(back[1].value, 0.25, 0);
	CHECK_INT(back[1].runs, 3);
	free(back);
	strbuf_release(&sb);
	/* junk from a host is an error, not a verdict */
	{
		static const char *const junk[] = { "{\"commit\":\"abc\"}\n", "{not json\n",
			"{\"commit\":\"0123456789abcdef0123456789abcdef01234567\",\"verdict\":\"maybe\","
			"\"value\":1,\"share\":1,\"se\":0,\"runs\":1,\"seconds\":1}\n" };
		size_t i;

		for (i = 0; i < 3; i++) {
			struct strbuf err = STRBUF_INIT;

			back = NULL;
			error_capture_begin(&err);
			CHECK_INT(flame_probe_json_read(junk[i], strlen(junk[i]), "h", &back, &n), -1);
			error_capture_end();
			CHECK(strstr(err.buf ? err.buf : "", "h:1:") != NULL);
			free(back);
			strbuf_release(&err);
		}
	}
}

TEST(ssh_command_line)
{
	struct flame_hosts h = FLAME_HOSTS_INIT;
	struct string_list argv = STRING_LIST_INIT;

	CHECK_INT(parse("2/ssh -p 2222 me@box\n:\n", &h), 0);
	flame_remote_argv(&h.items[0], NULL, "echo 'hi'", &argv);
	CHECK_STREQ(argv.items[0], "ssh");
	CHECK_STREQ(argv.items[1], "-p");
	CHECK_STREQ(argv.items[2], "2222");
	CHECK(string_list_has(&argv, "BatchMode=yes"));
	CHECK(string_list_has(&argv, "-T"));
	CHECK_STREQ(argv.items[argv.nr - 2], "me@box");
	CHECK_STREQ(argv.items[argv.nr - 1], "exec sh -c 'echo '\\''hi'\\'''");
	string_list_clear(&argv);
	flame_remote_argv(&h.items[1], "2,3", "true", &argv);
	CHECK_STREQ(argv.items[0], "taskset");
	CHECK_STREQ(argv.items[2], "2,3");
	CHECK_STREQ(argv.items[3], "sh");
	string_list_clear(&argv);
	flame_hosts_release(&h);
}

/* Two hosts, one dropped, a name with Markdown and HTML in it. */
TEST(report_hosts_section)
{
	struct flame_fleet_host_report hosts[2] = {
		{ (char *)"a|b <x>@box", 2, 5, 0.1, 0.3, 0.2, NULL },
		{ (char *)"local", 1, 1, 0.1, 0.3, 0.2, (char *)"probing failed" },
	};
	struct flame_fleet_report r = { 1, 3, 2, 6, 6, 20.0, 5.0, 12.0, hosts, 2 };
	struct strbuf md = STRBUF_INIT, html = STRBUF_INIT;

	/* 6 probes in a row at 12 / 6 = 2 s each: 12 s against 20 s */
	CHECK_NEAR(flame_fleet_sequential_seconds(&r), 12.0, 1e-9);
	flame_fleet_report_md(&r, &md);
	CHECK(strstr(md.buf, "## Hosts") != NULL);
	CHECK(strstr(md.buf, "2 rounds of up to 3 probes at once (3 slots on 2 hosts): 6 probes in "
			     "20.0 s of wall time, 5.0 s of it") != NULL);
	CHECK(strstr(md.buf, "6 probes in a row, about 12.0 s at the mean probe time; the fleet "
			     "took longer by 8.0 s.") != NULL);
	CHECK(strstr(md.buf, "a|b <x>") == NULL);	/* a raw | would split the table's row */
	CHECK(strstr(md.buf, "| 1 | 1 | 0.1 | 0.3 | 0.2 | probing failed |") != NULL);
	flame_fleet_report_html(&r, &html);
	CHECK(strstr(html.buf, "<section id=\"hosts\">") != NULL);
	CHECK(strstr(html.buf, "a|b &lt;x&gt;@box") != NULL);
	CHECK(strstr(html.buf, "<x>") == NULL);
	r.probe_seconds = 3.0;	/* 0.5 s a probe: 3 s in a row against 2 s */
	r.seconds = 2.0;
	strbuf_reset(&md);
	flame_fleet_report_md(&r, &md);
	CHECK(strstr(md.buf, "about 3.0 s at the mean probe time; saved 1.0 s.") != NULL);
	strbuf_reset(&md);
	r.used = 0;
	flame_fleet_report_md(&r, &md);
	flame_fleet_md_host_cell(&r, "x", &md);
	CHECK_INT((int)md.len, 0);
	strbuf_release(&md);
	strbuf_release(&html);
}

TEST_MAIN("flame-fleet", hosts_sshloginfile_forms, hosts_bad_lines,
	  kary_finds_every_culprit_within_the_bound, kary_points_are_spread, kary_skips,
	  probe_json_round_trip, ssh_command_line, report_hosts_section)
