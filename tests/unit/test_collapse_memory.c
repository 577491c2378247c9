/*
 * test_collapse_memory.c - the memory profilers' formats of 'trail
 * collapse': heaptrack_print's flame-graph stacks (source files dropped,
 * the trailing ';' understood) and massif out files (the peak snapshot,
 * inverted tree folded caller-first, bytes not accounted for by callers
 * kept, C++ names with parentheses intact), and their detection.
 */
#include "harness.h"
#include "collapse_fold.h"
#include "collapse/collapser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char massif[] =
	"desc: --massif-out-file=m.out\n"
	"cmd: ./m\n"
	"time_unit: i\n"
	"#-----------\n"
	"snapshot=0\n"
	"#-----------\n"
	"time=0\n"
	"mem_heap_B=0\n"
	"mem_heap_extra_B=0\n"
	"mem_stacks_B=0\n"
	"heap_tree=empty\n"
	"#-----------\n"
	"snapshot=1\n"
	"#-----------\n"
	"time=10\n"
	"mem_heap_B=999\n"
	"heap_tree=detailed\n"
	"n1: 999 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
	" n0: 999 0x1: early (a.c:1)\n"
	"#-----------\n"
	"snapshot=2\n"
	"#-----------\n"
	"time=20\n"
	"mem_heap_B=4500\n"
	"heap_tree=peak\n"
	"n3: 4500 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
	" n1: 3000 0x109165: g (m.c:3)\n"
	"  n0: 3000 0x10919A: main (m.c:4)\n"
	" n2: 1400 0x109154: std::vector<int>::push(int const&) (vector:10)\n"
	"  n0: 1000 0x10918D: main (m.c:5)\n"
	"  n0: 400 in 2 places, all below massif's threshold (1.00%)\n"
	" n0: 100 in 5 places, all below massif's threshold (1.00%)\n"
	"#-----------\n"
	"snapshot=3\n"
	"#-----------\n"
	"time=30\n"
	"mem_heap_B=0\n"
	"heap_tree=detailed\n"
	"n0: 0 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n";

TEST(massif_peak_snapshot)
{
	char *out = fold_as(NULL, massif, 0);

	/* callers below the threshold are the outermost frame of their stack */
	CHECK_STREQ(out, "[below massif's threshold] 100\n"
			 "[below massif's threshold];std::vector<int>::push(int const&) 400\n"
			 "main;g 3000\n"
			 "main;std::vector<int>::push(int const&) 1000\n");
	free(out);
	CHECK(!fold_as("massif", "desc: x\ncmd: y\ntime_unit: i\nsnapshot=0\nheap_tree=empty\n",
		       0));
}

TEST(heaptrack_flamegraph_stacks)
{
	char *out = fold_as(NULL, "0x7f2e (rtld.c);_dl_init (dl-init.c);0x7f2ec6; 1\n"
				  "main (a.c); 300000\n"
				  "main (a.c); 300000\n"
				  "main (a.c);f(int) (a.c);operator new(unsigned long); 1000\n",
				  0);

	CHECK_STREQ(out, "0x7f2e;_dl_init;0x7f2ec6 1\n"
			 "main 600000\n"
			 "main;f(int);operator new(unsigned long) 1000\n");
	free(out);
	/* ordinary folded stacks are not heaptrack's */
	{
		const struct collapser *c = collapse_guess("main;f 3\n", 9, NULL);

		CHECK(c && !strcmp(c->name, "folded"));
	}
}

TEST_MAIN("collapse_memory", massif_peak_snapshot, heaptrack_flamegraph_stacks)
