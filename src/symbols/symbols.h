/*
 * symbols.h - modules (DSOs) and their symbol tables, resolved the way perf
 * 6.x resolves them: ELF .symtab (from the binary, the build-id cache,
 * /usr/lib/debug or .gnu_debuglink) else .dynsym, /proc/kallsyms for the
 * kernel, /tmp/perf-PID.map for JIT code, the vdso from our own process.
 * Tables are loaded on first use and sorted once; lookups go through a
 * cache keyed by (module, address) so each distinct address is resolved once.
 */
#ifndef TRAIL_SYMBOLS_SYMBOLS_H
#define TRAIL_SYMBOLS_SYMBOLS_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/hashmap.h"
#include "core/file_map.h"
#include "symbols/debuginfo.h"
#include "symbols/symtab.h"

enum dso_kind {
	DSO_ELF,		/* a file mapped from disk */
	DSO_KERNEL,		/* [kernel.kallsyms] and its modules */
	DSO_JIT,		/* /tmp/perf-PID.map (anonymous executable memory) */
	DSO_VDSO,		/* [vdso] */
	DSO_NONE,		/* [heap], [stack], ... : no symbols */
};


/* File-offset to link-address translation of one PT_LOAD segment. */
struct dso_segment {
	uint64_t offset, vaddr, filesz, memsz;	/* bytes */
};

struct dso {
	uint32_t id;		/* index in the symbolizer's table */
	enum dso_kind kind;
	char *path;		/* as recorded (perf script prints this) */
	size_t path_len;	/* bytes */
	int path_ambiguous;	/* has blanks or parentheses (see perfdata_fold.c) */
	int loaded;		/* symbols loaded (or failed to) */
	int translate;		/* map addresses are file offsets to translate */
	struct symbol *syms;	/* sorted by start; of equal starts all but one erased */
	size_t nr_syms;
	size_t nr_late;		/* the last ones read (PLT entries) perf adds after its fix-ups */
	struct symtree *tree;	/* perf's tree, where symbols overlap; else NULL */
	struct dso_segment *segs;
	size_t nr_segs;
	uint8_t build_id[20];
	uint8_t build_id_size;	/* 0 = unknown */
	char *symtab_path;	/* file the symbols came from (for debugging) */
	char *bin_path;		/* the binary read: path, or perf's build-id cache copy */
	char *kmod_names;	/* kernel: module name per symbol, NUL-separated */
	struct file_map text;	/* kernel: the kallsyms text names point into */
	const char **kmod;	/* kernel: module name ("[ext4]") per symbol, or NULL */
	void *dwfl;		/* libdw handle for inline frames, once opened */
	struct symbolizer *owner;	/* for libdw's callbacks (module userdata is the dso) */
	char *debug_path;	/* separate debug file with DWARF, once looked up */
	int debug_tried;	/* debug_path was looked up */
	void *elf_keep[2];	/* open Elf handles whose string tables names point into */
	int fd_keep[2];
	int nr_keep;
	int dwarf_tried;	/* dwfl was attempted (it may have failed) */
};

/*
 * One remembered lookup: (dso, address) -> symbol or inline chain, and
 * for symbolizer_lookup() what a frame prints, so a repeated address
 * reads this entry alone and not the symbol table.
 */
struct sym_cache_entry {
	uint64_t key_addr;
	const char *name;	/* symbolizer_name() of sym, once asked for; NULL before */
	uint32_t key_dso;	/* dso id */
	int32_t sym;		/* index into dso->syms (or s->inames), -1 = none */
	uint32_t name_len;	/* bytes of name */
	uint32_t symoff;	/* key_addr - the symbol's start; UINT32_MAX: look it up */
};

/* Lookups remembered: entries found through core/hashmap. */
struct sym_cache {
	struct sym_cache_entry *v;
	size_t nr, alloc;
	struct hashmap index;	/* hash of (dso, addr) -> index in v */
};

/*
 * A direct-mapped copy of recent symbolizer_lookup() answers, small
 * enough to stay in the first-level caches: a callchain's frames repeat
 * a few thousand addresses, and the main table (a hash index and its
 * entries, megabytes for a JIT profile) cost a cache miss or two each.
 */
#define SYM_RECENT 1024	/* slots, a power of two */
struct sym_recent {
	uint64_t addr;
	const char *name;
	uint32_t dso1;		/* dso id + 1; 0: empty slot */
	int32_t sym;		/* index into dso->syms */
	uint32_t name_len;
	uint32_t symoff;	/* below UINT32_MAX (larger offsets are not copied here) */
	uint32_t id;		/* as sym_found.id */
};

