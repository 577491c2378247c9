/*
 * test_collapse.c - unit tests for the perf script line grammar and the
 * folding engine (src/collapse).
 */
#include "harness.h"
#include "collapse/fold.h"
#include "collapse/perf_script.h"

TEST(placeholder) { CHECK(1); }

TEST_MAIN("collapse", placeholder)
