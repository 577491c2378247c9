/*
 * test_history_env_pick.c - the environment a backfill spread over hosts
 * measures in: the key most hosts share, ties to the earlier host, --env's
 * when given, none when no host has it; and the words for what differs.
 */
#include "harness.h"
#include "history/env_pick.h"

#include <string.h>

TEST(most_hosts_win)
{
	const char *keys[] = { "aaaa", "bbbb", "bbbb", NULL, "aaaa", "bbbb" };

	CHECK_INT((int)history_env_pick(keys, 6, NULL), 1);
}

TEST(ties_go_to_the_earlier_host)
{
	const char *keys[] = { NULL, "bbbb", "aaaa", "aaaa", "bbbb" };

	CHECK_INT((int)history_env_pick(keys, 5, NULL), 1);
	CHECK_INT((int)history_env_pick(keys + 2, 3, NULL), 0);
}

TEST(want_picks_its_hosts_or_none)
{
	const char *keys[] = { "aaaa", "bbbb", "aaaa" };
	const char *none[] = { NULL, NULL };

	CHECK_INT((int)history_env_pick(keys, 3, "bbbb"), 1);
	CHECK_INT((int)history_env_pick(keys, 3, "cccc"), 3);
	CHECK_INT((int)history_env_pick(none, 2, NULL), 2);
	CHECK_INT((int)history_env_pick(keys, 0, NULL), 0);
}

TEST(difference_names_the_fields)
{
	char buf[200];

	history_env_difference("6.1\tXeon\tgcc 12\t", "6.1\tXeon\tgcc 12\t-O1", buf, sizeof(buf));
	CHECK_STREQ(buf, "CFLAGS");
	history_env_difference("6.1\tXeon\tgcc 12\t", "6.2\tEPYC\tgcc 12\t", buf, sizeof(buf));
	CHECK_STREQ(buf, "kernel, CPU model");
	history_env_difference("6.1\tXeon\tgcc 12\t", "6.1\tXeon\tgcc 12\t", buf, sizeof(buf));
	CHECK_STREQ(buf, "the profiler or trail's sampling setup");
	history_env_difference("", "6.1", buf, sizeof(buf));	/* short or empty fields */
	CHECK_STREQ(buf, "kernel");
}

TEST_MAIN("history-env-pick", most_hosts_win, ties_go_to_the_earlier_host,
	  want_picks_its_hosts_or_none, difference_names_the_fields)
