/*
 * test_record_options.c - trail record's words read into sampler options
 * (perf/record_options.h): each option reaches its field, the command's
 * own words stay its own, and what does not combine, or is not a
 * recording of a command into a perf.data, is refused.
 */
#include "harness.h"
#include "core/error.h"
#include "perf/record_options.h"

/* record_words_read() of the NULL-terminated line; w released by the caller. */
static int read_line(struct record_words *w, const char *const *line)
{
	int n = 0;

	while (line[n])
		n++;
	return record_words_read(w, n, line);
}

TEST(each_option_reaches_its_field)
{
	const char *const line[] = { "trail", "record", "-e", "cycles", "-c", "1000", "-m", "64",
				     "--duration", "1.5", "-g", "dwarf,4096", "-o", "x.data", "--",
				     "ls", "-l", NULL };
	struct record_words w;

	CHECK_INT(read_line(&w, line), 0);
	CHECK_STREQ(w.so.event, "cycles");
	CHECK_INT(w.so.freq, 0);
	CHECK_INT(w.so.period, 1000);
	CHECK_INT(w.so.mmap_pages, 64);
	CHECK(w.so.duration == 1.5);
	CHECK_INT(w.so.callchain, SAMPLER_CALLCHAIN_DWARF);
	CHECK_INT(w.so.stack_bytes, 4096);
	CHECK_STREQ(w.o.output, "x.data");
	CHECK_STREQ(w.command[0], "ls");
	CHECK_STREQ(w.command[1], "-l");
	CHECK(w.command[2] == NULL);
	record_words_release(&w);
}

TEST(call_graph_modes)
{
	const char *const fp[] = { "trail", "record", "-F", "99", "-o", "x", "--", "true", NULL };
	const char *const none[] = { "trail", "record", "-g", "none", "-o", "x", "--", "true", NULL };
	const char *const dwarf[] = { "trail", "record", "-g", "dwarf", "-o", "x", "--", "true", NULL };
	struct record_words w;

	CHECK_INT(read_line(&w, fp), 0);
	CHECK_INT(w.so.freq, 99);
	CHECK_INT(w.so.callchain, SAMPLER_CALLCHAIN_FP);
	CHECK_INT(w.so.stack_bytes, 0);
	record_words_release(&w);
	CHECK_INT(read_line(&w, none), 0);
	CHECK_INT(w.so.callchain, SAMPLER_CALLCHAIN_NONE);
	record_words_release(&w);
	CHECK_INT(read_line(&w, dwarf), 0);
	CHECK_INT(w.so.callchain, SAMPLER_CALLCHAIN_DWARF);
	CHECK_INT(w.so.stack_bytes, 8192);
	record_words_release(&w);
}

TEST(the_commands_words_are_its_own)
{
	/* after the command's first word, -F is the command's, not trail's */
	const char *const line[] = { "trail", "record", "-o", "x", "ls", "-F", "3", NULL };
	struct record_words w;

	CHECK_INT(read_line(&w, line), 0);
	CHECK_INT(w.so.freq, 0);
	CHECK_STREQ(w.command[0], "ls");
	CHECK_STREQ(w.command[1], "-F");
	CHECK_STREQ(w.command[2], "3");
	CHECK(w.command[3] == NULL);
	record_words_release(&w);
}

TEST(refused_lines)
{
	static const char *const bad[][12] = {
		{ "trail", "record", "-F", "99", "-c", "4", "-o", "x", "--", "true" },
		{ "trail", "record", "-g", "frames", "-o", "x", "--", "true" },
		{ "trail", "record", "-g", "dwarf,13", "-o", "x", "--", "true" },
		{ "trail", "record", "-m", "3", "-o", "x", "--", "true" },
		{ "trail", "record", "-F", "0", "-o", "x", "--", "true" },
		{ "trail", "record", "--frobs", "-o", "x", "--", "true" },
		{ "trail", "record", "-o", "x" },			/* no command */
		{ "trail", "record", "--", "true" },			/* no -o */
		{ "trail", "record", "-p", "1", "-o", "x" },
		{ "trail", "record", "--folded", "-o", "x", "--", "true" },
		{ "trail", "record", "-o", "x.folded", "--", "true" },
		{ "trail", "record", "-e", "alloc", "-o", "x", "--", "true" },
		{ "trail", "record", "--view", "inuse-peak", "-o", "x", "--", "true" },
		{ "trail", "stat", "-o", "x", "--", "true" },
	};
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct record_words w;

		why[0] = 0;
		error_capture(why, sizeof(why));
		if (read_line(&w, bad[i]) != -1 || !why[0]) {
			fprintf(stderr, "    line %zu was read, or refused unsaid\n", i);
			CHECK(0);
		}
		error_capture(NULL, 0);
		record_words_release(&w);
	}
}

TEST(trail_records_checks)
{
	struct record_options o;
	uint64_t pid;

	memset(&o, 0, sizeof(o));
	o.pid = "42";
	CHECK(record_options_check(&o, 0, &pid) == NULL);
	CHECK_INT(pid, 42);
	CHECK(record_options_check(&o, 1, &pid) != NULL);	/* a command too */
	o.pid = "0";
	CHECK(record_options_check(&o, 0, &pid) != NULL);
	o.pid = NULL;
	CHECK(record_options_check(&o, 0, &pid) != NULL);	/* nothing to record */
	CHECK(record_options_check(&o, 1, &pid) == NULL);
}

TEST_MAIN("record_options", each_option_reaches_its_field, call_graph_modes,
	  the_commands_words_are_its_own, refused_lines, trail_records_checks)
