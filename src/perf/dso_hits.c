/*
 * dso_hits.c - marking the modules a recording's samples and call chains
 * fall in (perf's build_id__mark_dso_hit, extended to call chains), and
 * reading their build-ids when the recording is written.  Address maps
 * come from maps.c, the same code trail's perf.data reader uses, so a
 * module is marked exactly when the reader will look it up.
 */
#include "perf/dso_hits.h"
#include "symbols/build_id.h"
#include "perf/perf_tool.h"
#include "core/alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_PENDING (1u << 20)	/* addresses kept for the final lookup */

static void mark(struct dso_hits *h, const struct dso *d)
{
	if (d->kind != DSO_ELF && d->kind != DSO_VDSO)
		return;
	if (d->id >= h->alloc_hit) {
		size_t old = h->alloc_hit;

		ALLOC_GROW(h->hit, (size_t)d->id + 1, h->alloc_hit);
		memset(h->hit + old, 0, h->alloc_hit - old);
	}
	h->hit[d->id] = 1;
}

static int is_kernel_mode(unsigned cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

static void mark_user(struct dso_hits *h, const struct thread *t, uint64_t addr)
{
	const struct map *mp = thread_find_map(t, addr);
	struct dso_hits_pending *p;

	if (mp && mp->dso) {
		mark(h, mp->dso);
		return;
	}
	/* its MMAP2 may still be in another CPU's buffer: look again at the end */
	if (h->nr_pending) {
		p = &h->pending[h->nr_pending - 1];
		if (p->pid == t->pid && p->tid == t->tid && p->addr == addr)
			return;
	}
	if (h->nr_pending >= MAX_PENDING)
		return;
	ALLOC_GROW(h->pending, h->nr_pending + 1, h->alloc_pending);
	p = &h->pending[h->nr_pending++];
	p->pid = t->pid;
	p->tid = t->tid;
	p->addr = addr;
}

/* The addresses that arrived before their map, in the final maps. */
static void mark_pending(struct dso_hits *h)
{
	size_t i;

	for (i = 0; i < h->nr_pending; i++) {
		const struct dso_hits_pending *p = &h->pending[i];
		const struct map *mp = thread_find_map(machine_thread(&h->machine, p->pid, p->tid),
						       p->addr);

		if (mp && mp->dso)
			mark(h, mp->dso);
	}
	h->nr_pending = 0;
}

static struct dso_hits *hits_of(struct perf_tool *t)
{
	return (struct dso_hits *)((char *)t - offsetof(struct dso_hits, tool));
}

static int add_sample(struct perf_tool *tool, const struct perf_event_header *rec,
		      const struct perf_sample *s)
{
	struct dso_hits *h = hits_of(tool);
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct thread *t;
	uint64_t i, prev_marker = 1;

	t = machine_thread(&h->machine, (int32_t)s->pid, s->tid);
	if (is_kernel_mode(cpumode))
		h->kernel_hit = 1;
	else if (cpumode == PERF_RECORD_MISC_USER)
		mark_user(h, t, s->ip);
	for (i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				break;
			default:	/* guests: not this machine's modules */
				cpumode = PERF_RECORD_MISC_CPUMODE_UNKNOWN;
			}
			prev_marker = 1;
			continue;
		}
		if (is_kernel_mode(cpumode)) {
			h->kernel_hit = 1;
		} else if (cpumode == PERF_RECORD_MISC_USER) {
			/*
			 * Callers' entries are return addresses: the call is
			 * the byte before, which may be the last of a module.
			 */
			mark_user(h, t, prev_marker || !ip ? ip : ip - 1);
		}
		prev_marker = 0;
	}
	return 0;
}

static int add_mmap(struct perf_tool *tool, const struct perf_event_header *rec,
		    const struct perf_mmap *m)
{
	struct dso_hits *h = hits_of(tool);
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct map *mp;
	int exec;

	/* The kernel's own maps: its build-id is the running kernel's. */
	if (is_kernel_mode(cpumode) || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    m->pid == UINT32_MAX)
		return 0;
	if (m->prot || m->flags)
		exec = !!(m->prot & PROT_EXEC);
	else
		exec = !(rec->misc & PERF_RECORD_MISC_MMAP_DATA);
	machine_mmap(&h->machine, m->pid, m->tid, m->start, m->len, m->pgoff, m->filename, exec);
	mp = thread_find_map(machine_thread(&h->machine, (int32_t)m->pid, m->tid), m->start);
	if (!mp || !mp->dso)
		return 0;
	/* perf always writes the vdso's id; all_mapped: every executable module */
	if (mp->dso->kind == DSO_VDSO || (h->all_mapped && exec))
		mark(h, mp->dso);
	return 0;
}

static int add_comm(struct perf_tool *tool, const struct perf_event_header *rec,
		    const struct perf_comm *c)
{
	(void)rec;
	machine_comm(&hits_of(tool)->machine, c->pid, c->tid, c->comm);
	return 0;
}

static int add_fork(struct perf_tool *tool, const struct perf_event_header *rec,
		    const struct perf_fork *f)
{
	(void)rec;
	if (!f->is_exit)
		machine_fork(&hits_of(tool)->machine, f->pid, f->ppid, f->tid, f->ptid, 0);
	return 0;
}

void dso_hits_init(struct dso_hits *h, const struct perf_event_attr *attr, int all_mapped)
{
	memset(h, 0, sizeof(*h));
	h->attr = attr;
	h->all_mapped = all_mapped;
	h->kernel_notes = "/sys/kernel/notes";
	symbolizer_init(&h->sym);
	machine_init(&h->machine, &h->sym);
	h->machine.jit = 0;	/* JIT maps have no build-id: no need to name them */
	h->tool.sample = add_sample;
	h->tool.mmap = add_mmap;
	h->tool.comm = add_comm;
	h->tool.fork = add_fork;
}

void dso_hits_release(struct dso_hits *h)
{
	machine_release(&h->machine);
	symbolizer_release(&h->sym);
	free(h->hit);
	free(h->pending);
	memset(h, 0, sizeof(*h));
}

int dso_hits_add(struct dso_hits *h, const struct perf_event_header *rec)
{
	struct perf_tool_event ev = { h->attr, NULL, NULL };
	const char *why;
	int ret = perf_tool_deliver(&h->tool, &ev, rec, &why);

	/* a record other than a sample that cannot be decoded is passed over */
	return ret && why && rec->type != PERF_RECORD_SAMPLE ? 0 : ret;
}

int dso_hits_build_ids(struct dso_hits *h, dso_hits_fn fn, void *ctx)
{
	uint8_t id[BUILD_ID_MAX];
	size_t i, size = 0;
	int ret;

	mark_pending(h);
	if (h->kernel_hit && !build_id_of_kernel(h->kernel_notes, id, &size) &&
	    (ret = fn(ctx, "[kernel.kallsyms]", 1, id, size)))
		return ret;
	for (i = 0; i < h->sym.nr_dsos && i < h->alloc_hit; i++) {
		const struct dso *d = h->sym.dsos[i];
		int found;

		if (!h->hit[d->id])
			continue;
		found = d->kind == DSO_VDSO ? build_id_of_vdso(id, &size)
					    : build_id_of_file(d->path, id, &size);
		if (!found && (ret = fn(ctx, d->path, 0, id, size)))
			return ret;
	}
	return 0;
}
