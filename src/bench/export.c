/*
 * export.c - what the exporters share: writing the rendered document to a
 * file or stdout, and choosing a readable time unit.
 */
#include "bench/export.h"
#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void bench_time_unit(double t, double *scale, const char **name)
{
	if (t >= 1) {
		*scale = 1;
		*name = "s";
	} else if (t >= 1e-3) {
		*scale = 1e3;
		*name = "ms";
	} else {
		*scale = 1e6;
		*name = "µs";
	}
}

int bench_export_file(const struct bench_exporter *e, const struct bench_export_context *ctx,
		      const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (e->write(ctx, &sb)) {
		strbuf_release(&sb);
		return -1;
	}
	if (!strcmp(path, "-")) {
		rc = fwrite(sb.buf, 1, sb.len, stdout) == sb.len ? 0 :
		     error_errno("cannot write the %s export to standard output", e->name);
	} else {
		rc = strbuf_write_file(&sb, path);
	}
	strbuf_release(&sb);
	return rc;
}
