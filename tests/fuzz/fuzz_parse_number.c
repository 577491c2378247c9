/*
 * fuzz_parse_number.c - libFuzzer target for the strict number parsers and
 * the folded-line parser: any bytes must give a clean accept or reject.
 */
#include "core/parse_number.h"
#include "profile/folded.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t u;
	double d;
	struct folded_line fl;

	(void)parse_u64_n((const char *)data, size, &u);
	(void)parse_hex_u64_n((const char *)data, size, &u);
	(void)parse_double_n((const char *)data, size, &d);
	(void)folded_parse_line((const char *)data, size, &fl);
	return 0;
}
