/*
 * unwind.c - DWARF unwinding of sampled user stacks (see unwind.h) with
 * elfutils' dwfl unwinder, as perf's util/unwind-libdw.c does, but with
 * one Dwfl per address space kept across samples (rebuilt only when the
 * maps change) instead of one per sample: CFI is parsed once per module.
 * A fast path steps frames with CFI rows decoded once per pc
 * (cfi_rows.h) and gives what libdw's unwinder gives; samples it cannot
 * finish go to libdw (TRAIL_UNWIND=libdw sends them all, for comparison).
 */
#include "perf/unwind.h"
#include "core/alloc.h"
#include "core/file_map.h"
#include "perf/cfi_rows.h"
#include "perf/maps.h"
#include "perf/perfdata.h"
#include "symbols/build_id.h"
#include "symbols/symbols.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SPACES 64

struct space {
	uint64_t serial, gen;	/* the maps this Dwfl was built from */
	Dwfl *dwfl;
	uint64_t last_use;
	struct cfi_rows rows;	/* decoded CFI of dwfl's modules (fast path) */
};

/* A module file mapped once (on first use) and shared by every address space. */
struct image {
	struct unwinder *u;
	const struct dso *dso;
	int tried;		/* mapping attempted */
	struct file_map file;	/* data NULL when the file cannot be read */
};

struct unwinder {
	struct machine *m;
	struct image **images;	/* indexed by dso id; allocated on demand */
	size_t nr_images;
	struct space spaces[MAX_SPACES];
	uint64_t clock;
	/* the sample being unwound */
	const struct perf_sample *s;
	uint32_t tid;
	uint64_t sp;
	uint64_t *ips;
	size_t max, n;
	int read_past_end;	/* the unwinder wanted stack beyond the copy */
	uint64_t cfi_pc;	/* libdw path: where libdw looked up the last frame's CFI */
	int libdw_only;		/* TRAIL_UNWIND=libdw: no fast path */
};

/* perf's x86-64 register numbers (arch/x86/include/uapi/asm/perf_regs.h) */
enum {
	PR_AX = 0, PR_BX, PR_CX, PR_DX, PR_SI, PR_DI, PR_BP, PR_SP, PR_IP,
	PR_R8 = 16,
};

static int reg_value(const struct perf_sample *s, int reg, uint64_t *out)
{
	uint64_t below;

	if (reg < 0 || reg > 63 || !(s->regs_mask >> reg & 1))
		return -1;
	below = reg ? s->regs_mask & ((1ULL << reg) - 1) : 0;
	*out = s->regs[__builtin_popcountll(below)];
	return 0;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->tid;
}

/*
 * Eight bytes at addr from the sampled stack copy (perf reads module text
 * too, rarely needed).  perf's reader (access_mem) takes a word that ends
 * exactly at the copy's end as outside it; so does this.
 */
static bool stack_read(struct unwinder *u, uint64_t addr, uint64_t *result)
{
	if (addr < u->sp || addr - u->sp > u->s->stack_size || u->s->stack_size - (addr - u->sp) <= 8) {
		if (addr >= u->sp)
			u->read_past_end = 1;
		return false;
	}
	memcpy(result, u->s->stack + (addr - u->sp), 8);
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	return stack_read(arg, addr, result);
}

/*
 * The sampled registers in DWARF x86-64 order (rax rdx rcx rbx rsi rdi rbp
 * rsp r8-r15 rip); 0 when not sampled.  Once per sample: the sampled ones
 * are spread by perf number first (reg_value() per register counted bits
 * 17 times over).
 */
