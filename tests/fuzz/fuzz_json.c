/*
 * fuzz_json.c - libFuzzer target for the strict JSON reader of baselines
 * (src/core/json.c): any input must parse or fail cleanly, never crash,
 * leak or read out of bounds.  Its error messages go to stderr; run with
 * -close_fd_mask=2 to silence them.
 */
#include "core/json.h"

#include <stddef.h>
#include <stdint.h>

static void walk(const struct json_value *v, int depth)
{
	size_t i;

	if (v->type == JSON_ARRAY || v->type == JSON_OBJECT)
		for (i = 0; i < v->len; i++)
			walk(&v->items[i], depth + 1);
	(void)json_get(v, "results");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_value v;

	if (!json_parse((const char *)data, size, "fuzz", &v)) {
		walk(&v, 0);
		json_release(&v);
	}
	return 0;
}
