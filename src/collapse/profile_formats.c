/*
 * profile_formats.c - collapse_read_whole() and json_head() for the
 * formats that are read whole (profile_formats.h).
 */
#include "collapse/profile_formats.h"
#include "collapse/collapser.h"
#include "core/error.h"
#include "profile/fold.h"
#include "profile/folded.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *json_head(const char *head, size_t *len)
{
	while (*len && (*head == ' ' || *head == '\t' || *head == '\n' || *head == '\r')) {
		head++;
		(*len)--;
	}
	return head;
}

int collapse_read_whole(struct collapse_session *s, struct collapse_input *in, struct folder *f,
			profile_fold_fn *fold)
{
	struct folded_profile p;
	char *data = NULL;
	size_t len = 0, i, rounded = 0;
	int ret = -1;

	folded_profile_init(&p);
	if (collapse_input_slurp(in, &data, &len) < 0)
		goto out;
	if (fold(data, len, in->name, s->opts.sample_type, &p) < 0)
		goto out;
	if (p.columns != 1) {
		trail_error("%s: differential (two-count) stacks cannot be collapsed; "
		      "give each side on its own", in->name);
		goto out;
	}
	if (p.weight.weight != FOLDED_WEIGHT_SAMPLES || p.weight.type[0])
		s->weight = p.weight;
	for (i = 0; i < folded_profile_size(&p); i++) {
		double c = p.counts[0][i], r = round(c);

		if (r != c)
			rounded++;
		if (!(r >= 1))
			continue;
		folder_add_stack_text(f, intern_str(&p.stacks, (uint32_t)i),
				      intern_len(&p.stacks, (uint32_t)i),
				      r >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)r);
	}
	if (rounded)
		warning("%s: %zu stacks had fractional counts, rounded to integers", in->name,
			rounded);
	ret = 0;
out:
	free(data);
	folded_profile_release(&p);
	return ret;
}