static void dwarf_registers(const struct perf_sample *s, uint64_t regs[CFI_NREGS])
{
	static const int map[CFI_NREGS] = {
		PR_AX, PR_DX, PR_CX, PR_BX, PR_SI, PR_DI, PR_BP, PR_SP,
		PR_R8, PR_R8 + 1, PR_R8 + 2, PR_R8 + 3, PR_R8 + 4, PR_R8 + 5, PR_R8 + 6, PR_R8 + 7,
		PR_IP,
	};
	uint64_t by_perf[64], m;
	size_t k = 0;
	int i;

	for (m = s->regs_mask; m; m &= m - 1)
		by_perf[__builtin_ctzll(m)] = s->regs[k++];
	for (i = 0; i < CFI_NREGS; i++)
		regs[i] = s->regs_mask >> map[i] & 1 ? by_perf[map[i]] : 0;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	uint64_t regs[CFI_NREGS];

	dwarf_registers(u->s, regs);
	return dwfl_thread_state_registers(thread, 0, CFI_NREGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static struct image *image_of(struct unwinder *u, const struct dso *d)
{
	if (d->id >= u->nr_images) {
		size_t n = d->id + 64;

		u->images = xreallocarray(u->images, n, sizeof(*u->images));
		memset(u->images + u->nr_images, 0, (n - u->nr_images) * sizeof(*u->images));
		u->nr_images = n;
	}
	if (!u->images[d->id]) {
		u->images[d->id] = xcalloc(1, sizeof(struct image));
		u->images[d->id]->dso = d;
		u->images[d->id]->u = u;
	}
	return u->images[d->id];
}

static void image_map(struct unwinder *u, struct image *im)
{
	const char *path = symbolizer_binary(u->m->sym, (struct dso *)im->dso);
	int fd;

	im->tried = 1;
	if (!path || (fd = open_regular(path)) < 0)
		return;
	if (file_map_fd(&im->file, fd, path, 0) || !im->file.size)
		file_map_release(&im->file);
	close(fd);
}

/*
 * libdwfl asks for a module's ELF only when the unwinder reaches it: give
 * it a view of the shared mapping (elf_end on it frees libelf's state, not
 * the mapping), so no file is opened or parsed per address space.
 */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	struct image *im = *userdata;

	(void)mod;
	(void)modname;
	(void)base;
	if (!im)
		return -1;
	if (im->dso->kind == DSO_VDSO) {
		/*
		 * The [vdso] has no file: its CFI comes from this process's
		 * image, the one its symbols come from (dso_load_vdso); perf
		 * reads the same image (its own, or the build-id cache copy).
		 */
		if (!(*elfp = vdso_elf_open()))
			return -1;
		*file_name = xstrdup(im->dso->path);
		return -1;
	}
	if (!im->tried)
		image_map(im->u, im);
	if (!im->file.data)
		return -1;
	*elfp = elf_memory((char *)im->file.data, im->file.size);
	*file_name = xstrdup(im->dso->path);
	return -1;
}

/* The module's debug file: the run's prepared copy (symbols.h). */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  GElf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct image *im = *userdata;

	return symbolizer_dwfl_debuginfo(im ? im->u->m->sym : NULL,
					 im ? (struct dso *)im->dso : NULL, mod, userdata, modname,
					 base, file_name, debuglink_file, debuglink_crc,
					 debuginfo_file_name);
}

static char *debuginfo_path;
static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

struct unwinder *unwinder_new(struct machine *m)
{
	struct unwinder *u = xcalloc(1, sizeof(*u));
	const char *how = getenv("TRAIL_UNWIND");

	u->m = m;
	u->libdw_only = how && !strcmp(how, "libdw");
	return u;
}

void unwinder_free(struct unwinder *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < MAX_SPACES; i++) {
		if (u->spaces[i].dwfl)
			dwfl_end(u->spaces[i].dwfl);
		cfi_rows_release(&u->spaces[i].rows);
	}
	for (i = 0; i < u->nr_images; i++) {
		if (u->images[i])
			file_map_release(&u->images[i]->file);
		free(u->images[i]);
	}
	free(u->images);
	free(u);
}

/* Report one loaded image: maps ms->v[first..] of one file, up to end. */
static void report_image(struct unwinder *u, Dwfl *dwfl, const struct maps *ms, size_t first,
			 uint64_t end)
{
	const struct map *mp = &ms->v[first];
	uint64_t base = mp->start - mp->pgoff;	/* perf's __report_module */
	Dwfl_Module *mod;
	void **userdata;

	if (base > mp->start || (first && base < ms->v[first - 1].end))
		base = mp->start;
	mod = dwfl_report_module(dwfl, mp->dso->path, base, end);
	if (mod) {
		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		*userdata = image_of(u, mp->dso);
	}
}

/*
 * A Dwfl with every ELF image of ms reported, state attached.  An image is
 * a run of maps of one file at rising file offsets (other files' maps end
 * it; anonymous ones, like .bss, do not), so a file mapped twice is two
 * modules, each at its own base.  That is common: maps keep a process's
 * pre-exec maps as perf does (a sample inside execve still has its user
 * IP in the old image), so a program started by 'sh -c' holds the shell's
 * libc and its own; so do a plugin dlopen'ed again elsewhere and a second
 * mapping of a file.  One module per file, at its first mapping and
 * stretched to its last, put the live libc under the stale copy's load
 * bias whenever ASLR placed the stale one lower (about half the runs):
 * no CFI for memcmp or malloc, and their callers were lost.
 */
