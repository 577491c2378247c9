/*
 * test_flame_record_cmd.c - the recorder command lines of flame captures
 * (flame/record_cmd.h): every profile kind and recorder, a plain-word
 * workload run directly and a shell one through sh -c, and the checks.
 */
#include "harness.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "flame/record_cmd.h"

/* The argv joined by '|' (words may hold blanks). */
static char *argv_of(enum flame_profile profile, const char *profiler, const char *run,
		     const char *out, int check)
{
	struct flame_capture_opts o;
	struct string_list argv = STRING_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.profile = profile;
	o.profiler = profiler;
	o.run_cmd = run;
	o.freq = 997;
	o.trail_exe = "/bin/trail";
	flame_record_argv(&o, out, check, &argv);
	for (i = 0; i < argv.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "|" : "", argv.items[i]);
	CHECK(argv.items[argv.nr] == NULL);	/* usable as an argv */
	string_list_clear(&argv);
	return strbuf_detach(&sb, NULL);
}

#define CHECK_ARGV(expect, ...) \
	do { \
		char *got_ = argv_of(__VA_ARGS__); \
		CHECK_STREQ(got_, expect); \
		free(got_); \
	} while (0)

TEST(cpu_trail_runs_plain_words_directly)
{
	CHECK_ARGV("/bin/trail|record|-F|997|-g|dwarf|-o|d.data|--|./bench|-n|3",
		   FLAME_PROFILE_CPU, "trail", "./bench -n  3", "d.data", 0);
	CHECK_ARGV("/bin/trail|record|-F|997|-g|dwarf|-o|d.data|--|sh|-c|./bench > /dev/null",
		   FLAME_PROFILE_CPU, "trail", "./bench > /dev/null", "d.data", 0);
	/* an assignment first is the shell's to interpret */
	CHECK_ARGV("/bin/trail|record|-F|997|-g|dwarf|-o|d.data|--|sh|-c|X=1 ./bench",
		   FLAME_PROFILE_CPU, "trail", "X=1 ./bench", "d.data", 0);
}

TEST(cpu_perf_is_the_default_and_goes_through_sh)
{
	static const char perf[] = "perf|record|-q|--no-bpf-event|-N|--timestamp-boundary|"
				   "-F|997|-g|-o|d.data|--|sh|-c|./bench";

	CHECK_ARGV(perf, FLAME_PROFILE_CPU, NULL, "./bench", "d.data", 0);
	CHECK_ARGV(perf, FLAME_PROFILE_CPU, "perf", "./bench", "d.data", 0);
}

TEST(cpu_checks_sample_true_at_99_hz)
{
	CHECK_ARGV("/bin/trail|record|-F|99|-o|c.data|--|true",
		   FLAME_PROFILE_CPU, "trail", NULL, "c.data", 1);
	CHECK_ARGV("perf|record|-q|--no-bpf-event|-N|-F|99|-g|-o|c.data|--|true",
		   FLAME_PROFILE_CPU, "perf", NULL, "c.data", 1);
}

TEST(offcpu_is_always_trail_with_dwarf)
{
	CHECK_ARGV("/bin/trail|record|-e|offcpu|-g|dwarf|-o|r.folded|--|./server",
		   FLAME_PROFILE_OFFCPU, "perf", "./server", "r.folded", 0);
	CHECK_ARGV("/bin/trail|record|-e|offcpu|-g|dwarf|-o|r.folded|--|sh|-c|a; b",
		   FLAME_PROFILE_OFFCPU, "trail", "a; b", "r.folded", 0);
	CHECK_ARGV("/bin/trail|record|-e|offcpu|-g|dwarf|-o|c.folded|--|true",
		   FLAME_PROFILE_OFFCPU, "trail", NULL, "c.folded", 1);
}

TEST(alloc_and_fault_cases)
{
	/* the interposer comes through the environment: the workload alone */
	CHECK_ARGV("sh|-c|./bench", FLAME_PROFILE_ALLOC, "trail", "./bench", NULL, 0);
	/* page faults: trail unless perf is asked for, one in 16, always sh -c */
	CHECK_ARGV("/bin/trail|record|-e|page-faults|-c|16|-o|f.data|--|sh|-c|./bench",
		   FLAME_PROFILE_FAULTS, NULL, "./bench", "f.data", 0);
	CHECK_ARGV("perf|record|-q|--no-bpf-event|-N|-e|page-faults|-c|16|-g|-o|f.data|--|"
		   "sh|-c|./bench", FLAME_PROFILE_FAULTS, "perf", "./bench", "f.data", 0);
	CHECK_ARGV("/bin/trail|record|-e|page-faults|-c|16|-o|f.data|--|true",
		   FLAME_PROFILE_FAULTS, "trail", NULL, "f.data", 1);
}

TEST_MAIN("flame_record_cmd", cpu_trail_runs_plain_words_directly,
	  cpu_perf_is_the_default_and_goes_through_sh, cpu_checks_sample_true_at_99_hz,
	  offcpu_is_always_trail_with_dwarf, alloc_and_fault_cases)
