/*
 * test_collapse_formats.c - unit tests of the input-format layer of
 * src/collapse/: the guesser on each format's first lines, each reader on
 * small inputs written here, the shared frame helpers (Rust name clean-up,
 * folded lines), and core/decompress.c on real gzip, zstd and xz streams.
 */
#include "harness.h"
#include "collapse_fold.h"
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/decompress.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <lzma.h>

static const char *guess(const char *text)
{
	const struct collapser *c = collapse_guess(text, strlen(text), NULL);

	return c ? c->name : "(none)";
}

TEST(table_names_are_unique_and_found)
{
	size_t i, j;

	for (i = 0; collapsers[i]; i++) {
		CHECK(collapser_find(collapsers[i]->name) == collapsers[i]);
		CHECK(collapsers[i]->description && *collapsers[i]->description);
		for (j = 0; j < i; j++)
			CHECK(strcmp(collapsers[i]->name, collapsers[j]->name));
	}
	CHECK(i >= 11);
	CHECK(!collapser_find("nope"));
}

TEST(guess_picks_each_format)
{
	CHECK_STREQ(guess("PERFILE2\x68\0\0\0\0\0\0\0"), "perfdata");
	CHECK_STREQ(guess("app 123/124 1.000: 1 cycles:\n\t4004f0 main+0x10 (/bin/app)\n"), "perf");
	CHECK_STREQ(guess("CPU     ID                    FUNCTION:NAME\n  0  64091  :tick-60s\n\n"
			  "  genunix`kmem_free+0x20\n  unix`main+0x1\n  7\n"), "dtrace");
	CHECK_STREQ(guess("Analysis of sampling x\n\nCall graph:\n    5 Thread_1\n    + 5 main  (in x) + 1  [0x1]\n"
			  "\nTotal number in stack (recursive counted multiple, when >=5):\n"), "sample");
	CHECK_STREQ(guess("Function Stack,CPU Time:Self,Module\nTotal,0.0,[Unknown]\n"), "vtune");
	CHECK_STREQ(guess("\xef\xbb\xbfLevel,Function Name,Number of Calls,Elapsed Inclusive Time %,"
			  "Elapsed Exclusive Time %,Avg Elapsed Inclusive Time,Avg Elapsed Exclusive "
			  "Time,Module Name,\n"), "vsprof");
	CHECK_STREQ(guess("<?xml version=\"1.0\"?>\n<trace-query-result>\n"), "xctrace");
	CHECK_STREQ(guess("\tTime and Allocation Profiling Report\n\nCOST CENTRE MODULE SRC no. "
			  "entries %time %alloc %time %alloc\n"), "ghcprof");
	CHECK_STREQ(guess("Attaching 1 probe...\n\n@[\n    main+1\n]: 3\n"), "bpftrace");
	CHECK_STREQ(guess("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"), "callgrind");
	CHECK_STREQ(guess("main;work 3\nmain;idle 1\n"), "folded");
	CHECK_STREQ(guess("# comments only\n"), "perf");
	CHECK_STREQ(guess("what is this\n"), "(none)");
	CHECK_STREQ(guess(""), "(none)");
}

TEST(dtrace_offsets_cpp_and_inlines)
{
	char *out = fold_as("dtrace", "header\n\n  m`leaf+0x1\n  m`A::f(int)+0x2\n  L"
			    "java/Foo->bar\n  m`main\n  3\n\n  m`leaf+0x9\n  m`A::f(long)+0x3\n  L"
			    "java/Foo->bar\n  m`main\n  2\n", 0);

	CHECK_STREQ(out, "m`main;java/Foo;bar_[i];m`A::f;m`leaf 5\n");
	free(out);
}

TEST(sample_leaves_idle_threads_and_rust_names)
{
	char *out = fold_as("sample", "Call graph:\n"
			    "    9 Thread_1\n"
			    "    + 9 main  (in app) + 1  [0x1]\n"
			    "    +   6 app::work::h0123456789abcdef  (in app) + 2  [0x2]\n"
			    "    +   3 __ulock_wait  (in libsystem_kernel.dylib) + 3  [0x3]\n"
			    "\nTotal number in stack\n", 0);

	CHECK_STREQ(out, "Thread_1;app`main;app`app::work 6\n");
	free(out);
	out = fold_as("sample", "Call graph:\n    2 T\n    + 2 f  (in libx.dylib) + 1  [0x1]\n"
		      "Total number in stack\n", 1);
	CHECK_STREQ(out, "T;f 2\n");
	free(out);
	/* an odd indentation is an error, not a guess */
	CHECK(!fold_as("sample", "Call graph:\n    2 T\n     2 f\nTotal number in stack\n", 0));
}

