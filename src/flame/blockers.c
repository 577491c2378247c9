/*
 * blockers.c - off-CPU stacks cut at their blocking caller, with the run's
 * CPU time beside them, and any run's stacks cut at the repository's
 * frames under one function (see blockers.h).
 */
#include "flame/blockers.h"
#include "diff/hotspots.h"
#include "measure/repo.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

#define NAME_FLAGS (HOTSPOT_STRIP_ANNOTATIONS | HOTSPOT_STRIP_MODULE | HOTSPOT_STRIP_CLONES)

void flame_blockers_frames(const struct folded_profile *p, struct string_list *names)
{
	struct intern seen;
	uint32_t id;

	intern_init(&seen);
	for (id = 0; id < p->stacks.nr; id++) {
		const char *f = intern_str(&p->stacks, id), *end = f + intern_len(&p->stacks, id);

		while (f < end) {
			const char *semi = memchr(f, ';', (size_t)(end - f)), *name;
			const char *e = semi ? semi : end;
			size_t len = hotspot_frame_name(f, (size_t)(e - f), NAME_FLAGS, &name);
			int is_new = 0;

			if (len) {
				uint32_t n = intern_add(&seen, name, len, &is_new);

				if (is_new)	/* interned strings are NUL-terminated */
					string_list_append(names, intern_str(&seen, n));
			}
			f = e + 1;
		}
	}
	intern_release(&seen);
}

void flame_blockers_fold(const struct folded_profile *off, double cpu_us,
			 const struct intern *defined, double us_per_unit,
			 struct folded_profile *out)
{
	uint32_t id;

	folded_profile_init(out);
	for (id = 0; id < off->stacks.nr; id++) {
		const char *st = intern_str(&off->stacks, id), *f;
		size_t len = intern_len(&off->stacks, id), keep = len;

		/* From the leaf towards the root: the first frame the program defines. */
		for (f = st + len; f > st;) {
			const char *start = f, *name;
			size_t nlen;

			while (start > st && start[-1] != ';')
				start--;
			nlen = hotspot_frame_name(start, (size_t)(f - start), NAME_FLAGS, &name);
			if (nlen && intern_find(defined, name, nlen) != UINT32_MAX) {
				keep = (size_t)(f - st);
				break;
			}
			f = start > st ? start - 1 : st;
		}
		folded_profile_add(out, st, keep, 0, off->counts[0][id] / us_per_unit);
	}
	if (cpu_us > 0)
		folded_profile_add(out, FLAME_ON_CPU_FRAME, strlen(FLAME_ON_CPU_FRAME), 0,
				   cpu_us / us_per_unit);
}

/* 1 when the frame [f, e) is func, named as the hotspot ranking names it. */
static int frame_is(const char *f, const char *e, const char *func, size_t flen)
{
	const char *name;
	size_t len = hotspot_frame_name(f, (size_t)(e - f), NAME_FLAGS, &name);

	return len == flen && !memcmp(name, func, len);
}

void flame_blockers_frames_under(const struct folded_profile *p, const char *func,
				 struct string_list *names)
{
	size_t flen = strlen(func);
	uint32_t id;

	for (id = 0; id < p->stacks.nr; id++) {
		const char *st = intern_str(&p->stacks, id), *end = st + intern_len(&p->stacks, id);
		const char *f = st, *under = NULL;

		/* the frame after func's innermost one */
		while (f < end) {
			const char *semi = memchr(f, ';', (size_t)(end - f)), *e = semi ? semi : end;

			if (frame_is(f, e, func, flen))
				under = e;
			f = e + 1;
		}
		for (f = under; f && f < end;) {
			const char *semi, *e, *name;
			size_t len;

			f++;	/* past the ';' */
			semi = memchr(f, ';', (size_t)(end - f));
			e = semi ? semi : end;
			len = hotspot_frame_name(f, (size_t)(e - f), NAME_FLAGS, &name);
			if (len) {
				char *n = xstrndup(name, len);

				if (!string_list_has(names, n))
					string_list_append(names, n);
				free(n);
			}
			f = e;
		}
	}
}

int flame_blockers_cut_at_repository(struct flame_repo *r, const char *rev, const char *func,
				     struct folded_profile *const *runs, size_t nr,
				     struct folded_profile *cut)
{
	struct string_list under = STRING_LIST_INIT, defined = STRING_LIST_INIT;
	struct intern def;
	size_t i;
	int ret;

	for (i = 0; i < nr; i++)
		flame_blockers_frames_under(runs[i], func, &under);
	ret = under.nr ? flame_repo_defined(r, rev, &under, &defined) : 0;
	intern_init(&def);
	intern_add(&def, func, strlen(func), NULL);
	for (i = 0; i < defined.nr; i++)
		intern_add(&def, defined.items[i], strlen(defined.items[i]), NULL);
	for (i = 0; i < nr; i++) {
		if (ret)
			folded_profile_init(&cut[i]);
		else
			flame_blockers_fold(runs[i], 0, &def, 1, &cut[i]);
	}
	intern_release(&def);
	string_list_clear(&under);
	string_list_clear(&defined);
	return ret;
}