static Dwfl *build_dwfl(struct unwinder *u, const struct maps *ms, pid_t pid)
{
	Dwfl *dwfl = dwfl_begin(&dwfl_callbacks);
	size_t i, first = 0, last = 0;
	int open = 0;		/* an image ms->v[first..last] is being collected */
	uint64_t end = 0;

	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	for (i = 0; i < ms->nr; i++) {
		const struct map *mp = &ms->v[i];

		if (mp->dso->kind != DSO_ELF && mp->dso->kind != DSO_VDSO)
			continue;
		if (open && mp->dso == ms->v[last].dso && mp->pgoff > ms->v[last].pgoff) {
			end = mp->end;
			last = i;
			continue;
		}
		if (open)
			report_image(u, dwfl, ms, first, end);
		first = last = i;
		end = mp->end;
		open = 1;
	}
	if (open)
		report_image(u, dwfl, ms, first, end);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!dwfl_attach_state(dwfl, NULL, pid, &thread_callbacks, u)) {
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static struct space *space_for(struct unwinder *u, const struct thread *t)
{
	const struct maps *ms = t->maps;
	struct space *victim = &u->spaces[0];
	size_t i;

	u->clock++;
	for (i = 0; i < MAX_SPACES; i++) {
		struct space *sp = &u->spaces[i];

		if (sp->dwfl && sp->serial == ms->serial) {
			if (sp->gen != ms->gen) {
				dwfl_end(sp->dwfl);
				sp->dwfl = build_dwfl(u, ms, t->pid > 0 ? t->pid : (pid_t)t->tid);
				sp->gen = ms->gen;
				cfi_rows_clear(&sp->rows);
			}
			sp->last_use = u->clock;
			return sp->dwfl ? sp : NULL;
		}
		if (!sp->dwfl || sp->last_use < victim->last_use)
			victim = sp;
		if (!sp->dwfl)
			break;
	}
	if (victim->dwfl)
		dwfl_end(victim->dwfl);
	victim->dwfl = build_dwfl(u, ms, t->pid > 0 ? t->pid : (pid_t)t->tid);
	victim->serial = ms->serial;
	victim->gen = ms->gen;
	victim->last_use = u->clock;
	if (!victim->rows.v)
		cfi_rows_init(&victim->rows);
	cfi_rows_clear(&victim->rows);
	return victim->dwfl ? victim : NULL;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc, cfi_pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/*
	 * Callers' return addresses are taken one byte back, as perf does;
	 * not the sampled pc, nor the pc a signal interrupted.  libdw also
	 * counts the signal trampoline (__restore_rt) itself as an
	 * activation; perf, through libunwind, counts only the frame
	 * reached through it (unw_is_signal_frame() after unw_step() says
	 * whether the step used a signal frame's CFI: the inner frame's,
	 * at the pc libdw looked it up), so the trampoline's address goes
	 * one byte back too.
	 */
	cfi_pc = activation ? pc : pc - 1;
	if (activation && u->n && !cfi_signal_frame(dwfl_thread_dwfl(dwfl_frame_thread(state)),
						     u->cfi_pc))
		activation = false;
	u->cfi_pc = cfi_pc;
	if (!activation)
		pc--;
	u->ips[u->n++] = pc;
	return u->n >= u->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* One frame's registers as libdw's unwinder keeps them. */
struct frame_regs {
	uint64_t v[CFI_NREGS];
	uint32_t known;		/* bit per register */
	uint64_t pc;
	int pc_set;		/* 0: the outermost frame was reached */
};

/*
 * Without CFI for the pc: libdw's x86-64 backend step (x86_64_unwind):
 * rbp points at the saved rbp and the return address; the stack ends
 * where rbp is unknown or 0, the return address unreadable, or the new
 * sp not above the old one.
 */
static void frame_pointer_step(struct unwinder *u, const struct frame_regs *cur,
			       struct frame_regs *next)
{
	uint64_t fp = cur->v[CFI_RBP], sp, prev_fp, ret;

	next->known = 0;
	next->pc_set = 0;
	if (!(cur->known >> CFI_RBP & 1) || !fp)
		return;
	sp = cur->known >> CFI_RSP & 1 ? cur->v[CFI_RSP] : 0;
	if (!stack_read(u, fp, &prev_fp))
		prev_fp = 0;
	if (!stack_read(u, fp + 8, &ret))
		return;
	if (sp >= fp + 16)
		return;
	next->v[CFI_RBP] = prev_fp;
	next->v[CFI_RSP] = fp + 16;
	next->known = 1u << CFI_RBP | 1u << CFI_RSP;
	next->pc = ret;
	next->pc_set = 1;	/* even 0: libdw sets it as read */
}

/*
 * Unwind cur into next with the cached rows, doing what libdw 0.188's
 * handle_cfi() does with the same rule: registers in DWARF order, each
 * saved register read from the stack copy (so read_past_end is set the
 * same way), the return address undefined, unreadable or 0 ending the
 * stack.  Returns 0, or -1 when the row is not usable (libdw's turn).
 */
static int fast_step(struct unwinder *u, struct space *sp, const struct frame_regs *cur,
		     int initial, struct frame_regs *next)
{
	const struct cfi_row *row = cfi_rows_find(&sp->rows, sp->dwfl, initial ? cur->pc : cur->pc - 1);
	int cfa_ok, regno, pc_undefined;
	uint32_t known, m;
	uint64_t cfa;

	if (row->kind == CFI_ROW_FRAME_POINTER) {
		frame_pointer_step(u, cur, next);
		return 0;
	}
	if (row->kind != CFI_ROW_RULES)
		return -1;
	cfa_ok = cur->known >> row->cfa_reg & 1;
	cfa = cur->v[row->cfa_reg] + (uint64_t)row->cfa_off;
	/*
	 * Each rule's registers in DWARF order, as handle_cfi() visits them.
	 * Values of registers not in known are never read: one copy of all
	 * of them serves every CFI_SAME one.
	 */
	known = cur->known & row->same;
	memcpy(next->v, cur->v, sizeof(next->v));
	if (cfa_ok) {
		for (m = row->at; m; m &= m - 1) {
			regno = __builtin_ctz(m);
			if (stack_read(u, cfa + (uint64_t)row->off[regno], &next->v[regno]))
				known |= 1u << regno;
		}
		for (m = row->val; m; m &= m - 1) {
			regno = __builtin_ctz(m);
			next->v[regno] = cfa + (uint64_t)row->off[regno];
			known |= 1u << regno;
		}
	}
	next->known = known;
	pc_undefined = row->rule[CFI_RA] == CFI_UNDEFINED;
	next->pc_set = !pc_undefined && (next->known >> CFI_RA & 1) && next->v[CFI_RA];
	next->pc = next->v[CFI_RA];
	return 0;
}

/*
 * The whole stack with cached rows, reporting frames as frame_cb() does
 * under dwfl_getthread_frames(): a frame after the first is unwound before
 * it is reported (libdw asks whether its caller is a signal frame), the
 * first only after.  Returns 0, or -1 when some row needs libdw.
 */
static int fast_unwind(struct unwinder *u, struct space *sp)
{
	struct frame_regs a, b, *cur = &a, *next = &b, *tmp;
	int initial = 1, have_next;

	dwarf_registers(u->s, a.v);
	a.known = (1u << CFI_NREGS) - 1;
	a.pc = a.v[CFI_RA];
	a.pc_set = 1;
	for (;;) {
		have_next = 0;
		if (!initial) {
			if (fast_step(u, sp, cur, 0, next))
				return -1;
			have_next = 1;
		}
		u->ips[u->n++] = initial ? cur->pc : cur->pc - 1;
		if (u->n >= u->max)
			return 0;
		if (!have_next && fast_step(u, sp, cur, initial, next))
			return -1;
		if (!next->pc_set)
			return 0;
		tmp = cur;
		cur = next;
		next = tmp;
		initial = 0;
	}
}

/*
 * perf shows no frame at address 0 (util/unwind-libunwind-local.c,
 * get_entries(): "if (ips[j])"): a return address of 1 read from a
 * stack, taken one byte back, leaves no [unknown] frame.  Returns n
 * without them.
 */
static size_t drop_zero_frames(uint64_t *ips, size_t n)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++)
		if (ips[i])
			ips[kept++] = ips[i];
	return kept;
}

