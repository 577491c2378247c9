/*
 * perfdata_stacks.c - from perf.data records to symbolized samples, with
 * perf script's callchain rules (util/machine.c: context markers switch
 * between kernel and user resolution, at most max_stack entries, user
 * frames of dwarf recordings unwound after the kernel ones and their
 * caller addresses taken one byte back, as perf's unwinders do).
 */
#include "perf/perfdata_stacks.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/unaligned.h"
#include "symbols/build_id.h"
#include "perf/maps.h"
#include "perf/perfdata.h"
#include "perf/stack_memo.h"
#include "symbols/symbols.h"
#include "perf/unwind.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_FRAMES 4096
#define PEEK_RING 32
/* peeked samples between the one whose index slot is fetched and the one whose entry is */
#define PEEK_HALF 4

struct stacks_ctx {
	struct perf_tool tool;		/* perfdata_process() calls back through it */
	struct perfdata *pd;
	const struct perfdata_stacks_opts *opts;
	perfdata_stack_fn fn;
	void *fn_ctx;
	struct symbolizer sym;
	struct machine machine;
	struct unwinder *unwinder;
	struct perfdata_frame frames[MAX_FRAMES];
	uint64_t ips[MAX_FRAMES];
	struct perfdata_stacks_stats stats;
	struct stack_memo memo;	/* with opts->memo */
	uint64_t *key;		/* scratch for a raw stack's memo key */
	size_t alloc_key;
	/*
	 * Samples shown by .peek and not yet delivered, oldest at peek_tail
	 * (counters, not indexes: slot = counter % PEEK_RING): each with the
	 * hash its memo key will have, whose index slot was prefetched.
	 */
	struct peeked {
		const void *rec;
		uint64_t pid_tid;
		uint32_t hash;
	} peeked[PEEK_RING];
	size_t peek_head, peek_tail;
	const struct perf_event_attr *peek_attr;	/* the attr peek_layout is for */
	int peek_ok;			/* peek_attr's samples can be peeked */
	struct perf_peek_layout peek_layout;
	/*
	 * The recording mapped the kernel's text (perf record and trail record
	 * write "[kernel.kallsyms]_text" when /proc/kallsyms shows addresses),
	 * or the user named a kallsyms file: without either, perf script has
	 * no kernel map and prints kernel frames as [unknown], and so do we.
	 * Kernel-mode addresses below the map's start are [unknown] too: the
	 * kernel sometimes follows a PERF_CONTEXT_KERNEL marker with user
	 * addresses (seen at exec), which perf finds in no kernel map.
	 * UINT64_MAX until the kernel is mapped: then every address is below.
	 */
	uint64_t kernel_start;
	/*
	 * The map's end (start + length of its MMAP record, exclusive;
	 * UINT64_MAX when unknown).  Above it perf finds an address only in a
	 * module's map (or a BPF program's); trail reads those from kallsyms,
	 * so an address past the end that kallsyms does not name is in no
	 * map: [unknown], as perf script prints the 0xffffffffffffffff frame
	 * that ends a stack deeper than its --call-graph dwarf copy.
	 */
	uint64_t kernel_end;
};

static struct stacks_ctx *from_tool(struct perf_tool *t)
{
	return (struct stacks_ctx *)((char *)t - offsetof(struct stacks_ctx, tool));
}

/* Where resolve() looks up inline frames. */
enum inline_at {
	INLINE_NONE,
	INLINE_AT_IP,		/* the sampled ip, or an unwound (already adjusted) caller */
	INLINE_AT_CALL,		/* a return address: the call is the byte before it */
};

/*
 * Resolve ip into frames[*nr...]: one frame, or the inline chain at ip
 * (innermost first; a name equal to the symbol's keeps the module, others
 * print as "(inlined)").  perf 6.1 adds that chain to DWARF-unwound frames
 * only (unwind_entry() -> append_inlines()); frame-pointer entries get it
 * with opts->inline_fp (--inline), looked up at the call instruction for
 * return addresses as perf's unwinders do, while the frame itself keeps
 * the address and symbol perf script prints for it.
 */
/* x86-64: the upper half of the canonical address space is the kernel's */
#define KERNEL_SPACE_START UINT64_C(0xffff800000000000)

