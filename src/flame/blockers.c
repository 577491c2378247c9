/*
 * blockers.c - off-CPU stacks cut at their blocking caller, with the run's
 * CPU time beside them (see blockers.h).
 */
#include "flame/blockers.h"
#include "diff/hotspots.h"

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
