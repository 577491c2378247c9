/*
 * test_flame_record_cmd.c - the recorder command lines of flame captures
 * (measure/record_cmd.h): every profile kind and recorder, a plain-word
 * workload run directly and a shell one through sh -c, and the checks;
 * trail record's lines read back by trail record's parser into the very
 * sampler options each backend means (the one source of them).
 */
#include "harness.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "measure/backend.h"
#include "measure/record_cmd.h"
#include "perf/record_options.h"

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

/*
 * What trail's sampler in this process is asked for: backend b's line
 * (profiler "trail", -F 997, workload run) read by trail record's
 * parser, field by field against want, with its -o and its command.
 */
static void check_sampler_of(const struct flame_backend *b, enum flame_profile profile,
			     int check, const struct sampler_opts *want, const char *command)
{
	struct flame_capture_opts o;
	struct string_list argv = STRING_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct record_words w;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.profile = profile;
	o.profiler = "trail";
	o.run_cmd = "./bench -n 3";
	o.freq = 997;
	o.trail_exe = "/bin/trail";
	b->record_argv(&o, "d.data", check, &argv);
	CHECK_INT(record_words_read(&w, (int)argv.nr, (const char *const *)argv.items), 0);
	if (w.so.event || want->event)
		CHECK_STREQ(w.so.event, want->event);
	CHECK_INT(w.so.freq, want->freq);
	CHECK_INT(w.so.period, want->period);
	CHECK_INT(w.so.callchain, want->callchain);
	CHECK_INT(w.so.stack_bytes, want->stack_bytes);
	CHECK_INT(w.so.mmap_pages, want->mmap_pages);
	CHECK(w.so.duration == want->duration);
	CHECK_STREQ(w.o.output, "d.data");
	for (i = 0; w.command && w.command[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? "|" : "", w.command[i]);
	CHECK_STREQ(sb.buf, command);
	record_words_release(&w);
	strbuf_release(&sb);
	string_list_clear(&argv);
}

TEST(cpu_line_is_the_samplers_options)
{
	struct sampler_opts want = { .freq = 997, .callchain = SAMPLER_CALLCHAIN_DWARF,
				     .stack_bytes = 8192 };
	struct sampler_opts check = { .freq = 99, .callchain = SAMPLER_CALLCHAIN_FP };

	check_sampler_of(&flame_backend_cpu, FLAME_PROFILE_CPU, 0, &want, "./bench|-n|3");
	check_sampler_of(&flame_backend_cpu, FLAME_PROFILE_CPU, 1, &check, "true");
}

TEST(faults_line_is_the_samplers_options)
{
	/* one fault in 16 (backend_memory.c's FAULT_PERIOD), frame-pointer chains */
	struct sampler_opts want = { .event = "page-faults", .period = 16,
				     .callchain = SAMPLER_CALLCHAIN_FP };

	check_sampler_of(&flame_backend_faults, FLAME_PROFILE_FAULTS, 0, &want,
			 "sh|-c|./bench -n 3");
	check_sampler_of(&flame_backend_faults, FLAME_PROFILE_FAULTS, 1, &want, "true");
}

TEST(offcpu_line_is_the_samplers_options)
{
	struct sampler_opts want = { .event = "offcpu", .callchain = SAMPLER_CALLCHAIN_DWARF,
				     .stack_bytes = 8192 };

	check_sampler_of(&flame_backend_offcpu, FLAME_PROFILE_OFFCPU, 0, &want, "./bench|-n|3");
	check_sampler_of(&flame_backend_offcpu, FLAME_PROFILE_OFFCPU, 1, &want, "true");
}

TEST_MAIN("flame_record_cmd", cpu_trail_runs_plain_words_directly,
	  cpu_perf_is_the_default_and_goes_through_sh, cpu_checks_sample_true_at_99_hz,
	  offcpu_is_always_trail_with_dwarf, alloc_and_fault_cases,
	  cpu_line_is_the_samplers_options, faults_line_is_the_samplers_options,
	  offcpu_line_is_the_samplers_options)
