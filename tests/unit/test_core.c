/*
 * test_core.c - unit tests for src/core: strbuf, arena, intern, strict
 * number parsing, option tables, the line reader, gathered writes, child
 * processes, cleanup handlers and the progress line's text.
 */
#include "harness.h"
#include "core/escape.h"

#include "core/alloc.h"
#include "core/callgrind_cmd.h"
#include "core/arena.h"
#include "core/gather.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/file_map.h"
#include "core/intern.h"
#include "core/line_map.h"
#include "core/line_reader.h"
#include "core/options.h"
#include "core/parse_number.h"
#include "core/progress.h"
#include "core/radix_sort.h"
#include "core/shell_quote.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "core/error.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

TEST(strbuf_appends_and_escapes)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(sb.buf, "");
	strbuf_addstr(&sb, "ab");
	strbuf_addch(&sb, 'c');
	strbuf_addf(&sb, "%d-%s", 42, "x");
	CHECK_STREQ(sb.buf, "abc42-x");
	CHECK_INT(sb.len, 7);
	strbuf_reset(&sb);
	escape_json(&sb, "q\"\\\n\x01", 5);
	CHECK_STREQ(sb.buf, "q\\\"\\\\\\n\\u0001");
	strbuf_release(&sb);
	CHECK_INT(sb.len, 0);
}

TEST(strbuf_grows_past_formatting_buffer)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%0100d", i);
	CHECK_INT(sb.len, 100000);
	CHECK(sb.buf[sb.len] == '\0');
	strbuf_release(&sb);
}

TEST(arena_aligns_and_survives_large_requests)
{
	struct arena a = ARENA_INIT;
	char *p = arena_alloc(&a, 3), *big, *q;

	CHECK(((uintptr_t)p & 15) == 0);
	big = arena_alloc(&a, 3u << 20);
	memset(big, 1, 3u << 20);
	q = arena_strndup(&a, "hello", 5);
	CHECK_STREQ(q, "hello");
	CHECK(((uintptr_t)q & 15) == 0);
	arena_release(&a);
}

TEST(arena_alloc_bytes_packs_text_and_realigns_after_it)
{
	struct arena a = ARENA_INIT;
	char *p = arena_alloc_bytes(&a, 3), *q = arena_alloc_bytes(&a, 5), *r, *big;

	CHECK(q == p + 3);	/* packed: no padding between pieces of text */
	r = arena_alloc(&a, 8);
	CHECK(((uintptr_t)r & 15) == 0);
	CHECK(r >= q + 5);
	CHECK(arena_alloc_bytes(&a, 1) == r + 16);	/* arena_alloc rounds sizes up too */
	big = arena_alloc_bytes(&a, 2u << 20);	/* past the block: a new one */
	memset(big, 1, 2u << 20);
	CHECK(((uintptr_t)arena_alloc(&a, 1) & 15) == 0);
	arena_release(&a);
}

TEST(arena_reserve_starts_a_big_block)
{
	struct arena a = ARENA_INIT;
	char *p = arena_alloc(&a, 100), *q, *r;

	arena_reserve(&a, 4u << 20);
	q = arena_alloc(&a, 3u << 20);
	r = arena_alloc(&a, 100);
	/* both from the reserved block, one after the other */
	CHECK(r == q + (3u << 20));
	CHECK(p != q);
	arena_reserve(&a, 16);	/* room left: no new block */
	CHECK(arena_alloc(&a, 16) == r + 112);
	arena_release(&a);
}

TEST(gather_writes_pieces_in_order)
{
	struct gather g;
	FILE *f = tmpfile();
	char *want = xmalloc(4u << 20), *got = xmalloc(4u << 20), *big = xmalloc(1000);
	size_t n = 0, i;

	memset(big, 'b', 1000);
	gather_init(&g, fileno(f));
	/* more pieces than iovecs and more copies than the buffer holds */
	for (i = 0; i < 3000; i++) {
		char num[32], *p;
		size_t len = (size_t)snprintf(num, sizeof(num), " %zu\n", i);

		gather_ref(&g, big, 300 + i % 700);	/* long: referenced */
		memcpy(want + n, big, 300 + i % 700);
		n += 300 + i % 700;
		gather_ref(&g, "short", 5);		/* short: copied */
		memcpy(want + n, "short", 5);
		n += 5;
		p = gather_space(&g, sizeof(num));
		memcpy(p, num, len);
		gather_commit(&g, len);
		memcpy(want + n, num, len);
		n += len;
	}
	gather_add(&g, big, 1000);
	memcpy(want + n, big, 1000);
	n += 1000;
	CHECK_INT(gather_finish(&g), 0);
	rewind(f);
	CHECK_INT(fread(got, 1, 4u << 20, f), n);
	CHECK(!memcmp(got, want, n));
	fclose(f);

	gather_init(&g, -1);	/* a write error is kept and reported */
	gather_add(&g, "x", 1);
	CHECK_INT(gather_finish(&g), -1);
	CHECK_INT(errno, EBADF);
	free(want);
	free(got);
	free(big);
}