static void resolve(struct stacks_ctx *c, struct thread *t, uint64_t ip, int cpumode,
		    enum inline_at inlines, size_t *nr)
{
	struct perfdata_frame *f = &c->frames[*nr];
	const struct symbol *sym;
	struct sym_found found;

	memset(f, 0, sizeof(*f));
	f->addr = ip;
	/*
	 * A user-mode entry with a kernel address (a sample taken as the
	 * process enters or leaves the kernel, around exec) is a kernel frame,
	 * as perf's thread__find_map() decides from the address alone.
	 */
	if (cpumode == PERF_RECORD_MISC_USER && ip >= KERNEL_SPACE_START && !thread_find_map(t, ip))
		cpumode = PERF_RECORD_MISC_KERNEL;
	if (cpumode == PERF_RECORD_MISC_KERNEL && ip < c->kernel_start) {
		(*nr)++;	/* in no kernel map: [unknown], as perf script */
		return;
	}
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		struct dso *k = symbolizer_kernel(&c->sym);
		const char *mod;

		f->kernel = 1;
		f->dso = k->path;
		f->dso_len = k->path_len;
		sym = symbolizer_lookup(&c->sym, k, ip, &found);
		if (sym) {
			f->sym = found.name;
			f->sym_len = found.name_len;
			f->symoff = found.symoff;
			f->id = found.id;
			mod = symbolizer_kmod(k, sym);
			if (mod) {
				f->dso = mod;
				f->dso_len = strlen(mod);
			}
		} else if (ip >= c->kernel_end) {
			f->kernel = 0;	/* in no kernel map: [unknown] */
			f->dso = NULL;
			f->dso_len = 0;
		}
	} else if (cpumode == PERF_RECORD_MISC_USER) {
		const struct map *mp = thread_find_map(t, ip);
		uint64_t mip;

		if (!mp) {
			(*nr)++;
			return;
		}
		mip = mp->identity ? ip : ip - mp->start + mp->pgoff;
		f->addr = mip;
		f->dso = mp->dso->path;
		f->dso_len = mp->dso->path_len;
		f->dso_ambiguous = mp->dso->path_ambiguous;
		sym = symbolizer_lookup(&c->sym, mp->dso, mip, &found);
		if (sym) {
			const char *const *names;
			size_t n = 0, i;

			f->sym = found.name;
			f->sym_len = found.name_len;
			f->symoff = found.symoff;	/* cosmetic: fold drops offsets */
			f->id = found.id;
			if (inlines != INLINE_NONE && !c->opts->no_inline) {
				/* the call, unless that is in the symbol before */
				uint64_t at = inlines == INLINE_AT_CALL && mip > sym->start ? mip - 1 : mip;

				n = symbolizer_inlines(&c->sym, mp->dso, at, &names);
			}
			if (n) {
				struct perfdata_frame base = *f;

				for (i = 0; i < n && *nr < MAX_FRAMES; i++) {
					f = &c->frames[(*nr)++];
					*f = base;
					f->sym = names[i];
					f->sym_len = strlen(names[i]);
					f->inlined = strcmp(names[i], base.sym) != 0;
					f->id = 0;	/* numbered are (module, address) frames */
				}
				return;
			}
		}
	}
	(*nr)++;
}

/* Word 0 of a memo key, its callchain at word 8: what .peek can hash from the record too. */
static uint32_t chain_hash(uint64_t pid_tid, const uint64_t *chain, size_t n)
{
	return hashmap_hash_words(chain, n) ^ hashmap_hash_u64(pid_tid);
}

/* The peeked hash of rec when rec was peeked as this thread's; else 0 with *found 0. */
static uint32_t peeked_hash(struct stacks_ctx *c, const void *rec, uint64_t pid_tid, int *found)
{
	size_t k;

	*found = 0;
	for (k = c->peek_tail; k < c->peek_head; k++) {
		const struct peeked *p = &c->peeked[k % PEEK_RING];

		if (p->rec != rec)
			continue;
		c->peek_tail = k + 1;
		*found = p->pid_tid == pid_tid;
		return p->hash;
	}
	return 0;
}

