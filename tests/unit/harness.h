/*
 * harness.h - the unit-test harness: a table of test functions, each run in
 * a forked child (a crash fails one test, not the file), reporting one line
 * per test that tests/run counts:
 *
 *	ok - core: strbuf grows
 *	FAILED - core: strbuf grows
 *	skip - perfdata: needs perf (reason)
 *
 * Usage:
 *	TEST(strbuf_grows) { CHECK(sb.len == 3); CHECK_STREQ(sb.buf, "abc"); }
 *	TEST_MAIN("core", strbuf_grows, other_test)
 */
#ifndef TRAIL_TESTS_HARNESS_H
#define TRAIL_TESTS_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int harness_failures_;

#define TEST(name) static void name(void)

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "    %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			harness_failures_++; \
		} \
	} while (0)

#define CHECK_INT(a, b) \
	do { \
		long long a_ = (long long)(a), b_ = (long long)(b); \
		if (a_ != b_) { \
			fprintf(stderr, "    %s:%d: %s == %lld, expected %lld\n", \
				__FILE__, __LINE__, #a, a_, b_); \
			harness_failures_++; \
		} \
	} while (0)

#define CHECK_NEAR(a, b, eps) \
	do { \
		double a_ = (double)(a), b_ = (double)(b); \
		if (!(a_ - b_ <= (eps) && b_ - a_ <= (eps))) { \
			fprintf(stderr, "    %s:%d: %s == %.10g, expected %.10g (+/- %g)\n", \
				__FILE__, __LINE__, #a, a_, b_, (double)(eps)); \
			harness_failures_++; \
		} \
	} while (0)

#define CHECK_STREQ(a, b) \
	do { \
		const char *a_ = (a), *b_ = (b); \
		if (!a_ || !b_ || strcmp(a_, b_)) { \
			fprintf(stderr, "    %s:%d: %s == \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
			harness_failures_++; \
		} \
	} while (0)

/* Call from a test to skip it; exit status 77 means "skipped". */
#define SKIP(why) \
	do { \
		fprintf(stderr, "    skipped: %s\n", (why)); \
		exit(77); \
	} while (0)

struct harness_test_ {
	const char *name;
	void (*fn)(void);
};

static int harness_run_(const char *suite, const struct harness_test_ *tests, size_t n,
			int argc, char **argv)
{
	size_t i;
	int failed = 0;

	for (i = 0; i < n; i++) {
		pid_t pid;
		int status = 0;

		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			tests[i].fn();
			fflush(NULL);
			_exit(harness_failures_ ? 1 : 0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0) {
			perror("fork/wait");
			return 1;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
			printf("skip - %s: %s\n", suite, tests[i].name);
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("ok - %s: %s\n", suite, tests[i].name);
		} else {
			if (WIFSIGNALED(status))
				fprintf(stderr, "    killed by signal %d\n", WTERMSIG(status));
			printf("FAILED - %s: %s\n", suite, tests[i].name);
			failed++;
		}
		fflush(stdout);
	}
	return failed ? 1 : 0;
}

#define HARNESS_ENTRY_(fn) { #fn, fn },
#define HARNESS_MAP1_(m, x) m(x)
#define TEST_MAIN(suite, ...) \
	int main(int argc, char **argv) \
	{ \
		static void (*const fns_[])(void) = { __VA_ARGS__ }; \
		static const char names_[] = #__VA_ARGS__; \
		struct harness_test_ tests_[sizeof(fns_) / sizeof(fns_[0])]; \
		char *names = strdup(names_), *save = NULL, *tok; \
		size_t i = 0; \
		for (tok = strtok_r(names, ", \t\n", &save); tok && i < sizeof(fns_) / sizeof(fns_[0]); \
		     tok = strtok_r(NULL, ", \t\n", &save)) { \
			tests_[i].name = tok; \
			tests_[i].fn = fns_[i]; \
			i++; \
		} \
		return harness_run_((suite), tests_, i, argc, argv); \
	}

#endif
