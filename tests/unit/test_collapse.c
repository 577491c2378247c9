/*
 * test_collapse.c - unit tests for src/collapse: the perf script line
 * grammar (including a differential test against Perl's own regex engine
 * on random lines, when perl is installed), the folding engine's option
 * semantics, and the threaded reader's equivalence with one thread.
 */
#include "harness.h"
#include "profile/fold.h"
#include "profile/folded.h"
#include "collapse/collapser.h"
#include "collapse/perf_script.h"
#include "core/string_list.h"

#include <stdint.h>
#include <unistd.h>

static int eq(const char *s, size_t len, const char *want)
{
	return s && strlen(want) == len && !memcmp(s, want, len);
}

#define LINE(s) (s), strlen(s)

TEST(event_line_pid_tid)
{
	struct perf_event_line ev;

	CHECK(perf_script_match_event(LINE("java 25607 4794564.109216: 1 cycles:"), &ev));
	CHECK(eq(ev.comm, ev.comm_len, "java"));
	CHECK(ev.pid == NULL);
	CHECK(eq(ev.tid, ev.tid_len, "25607"));
	CHECK(perf_script_match_event(LINE("V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:"), &ev));
	CHECK(eq(ev.comm, ev.comm_len, "V8 WorkerThread"));
	CHECK(eq(ev.pid, ev.pid_len, "24636"));
	CHECK(eq(ev.tid, ev.tid_len, "25607"));
	/* a space followed by digits in the comm is mis-split, as in Perl */
	CHECK(perf_script_match_event(LINE("pool 2 worker 123/456 1.0: 1 cycles:"), &ev));
	CHECK(eq(ev.comm, ev.comm_len, "pool"));
	CHECK(eq(ev.tid, ev.tid_len, "2"));
	/* Perl's "not $tid": a TID of 0 means the line had only a TID */
	CHECK(perf_script_match_event(LINE("swapper 0/0 [001] 5.0: 1 cycles:"), &ev));
	CHECK(ev.pid == NULL);
	CHECK(eq(ev.tid, ev.tid_len, "0"));
	CHECK(!perf_script_match_event(LINE("\t7f00 main (/bin/x)"), &ev));
	CHECK(!perf_script_match_event(LINE("x"), &ev));
	CHECK(!perf_script_match_event(LINE("comm 123"), &ev));	/* needs a blank after the number */
}

TEST(period_and_event_name)
{
	const char *e, *d;
	size_t el, dl;

	CHECK(perf_script_match_period(LINE("java 1 2.5: 1001001 cpu-clock:ppp: "), &e, &el, &d, &dl));
	CHECK(eq(e, el, "cpu-clock:ppp"));
	CHECK(eq(d, dl, "1001001"));
	CHECK(perf_script_match_period(LINE("java 12688 [002] 6544038.708352: cycles:"), &e, &el, &d, &dl));
	CHECK(eq(e, el, "cycles"));
	CHECK(d == NULL);
	/* digits glued to the name are part of the name */
	CHECK(perf_script_match_period(LINE("a 1 2: 123cycles:"), &e, &el, &d, &dl));
	CHECK(eq(e, el, "123cycles"));
	CHECK(d == NULL);
	CHECK(!perf_script_match_period(LINE("a 1 2: sched:sched_switch: prev=1"), &e, &el, &d, &dl));
}