TEST(intern_gives_dense_stable_ids)
{
	struct intern t;
	char buf[32];
	int is_new, i;

	intern_init(&t);
	CHECK_INT(intern_add(&t, "main", 4, &is_new), 0);
	CHECK(is_new);
	CHECK_INT(intern_add(&t, "foo", 3, &is_new), 1);
	CHECK_INT(intern_add(&t, "main", 4, &is_new), 0);
	CHECK(!is_new);
	for (i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof(buf), "frame%d", i);

		intern_add(&t, buf, (size_t)n, NULL);
	}
	CHECK_INT(t.nr, 5002);
	CHECK_INT(intern_find(&t, "frame4999", 9), 5001);
	CHECK_STREQ(intern_str(&t, 1), "foo");
	CHECK_INT(intern_find(&t, "absent", 6), UINT32_MAX);
	intern_release(&t);
}

TEST(parse_number_is_strict)
{
	uint64_t u;
	int64_t i;
	double d;
	int pct;

	CHECK_INT(parse_u64("42", &u), 0);
	CHECK_INT(u, 42);
	CHECK_INT(parse_u64("18446744073709551615", &u), 0);
	CHECK_INT(parse_u64("18446744073709551616", &u), -1);
	CHECK_INT(parse_u64("-1", &u), -1);
	CHECK_INT(parse_u64("12x", &u), -1);
	CHECK_INT(parse_u64(" 1", &u), -1);
	CHECK_INT(parse_u64("", &u), -1);
	CHECK_INT(parse_i64("-9223372036854775808", &i), 0);
	CHECK(i == INT64_MIN);
	CHECK_INT(parse_i64("9223372036854775808", &i), -1);
	CHECK_INT(parse_hex_u64_n("0x7f00", 6, &u), 0);
	CHECK_INT(u, 0x7f00);
	CHECK_INT(parse_hex_u64_n("ffffffffffffffff", 16, &u), 0);
	CHECK_INT(parse_hex_u64_n("1ffffffffffffffff", 17, &u), -1);
	CHECK_INT(parse_double("2.5", &d), 0);
	CHECK_NEAR(d, 2.5, 0);
	CHECK_INT(parse_double("nan", &d), -1);
	CHECK_INT(parse_double("inf", &d), -1);
	CHECK_INT(parse_double("1.5x", &d), -1);
	CHECK_INT(parse_double("1e999", &d), -1);
	{
		/* whole numbers take a shortcut: the same values as strtod's,
		 * rounding above 2^53 included */
		static const char *const whole[] = {
			"0", "007", "42", "9007199254740993", "9999999999999999999",
			"18446744073709551615", "123456789012345678901",
		};

		for (size_t w = 0; w < sizeof(whole) / sizeof(*whole); w++) {
			CHECK_INT(parse_double(whole[w], &d), 0);
			CHECK(d == strtod(whole[w], NULL));
		}
		CHECK_INT(parse_double_n("12x", 2, &d), 0);
		CHECK(d == 12);
	}
	CHECK_INT(parse_amount_or_percent("0.5%", &d, &pct), 0);
	CHECK(pct);
	CHECK_NEAR(d, 0.5, 0);
	CHECK_INT(parse_amount_or_percent("-1", &d, &pct), -1);
	CHECK_INT(parse_seconds("500ms", &d), 0);
	CHECK_NEAR(d, 0.5, 1e-12);
	CHECK_INT(parse_seconds("2m", &d), 0);
	CHECK_NEAR(d, 120, 0);
	CHECK_INT(parse_seconds("3", &d), 0);
	CHECK_NEAR(d, 3, 0);
	CHECK_INT(parse_seconds("abc", &d), -1);
}

static int seen_callback;
static int record_callback(const struct option *opt, const char *arg)
{
	seen_callback = arg ? (int)strlen(arg) : -1;
	return 0;
}

TEST(options_parse_tables)
{
	int flag = 0, other = 1;
	uint64_t jobs = 0;
	double ratio = 0;
	const char *title = NULL;
	struct string_list skip = STRING_LIST_INIT;
	const char *argv[] = { "cmd", "-j4", "in.txt", "--title=Hi", "--no-other",
			       "--skip", "a", "--skip=b", "-f", "--ratio", "0.5",
			       "--cb", "xyz", "--", "-notopt", NULL };
	const struct option opts[] = {
		OPT_FLAG('f', "flag", &flag, "a flag"),
		OPT_FLAG(0, "other", &other, "another"),
		OPT_U64('j', "jobs", &jobs, "N", "threads", 1, 64),
		OPT_DOUBLE(0, "ratio", &ratio, "R", "ratio", 0, 1),
		OPT_STRING(0, "title", &title, "TEXT", "title"),
		OPT_STRING_LIST(0, "skip", &skip, "FUNC", "skip"),
		OPT_CALLBACK(0, "cb", NULL, "X", "callback", record_callback),
		OPT_END(),
	};
	int n = parse_options(15, argv, opts, NULL, 0);

	CHECK_INT(n, 2);
	CHECK_STREQ(argv[0], "in.txt");
	CHECK_STREQ(argv[1], "-notopt");
	CHECK_INT(flag, 1);
	CHECK_INT(other, 0);
	CHECK_INT(jobs, 4);
	CHECK_NEAR(ratio, 0.5, 0);
	CHECK_STREQ(title, "Hi");
	CHECK_INT(skip.nr, 2);
	CHECK_STREQ(skip.items[1], "b");
	CHECK_INT(seen_callback, 3);
	string_list_clear(&skip);
}

