/*
 * preload.c - libtrail-alloc.so, the allocation interposer 'trail record
 * -e alloc' puts in LD_PRELOAD: its place in the process's life - the
 * constructor that reads the settings (kept in preload_state.c) and opens
 * the record, the fork handlers, and the exit handlers that complete it
 * (finish(), preload_exec.c, which exec and _exit call too).  It wraps the malloc
 * family, C++ operator new/delete and anonymous mmap/munmap
 * (preload_malloc.c), samples allocations by bytes (preload_sample.c) and
 * writes each sampled allocation's raw call stack (preload_unwind.c), and
 * the frees of sampled pointers, to $TRAIL_ALLOC_DIR/alloc.PID.SEQ.raw
 * (format: raw.h; the file: preload_out.c).  Nothing is symbolised here:
 * trail does that after the run from the /proc/self/maps copies.
 */
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/preload.h"

static TLS int t_fork_was;

static void atfork_prepare(void)
{
	t_fork_was = busy_enter();
	copy_check();
	pthread_mutex_lock(&lock);
	flush_locked();
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&lock);
	busy_leave(t_fork_was);
}

static void atfork_child(void)
{
	/* the child records to its own file; the parent's sampled blocks are not its own */
	copy_adopt();
	busy_leave(t_fork_was);
}

/* The executable segment holding an address: this library's and libc's. */
struct text_range {
	uintptr_t at, lo, hi;
};

static int find_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct text_range *r = arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && r->at >= lo &&
		    r->at < lo + ph->p_memsz) {
			r->lo = lo;
			r->hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

/* The first object dl_iterate_phdr reports is the main program. */
static int find_exe(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			exe_lo = info->dlpi_addr + ph->p_vaddr;
			exe_hi = exe_lo + ph->p_memsz;
			break;
		}
	}
	return 1;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return dflt;
	errno = 0;
	v = strtoull(s, &end, 10);
	return errno || *end ? dflt : (uint64_t)v;
}

__attribute__((constructor)) static void preload_init(void)
{
	const char *d = getenv("TRAIL_ALLOC_DIR"), *uw = getenv("TRAIL_ALLOC_UNWIND");
	int was = busy_enter();

	resolve_all();
	{
		struct text_range self = { (uintptr_t)&find_text, 0, 0 };

		dl_iterate_phdr(find_text, &self);
		dl_iterate_phdr(find_exe, NULL);
		self_lo = self.lo;
		self_hi = self.hi;
	}
	interval = env_u64("TRAIL_ALLOC_INTERVAL", interval);
	if (!interval)
		interval = 1;
	use_fp = !uw || strcmp(uw, "dwarf");
	exec_env_init();
	copy_mark_init();
	initialised = 1;
	if (d && strlen(d) < sizeof(dir)) {
		strcpy(dir, d);
		pthread_mutex_lock(&lock);
		image_open_locked();
		/* maps now too, for a process killed before it can write them at exit */
		write_maps_locked();
		pthread_mutex_unlock(&lock);
		pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
		atexit(finish);
	}
	busy_leave(was);
}

__attribute__((destructor)) static void preload_fini(void)
{
	finish();
}