TEST(stack_line_fields)
{
	struct fold_frame fr;

	CHECK(perf_script_match_stack(LINE("\t    7f0001 leaf+0x10 (/usr/lib/libx.so)"), &fr));
	CHECK(eq(fr.addr, fr.addr_len, "7f0001"));
	CHECK(eq(fr.func, fr.func_len, "leaf+0x10"));
	CHECK(eq(fr.module, fr.module_len, "/usr/lib/libx.so"));
	/* greedy: the module is between the last " (" and the last ')' */
	CHECK(perf_script_match_stack(LINE(" 1 f (a) (b) x"), &fr));
	CHECK(eq(fr.func, fr.func_len, "f (a)"));
	CHECK(eq(fr.module, fr.module_len, "b"));
	/* two blanks before the module: the function is one blank */
	CHECK(perf_script_match_stack(LINE("  7f1e  (/lib/libc.so)"), &fr));
	CHECK(eq(fr.addr, fr.addr_len, "7f1e"));
	CHECK(eq(fr.func, fr.func_len, " "));
	/* Perl backtracks into the address when nothing else is left */
	CHECK(perf_script_match_stack(LINE("  ab (x)"), &fr));
	CHECK(eq(fr.addr, fr.addr_len, "a"));
	CHECK(eq(fr.func, fr.func_len, "b"));
	CHECK(!perf_script_match_stack(LINE("  !! junk"), &fr));
	CHECK(perf_script_match_stack(LINE("  7f00 (x)"), &fr));
	CHECK(eq(fr.addr, fr.addr_len, "7f0"));
	CHECK(eq(fr.func, fr.func_len, "0"));
}

/*
 * Random lines through both our matchers and Perl's regexes must give the
 * same captures.  perl-base is essential in Debian; skip when absent.
 */
static const char perl_ref[] =
	"while (defined($_ = <STDIN>)) { chomp; my $o = '';"
	" if (/^(\\S.+?)\\s+(\\d+)\\/*(\\d+)*\\s+/) { my ($c,$p,$t)=($1,$2,$3);"
	"   if (not $t) { $t=$p; $p='?'; } $o .= \"E[$c][$p][$t]\"; } else { $o .= 'E-'; }"
	" if (/:\\s*(\\d+)*\\s+(\\S+):\\s*$/) { my $d = defined $1 ? $1 : ''; $o .= \"P[$d][$2]\"; }"
	"   else { $o .= 'P-'; }"
	" if (/^\\s*(\\w+)\\s*(.+) \\((.*)\\)/) { $o .= \"S[$1][$2][$3]\"; } else { $o .= 'S-'; }"
	" print \"$o\\n\"; }";

static void describe(const char *line, char *out, size_t n)
{
	struct perf_event_line ev;
	struct fold_frame fr;
	const char *e, *d;
	size_t el, dl, len = strlen(line), o = 0;

	if (perf_script_match_event(line, len, &ev))
		o += (size_t)snprintf(out + o, n - o, "E[%.*s][%.*s][%.*s]", (int)ev.comm_len, ev.comm,
				      ev.pid ? (int)ev.pid_len : 1, ev.pid ? ev.pid : "?",
				      (int)ev.tid_len, ev.tid);
	else
		o += (size_t)snprintf(out + o, n - o, "E-");
	if (perf_script_match_period(line, len, &e, &el, &d, &dl))
		o += (size_t)snprintf(out + o, n - o, "P[%.*s][%.*s]", d ? (int)dl : 0, d ? d : "",
				      (int)el, e);
	else
		o += (size_t)snprintf(out + o, n - o, "P-");
	if (perf_script_match_stack(line, len, &fr))
		snprintf(out + o, n - o, "S[%.*s][%.*s][%.*s]", (int)fr.addr_len, fr.addr,
			 (int)fr.func_len, fr.func, (int)fr.module_len, fr.module);
	else
		snprintf(out + o, n - o, "S-");
}

