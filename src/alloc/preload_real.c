/*
 * preload_real.c - the real versions of the functions libtrail-alloc.so
 * wraps, found with dlsym(RTLD_NEXT), and the static bump arena that
 * serves dlsym's own allocations while they are being found.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/preload.h"

struct real_fns real;
int resolving;

static char boot_arena[64 * 1024] __attribute__((aligned(64)));	/* dlsym's own callocs */
static size_t boot_used;	/* bytes */

int in_boot(const void *p)
{
	return (const char *)p >= boot_arena && (const char *)p < boot_arena + sizeof(boot_arena);
}

size_t boot_room(const void *p)
{
	return (size_t)(boot_arena + sizeof(boot_arena) - (const char *)p);
}

void *boot_alloc(size_t n)
{
	size_t at = (boot_used + 15) & ~(size_t)15;

	if (n > sizeof(boot_arena) - at)
		return NULL;
	boot_used = at + n;
	return boot_arena + at;
}

#define RESOLVE(var, name) (var = (__typeof__(var))dlsym(RTLD_NEXT, name))

void resolve_all(void)
{
	if (resolving)
		return;
	resolving = 1;
	RESOLVE(real.malloc, "malloc");
	RESOLVE(real.calloc, "calloc");
	RESOLVE(real.realloc, "realloc");
	RESOLVE(real.free, "free");
	RESOLVE(real.posix_memalign, "posix_memalign");
	RESOLVE(real.aligned_alloc, "aligned_alloc");
	RESOLVE(real.memalign, "memalign");
	RESOLVE(real.valloc, "valloc");
	RESOLVE(real.mmap, "mmap");
	RESOLVE(real.munmap, "munmap");
	RESOLVE(real.execve, "execve");
	RESOLVE(real.execvpe, "execvpe");
	RESOLVE(real.fexecve, "fexecve");
	RESOLVE(real.execveat, "execveat");
	RESOLVE(real.posix_spawn, "posix_spawn");
	RESOLVE(real.posix_spawnp, "posix_spawnp");
	RESOLVE(real._exit, "_exit");
	RESOLVE(real.new_, "_Znwm");
	RESOLVE(real.new_nothrow, "_ZnwmRKSt9nothrow_t");
	RESOLVE(real.new_aligned, "_ZnwmSt11align_val_t");
	RESOLVE(real.new_aligned_nothrow, "_ZnwmSt11align_val_tRKSt9nothrow_t");
	resolving = 0;
}
