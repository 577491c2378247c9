/*
 * fuzz_difffolded.c - libFuzzer target for difffolded.pl-style line parsing
 * (diff/difffolded.c), hex stripping and the hotspot frame splitter: every
 * input line is parsed, stripped and accounted; invariants are asserted.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff/difffolded.h"
#include "diff/hotspots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct hotspot_options ho = HOTSPOT_OPTIONS_INIT;
	struct hotspots h;
	struct folded_profile prof;
	char *strip = malloc(2 * size + 1);

	ho.flags = size & 1 ? HOTSPOT_STRIP_ANNOTATIONS | HOTSPOT_STRIP_MODULE : 0;
	hotspots_init(&h, &ho);
	folded_profile_init(&prof);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *stack;
		size_t slen, n;
		double count;

		if (!difffolded_parse_line(p, len, &stack, &slen, &count)) {
			assert(slen < len);
			assert(count >= 0);
			n = difffolded_strip_hex(strip, stack, slen);
			assert(n <= 2 * slen);
			hotspots_add_stack(&h, (int)(slen & 1), strip, n, count);
			folded_profile_add(&prof, strip, n, (int)(len & 1), count);
		}
		p += len + 1;
	}
	{
		struct hotspot_rank_options ro = HOTSPOT_RANK_OPTIONS_INIT;
		struct hotspot_ranking r;
		size_t i;

		hotspots_rank(&h, &ro, &r);
		for (i = 0; i < r.nr_hotter; i++)
			assert(r.hotter[i].test.delta > 0 && r.hotter[i].test.p_value >= 0 &&
			       r.hotter[i].test.p_value <= 1);
		hotspot_ranking_release(&r);
	}
	difffolded_normalize(&prof);
	hotspots_release(&h);
	folded_profile_release(&prof);
	free(strip);
	return 0;
}