TEST(grammar_matches_perl_on_random_lines)
{
	static const char alphabet[] = "   \t019/::()ab_+x[].";
	static const char *const templates[] = {
		"java 123/456 [000] 1.5: 100 cycles:", "\t  7f00 foo+0x1 (/lib/x.so)",
		"a 1 2 3: x:", " ab (x)", "V8 Worker 12 3.0: cpu-clock:u: ",
	};
	char in_path[] = "/tmp/trail-collapse-re.XXXXXX", cmd[512], got[1024], want[1024];
	uint32_t seed = 12345;
	FILE *in, *perl;
	int fd, i, n = 20000, diffs = 0;
	char (*lines)[64] = calloc((size_t)n, 64);

	if (system("command -v perl >/dev/null 2>&1"))
		SKIP("perl is not installed");
	fd = mkstemp(in_path);
	CHECK(fd >= 0);
	in = fdopen(fd, "w");
	for (i = 0; i < n; i++) {
		char *l = lines[i];
		size_t len = 0, k, edits;

		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) & 1) {
			strcpy(l, templates[(seed >> 17) % 5]);
			len = strlen(l);
			for (edits = (seed >> 20) % 4; edits > 0 && len < 60; edits--) {
				size_t pos;

				seed = seed * 1103515245u + 12345u;
				pos = (seed >> 16) % (len + 1);
				l[pos < len ? pos : len - 1] = alphabet[(seed >> 8) % (sizeof(alphabet) - 1)];
			}
		} else {
			size_t want_len = 1 + (seed >> 17) % 25;

			for (k = 0; k < want_len; k++) {
				seed = seed * 1103515245u + 12345u;
				l[len++] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
			}
			l[len] = '\0';
		}
		fprintf(in, "%s\n", l);
	}
	fclose(in);
	snprintf(cmd, sizeof(cmd), "perl -e \"$(cat <<'PERL'\n%s\nPERL\n)\" < %s", perl_ref, in_path);
	perl = popen(cmd, "r");
	CHECK(perl != NULL);
	for (i = 0; perl && i < n && fgets(want, sizeof(want), perl); i++) {
		want[strcspn(want, "\n")] = '\0';
		describe(lines[i], got, sizeof(got));
		if (strcmp(got, want) && diffs++ < 5)
			fprintf(stderr, "    line '%s': trail %s, perl %s\n", lines[i], got, want);
	}
	if (perl)
		pclose(perl);
	unlink(in_path);
	CHECK_INT(i, n);
	CHECK_INT(diffs, 0);
	free(lines);
}

/* Fold samples and return the written output (caller frees). */
static char *write_folders(struct folder *const *f, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	CHECK(folder_write(f, n, out) == 0);
	fclose(out);
	return buf;
}

static struct fold_frame frame(const char *func, const char *module, const char *addr)
{
	struct fold_frame fr = { .func = func, .func_len = strlen(func), .module = module,
				 .module_len = strlen(module), .addr = addr, .addr_len = strlen(addr) };

	return fr;
}

static void add(struct folder *f, const char *comm, const char *pid, const char *tid,
		uint64_t period, const struct fold_frame *frames, size_t n)
{
	struct fold_sample s = { comm, strlen(comm), pid, pid ? strlen(pid) : 0, tid, strlen(tid),
				 period, frames, n };

	folder_add_sample(f, &s);
}

TEST(fold_names_and_annotations)
{
	struct fold_options o = { .annotate_kernel = 1, .annotate_jit = 1 };
	struct folder *f = folder_new(&o);
	struct fold_frame fr[] = {
		frame("do_sys_open+0x1f", "[kernel.kallsyms]", "ffff"),
		frame("Lorg/x/Y;.run(I)V->Lorg/x/Z;.inl", "/tmp/perf-42.map", "7f01"),
		frame("[unknown]", "/usr/lib/libfoo.so.1", "7f02"),
		frame("std::function<int (int)>::operator()(int) const", "/bin/app", "7f03"),
		frame("(anonymous namespace)::skipped", "/bin/app", "7f08"),
		frame("a::(anonymous namespace)::helper(int)", "/bin/app", "7f04"),
		frame("net/http.(*Client).Do", "/bin/app", "7f05"),
		frame("say\"hi\"'", "/bin/app", "7f06"),
		frame("[unknown]", "[unknown]", "7f07"),
	};
	char *out;

	add(f, "java app", "1", "2", 3, fr, sizeof(fr) / sizeof(fr[0]));
	out = write_folders(&f, 1);
	CHECK_STREQ(out, "java_app;[unknown];sayhi;net/http.(*Client).Do;a::(anonymous namespace)::helper;"
			 "std::function<int (int)>::operator;[libfoo.so.1];"
			 "org/x/Y:.run_[j];org/x/Z:.inl_[i];do_sys_open_[k] 3\n");
	free(out);
	folder_free(f);
}