/*
 * The memo entry of a sample's raw stack: everything its frames and its
 * folded text depend on.  Maps only change through records that bump the
 * address space's generation; kernel, JIT and vdso tables do not change.
 * Its hash covers the thread and the callchain (what .peek sees) when
 * there is one and nothing was unwound, else the whole key.
 */
static struct stack_memo_entry *memo_entry(struct stacks_ctx *c, const struct thread *t,
					   const struct perf_sample *s, size_t nr_unwound,
					   const void *rec)
{
	size_t n = 0, need = 9 + s->nr_callchain + nr_unwound;
	int created, found = 0;
	uint32_t h = 0;

	ALLOC_GROW(c->key, need, c->alloc_key);
	c->key[n++] = (uint64_t)(uint32_t)t->pid << 32 | t->tid;
	c->key[n++] = (uint64_t)t->comm << 1 | (uint64_t)!!t->comm_set;
	c->key[n++] = t->maps ? t->maps->serial : 0;
	c->key[n++] = t->maps ? t->maps->gen : 0;
	c->key[n++] = (uint64_t)(uintptr_t)s->attr;
	c->key[n++] = s->attr->sample_type & PERF_SAMPLE_CALLCHAIN ? UINT64_MAX : s->ip;
	c->key[n++] = (uint64_t)s->cpumode;
	c->key[n++] = s->nr_callchain;
	if (s->nr_callchain)
		memcpy(c->key + n, s->callchain, s->nr_callchain * sizeof(*c->key));
	n += s->nr_callchain;
	c->key[n++] = nr_unwound;
	if (nr_unwound)
		memcpy(c->key + n, c->ips, nr_unwound * sizeof(*c->key));
	n += nr_unwound;
	if (s->nr_callchain && !nr_unwound) {
		h = peeked_hash(c, rec, c->key[0], &found);
		if (!found)
			h = chain_hash(c->key[0], s->callchain, s->nr_callchain);
	} else {
		h = hashmap_hash_words(c->key, n);
	}
	return stack_memo_get_hashed(&c->memo, c->key, n, h, &created);
}

/* perf_tool's .peek: prefetch the memo slot of a sample to come, and the entry of one nearer. */
static void on_peek(struct perf_tool *tool, const unsigned char *rec,
		    const struct perf_event_attr *attr)
{
	struct stacks_ctx *c = from_tool(tool);
	uint64_t type = attr->sample_type, pid_tid;
	const uint64_t *chain;
	struct peeked *p;
	size_t n;

	if (!c->opts->memo || ((type & PERF_SAMPLE_REGS_USER) && (type & PERF_SAMPLE_STACK_USER)))
		return;	/* no memo, or keys with unwound addresses */
	if (attr != c->peek_attr) {
		c->peek_attr = attr;
		c->peek_ok = !perf_sample_peek_layout(attr, &c->peek_layout);
	}
	if (!c->peek_ok)
		return;
	chain = perf_sample_peek_callchain(&c->peek_layout, rec, rd16(rec + 6), &pid_tid, &n);
	if (!chain || !n)
		return;
	p = &c->peeked[c->peek_head % PEEK_RING];
	p->rec = rec;
	p->pid_tid = pid_tid;
	p->hash = chain_hash(pid_tid, chain, n);
	stack_memo_prefetch_slot(&c->memo, p->hash);
	c->peek_head++;
	if (c->peek_head - c->peek_tail > PEEK_RING)
		c->peek_tail = c->peek_head - PEEK_RING;	/* the oldest were overwritten */
	if (c->peek_head - c->peek_tail > PEEK_HALF)
		stack_memo_prefetch_entry(&c->memo,
					  c->peeked[(c->peek_head - 1 - PEEK_HALF) % PEEK_RING].hash);
}