struct symbolizer {
	struct dso **dsos;
	size_t nr_dsos, alloc_dsos;
	struct hashmap dso_index;	/* path hash -> dso id */
	struct dso *kernel;	/* created on demand */
	struct arena arena;	/* symbol names */
	struct sym_cache cache;		/* (dso, addr) -> symbol */
	int demangle;		/* demangle C++/Rust names (perf's default: yes) */
	char *home_debug;	/* ~/.debug, the build-id cache */
	const char *kallsyms_path;	/* /proc/kallsyms unless overridden */
	uint64_t lookups, misses;	/* statistics */
	struct sym_cache icache;	/* (dso, addr) -> inline chain (sym = index) */
	struct sym_recent *recent;	/* symbolizer_lookup()'s front cache, allocated on first use */
	struct debuginfo_cache debuginfo;	/* prepared debug files, shared with the unwinder */
	const char **inames;	/* inline chains: count, then names */
	size_t nr_inames, alloc_inames;
};

void symbolizer_init(struct symbolizer *s);
void symbolizer_release(struct symbolizer *s);

/* The module for path (created on first use); never NULL. */
struct dso *symbolizer_dso(struct symbolizer *s, const char *path, enum dso_kind kind);
/* The kernel pseudo-module ([kernel.kallsyms]). */
struct dso *symbolizer_kernel(struct symbolizer *s);

/*
 * The file holding d's code as recorded: its path when that still matches
 * the recorded build-id, else perf's build-id cache copy; NULL if neither.
 */
const char *symbolizer_binary(struct symbolizer *s, struct dso *d);

/*
 * A descriptor of d's separate debug file (the first of perf's candidates
 * with DWARF and the recorded build-id), ready for libdw: its prepared
 * copy (debuginfo.h), shared by every caller in this run.  -1 when there
 * is none.  *path is set to the file's name.
 */
int symbolizer_debuginfo(struct symbolizer *s, struct dso *d, const char **path);

/*
 * The body of a libdwfl find_debuginfo callback for module d: libdwfl's
 * standard lookup opens the file itself and keeps that handle (so libdw
 * would inflate every section again); this hands it the prepared copy.
 * A request with a debuglink name but no CRC is for a dwz alternate file
 * (.gnu_debugaltlink) and goes the standard way, as does a module without
 * a debug file of ours.
 */
int symbolizer_dwfl_debuginfo(struct symbolizer *s, struct dso *d, Dwfl_Module *mod,
			      void **userdata, const char *modname, GElf_Addr base,
			      const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name);

/* Give a module the build-id perf recorded for it (checked against files). */
void dso_set_build_id(struct dso *d, const uint8_t *id, size_t size);

/*
 * The symbol containing addr, where addr is what perf calls the map ip:
 * a file offset for ELF files, an absolute address for the kernel, JIT
 * and [vdso].  NULL when none.  Loads the table on first use.
 */
const struct symbol *symbolizer_find(struct symbolizer *s, struct dso *d, uint64_t addr);
/*
 * symbolizer_find() with what a printed frame needs: the symbol's name
 * (as symbolizer_name()), its length and addr's offset into the symbol;
 * *id is 1 + the number of this (module, address) among those looked up
 * (equal ids: equal symbol and module).  NULL when no symbol has addr.
 */
struct sym_found {
	const char *name;
	size_t name_len;	/* bytes */
	uint64_t symoff;	/* bytes from the symbol's start */
	uint32_t id;
};
const struct symbol *symbolizer_lookup(struct symbolizer *s, struct dso *d, uint64_t addr,
				       struct sym_found *out);
/* The name perf prints for sym (demangled if enabled). */
const char *symbolizer_name(struct symbolizer *s, const struct symbol *sym);
/* For the kernel: the module a symbol belongs to ("[ext4]"), or NULL. */
const char *symbolizer_kmod(const struct dso *d, const struct symbol *sym);

/*
 * The inline chain at addr (map ip) in d as addr2line -i reports it from
 * DWARF: function names innermost first, the containing function last,
 * demangled like symbols.  Returns the count (0: no debug info) and sets
 * *names (valid until the next call).  Cached per (module, address).
 */
size_t symbolizer_inlines(struct symbolizer *s, struct dso *d, uint64_t addr,
			  const char *const **names);


#endif