TEST(fold_pid_tid_addrs)
{
	struct fold_options o = { .include_tid = 1, .include_addrs = 1 };
	struct folder *f = folder_new(&o);
	struct fold_frame fr[] = { frame("[unknown]", "[unknown]", "7f00"), frame("main", "/bin/a", "1") };
	char *out;

	add(f, "a", NULL, "7", 1, fr, 2);
	add(f, "a", "5", "7", 2, fr, 2);
	out = write_folders(&f, 1);
	CHECK_STREQ(out, "a-5/7;main;[unknown <7f00>] 2\na-?/7;main;[unknown <7f00>] 1\n");
	free(out);
	folder_free(f);
}

TEST(fold_skip_after)
{
	struct string_list skip = STRING_LIST_INIT;
	struct fold_options o = { 0 };
	struct folder *f;
	struct fold_frame fr[] = { frame("leaf", "/a", "1"), frame("init+0x4", "/a", "2"),
				   frame("main", "/a", "3") };
	char *out;

	string_list_append(&skip, "init");
	o.skip_after = &skip;
	f = folder_new(&o);
	add(f, "p", NULL, "1", 1, fr, 3);
	add(f, "p", NULL, "1", 1, fr + 2, 1);
	out = write_folders(&f, 1);
	CHECK_STREQ(out, "init;leaf 1\np;main 1\n");
	free(out);
	folder_free(f);
	string_list_clear(&skip);
}

TEST(fold_merges_and_sorts_across_folders)
{
	struct fold_options o = { 0 };
	struct folder *f[2] = { folder_new(&o), folder_new(&o) };
	struct fold_frame a = frame("a", "/m", "1"), b = frame("B", "/m", "2");
	char *out;

	add(f[0], "p", NULL, "1", 2, &a, 1);
	add(f[1], "p", NULL, "1", 3, &a, 1);
	add(f[1], "p", NULL, "1", 1, &b, 1);
	out = write_folders(f, 2);
	CHECK_STREQ(out, "p;B 1\np;a 5\n");	/* byte order: 'B' < 'a' */
	free(out);
	folder_free(f[0]);
	folder_free(f[1]);
}

/*
 * The output is in byte order of the whole line, which is not the order of
 * the frames: "a-b" < "a;b" ('-' < ';') although frame "a" < "a-b"; the
 * writer compares the texts through the interned frames, never built.
 */
TEST(fold_sorts_by_text_not_by_frames)
{
	struct fold_options o = { 0 };
	struct folder *f[2] = { folder_new(&o), folder_new(&o) };
	struct fold_frame ab[] = { frame("b", "/m", "1"), frame("a", "/m", "2") };
	struct fold_frame a = frame("a", "/m", "2"), adash = frame("a-b", "/m", "3");
	struct fold_frame joined = frame("ab", "/m", "4");
	char *out;

	add(f[0], "p", NULL, "1", 1, ab, 2);
	add(f[0], "p", NULL, "1", 1, &joined, 1);
	add(f[0], "p", NULL, "1", 1, &a, 1);
	add(f[1], "p", NULL, "1", 1, &adash, 1);
	add(f[1], "p", NULL, "1", 2, ab, 2);
	add(f[1], "q", NULL, "1", 1, &a, 1);
	add(f[1], "p", NULL, "1", 4, &a, 1);
	out = write_folders(f, 2);
	CHECK_STREQ(out, "p;a 5\np;a-b 1\np;a;b 3\np;ab 1\nq;a 1\n");
	free(out);
	out = write_folders(f + 1, 1);
	CHECK_STREQ(out, "p;a 4\np;a-b 1\np;a;b 2\nq;a 1\n");
	free(out);
	folder_free(f[0]);
	folder_free(f[1]);
}

