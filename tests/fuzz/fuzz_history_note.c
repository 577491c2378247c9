/*
 * fuzz_history_note.c - libFuzzer target for a trail history note line
 * (src/history/result.c): any bytes must parse or fail cleanly; a parsed
 * result (per-run counts included) is written back and must parse again
 * to the same line, with every per-run count inside its arrays.
 */
#include "history/result.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct history_result r, back;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	double sum = 0;
	size_t i, j;

	if (history_result_parse((const char *)data, size, "fuzz", &r))
		return 0;
	for (i = 0; i < r.nfuncs; i++)
		for (j = 0; r.funcs[i].run_self && j < r.nrun_samples; j++)
			sum += r.funcs[i].run_self[j];
	for (j = 0; r.run_samples && j < r.nrun_samples; j++)
		sum += r.run_samples[j];
	(void)sum;
	history_result_write(&r, &a);
	if (history_result_parse(a.buf, a.len, "fuzz (written back)", &back))
		abort();
	history_result_write(&back, &b);
	if (strcmp(a.buf, b.buf))
		abort();
	history_result_release(&back);
	history_result_release(&r);
	strbuf_release(&a);
	strbuf_release(&b);
	return 0;
}
