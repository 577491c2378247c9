/*
 * record_hints.c - the frame-pointer check and the CPython hint of
 * 'trail record' (record_hints.h).
 */
#include "perf/record_hints.h"
#include "core/alloc.h"
#include "core/strbuf.h"
#include "perf/maps.h"
#include "perf/perf_file.h"
#include "perf/perf_event.h"
#include "symbols/symbols.h"

#include <stdlib.h>
#include <string.h>

#define SHALLOW_FRAMES 1	/* frames: user stacks this short mean the walk failed */
#define SHALLOW_MIN_SAMPLES 20	/* judge only with this many user stacks */

static void count_break(struct fp_check *c, struct machine *m, const struct perf_sample *smp,
			uint64_t ip)
{
	struct thread *t = machine_thread(m, (int32_t)smp->pid, smp->tid);
	const struct map *mp = t ? thread_find_map(t, ip) : NULL;
	const char *path = mp && mp->dso && mp->dso->path ? mp->dso->path : NULL;
	size_t i;

	if (!path)
		return;
	for (i = 0; i < FP_CHECK_MODULES && c->breaks[i].path; i++)
		if (!strcmp(c->breaks[i].path, path))
			break;
	if (i == FP_CHECK_MODULES)
		return;
	if (!c->breaks[i].path)
		c->breaks[i].path = xstrdup(path);
	c->breaks[i].n++;
}

void fp_check_sample(struct fp_check *c, struct machine *m, const struct perf_sample *smp)
{
	uint64_t i, depth = 0, leaf = 0;
	int user = 0;

	for (i = 0; i < smp->nr_callchain; i++) {
		uint64_t ip = smp->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			user = ip == PERF_CONTEXT_USER;
			continue;
		}
		if (user && !depth++)
			leaf = ip;
	}
	if (!depth)
		return;
	c->user_stacks++;
	if (depth <= SHALLOW_FRAMES) {
		c->shallow_stacks++;
		count_break(c, m, smp, leaf);
	}
}

/*
 * Most user call chains stopped after the sampled function: say in which
 * module.  The program itself: rebuild it with frame pointers.  A shared
 * library (Debian's libc, in qsort's msort_with_tmp): the program may be
 * fine, the library has none; -g dwarf unwinds through it.
 */
int fp_check_message(const struct fp_check *c, struct strbuf *out)
{
	size_t i, top = 0;
	const char *path, *base;

	if (c->user_stacks < SHALLOW_MIN_SAMPLES || c->shallow_stacks * 2 <= c->user_stacks)
		return 0;
	for (i = 1; i < FP_CHECK_MODULES && c->breaks[i].path; i++)
		if (c->breaks[i].n > c->breaks[top].n)
			top = i;
	path = c->breaks[top].path;
	base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path;
	if (!path || !strstr(base, ".so") || c->breaks[top].n * 2 <= c->shallow_stacks)
		strbuf_addf(out, "%llu of %llu user call chains stop after the sampled function%s%s: "
			    "it was probably built without frame pointers; rebuild it with "
			    "-fno-omit-frame-pointer or record with -g dwarf",
			    (unsigned long long)c->shallow_stacks, (unsigned long long)c->user_stacks,
			    path ? ", most in " : "", path ? path : "");
	else
		strbuf_addf(out, "%llu of %llu user call chains stop after the sampled function, "
			    "%llu of them in %s: that library has no frame pointers (the program's "
			    "own frames may be fine); record with -g dwarf to unwind through it, or "
			    "install a build of it with frame pointers",
			    (unsigned long long)c->shallow_stacks, (unsigned long long)c->user_stacks,
			    (unsigned long long)c->breaks[top].n, path);
	return 1;
}

void fp_check_release(struct fp_check *c)
{
	for (size_t i = 0; i < FP_CHECK_MODULES; i++)
		free(c->breaks[i].path);
	memset(c, 0, sizeof(*c));
}

/* The minor version of a "python3.N" or "libpython3.N.so..." module; -1 if none. */
static int python_minor(const char *path)
{
	const char *base = strrchr(path, '/'), *p;
	char *end;
	long v;

	base = base ? base + 1 : path;
	if (!strncmp(base, "lib", 3))
		base += 3;
	if (strncmp(base, "python3.", 8))
		return -1;
	p = base + 8;
	v = strtol(p, &end, 10);
	if (end == p || v < 0 || v > 999 || (*end && *end != '.' && *end != 'd' && *end != 'm'))
		return -1;
	return (int)v;
}

int python_hint(const struct symbolizer *sym, int perf_map, struct strbuf *out)
{
	int minor = -1;
	size_t i;

	for (i = 0; i < sym->nr_dsos && minor < 0; i++)
		if (sym->dsos[i] && sym->dsos[i]->path)
			minor = python_minor(sym->dsos[i]->path);
	if (minor < 0 || (minor >= 12 && perf_map))
		return 0;
	if (minor < 12)
		strbuf_addf(out, "the command ran Python 3.%d, which has no perf support: the profile "
			    "shows the interpreter (_PyEval_EvalFrameDefault), not Python functions.  "
			    "For Python names use py-spy (py-spy record -f raw -o py.folded -- "
			    "python3 SCRIPT; trail reads the folded file) or Python 3.12 or later "
			    "with -X perf (or PYTHONPERFSUPPORT=1), whose /tmp/perf-PID.map trail "
			    "reads", minor);
	else
		strbuf_addf(out, "the command ran Python 3.%d without perf support enabled: run it "
			    "with python3 -X perf (or PYTHONPERFSUPPORT=1) so it writes "
			    "/tmp/perf-PID.map, which trail reads for Python function names", minor);
	return 1;
}