/*
 * folder_to_profile() is the written text read back, without the text:
 * the same stacks in the same (byte) order, merged across folders, with
 * the same counts (flame's stages pass profiles this way).
 */
TEST(fold_to_profile_is_the_text_read_back)
{
	struct fold_options o = { 0 };
	struct folder *f[2] = { folder_new(&o), folder_new(&o) };
	struct fold_frame ab[] = { frame("b", "/m", "1"), frame("a", "/m", "2") };
	struct fold_frame a = frame("a", "/m", "2"), adash = frame("a-b", "/m", "3");
	struct folded_profile mem, text;
	char path[] = "/tmp/trail-test-fold-XXXXXX", *out;
	uint32_t id;
	FILE *fp;
	int fd;

	add(f[0], "p", NULL, "1", 1, ab, 2);
	add(f[0], "p", NULL, "1", 7, &a, 1);
	add(f[1], "p", NULL, "1", 1, &adash, 1);
	add(f[1], "p", NULL, "1", 2, ab, 2);
	add(f[1], "q", NULL, "1", 1, &a, 1);
	folded_profile_init(&mem);
	folded_profile_init(&text);
	folder_to_profile(f, 2, &mem);
	out = write_folders(f, 2);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	fp = fdopen(fd, "w");
	fputs(out, fp);
	fclose(fp);
	CHECK(folded_profile_read(&text, path) == 0);
	unlink(path);
	CHECK_INT(mem.stacks.nr, 4);
	CHECK_INT(mem.stacks.nr, text.stacks.nr);
	CHECK_INT(mem.columns, text.columns);
	CHECK(mem.total[0] == text.total[0]);
	for (id = 0; id < mem.stacks.nr && id < text.stacks.nr; id++) {
		CHECK_INT(intern_len(&mem.stacks, id), intern_len(&text.stacks, id));
		CHECK(!memcmp(intern_str(&mem.stacks, id), intern_str(&text.stacks, id),
			      intern_len(&text.stacks, id)));
		CHECK(mem.counts[0][id] == text.counts[0][id]);
	}
	CHECK(intern_len(&mem.stacks, 0) == 3 && !memcmp(intern_str(&mem.stacks, 0), "p;a", 3));
	CHECK(mem.counts[0][0] == 7);
	free(out);
	folded_profile_release(&mem);
	folded_profile_release(&text);
	folder_free(f[0]);
	folder_free(f[1]);
}

TEST(fold_frames_that_vanish)
{
	struct fold_options o = { 0 };
	struct folder *f = folder_new(&o);
	/* "->" and "+0x10" split into nothing; "(comm)" is skipped; "a->" keeps "a" */
	struct fold_frame fr[] = { frame("->", "/m", "1"), frame("(java)", "/m", "2"),
				   frame("a->", "/m", "3"), frame("+0x10", "/m", "4") };
	char *out;

	add(f, "pp", NULL, "1", 1, fr, 2);
	add(f, "pp", NULL, "1", 2, fr, 4);
	out = write_folders(&f, 1);
	CHECK_STREQ(out, "pp 1\npp;a 2\n");	/* as the Perl script prints it */
	free(out);
	folder_free(f);
}