size_t unwinder_unwind(struct unwinder *u, struct thread *t, const struct perf_sample *s,
		       uint64_t *ips, size_t max)
{
	struct space *sp;
	uint64_t ip;

	if (!max || reg_value(s, PR_IP, &ip))
		return 0;
	u->s = s;
	u->tid = t->tid;
	u->ips = ips;
	u->max = max;
	u->n = 0;
	if (reg_value(s, PR_SP, &u->sp) || !s->stack || !t->maps ||
	    !(sp = space_for(u, t))) {
		ips[0] = ip;
		return drop_zero_frames(ips, 1);
	}
	u->read_past_end = 0;
	if (u->libdw_only || fast_unwind(u, sp)) {
		u->n = 0;
		u->read_past_end = 0;
		dwfl_getthread_frames(sp->dwfl, (pid_t)t->tid, frame_cb, u);
	}
	if (!u->n) {
		ips[0] = ip;
		u->n = 1;
	}
	/*
	 * A stack deeper than its copy: perf's memory reader answers 0 past
	 * the copy, libunwind makes one more frame of it, and perf shows it
	 * one byte back, at 0xffffffffffffffff ([unknown]).  Do the same.
	 */
	if (u->read_past_end && u->n < u->max)
		ips[u->n++] = (uint64_t)-1;
	return drop_zero_frames(ips, u->n);
}
