/*
 * fuzz_kallsyms.c - libFuzzer target for the kallsyms reader: any bytes
 * as a kallsyms file (read in place, names ending at tab or newline) must
 * load, resolve addresses and print names without reading past the text.
 */
#include "symbols/symbols.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct symbolizer s;
	struct dso *k;
	FILE *f;
	size_t i;

	if (!path[0]) {
		/* the parsed-table cache (one file for this path) stays out of the user's */
		char cache[64];

		snprintf(path, sizeof(path), "/tmp/trail-fuzz-kallsyms.%ld", (long)getpid());
		snprintf(cache, sizeof(cache), "/tmp/trail-fuzz-cache.%ld", (long)getpid());
		setenv("XDG_CACHE_HOME", cache, 1);
	}
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	symbolizer_init(&s);
	s.kallsyms_path = path;
	k = symbolizer_kernel(&s);
	/* addresses taken from the input itself, and a few fixed ones */
	for (i = 0; i + 8 <= size && i < 256; i += 8) {
		uint64_t addr;
		const struct symbol *sym;

		memcpy(&addr, data + i, 8);
		sym = symbolizer_find(&s, k, addr);
		if (sym) {
			const char *name = symbolizer_name(&s, sym);

			if (strlen(name) != sym->demangled_len)
				abort();
			(void)symbolizer_kmod(k, sym);
		}
	}
	for (i = 0; i < k->nr_syms; i++)
		(void)symbolizer_name(&s, &k->syms[i]);
	symbolizer_release(&s);
	return 0;
}
