/*
 * test_collapse_callgrind.c - the "callgrind" input format of 'trail
 * collapse' (valgrind's callgrind and cachegrind out files): name and
 * subposition compression, call costs turned into stacks (exact along
 * single paths, proportional below functions with several callers,
 * recursion folded into its first frame, caller contexts), the event
 * choice (Ir, another event, est-cycles), bad lines and detection.
 */
#include "harness.h"
#include "collapse_fold.h"
#include "collapse/collapser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The folded stacks of text read as callgrind with --sample-type type; *w gets the units. */
static char *fold_cg(const char *text, const char *type, struct folded_weight_info *w,
		     uint64_t *bad_lines)
{
	return fold_with("callgrind", text, 0, type, w, bad_lines);
}

/* The extended example of valgrind's "Callgrind Format Specification", compressed. */
TEST(spec_example_compressed)
{
	struct folded_weight_info w;
	char *out = fold_cg("# callgrind format\nevents: Instructions\n"
			    "fl=(1) file1.c\nfn=(1) main\n16 20\ncfn=(2) func1\ncalls=1 50\n16 400\n"
			    "cfi=(2) file2.c\ncfn=(3) func2\ncalls=3 20\n16 400\n"
			    "fn=(2)\n51 100\ncfi=(2)\ncfn=(3)\ncalls=2 20\n51 300\n"
			    "fl=(2)\nfn=(3)\n20 700\n", NULL, &w, NULL);

	CHECK_STREQ(out, "main 20\nmain;func1 100\nmain;func1;func2 300\nmain;func2 400\n");
	CHECK(w.weight == FOLDED_WEIGHT_PERIOD);
	CHECK_STREQ(w.type, "Instructions");
	free(out);
}

/*
 * x has two callers: its cost (and y's below it) splits 1:3 as the
 * calls' costs do; y is never called directly by a or b.
 */
TEST(proportional_below_shared_callee)
{
	char *out = fold_cg("events: Ir\nfn=main\n1 0\ncfn=a\ncalls=1 1\n1 100\ncfn=b\ncalls=1 1\n1 300\n"
			    "fn=a\ncfn=x\ncalls=1 1\n1 100\nfn=b\ncfn=x\ncalls=3 1\n1 300\n"
			    "fn=x\n1 100\ncfn=y\ncalls=4 1\n1 300\nfn=y\n1 300\n", NULL, NULL, NULL);

	CHECK_STREQ(out, "main;a;x 25\nmain;a;x;y 75\nmain;b;x 75\nmain;b;x;y 225\n");
	free(out);
}

/* A self-call's cost repeats its callee's: not followed, the levels fold into one frame. */
TEST(recursion_folds_into_first_frame)
{
	struct folded_weight_info w;
	char *out = fold_cg("positions: instr line\nevents: Ir Dr\n"
			    "fn=(1) main\n0x10 1 10 5\ncfn=(2) fact\ncalls=1 0x20 5\n+4 * 60\n"
			    "fn=(2)\n0x20 5 30\njcnd=3/4 +6 +1\n* *\ncfn=(2)\ncalls=3 0x20 5\n+2 -1 90\n"
			    "cfn=(3) leaf\ncalls=4 0x40 9\n* * 30 7\nfn=(3)\n0x40 9 30 3\n", NULL, &w, NULL);

	CHECK_STREQ(out, "main 10\nmain;fact 30\nmain;fact;leaf 30\n");
	CHECK_STREQ(w.type, "instructions");
	CHECK_STREQ(w.unit, "instructions");
	free(out);
	out = fold_cg("positions: instr line\nevents: Ir Dr\n"
		      "fn=(1) main\n0x10 1 10 5\ncfn=(2) fact\ncalls=1 0x20 5\n+4 * 60 2\n"
		      "fn=(2)\n0x20 5 30\ncfn=(3) leaf\ncalls=4 0x40 9\n* * 30 7\nfn=(3)\n0x40 9 30 3\n",
		      "Dr", &w, NULL);
	CHECK_STREQ(out, "main 5\nmain;fact;leaf 3\n");	/* fact's own Dr is 0 */
	CHECK_STREQ(w.type, "Dr");
	free(out);
}