static int on_sample(struct perf_tool *tool, const struct perf_event_header *rec,
                     const struct perf_sample *s)
{
	struct stacks_ctx *c = from_tool(tool);
	struct thread *t;
	struct perfdata_stack st;
	struct stack_memo_entry *e = NULL;
	size_t nr = 0, i, nr_unwound = 0;
	uint64_t unknown = 0;
	int max_stack = c->opts->max_stack > 0 ? c->opts->max_stack : 127;
	uint64_t type = s->attr->sample_type;
	int dwarf = (type & PERF_SAMPLE_REGS_USER) && (type & PERF_SAMPLE_STACK_USER);

	if (max_stack > MAX_FRAMES / 2)
		max_stack = MAX_FRAMES / 2;
	t = machine_thread(&c->machine, (type & PERF_SAMPLE_TID) ? (int32_t)s->pid : -1,
			   (type & PERF_SAMPLE_TID) ? s->tid : 0);
	if (dwarf && s->regs && s->stack_size && c->unwinder) {
		nr_unwound = unwinder_unwind(c->unwinder, t, s, c->ips, (size_t)max_stack);
		if (nr_unwound > 1)
			c->stats.unwound++;
		else
			c->stats.unwind_failed++;
	}
	memset(&st, 0, sizeof(st));
	st.comm = thread_comm(&c->machine, t);
	st.pid = t->pid;
	st.tid = t->tid;
	st.time = s->time;
	st.period = s->period;
	st.cpu = s->cpu;
	st.event = s->event;
	c->stats.samples++;
	if (c->opts->memo)
		e = memo_entry(c, t, s, nr_unwound, rec);
	if (e && e->memo) {
		c->stats.repeats++;
		c->stats.frames += e->frames;
		c->stats.unknown_frames += e->unknown;
		st.repeat_of = e->memo;
		return c->fn(c->fn_ctx, &st);
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		int cpumode = PERF_RECORD_MISC_USER, entries = 0, ctx_entries = 0;

		for (i = 0; i < s->nr_callchain && entries < max_stack && nr < MAX_FRAMES - 64; i++) {
			uint64_t ip = s->callchain[i];

			if (ip >= PERF_CONTEXT_MAX) {
				ctx_entries = 0;
				if (ip == PERF_CONTEXT_KERNEL)
					cpumode = PERF_RECORD_MISC_KERNEL;
				else if (ip == PERF_CONTEXT_USER)
					cpumode = PERF_RECORD_MISC_USER;
				else if (ip == PERF_CONTEXT_HV)
					cpumode = PERF_RECORD_MISC_HYPERVISOR;
				else {
					/* perf drops the whole chain on an unknown marker */
					nr = 0;
					break;
				}
				continue;
			}
			entries++;
			/* a context's first entry is where it was interrupted, the rest return addresses */
			resolve(c, t, ip, cpumode, !c->opts->inline_fp ? INLINE_NONE :
				ctx_entries++ ? INLINE_AT_CALL : INLINE_AT_IP, &nr);
		}
	} else if (!dwarf) {
		resolve(c, t, s->ip, s->cpumode, c->opts->inline_fp ? INLINE_AT_IP : INLINE_NONE, &nr);
	}
	for (i = 0; i < nr_unwound && nr < MAX_FRAMES - 64; i++)
		resolve(c, t, c->ips[i], PERF_RECORD_MISC_USER, INLINE_AT_IP, &nr);
	for (i = 0; i < nr; i++)
		unknown += !c->frames[i].sym;
	c->stats.frames += nr;
	c->stats.unknown_frames += unknown;
	if (e) {
		e->frames = (uint32_t)nr;
		e->unknown = (uint32_t)unknown;
		st.memo = &e->memo;
	}
	st.nr = nr;
	st.frames = c->frames;
	return c->fn(c->fn_ctx, &st);
}

