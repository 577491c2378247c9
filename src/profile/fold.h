/*
 * fold.h - the folding engine: turns already-parsed samples (process
 * name, pid, tid, weight, frames leaf first) into folded stacks with the
 * semantics of stackcollapse-perf.pl's options, and writes them sorted in
 * byte order.  Every input format (perf script text, perf.data) feeds this
 * one engine, so 'trail collapse' gives the same answer whatever it reads.
 *
 * Two ways in:
 *   - folder_add_sample(): one complete sample (what a perf.data reader has);
 *   - folder_set_process() / folder_add_frame_text() / folder_end_sample(): the
 *     line-at-a-time state machine of stackcollapse-perf.pl, used by the
 *     perf script parser (it reproduces that script's corner cases, e.g. a
 *     sample without a blank line before the next event keeps its frames).
 *
 * A folder is single-threaded; run one per thread and hand them all to
 * folder_write(), which merges them, so the output does not depend on how
 * the work was split.  Memory grows with the number of distinct frames and
 * stacks, not with the number of samples.
 */
#ifndef TRAIL_PROFILE_FOLD_H
#define TRAIL_PROFILE_FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct string_list;

/* What stackcollapse-perf.pl's options (and inferno's --skip-after) ask for. */
struct fold_options {
	int include_pid;	/* --pid: "comm-PID" as the root frame */
	int include_tid;	/* --tid: "comm-PID/TID" (wins over include_pid) */
	int annotate_kernel;	/* --kernel: "_[k]" on kernel frames */
	int annotate_jit;	/* --jit: "_[j]" on JIT frames (perf map, jitdump) */
	int include_addrs;	/* --addrs: "[module <addr>]" for unknown symbols */
	/* --skip-after NAME: a frame whose function (offset removed) equals
	 * NAME ends the stack there: its callers and the process name are
	 * dropped.  May be NULL.  Not copied: must outlive the folder. */
	const struct string_list *skip_after;
	/* --weight samples: every sample adds 1, whatever period it carries */
	int count_samples;
};

/*
 * One frame as perf script prints it.  Texts need not be NUL-terminated
 * and are only read during the call.
 */
struct fold_frame {
	const char *func;	/* "sym+0x1f", "sym", "[unknown]", Java "a->b" (inlined b) */
	size_t func_len;
	const char *module;	/* "[kernel.kallsyms]", "/usr/lib/libc.so.6", "[unknown]" */
	size_t module_len;
	const char *addr;	/* address in hex without 0x, as perf prints it ("7f3a10") */
	size_t addr_len;
	/*
	 * Optional (NULL: none), read by folder_add_sample() only: bytes
	 * that identify func and module for this reader, as the key of
	 * folder_add_frame_text() - equal keys must mean equal frames.  A
	 * perf.data reader uses the addresses of its symbolizer's names.
	 */
	const void *key;
	size_t key_len;
	/*
	 * Optional (0: none), read by folder_add_sample() only, with key:
	 * the reader's number for this frame, equal numbers meaning equal
	 * keys (a perf.data reader numbers the distinct frames it resolved).
	 * The folder remembers each number's frames, so a frame seen again
	 * costs an array read instead of a key lookup.  Numbers are the
	 * reader's: folder_forget_frame_ids() before a reader numbers afresh.
	 */
	uint32_t id;
};

struct fold_sample {
	const char *comm;	/* process name; spaces become '_' */
	size_t comm_len;
	const char *pid;	/* decimal text; NULL when unknown (printed as "?") */
	size_t pid_len;
	const char *tid;	/* decimal text */
	size_t tid_len;
	uint64_t period;	/* weight added to the stack (samples or event period) */
	const struct fold_frame *frames;	/* leaf first */
	size_t nr_frames;
};

struct folder;

/* Create an empty folder; opts is copied (skip_after is referenced). */
struct folder *folder_new(const struct fold_options *opts);
void folder_free(struct folder *f);

/* Add one complete sample (frames leaf first). */
void folder_add_sample(struct folder *f, const struct fold_sample *s);

/*
 * The same, returning the stack the weight went to, for readers that see
 * the same sample again (FOLD_NO_STACK: it recorded nothing); then
 * folder_add_count() adds the weight of a repeat without redoing the work.
 */
#define FOLD_NO_STACK UINT32_MAX
uint32_t folder_add_sample_id(struct folder *f, const struct fold_sample *s);
void folder_add_count(struct folder *f, uint32_t stack, uint64_t count);
/* Forget what fold_frame.id numbers meant (a new reader numbers from 1 again). */
void folder_forget_frame_ids(struct folder *f);

/*
 * Streaming interface.  folder_set_process() starts (or, as in the Perl
 * script when a sample has no blank line before the next event line,
 * renames) the current sample; it does not drop frames already added.
 * folder_add_frame_text() adds the next frame towards the root; it is
 * ignored when there is no current process.  folder_end_sample() records the stack
 * (if there is a current process) and starts afresh.
 */
void folder_set_process(struct folder *f, const char *comm, size_t comm_len,
			const char *pid, size_t pid_len, const char *tid, size_t tid_len,
			uint64_t period);
/* Forget the current sample: its process and any frames held. */
void folder_reset_sample(struct folder *f);
/*
 * The next frame, from a parser whose function and module lie in one run
 * of text (key, key_len; e.g. "main+0x1f (/bin/app)"): the whole run is
 * the cache key, which saves work per frame.  Equal runs must mean equal
 * frames.
 */
void folder_add_frame_text(struct folder *f, const struct fold_frame *fr, const char *key,
			   size_t key_len);
void folder_end_sample(struct folder *f);
/* Whether frames' addresses matter (--addrs): readers may skip formatting them. */
int folder_uses_addrs(const struct folder *f);
/* Frames added to the current sample so far. */
size_t folder_pending_frames(const struct folder *f);

/*
 * Add count to a finished stack: frame names root first, joined by ';'
 * (len bytes, no process name, no clean-up: what a format that names its
 * own frames has built).  An empty stack is ignored.
 */
void folder_add_stack_text(struct folder *f, const char *stack, size_t len, uint64_t count);

/* Number of distinct stacks recorded so far (before merging folders). */
size_t folder_nr_stacks(const struct folder *f);

/*
 * Write the stacks of all n folders, merged, one "stack count\n" line each,
 * sorted in byte order (as Perl's sort with cmp).  Returns 0, or -1 when
 * writing failed (error printed).
 */
int folder_write(struct folder *const *folders, size_t n, FILE *out);
/*
 * Add the stacks of all n folders, merged and in the order folder_write()
 * writes them, to p's column 0: the same profile as reading that text
 * back, without the text.
 */
struct folded_profile;
void folder_to_profile(struct folder *const *folders, size_t n, struct folded_profile *p);

/* The kernel and JIT module rules behind --kernel and --jit (exposed for tests). */
int fold_module_is_kernel(const char *module, size_t len);
int fold_module_is_jit(const char *module, size_t len);

#endif