TEST(module_rules)
{
	CHECK(fold_module_is_kernel(LINE("[kernel.kallsyms]")));
	CHECK(fold_module_is_kernel(LINE("/usr/lib/debug/boot/vmlinux-5.4.14-cloudflare-2020.1.11")));
	CHECK(fold_module_is_kernel(LINE("/lib/modules/5.4/kernel/net/x.ko")));
	CHECK(!fold_module_is_kernel(LINE("[unknown]")));
	CHECK(!fold_module_is_kernel(LINE("/usr/lib/libc.so.6")));
	CHECK(fold_module_is_jit(LINE("/tmp/perf-1234.map")));
	CHECK(fold_module_is_jit(LINE("/home/u/.debug/jit/x/jitted-123-4.so")));
	CHECK(!fold_module_is_jit(LINE("/tmp/perf-.map")));
	CHECK(!fold_module_is_jit(LINE("/usr/lib/libjitted.so")));
}

static char *session_output(const char *path, unsigned jobs, size_t chunk, unsigned *threads)
{
	struct fold_options o = { .include_pid = 1 };
	struct collapse_session s;
	char *out;

	collapse_session_init(&s, &o);
	s.opts.jobs = jobs;
	s.opts.chunk_size = chunk;
	CHECK(perf_script_read_path(&s, s.folders[0], path) == 0);
	out = write_folders(s.folders, s.nr_folders);
	*threads = s.threads_used;
	collapse_session_release(&s);
	return out;
}

TEST(threads_give_the_same_output)
{
	char path[] = "/tmp/trail-collapse-j.XXXXXX";
	int fd = mkstemp(path), i, j;
	FILE *f = fdopen(fd, "w");
	char *one, *two;
	unsigned t1 = 0, t2 = 0;

	for (i = 0; i < 3000; i++) {
		/* some samples lack the blank line, some are of another event */
		fprintf(f, "p%d %d/%d 1.0: %d %s:\n", 10 + i % 4, i % 5, i % 3, i + 1,
			i % 17 == 5 ? "instructions" : "cycles");
		for (j = 0; j < 1 + i % 6; j++)
			fprintf(f, "\t%x f%d+0x%x (/lib/l%d.so)\n", j, (i + j) % 11, j, j % 2);
		if (i % 23 == 0)
			fprintf(f, "not a perf line\n");
		if (i % 29 != 7)
			fputc('\n', f);
	}
	fclose(f);
	one = session_output(path, 1, 2048, &t1);
	two = session_output(path, 2, 2048, &t2);
	CHECK_INT(t1, 1);
	CHECK_INT(t2, 2);
	CHECK(one && two && strlen(one) > 100);
	CHECK_STREQ(two, one);
	free(one);
	free(two);
	unlink(path);
}

TEST(buffer_reader_counts_unrecognized_lines)
{
	static const char text[] = "pp 1 1.0: 1 cycles:\n\t1 f (/x)\n\n!!\n  ??\n";
	struct fold_options o = { 0 };
	struct collapse_session s;
	char *out;

	collapse_session_init(&s, &o);
	perf_script_read_buffer(&s, s.folders[0], "buf", text, sizeof(text) - 1);
	CHECK_INT(s.unrecognized, 2);
	CHECK_STREQ(s.event_filter, "cycles");
	out = write_folders(s.folders, s.nr_folders);
	CHECK_STREQ(out, "pp;f 1\n");
	free(out);
	collapse_session_release(&s);
}

/*
 * Frames with a key (a perf.data reader's symbol and module addresses)
 * fold exactly as the same frames without one, and one key seen in a java
 * and in another process is cleaned up for each (the key names the text,
 * not the process).
 */