TEST(vtune_milliseconds)
{
	char *out = fold_as("vtune", "Function Stack,CPU Time:Self,Module\nTotal,0.0,[Unknown]\n"
			    " main,0.0015,app\n  \"f<a, b>\",0.0024,app\n", 0);

	CHECK_STREQ(out, "[Unknown]`Total;app`main 2\n[Unknown]`Total;app`main;app`f<a, b> 2\n");
	free(out);
}

TEST(vsprof_subtracts_children)
{
	char *out = fold_as("vsprof", "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,"
			    "Elapsed Exclusive Time %,Avg Elapsed Inclusive Time,Avg Elapsed Exclusive "
			    "Time,Module Name,\n0,\"app\",0,1,1,1,1,\"\",\n1,\"main\",1,1,1,1,1,\"\",\n"
			    "2,\"f\",\"1,200\",1,1,1,1,\"\",\n2,\"g\",3,1,1,1,1,\"\",\n", 0);

	CHECK_STREQ(out, "main;f 1200\nmain;g 3\n");
	free(out);
	CHECK(!fold_as("vsprof", "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,"
		       "Elapsed Exclusive Time %,Avg Elapsed Inclusive Time,Avg Elapsed Exclusive "
		       "Time,Module Name,\n0,\"a\",1234,1,\n", 0));
}

TEST(xctrace_refs_and_entities)
{
	char *out = fold_as("xctrace", "<?xml version=\"1.0\"?>\n<trace-query-result><node><row>"
			    "<backtrace id=\"1\"><frame id=\"2\" name=\"leaf&lt;T&gt;\" addr=\"0x1\">"
			    "<binary id=\"9\" name=\"x\"/></frame><frame id=\"3\" name='main'/>"
			    "</backtrace></row><row><backtrace ref=\"1\"/></row><row><backtrace id=\"4\">"
			    "<frame id=\"5\" name=\"other::h0123456789abcdef\"/><frame ref=\"3\"/>"
			    "</backtrace></row></node></trace-query-result>\n", 0);

	CHECK_STREQ(out, "main;leaf<T> 2\nmain;other 1\n");
	free(out);
	CHECK(!fold_as("xctrace", "<?xml version=\"1.0\"?><trace-query-result><node><row>"
		       "<backtrace ref=\"7\"/></row></node></trace-query-result>", 0));
}

TEST(ghcprof_costs)
{
	static const char prof[] =
		"COST CENTRE MODULE SRC no. entries %time %alloc %time %alloc ticks bytes\n"
		"\n"
		"MAIN        MAIN   <b>  1   0         0.0    0.0  100.0 100.0     0    10\n"
		" main       Main   m.hs 2   1        30.4   20.0  100.0 100.0     7    90\n"
		"\n";
	char *out = fold_as("ghcprof", prof, 0);

	CHECK_STREQ(out, "MAIN.MAIN 0\nMAIN.MAIN;Main.main 304\n");
	free(out);
}

TEST(recursive_and_folded)
{
	char *out = fold_as("recursive", "a;r;r;r;b 1\na;r;b 2\nr;r 4\n", 0);

	CHECK_STREQ(out, "a;r;b 3\nr 4\n");
	free(out);
	out = fold_as(NULL, "x;y 1\nx;y 2\nw 5\n", 0);
	CHECK_STREQ(out, "w 5\nx;y 3\n");
	free(out);
}

TEST(bpftrace_keys)
{
	char *out = fold_as("bpftrace", "@[\n        f+1\n        main+2\n]: 4\n@x[comm1, \n"
			    "        g+0x1\n]: 1\n", 0);

	CHECK_STREQ(out, "comm1;g 1\nmain;f 4\n");
	free(out);
}

