/*
 * test_perfdata.c - unit tests of the perf.data reader (placeholder).
 */
#include "harness.h"
#include "profile/perfdata.h"

TEST(magic_detected) { CHECK(perfdata_is_magic("PERFILE2", 8)); CHECK(!perfdata_is_magic("PERFILE", 7)); }

TEST_MAIN("perfdata", magic_detected)