TEST(fold_keyed_frames_fold_as_text)
{
	struct fold_options o = { .annotate_jit = 1 };
	struct folder *f[2] = { folder_new(&o), folder_new(&o) };
	static const char k1[] = "key-one", k2[] = "key-two";
	struct fold_frame fr[] = { frame("Lorg/x/Y;.run(I)V", "/tmp/perf-42.map", "1"),
				   frame("main+0x10", "/bin/a", "2") };
	char *plain, *keyed;

	for (int i = 0; i < 2; i++) {
		add(f[0], i ? "java" : "node", NULL, "1", 1, fr, 2);
		add(f[0], "node", NULL, "1", 2, fr, 2);
	}
	fr[0].key = k1;
	fr[0].key_len = sizeof(k1);
	fr[1].key = k2;
	fr[1].key_len = sizeof(k2);
	for (int i = 0; i < 2; i++) {
		add(f[1], i ? "java" : "node", NULL, "1", 1, fr, 2);
		add(f[1], "node", NULL, "1", 2, fr, 2);
	}
	plain = write_folders(&f[0], 1);
	keyed = write_folders(&f[1], 1);
	CHECK_STREQ(keyed, plain);
	CHECK_STREQ(keyed, "java;main;org/x/Y:.run_[j] 1\nnode;main;Lorg/x/Y:.run_[j] 5\n");
	free(plain);
	free(keyed);
	folder_free(f[0]);
	folder_free(f[1]);
}

/*
 * Numbered frames (fold_frame.id, as the perf.data reader gives them):
 * a number's group is remembered per java and non-java process, and
 * folder_forget_frame_ids() lets a second reader use the same numbers
 * for other frames.
 */
TEST(fold_numbered_frames_fold_as_text)
{
	struct fold_options o = { .annotate_jit = 1 };
	struct folder *f[2] = { folder_new(&o), folder_new(&o) };
	static const char k1[] = "key-one", k2[] = "key-two", k3[] = "key-three";
	struct fold_frame fr[] = { frame("Lorg/x/Y;.run(I)V", "/tmp/perf-42.map", "1"),
				   frame("main+0x10", "/bin/a", "2") };
	struct fold_frame other = frame("other+0x4", "/bin/b", "3");
	char *plain, *numbered;

	for (int i = 0; i < 3; i++) {
		add(f[0], i == 1 ? "java" : "node", NULL, "1", 1, fr, 2);
		add(f[0], "java", NULL, "1", 2, fr, 2);
	}
	fr[1] = other;
	add(f[0], "node", NULL, "1", 4, fr, 2);
	fr[1] = frame("main+0x10", "/bin/a", "2");
	fr[0].key = k1;
	fr[0].key_len = sizeof(k1);
	fr[0].id = 1;
	fr[1].key = k2;
	fr[1].key_len = sizeof(k2);
	fr[1].id = 2;
	for (int i = 0; i < 3; i++) {
		add(f[1], i == 1 ? "java" : "node", NULL, "1", 1, fr, 2);
		add(f[1], "java", NULL, "1", 2, fr, 2);
	}
	/* a new reader: number 2 is now another frame */
	folder_forget_frame_ids(f[1]);
	fr[1] = other;
	fr[1].key = k3;
	fr[1].key_len = sizeof(k3);
	fr[1].id = 2;
	add(f[1], "node", NULL, "1", 4, fr, 2);
	plain = write_folders(&f[0], 1);
	numbered = write_folders(&f[1], 1);
	CHECK_STREQ(numbered, plain);
	CHECK_STREQ(numbered, "java;main;org/x/Y:.run_[j] 7\nnode;main;Lorg/x/Y:.run_[j] 2\n"
			      "node;other;Lorg/x/Y:.run_[j] 4\n");
	free(plain);
	free(numbered);
	folder_free(f[0]);
	folder_free(f[1]);
}

TEST_MAIN("collapse", event_line_pid_tid, period_and_event_name, stack_line_fields,
	  grammar_matches_perl_on_random_lines, fold_names_and_annotations, fold_pid_tid_addrs,
	  fold_skip_after, fold_merges_and_sorts_across_folders,
	  fold_sorts_by_text_not_by_frames, fold_to_profile_is_the_text_read_back,
	  fold_frames_that_vanish, module_rules,
	  threads_give_the_same_output,
	  buffer_reader_counts_unrecognized_lines, fold_keyed_frames_fold_as_text,
	  fold_numbered_frames_fold_as_text)