static int on_mmap(struct perf_tool *tool, const struct perf_event_header *rec,
                   const struct perf_mmap *mm)
{
	struct stacks_ctx *c = from_tool(tool);
	int cpumode = mm->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	int exec;
	const struct map *mp;
	struct thread *t;

	/* kernel and module maps: kernel frames resolve through kallsyms */
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    mm->pid == UINT32_MAX) {
		if (cpumode == PERF_RECORD_MISC_KERNEL &&
		    !strncmp(mm->filename, "[kernel.kallsyms]", 17) &&
		    c->kernel_start == UINT64_MAX) {
			c->kernel_start = mm->start;
			/* perf takes a zero-sized kernel map to run to the end */
			c->kernel_end = mm->len && mm->start + mm->len > mm->start ?
					mm->start + mm->len : UINT64_MAX;
		}
		return 0;
	}
	if (mm->prot || mm->flags)
		exec = !!(mm->prot & PROT_EXEC);
	else
		exec = !(mm->misc & PERF_RECORD_MISC_MMAP_DATA);
	machine_mmap(&c->machine, mm->pid, mm->tid, mm->start, mm->len, mm->pgoff, mm->filename, exec);
	t = machine_thread(&c->machine, (int32_t)mm->pid, mm->tid);
	mp = thread_find_map(t, mm->start);
	if (mp && mp->dso->kind == DSO_ELF && !mp->dso->loaded && !mp->dso->build_id_size) {
		const struct perfdata_build_id *b;

		if (mm->build_id && mm->build_id_size)
			dso_set_build_id(mp->dso, mm->build_id, mm->build_id_size);
		else if ((b = perfdata_find_build_id(c->pd, mm->filename)))
			dso_set_build_id(mp->dso, b->id, b->size);
	}
	return 0;
}

static int on_comm(struct perf_tool *tool, const struct perf_event_header *rec,
                   const struct perf_comm *cm)
{
	struct stacks_ctx *c = from_tool(tool);

	machine_comm(&c->machine, cm->pid, cm->tid, cm->comm);
	return 0;
}

static int on_fork(struct perf_tool *tool, const struct perf_event_header *rec,
                   const struct perf_fork *f)
{
	struct stacks_ctx *c = from_tool(tool);

	if (f->is_exit)
		return 0;	/* perf keeps exited threads findable */
	machine_fork(&c->machine, f->pid, f->ppid, f->tid, f->ptid, f->synthesized);
	return 0;
}

int perfdata_stacks(struct perfdata *pd, const struct perfdata_stacks_opts *opts,
		    perfdata_stack_fn fn, void *ctx, struct perfdata_stacks_stats *stats)
{
	struct stacks_ctx *c = xcalloc(1, sizeof(*c));
	char *kallsyms_copy = NULL;
	int ret;

	c->tool.sample = on_sample;
	c->tool.mmap = on_mmap;
	c->tool.comm = on_comm;
	c->tool.fork = on_fork;
	c->tool.peek = on_peek;
	c->pd = pd;
	c->opts = opts;
	c->kernel_start = UINT64_MAX;	/* no kernel map yet */
	c->kernel_end = UINT64_MAX;
	c->fn = fn;
	c->fn_ctx = ctx;
	symbolizer_init(&c->sym);
	c->sym.demangle = !opts->no_demangle;
	if (opts->kallsyms) {
		c->sym.kallsyms_path = opts->kallsyms;
		c->kernel_start = KERNEL_SPACE_START;
	} else {
		/*
		 * perf record keeps a copy of kallsyms under the kernel's
		 * build-id; perf script prefers it, and reading a file is much
		 * cheaper than having the kernel format /proc/kallsyms.
		 */
		const struct perfdata_build_id *b = perfdata_find_build_id(pd, "[kernel.kallsyms]");

		if (b && b->size) {
			char hex[2 * BUILD_ID_MAX + 1];

			build_id_hex(b->id, b->size, hex);
			kallsyms_copy = xstrfmt("%s/[kernel.kallsyms]/%s/kallsyms", c->sym.home_debug, hex);
			if (!access(kallsyms_copy, R_OK))
				c->sym.kallsyms_path = kallsyms_copy;
		}
	}
	stack_memo_init(&c->memo);
	machine_init(&c->machine, &c->sym);
	c->machine.jit = opts->jit;
	c->unwinder = unwinder_new(&c->machine);
	ret = perfdata_process(pd, &c->tool);
	c->stats.dsos = c->sym.nr_dsos;
	c->stats.symbol_lookups = c->sym.lookups;
	c->stats.symbol_misses = c->sym.misses;
	if (stats)
		*stats = c->stats;
	unwinder_free(c->unwinder);
	stack_memo_release(&c->memo);
	free(c->key);
	machine_release(&c->machine);
	symbolizer_release(&c->sym);
	free(kallsyms_copy);
	free(c);
	return ret;
}
