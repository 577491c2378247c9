/*
 * fuzz_explain.c - libFuzzer target for the flat profile and the reading
 * aids (profile/flat.c, profile/explain.c): every input line is parsed as
 * folded stacks, the flat profile and the findings are computed and
 * written as text and JSON; invariants are asserted (self <= total <= all
 * samples, towers at least the threshold deep).
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "profile/explain.h"
#include "profile/flat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct folded_profile prof;
	struct flat_profile f;
	struct explain_options o;
	struct explain_report r;
	struct strbuf sb;
	uint32_t k;
	size_t i;

	folded_profile_init(&prof);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct folded_line fl;

		if (!folded_parse_line(p, len, &fl) && fl.count[0] < 1e12)
			folded_profile_add(&prof, fl.stack, fl.stack_len, 0, fl.count[0]);
		p += len + 1;
	}
	flat_profile_build(&f, &prof, 0);
	for (k = 0; k < f.names.nr; k++) {
		assert(f.funcs[k].self <= f.funcs[k].total * (1 + 1e-9));
		assert(f.funcs[k].total <= f.total * (1 + 1e-9));
	}
	explain_options_init(&o);
	o.process_root = size & 1 ? 1 : explain_guess_process_root(&f);
	o.tower_min_depth = 2;
	explain_profile(&r, &f, &o);
	for (i = 0; i < r.nr_towers; i++)
		assert(r.towers[i].depth >= r.tower_depth && r.towers[i].repeats >= 1);
	assert(r.broken <= r.total * (1 + 1e-9));
	strbuf_init(&sb, 0);
	explain_write_text(&sb, &r, &f);
	explain_write_json(&sb, &r, &f);
	strbuf_release(&sb);
	explain_report_release(&r);
	flat_profile_release(&f);
	folded_profile_release(&prof);
	return 0;
}