/* --separate-callers names (leaf'a'main): exact paths, frames named without the context. */
TEST(caller_contexts_are_exact)
{
	char *out = fold_cg("events: Ir\nfn=(1) main\n1 1\ncfn=(2) a'main\ncalls=1 1\n1 70\n"
			    "cfn=(3) b'main\ncalls=1 1\n1 30\n"
			    "fn=(2)\ncfn=(4) leaf'a'main\ncalls=1 1\n1 70\n"
			    "fn=(3)\ncfn=(5) leaf'b'main\ncalls=1 1\n1 30\n"
			    "fn=(4)\n1 70\nfn=(5)\n1 30\n", NULL, NULL, NULL);

	CHECK_STREQ(out, "main 1\nmain;a;leaf 70\nmain;b;leaf 30\n");
	free(out);
}

/* Two functions of one name (callgrind's ids tell them apart) are not one node. */
TEST(same_name_other_id)
{
	char *out = fold_cg("events: Ir\nfn=(1) (below main)\n1 1\ncfn=(2) start\ncalls=1 1\n1 11\n"
			    "fn=(2)\n1 1\ncfn=(3) (below main)\ncalls=1 1\n1 10\n"
			    "fn=(3)\n1 2\ncfn=(4) main\ncalls=1 1\n1 8\nfn=(4)\n1 8\n", NULL, NULL, NULL);

	CHECK_STREQ(out, "(below main) 1\n(below main);start 1\n(below main);start;(below main) 2\n"
		    "(below main);start;(below main);main 8\n");
	free(out);
}

/* cachegrind --cache-sim=yes: no calls, plain names; est-cycles = Ir + 10 x L1 + 100 x LL misses. */
TEST(cachegrind_and_est_cycles)
{
	static const char cg[] = "desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./t\n"
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"fl=t.c\nfn=main\n1 100 1 0 20 2 1 5 3 0\n2 50\nfl=u.h\nfn=main\n7 10 0 0 0 0 0 0 0 1\n"
		"fn=helper\n3 5\nsummary: 165 1 0 20 2 1 5 3 1\n";
	struct folded_weight_info w;
	char *out = fold_cg(cg, NULL, &w, NULL);

	CHECK_STREQ(out, "helper 5\nmain 160\n");
	free(out);
	out = fold_cg(cg, "est-cycles", &w, NULL);
	/* main: 160 + 10 x (1 + 2 + 3) + 100 x (0 + 1 + 0 + 1) */
	CHECK_STREQ(out, "helper 5\nmain 420\n");
	CHECK_STREQ(w.type, "est-cycles");
	CHECK_STREQ(w.unit, "cycles");
	free(out);
	CHECK(!fold_cg("events: Ir\nfn=f\n1 1\n", "est-cycles", NULL, NULL));
	CHECK(!fold_cg("events: Ir\nfn=f\n1 1\n", "Dw", NULL, NULL));
}

TEST(bad_input)
{
	uint64_t bad;
	char *out;

	CHECK(!fold_cg("fn=f\n1 1\nevents: Ir\n", NULL, NULL, NULL));	/* cost before events */
	CHECK(!fold_cg("# callgrind format\nfn=f\n", NULL, NULL, NULL));	/* no events at all */
	CHECK(!fold_cg("events: Ir\npositions: instr lines\n", NULL, NULL, NULL));
	out = fold_cg("events: Ir\nfn=(7)\n1 4\nfn=(1) f\n1 2 3\n1 x\nx 1\ncalls=\n"
		      "fn=(x) g\nwhat\n1 5\ncalls=1 1\nfn=(1)\n", NULL, NULL, &bad);
	/* "(x" is not a compressed name: names never start with "(" and a digit */
	CHECK_STREQ(out, "(x) g 5\n[unknown] 4\n");
	CHECK(bad == 7);
	free(out);
}

static const char *guess(const char *text)
{
	const struct collapser *c = collapse_guess(text, strlen(text), NULL);

	return c ? c->name : "(none)";
}

TEST(detection)
{
	CHECK_STREQ(guess("# callgrind format\nversion: 1\n"), "callgrind");
	CHECK_STREQ(guess("version: 1\ncreator: callgrind-3.10.1\npid: 1\n"), "callgrind");
	CHECK_STREQ(guess("desc: I1 cache: 32768 B\ncmd: ./t\nevents: Ir\nfl=t.c\nfn=main\n1 2\n"),
		    "callgrind");
	CHECK_STREQ(guess("desc: --massif-out-file=m.out\ncmd: ./m\ntime_unit: i\nfl=x\n"), "massif");
	CHECK_STREQ(guess("main;f 1\nmain 2\n"), "folded");
}

TEST_MAIN("collapse_callgrind", spec_example_compressed, proportional_below_shared_callee,
	  recursion_folds_into_first_frame, caller_contexts_are_exact, same_name_other_id,
	  cachegrind_and_est_cycles, bad_input, detection)