TEST(rust_names)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const cases[][2] = {
		{ "std::sys::unix::fs::File::open::hb90e1c1c787080f0", "std::sys::unix::fs::File::open" },
		{ "_$LT$F$u20$as$u20$alloc..boxed..FnBox$LT$A$GT$$GT$::call_box::h8612a2a83552fc2d",
		  "<F as alloc::boxed::FnBox<A>>::call_box" },
		{ "rg::x::_$u7b$$u7b$closure$u7d$$u7d$::h6e849b55a66fcd85", "rg::x::_{{closure}}" },
		{ "plain_c_function", "plain_c_function" },
		{ "a$zz$b::h0123456789abcdef", "a$zz$b" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		frames_fix_rust_name(cases[i][0], strlen(cases[i][0]), &sb);
		CHECK_STREQ(sb.buf, cases[i][1]);
	}
	strbuf_release(&sb);
}

TEST(folded_lines)
{
	const char *stack;
	size_t len;
	uint64_t count;

	CHECK(frames_parse_folded("a;b c 12", 8, &stack, &len, &count));
	CHECK_INT(len, 5);
	CHECK_INT(count, 12);
	CHECK(!frames_parse_folded("a;b 1.5", 7, &stack, &len, &count));
	CHECK(!frames_parse_folded("12", 2, &stack, &len, &count));
	CHECK(!frames_parse_folded("a;b", 3, &stack, &len, &count));
}

/* Write buf compressed by kind to a temporary file; returns its descriptor at offset 0. */
static int compressed_fd(enum decompress_kind kind, const char *buf, size_t len)
{
	char path[] = "/tmp/trail-decomp-XXXXXX";
	int fd = mkstemp(path);
	unsigned char *out = malloc(len * 2 + 1024);
	size_t n = 0;

	unlink(path);
	if (kind == DECOMPRESS_GZIP) {
		z_stream z;

		memset(&z, 0, sizeof(z));
		deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
		z.next_in = (unsigned char *)buf;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)(len * 2 + 1024);
		deflate(&z, Z_FINISH);
		n = z.total_out;
		deflateEnd(&z);
	} else if (kind == DECOMPRESS_ZSTD) {
		n = ZSTD_compress(out, len * 2 + 1024, buf, len, 3);
	} else if (kind == DECOMPRESS_XZ) {
		lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)buf, len, out, &n,
					len * 2 + 1024);
	}
	CHECK(write(fd, out, n) == (ssize_t)n);
	lseek(fd, 0, SEEK_SET);
	free(out);
	return fd;
}

TEST(decompress_round_trips)
{
	enum decompress_kind kinds[] = { DECOMPRESS_GZIP, DECOMPRESS_ZSTD, DECOMPRESS_XZ };
	size_t len = 3u << 20, i, k;
	char *text = malloc(len), *back = malloc(len + 1);

	for (i = 0; i < len; i++)
		text[i] = (char)('a' + (i * 7 + i / 1000) % 26);
	for (k = 0; k < 3; k++) {
		struct decompress *d = decompress_open(compressed_fd(kinds[k], text, len), "t");
		size_t have = 0;
		ssize_t got;

		CHECK(d != NULL);
		if (!d)
			continue;
		CHECK_INT(decompress_kind(d), kinds[k]);
		while ((got = decompress_read(d, back + have, len + 1 - have)) > 0)
			have += (size_t)got;
		CHECK_INT(got, 0);
		CHECK_INT(have, len);
		CHECK(!memcmp(text, back, len));
		decompress_close(d);
	}
	free(text);
	free(back);
}

TEST(decompress_truncated_is_an_error)
{
	char text[4096];
	int fd, cut;
	struct decompress *d;
	char buf[8192];
	ssize_t got;

	memset(text, 'x', sizeof(text));
	fd = compressed_fd(DECOMPRESS_ZSTD, text, sizeof(text));
	cut = (int)lseek(fd, 0, SEEK_END);
	CHECK(ftruncate(fd, cut - 3) == 0);
	lseek(fd, 0, SEEK_SET);
	d = decompress_open(fd, "t");
	while ((got = decompress_read(d, buf, sizeof(buf))) > 0)
		;
	CHECK_INT(got, -1);
	decompress_close(d);
}

TEST_MAIN("collapse_formats", table_names_are_unique_and_found, guess_picks_each_format,
	  dtrace_offsets_cpp_and_inlines, sample_leaves_idle_threads_and_rust_names,
	  vtune_milliseconds, vsprof_subtracts_children, xctrace_refs_and_entities, ghcprof_costs,
	  recursive_and_folded, bpftrace_keys, rust_names, folded_lines, decompress_round_trips,
	  decompress_truncated_is_an_error)