TEST(options_reject_bad_values)
{
	uint64_t jobs = 0;
	int flag = 0;
	const struct option opts[] = {
		OPT_U64('j', "jobs", &jobs, "N", "threads", 1, 64),
		OPT_FLAG('f', "flag", &flag, "a flag"),
		OPT_END(),
	};
	const char *a1[] = { "cmd", "-j", "0", NULL };
	const char *a2[] = { "cmd", "--jobs=-3", NULL };
	const char *a3[] = { "cmd", "--nope", NULL };
	const char *a4[] = { "cmd", "--jobs", NULL };
	const char *a5[] = { "cmd", "--flag=1", NULL };
	const char *a6[] = { "cmd", "-j", "4x", NULL };

	CHECK_INT(parse_options(3, a1, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(parse_options(2, a2, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(parse_options(2, a3, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(parse_options(2, a4, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(parse_options(2, a5, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(parse_options(3, a6, opts, NULL, 0), PARSE_OPT_ERROR);
}

/* A choice option stores its word's value (or the word itself), refuses
 * another word naming them all, and its words are the --help argument. */
TEST(options_choice_words_from_one_list)
{
	static const struct option_choice modes[] = { { "fast", 1 }, { "slow", 2 }, { NULL, 0 } };
	int mode = 0;
	const char *name = NULL;
	const struct option opts[] = {
		OPT_CHOICE('m', "mode", &mode, NULL, "how", modes),
		OPT_CHOICE_NAME(0, "kind", &name, NULL, "which", modes),
		OPT_END(),
	};
	const char *a1[] = { "cmd", "--mode", "slow", "--kind=fast", NULL };
	const char *a2[] = { "cmd", "-m", "quick", NULL };
	char buf[512] = "";
	FILE *f;

	CHECK_INT(parse_options(4, a1, opts, NULL, 0), 0);
	CHECK_INT(mode, 2);
	CHECK_STREQ(name, "fast");
	CHECK_INT(parse_options(3, a2, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(mode, 2);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	usage_print(f, opts, NULL);
	fclose(f);
	CHECK(strstr(buf, "-m, --mode fast|slow") != NULL);
	CHECK(strstr(buf, "--kind fast|slow") != NULL);
}

/* Unsigned and percent options write the request's own types and units. */
TEST(options_uint_and_percent_store_the_fields_type)
{
	unsigned runs = 7;
	double frac = 0.5;
	const struct option opts[] = {
		OPT_UINT(0, "runs", &runs, "N", "runs", 1, 1000),
		OPT_PERCENT(0, "effect", &frac, "PERCENT", "effect", 0, 90),
		OPT_END(),
	};
	const char *a1[] = { "cmd", "--runs", "12", "--effect=2.5", NULL };
	const char *a2[] = { "cmd", "--effect", "95", NULL };
	const char *a3[] = { "cmd", "--runs", "1001", NULL };

	CHECK_INT(parse_options(4, a1, opts, NULL, 0), 0);
	CHECK_INT(runs, 12);
	CHECK(frac == 2.5 / 100);
	CHECK_INT(parse_options(3, a2, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK(frac == 2.5 / 100);
	CHECK_INT(parse_options(3, a3, opts, NULL, 0), PARSE_OPT_ERROR);
	CHECK_INT(runs, 12);
}

TEST(options_stop_at_non_option)
{
	int flag = 0;
	const struct option opts[] = { OPT_FLAG('f', "flag", &flag, "f"), OPT_END() };
	const char *argv[] = { "record", "-f", "ls", "-f", NULL };

	CHECK_INT(parse_options(4, argv, opts, NULL, PARSE_OPT_STOP_AT_NON_OPTION), 2);
	CHECK_STREQ(argv[0], "ls");
	CHECK_STREQ(argv[1], "-f");
}

TEST(options_common_and_hidden)
{
	int own_v = 0, alias = 0;
	uint64_t jobs = 0;
	const struct option opts[] = {
		OPT_FLAG('v', "invert", &own_v, "a command's own -v"),
		OPT_U64('j', "jobs", &jobs, "N", "threads", 1, 64),
		OPT_ALIAS_U64('n', "nthreads", &jobs, "N", 1, 64),
		OPT_ALIAS_FLAG(0, "deterministic", &alias),
		OPT_END(),
	};
	const char *a1[] = { "cmd", "-q", "--verbose", "-v", "--nthreads=3", "--deterministic", NULL };
	const char *a2[] = { "cmd", "-qn", "5", "--version", NULL };
	const char *a3[] = { "cmd", "--", "--version", NULL };
	char *buf = NULL;
	size_t size = 0;
	FILE *mem;

	trail_quiet = 0;
	trail_verbose = 0;
	CHECK_INT(parse_options(6, a1, opts, NULL, 0), 0);
	CHECK_INT(trail_quiet, 1);
	CHECK_INT(trail_verbose, 1);	/* --verbose is common, -v is the table's */
	CHECK_INT(own_v, 1);
	CHECK_INT(jobs, 3);
	CHECK_INT(alias, 1);
	CHECK_INT(parse_options(4, a2, opts, NULL, 0), PARSE_OPT_VERSION);
	CHECK_INT(jobs, 5);
	CHECK_INT(parse_options(3, a3, opts, NULL, 0), 1);
	trail_quiet = 0;
	trail_verbose = 0;

	mem = open_memstream(&buf, &size);
	usage_print(mem, opts, NULL);
	fclose(mem);
	CHECK(strstr(buf, "--jobs") != NULL);
	CHECK(strstr(buf, "nthreads") == NULL);
	CHECK(strstr(buf, "deterministic") == NULL);
	free(buf);
	buf = NULL;
	mem = open_memstream(&buf, &size);
	options_list(mem, opts);
	fclose(mem);
	CHECK(strstr(buf, "--nthreads N\n") != NULL);
	CHECK(strstr(buf, "\n-n N\n") != NULL);
	CHECK(strstr(buf, "--deterministic\n") != NULL);
	CHECK(strstr(buf, "--quiet\n") != NULL);
	{
		/* the table's own -v, listed once (the common one is skipped) */
		const char *at = buf;
		int n = 0;

		while ((at = strstr(at, "\n-v\n")) != NULL) {
			n++;
			at++;
		}
		CHECK_INT(n, 1);
	}
	CHECK(strstr(buf, "--verbose\n") != NULL);
	free(buf);
}

static char *write_temp(const char *dir, const char *name, const char *data, size_t len)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	fwrite(data, 1, len, f);
	fclose(f);
	return path;
}

TEST(line_reader_lines_longer_than_a_read)
{
	char *dir = tempdir_create("trail-unit");
	size_t big = 700u << 10, n = big + 64, i;	/* longer than a 256 KiB read */
	char *text = xmalloc(n), *path, *line;
	struct line_reader r;
	size_t len;

	memcpy(text, "short\n", 6);
	memset(text + 6, 'y', big);
	text[6 + big] = '\n';
	memcpy(text + 7 + big, "tail\r\nend", 10);
	path = write_temp(dir, "long.txt", text, 17 + big);
	for (i = 0; i < 2; i++) {
		/* a file, read(); then the same bytes through a pipe (zlib) */
		int fd = open(path, O_RDONLY);

		if (i) {
			int p[2];
			pid_t pid;

			close(fd);
			CHECK_INT(pipe(p), 0);
			pid = fork();
			if (!pid) {
				close(p[0]);
				_exit(write(p[1], text, 17 + big) == (ssize_t)(17 + big) ? 0 : 1);
			}
			close(p[1]);
			fd = p[0];
		}
		CHECK_INT(line_reader_open_fd(&r, fd, "long"), 0);
		CHECK_INT(line_reader_next(&r, &line, &len), 1);
		CHECK_STREQ(line, "short");
		CHECK_INT(line_reader_next(&r, &line, &len), 1);
		CHECK_INT(len, big);
		CHECK(line[0] == 'y' && line[big - 1] == 'y');
		CHECK_INT(line_reader_next(&r, &line, &len), 1);
		CHECK_STREQ(line, "tail");
		CHECK_INT(line_reader_next(&r, &line, &len), 1);
		CHECK_STREQ(line, "end");
		CHECK_INT(line_reader_next(&r, &line, &len), 0);
		line_reader_close(&r);
		if (i)
			wait(NULL);
	}
	tempdir_remove(dir);
	free(path);
	free(text);
	free(dir);
}

TEST(line_reader_plain_gzip_and_crlf)
{
	char *dir = tempdir_create("trail-unit");
	char *plain = write_temp(dir, "a.txt", "one\r\ntwo\n\nlast", 15);
	char *gzpath = xstrfmt("%s/b.gz", dir);
	gzFile gz = gzopen(gzpath, "wb");
	struct line_reader r;
	char *line;
	size_t len;

	gzputs(gz, "alpha\nbeta\n");
	gzclose(gz);
	CHECK_INT(line_reader_open(&r, plain), 0);
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_STREQ(line, "one");
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_STREQ(line, "two");
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_INT(len, 0);
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_STREQ(line, "last");
	CHECK(r.missing_newline);
	CHECK_INT(r.lineno, 4);
	CHECK_INT(line_reader_next(&r, &line, &len), 0);
	line_reader_close(&r);

	CHECK_INT(line_reader_open(&r, gzpath), 0);
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_STREQ(line, "alpha");
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_STREQ(line, "beta");
	CHECK_INT(line_reader_next(&r, &line, &len), 0);
	line_reader_close(&r);
	CHECK_INT(line_reader_open(&r, "/nonexistent/file"), -1);
	tempdir_remove(dir);
}

/* The lines of a line map, "|"-joined, and whether they were mapped. */
static char *map_lines(const char *path, int map, int *stable)
{
	struct strbuf sb = STRBUF_INIT;
	struct line_map m;
	const char *line;
	size_t len;
	int ret;

	if (line_map_open(&m, path, map)) {
		line_map_close(&m);
		return NULL;
	}
	*stable = line_map_stable(&m);
	while ((ret = line_map_next(&m, &line, &len)) > 0) {
		if (sb.len)
			strbuf_addch(&sb, '|');
		strbuf_add(&sb, line, len);
		strbuf_addf(&sb, "@%llu", (unsigned long long)m.lineno);
	}
	line_map_close(&m);
	return ret ? NULL : strbuf_detach(&sb, NULL);
}

TEST(line_map_maps_plain_files_and_reads_the_rest)
{
	char *dir = tempdir_create("trail-unit");
	/* '\r' before '\n' goes, a lone one stays; a NUL is a byte like any */
	char *plain = write_temp(dir, "a.txt", "one\r\ntw\ro\n\nl\0st", 15);
	char *empty = write_temp(dir, "e.txt", "", 0);
	char *gzpath = xstrfmt("%s/b.gz", dir), *got;
	gzFile gz = gzopen(gzpath, "wb");
	struct line_map m;
	int stable = -1;

	gzputs(gz, "alpha\r\nbeta");
	gzclose(gz);
	for (int map = 1; map >= 0; map--) {
		/* mapped, then streamed: the same lines */
		got = map_lines(plain, map, &stable);
		CHECK(got && !memcmp(got, "one@1|tw\ro@2|@3|l\0st@4",
				     sizeof("one@1|tw\ro@2|@3|l\0st@4")));
		CHECK_INT(stable, map);
		free(got);
	}
	/* the same lines as the line reader gives, from its buffer */
	got = map_lines(gzpath, 1, &stable);
	CHECK_STREQ(got, "alpha@1|beta@2");
	CHECK_INT(stable, 0);
	free(got);
	got = map_lines(empty, 1, &stable);
	CHECK_STREQ(got, "");
	CHECK_INT(stable, 0);
	free(got);
	CHECK_INT(line_map_open(&m, "/nonexistent/file", 1), -1);
	line_map_close(&m);
	tempdir_remove(dir);
	free(plain);
	free(empty);
	free(gzpath);
	free(dir);
}

TEST(line_reader_long_lines_cross_chunks)
{
	char *dir = tempdir_create("trail-unit");
	size_t n = 3u << 20;
	char *data = xmalloc(n + 2);
	char *path;
	struct line_reader r;
	char *line;
	size_t len;

	memset(data, 'x', n);
	data[n] = '\n';
	data[n + 1] = 'y';
	path = write_temp(dir, "long.txt", data, n + 2);
	CHECK_INT(line_reader_open(&r, path), 0);
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_INT(len, n);
	CHECK_INT(line_reader_next(&r, &line, &len), 1);
	CHECK_STREQ(line, "y");
	line_reader_close(&r);
	free(data);
	tempdir_remove(dir);
}

TEST(child_runs_captures_and_reports_status)
{
	struct strbuf out = STRBUF_INIT;
	const char *echo[] = { "sh", "-c", "printf 'hi %s' \"$X\"; exit 3", NULL };
	const char *env[] = { "X=there", NULL };
	const char *missing[] = { "/nonexistent/program", NULL };
	struct child c = CHILD_INIT;
	struct child m = CHILD_INIT;

	c.argv = echo;
	c.env = env;
	CHECK_INT(child_capture(&c, &out), 3);
	CHECK_STREQ(out.buf, "hi there");
	m.argv = missing;
	m.err = CHILD_DEVNULL;
	CHECK_INT(child_run(&m), 127);
	CHECK_STREQ(child_describe_status(137), "killed by signal 9");
	strbuf_release(&out);
}

/*
 * no_aslr: the child and what it execs run with ADDR_NO_RANDOMIZE (0x0040000)
 * in their personality, which /proc shows in hex; without it, not.
 */
TEST(child_no_aslr_sets_the_personality)
{
	struct strbuf out = STRBUF_INIT;
	const char *cat[] = { "sh", "-c", "cat /proc/self/personality", NULL };
	struct child c = CHILD_INIT, d = CHILD_INIT;
	unsigned long v;

	c.argv = cat;
	c.no_aslr = 1;
	CHECK_INT(child_capture(&c, &out), 0);
	v = strtoul(out.buf, NULL, 16);
	CHECK(v & 0x0040000);
	strbuf_reset(&out);
	d.argv = cat;
	CHECK_INT(child_capture(&d, &out), 0);
	v = strtoul(out.buf, NULL, 16);
	CHECK(!(v & 0x0040000));
	strbuf_release(&out);
}

/*
 * Counted runs see an environment of one size: TRAIL_PAD tops PATH, HOME
 * and the PWD the shell exports up to a multiple of CALLGRIND_ENV_BYTES,
 * so a PATH with git's exec-path in front (git bisect run's probes) or a
 * deeper directory does not move the stack (the count moved by 0.36 %).
 */
TEST(callgrind_cmd_env_size_is_fixed)
{
	const char *dirs[] = { "/", "/usr/share", "/usr/share", NULL };
	const char *paths[] = { "/usr/bin:/bin", "/usr/bin:/bin", "/usr/lib/git-core:/usr/bin:/bin" };
	char *old = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	long sizes[3];
	size_t i, k;

	CHECK_INT((int)callgrind_env_pad(10, 5, 1), CALLGRIND_ENV_BYTES - 16);
	CHECK_INT((int)callgrind_env_pad(CALLGRIND_ENV_BYTES, 0, 0), CALLGRIND_ENV_BYTES);
	for (i = 0; i < 3; i++) {
		struct string_list full = STRING_LIST_INIT, argv = STRING_LIST_INIT;
		struct strbuf out = STRBUF_INIT;
		struct child c = CHILD_INIT;

		setenv("PATH", paths[i], 1);
		callgrind_cmd_argv(&full, "/tmp", 0, dirs[i]);
		/* the environment part only: env -i ... and a shell, which exports PWD */
		for (k = 0; k < full.nr && strcmp(full.items[k], "valgrind"); k++)
			string_list_append(&argv, full.items[k]);
		CHECK(k < full.nr);
		string_list_append(&argv, "sh");
		string_list_append(&argv, "-c");
		string_list_append(&argv, "printf %s \"$PATH$HOME$PWD$TRAIL_PAD\" | wc -c");
		c.argv = (const char *const *)argv.items;
		c.dir = dirs[i];
		CHECK_INT(child_capture(&c, &out), 0);
		sizes[i] = strtol(out.buf, NULL, 10);
		strbuf_release(&out);
		string_list_clear(&argv);
		string_list_clear(&full);
	}
	CHECK(sizes[0] > 0 && sizes[0] % CALLGRIND_ENV_BYTES == 0);
	CHECK_INT((int)sizes[1], (int)sizes[0]);
	CHECK_INT((int)sizes[2], (int)sizes[0]);
	if (old)
		setenv("PATH", old, 1);
	free(old);
}

/*
 * A child forked from a big process peaks at the big process's size when it
 * execs; with own_rusage its ru_maxrss is the program's own (the helper is
 * the trail binary of this build, as trail sets it up in main.c).
 */
TEST(child_own_rusage_is_the_programs)
{
	const char *build = getenv("TRAIL_BUILD");
	const char *tr[] = { "true", NULL };
	/* the extra environment reaches the program through the helper */
	const char *st[] = { "sh", "-c", "exit $((X + Y))", NULL };
	const char *st_env[] = { "X=3", "Y=4", NULL };
	const char *sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	const char *missing[] = { "/nonexistent/program", NULL };
	struct child a = CHILD_INIT, b = CHILD_INIT, c = CHILD_INIT, d = CHILD_INIT;
	size_t big = (size_t)256 << 20;
	char exe[4096], *p;

	snprintf(exe, sizeof(exe), "%s/trail", build ? build : "build");
	if (access(exe, X_OK))
		SKIP("no trail binary in $TRAIL_BUILD");
	p = xmalloc(big);
	memset(p, 1, big);
	child_set_measure_exe(exe);
	a.argv = tr;
	a.own_rusage = 1;
	CHECK_INT(child_run(&a), 0);
	CHECK(a.rusage.ru_maxrss > 0 && a.rusage.ru_maxrss < 128 * 1024);	/* KiB */
	b.argv = st;
	b.env = st_env;
	b.own_rusage = 1;
	CHECK_INT(child_run(&b), 7);
	c.argv = sig;
	c.own_rusage = 1;
	CHECK_INT(child_run(&c), 128 + SIGTERM);
	d.argv = missing;
	d.own_rusage = 1;
	d.err = CHILD_DEVNULL;
	CHECK_INT(child_run(&d), 127);
	child_set_measure_exe(NULL);
	free(p);
}

/* pid has exited (a zombie nobody reaped counts as gone); waits up to ~5 s. */
static int process_gone(pid_t pid)
{
	int i;

	for (i = 0; i < 500; i++) {
		char path[64], buf[256], *rp;
		FILE *f;
		int zombie = 0;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		if (!f)
			return 1;
		if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')))
			zombie = rp[1] == ' ' && rp[2] == 'Z';
		fclose(f);
		if (zombie)
			return 1;
		usleep(10000);
	}
	return 0;
}

static pid_t read_pid(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	long v = 0;
	int i;

	for (i = 0; i < 500 && !v; i++) {
		strbuf_reset(&sb);
		if (!access(path, F_OK) && !strbuf_read_file(&sb, path))
			v = strtol(sb.buf, NULL, 10);
		if (!v)
			usleep(10000);
	}
	strbuf_release(&sb);
	return (pid_t)v;
}

/* A child past its timeout is killed with what it started (a background job). */
TEST(child_timeout_kills_the_tree)
{
	char *dir = tempdir_create("trail-unit"), *f = xstrfmt("%s/pid", dir), *cmd;
	struct child c = CHILD_INIT;
	const char *argv[] = { "sh", "-c", NULL, NULL };
	pid_t bg;

	cmd = xstrfmt("sleep 60 & echo $! > %s; wait", f);
	argv[2] = cmd;
	c.argv = argv;
	c.timeout = 0.2;
	CHECK_INT(child_run(&c), CHILD_TIMED_OUT);
	CHECK(c.timed_out);
	bg = read_pid(f);
	CHECK(bg > 0);
	if (bg > 0) {
		CHECK(process_gone(bg));
		kill(bg, SIGKILL);
	}
	/* A quick child is not affected. */
	argv[2] = "exit 4";
	c.timeout = 30;
	CHECK_INT(child_run(&c), 4);
	CHECK(!c.timed_out);
	free(cmd);
	free(f);
	tempdir_remove(dir);
}

/*
 * child_group_begin(): children join one group outside ours, and a SIGTERM
 * to the process alone ends them (tried in a forked process).
 */
TEST(child_group_dies_with_its_process)
{
	char *dir = tempdir_create("trail-unit"), *f = xstrfmt("%s/pid", dir), *cmd;
	pid_t helper, work;
	int st;

	cmd = xstrfmt("echo $$ > %s; exec sleep 60", f);
	helper = fork();
	if (helper == 0) {
		const char *argv[] = { "sh", "-c", cmd, NULL };
		struct child c = CHILD_INIT;

		if (child_group_begin())
			_exit(2);
		c.argv = argv;
		if (child_start(&c))
			_exit(3);
		if (getpgid(c.pid) != child_group_id() || getpgid(c.pid) == getpgid(0))
			_exit(4);
		child_wait(&c);	/* the SIGTERM below ends this wait */
		_exit(5);
	}
	work = read_pid(f);
	CHECK(work > 0);
	kill(helper, SIGTERM);
	CHECK(waitpid(helper, &st, 0) == helper);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	if (work > 0) {
		CHECK(process_gone(work));
		kill(work, SIGKILL);
	}
	free(cmd);
	free(f);
	tempdir_remove(dir);
}

/* Quoted words read back by sh as the same words. */
TEST(shell_quote_round_trips)
{
	const char *words[] = { "plain", "a b", "it's", "$HOME", "", "x;y|z", "--opt=1,2", NULL };
	struct strbuf q = STRBUF_INIT, cmd = STRBUF_INIT, out = STRBUF_INIT;
	const char *argv[] = { "sh", "-c", NULL, NULL };
	struct child c = CHILD_INIT;

	strbuf_add_shell_quoted(&q, "plain");
	CHECK_STREQ(q.buf, "plain");
	strbuf_reset(&q);
	strbuf_add_shell_quoted(&q, "it's");
	CHECK_STREQ(q.buf, "'it'\\''s'");
	strbuf_reset(&q);
	strbuf_add_shell_argv(&q, words);
	strbuf_addf(&cmd, "printf '[%%s]' %s", q.buf);
	argv[2] = cmd.buf;
	c.argv = argv;
	CHECK_INT(child_capture(&c, &out), 0);
	CHECK_STREQ(out.buf, "[plain][a b][it's][$HOME][][x;y|z][--opt=1,2]");
	strbuf_release(&q);
	strbuf_release(&cmd);
	strbuf_release(&out);
}

TEST(tempdir_removed_unless_kept)
{
	char *a = tempdir_create("trail-unit");
	char *b = tempdir_create("trail-unit");
	struct stat st;
	char *f;

	f = write_temp(a, "file", "x", 1);
	free(f);
	CHECK_INT(make_dirs(xstrfmt("%s/x/y/z", a)), 0);
	tempdir_remove(a);
	CHECK(stat(a, &st) != 0);
	tempdir_keep(b);
	CHECK(stat(b, &st) == 0);
	CHECK_INT(remove_tree(b), 0);
	CHECK(stat(b, &st) != 0);
	CHECK_INT(remove_tree("/"), -1);
}

/* The text only: the clock is passed in, so nothing here waits. */
TEST(progress_line_text)
{
	struct progress p;
	char buf[200];

	memset(&p, 0, sizeof(p));
	snprintf(p.title, sizeof(p.title), "capture");
	p.total = 10;
	p.done = 3;
	p.start = 100;
	progress_format(&p, 112, "good", buf, sizeof(buf));
	CHECK_STREQ(buf, "capture: 3/10 (30%), ETA 28s good");
	p.total = 0;
	progress_format(&p, 112, NULL, buf, sizeof(buf));
	CHECK_STREQ(buf, "capture: 3");

	/* Items: the one under way, an estimated total, ETA from the mean item time. */
	snprintf(p.title, sizeof(p.title), "narrow (bisect)");
	p.item = "probe";
	p.estimated = 1;
	p.total = 5;
	p.done = 0;
	p.start = 0;
	p.done_at = 0;
	progress_format(&p, 30, NULL, buf, sizeof(buf));
	CHECK_STREQ(buf, "narrow (bisect): probe 1 of ~5");	/* no finished probe: no ETA */
	p.done = 2;
	p.done_at = 100;	/* 50 s per probe; 3 left, the current one 30 s in */
	progress_format(&p, 130, NULL, buf, sizeof(buf));
	CHECK_STREQ(buf, "narrow (bisect): probe 3 of ~5, ETA 2m00s");
	progress_format(&p, 400, NULL, buf, sizeof(buf));
	CHECK_STREQ(buf, "narrow (bisect): probe 3 of ~5, ETA 0s");	/* late: never negative */
	p.done = 5;	/* the estimate was low: it grows with the count */
	p.done_at = 250;
	progress_format(&p, 250, "skipped one", buf, sizeof(buf));
	CHECK_STREQ(buf, "narrow (bisect): probe 6 of ~6, ETA 50s skipped one");
	p.estimated = 0;
	p.total = 8;
	progress_format(&p, 250, NULL, buf, sizeof(buf));
	CHECK_STREQ(buf, "narrow (bisect): probe 6 of 8, ETA 2m30s");

	/* --quiet: never drawn, terminal or not. */
	trail_quiet = 1;
	progress_start(&p, "capture", 4);
	CHECK_INT(p.enabled, 0);
	progress_update(&p, 1, NULL);
	CHECK_INT(p.drawn, 0);
	trail_quiet = 0;
}

/* Empty input: end at once, without arithmetic on the NULL buffer (UBSan). */
TEST(line_reader_empty_input)
{
	struct line_reader r;
	char *line;
	size_t len;

	CHECK_INT(line_reader_open(&r, "/dev/null"), 0);
	CHECK_INT(line_reader_next(&r, &line, &len), 0);
	line_reader_close(&r);
}

/* A FIFO named by input data is refused at once, not waited on. */
TEST(open_regular_refuses_fifos_and_directories)
{
	char dir[] = "/tmp/trail-open-regular.XXXXXX", path[64];
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK_INT(mkfifo(path, 0600), 0);
	alarm(20);	/* a blocking open() fails the test instead of hanging it */
	errno = 0;
	CHECK_INT(open_regular(path), -1);
	CHECK_INT(errno, EINVAL);
	CHECK_INT(open_regular(dir), -1);
	unlink(path);
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0);
	close(fd);
	fd = open_regular(path);
	CHECK(fd >= 0);
	CHECK_INT(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	alarm(0);
	unlink(path);
	rmdir(dir);
}

/* The distinct names of a bounded set, e.g. the events a filter skipped. */
TEST(string_list_add_unique_n_keeps_distinct_names_up_to_max)
{
	struct string_list l = STRING_LIST_INIT;

	string_list_add_unique_n(&l, "cycles:ppp", 6, 3);
	string_list_add_unique_n(&l, "cycles", 6, 3);
	string_list_add_unique_n(&l, "cyc", 3, 3);
	string_list_add_unique_n(&l, "faults", 6, 3);
	string_list_add_unique_n(&l, "more", 4, 3);
	CHECK_INT(l.nr, 3);
	CHECK_STREQ(l.items[0], "cycles");
	CHECK_STREQ(l.items[1], "cyc");
	CHECK_STREQ(l.items[2], "faults");
	string_list_clear(&l);
	/* a name with a NUL inside (fuzz_perf_script found this read overflow) */
	string_list_add_unique_n(&l, "ab", 2, 3);
	string_list_add_unique_n(&l, "ab\0cdefgh", 9, 3);
	CHECK_INT(l.nr, 2);
	string_list_clear(&l);
}

/* Sorted by key, equal keys in input order: what symbols_fixup relies on. */
TEST(radix_sort_is_stable_by_key)
{
	enum { N = 3000 };
	static struct radix_pair v[N];
	uint64_t seed = 1;

	for (int shape = 0; shape < 3; shape++) {
		for (size_t i = 0; i < N; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			/* kernel-like (shared high bytes), few distinct keys, any 64 bits */
			v[i].key = shape == 0 ? 0xffffffff81000000ull + (seed >> 40) % 100000 :
				   shape == 1 ? (seed >> 60) : seed;
			v[i].val = i;
		}
		radix_sort_pairs(v, N);
		for (size_t i = 1; i < N; i++) {
			CHECK(v[i - 1].key <= v[i].key);
			if (v[i - 1].key == v[i].key)
				CHECK(v[i - 1].val < v[i].val);
		}
	}
	v[0].key = 5;
	radix_sort_pairs(v, 1);
	CHECK_INT(v[0].key, 5);
}

TEST_MAIN("core",
	  line_reader_empty_input,
	  open_regular_refuses_fifos_and_directories,
	  string_list_add_unique_n_keeps_distinct_names_up_to_max,
	  child_timeout_kills_the_tree,
	  child_no_aslr_sets_the_personality, callgrind_cmd_env_size_is_fixed,
	  child_group_dies_with_its_process,
	  shell_quote_round_trips,
	  options_common_and_hidden,
	  options_choice_words_from_one_list,
	  options_uint_and_percent_store_the_fields_type,
	  strbuf_appends_and_escapes,
	  strbuf_grows_past_formatting_buffer,
	  arena_aligns_and_survives_large_requests,
	  arena_alloc_bytes_packs_text_and_realigns_after_it,
	  arena_reserve_starts_a_big_block,
	  line_reader_lines_longer_than_a_read,
	  gather_writes_pieces_in_order,
	  intern_gives_dense_stable_ids,
	  parse_number_is_strict,
	  options_parse_tables,
	  options_reject_bad_values,
	  options_stop_at_non_option,
	  line_reader_plain_gzip_and_crlf,
	  line_map_maps_plain_files_and_reads_the_rest,
	  line_reader_long_lines_cross_chunks,
	  child_runs_captures_and_reports_status, child_own_rusage_is_the_programs,
	  tempdir_removed_unless_kept,
	  progress_line_text, radix_sort_is_stable_by_key)
