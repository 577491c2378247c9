/*
 * fuzz_history_suite.c - libFuzzer target for .trail (src/history/suite.c,
 * suite_lines.c, budget.c): the bytes are read as the file's text (the
 * line scanner), as git config's -z listing of it (the strict checks),
 * and their first line as a budget; each must succeed or fail cleanly.
 */
#include "core/error.h"
#include "history/budget.h"
#include "history/suite.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct history_suite s;
	struct history_budget b;
	const char *why;
	char **names, line[256], msg[256];
	unsigned *lines;
	size_t n = history_suite_scan_lines(text, size, &names, &lines), i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(lines);
	error_capture(msg, sizeof(msg));
	if (!history_suite_parse(&s, ".trail", text, size, text, size))
		history_suite_release(&s);
	error_capture(NULL, 0);
	for (i = 0; i < size && i + 1 < sizeof(line) && text[i] && text[i] != '\n'; i++)
		line[i] = text[i];
	line[i] = '\0';
	if (!history_budget_parse(line, &b, &why)) {
		double runs[] = { 1, 2, 3 }, v;

		(void)history_budget_check(&b, runs, 3, "us", &v);
	}
	return 0;
}
