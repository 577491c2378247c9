/*
 * test_error.c - core/error.h's capture: while a check runs, its first
 * error is kept for the caller to word and nothing reaches stderr.
 */
#include "harness.h"
#include "core/error.h"

#include <errno.h>
#include <unistd.h>

TEST(error_capture_keeps_the_first_error_and_prints_nothing)
{
	char why[32], seen[64];
	int fds[2], saved;
	ssize_t n;

	/* stderr to a pipe: nothing may reach it while capturing */
	CHECK(pipe(fds) == 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fds[1], 2);
	error_capture(why, sizeof(why));
	warning("a warning");
	CHECK_INT(trail_error("first %d", 1), -1);
	errno = ENOENT;
	error_errno("second");
	error_capture(NULL, 0);
	trail_error("after");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	CHECK_STREQ(why, "first 1");
	n = read(fds[0], seen, sizeof(seen) - 1);
	seen[n > 0 ? n : 0] = '\0';
	CHECK(strstr(seen, "after") != NULL);
	CHECK(strstr(seen, "first") == NULL && strstr(seen, "warning") == NULL);
	close(fds[0]);
}

TEST(error_capture_of_an_errno_message)
{
	char why[64];

	error_capture(why, sizeof(why));
	errno = ENOENT;
	error_errno("cannot open '%s'", "x");
	error_capture(NULL, 0);
	CHECK_STREQ(why, "cannot open 'x': No such file or directory");
}

TEST_MAIN("error", error_capture_keeps_the_first_error_and_prints_nothing,
	  error_capture_of_an_errno_message)
