/*
 * raw.h - the file format the allocation interposer (preload.c) writes and
 * 'trail record -e alloc' reads: one file per process image, a header then
 * records of 64-bit host-order words.  Addresses are raw return addresses;
 * the process's /proc/self/maps text travels in the file so trail's own
 * symbolizer names them after the run, never the traced process.
 */
#ifndef TRAIL_ALLOC_RAW_H
#define TRAIL_ALLOC_RAW_H

#define ALLOC_RAW_MAGIC 0x314c41544c494154ull	/* "TAILTAL1" little-endian */
#define ALLOC_RAW_VERSION 4	/* 2: stacks written once, named by id; 3: END; 4: SITE */

/*
 * Header, 8 words: magic, version, interval (bytes; 1 = every allocation),
 * pid, ppid, sequence (0 for a process's first image, +1 per exec),
 * comm (16 bytes, NUL-padded: words 6 and 7).
 *
 * Each record starts with one word: type in bits 0-7, kind in bits 8-15,
 * the record's length in words (this word included) in bits 32-63.
 *	STACK: hdr, id, nframes, frames[nframes]
 *	       (ids count from 0 in each file; a stack comes before its use)
 *	ALLOC: hdr, tid, ptr, size (bytes), stack id
 *	FREE:  hdr, ptr            (for pointers an ALLOC named; at interval 1
 *	                            any freed pointer: readers drop the others)
 *	MAPS:  hdr, nbytes, text padded with NULs to whole words
 *	       (a complete /proc/self/maps; the last one in a file wins)
 *	END:   hdr                 (the image finished its record: exit or exec;
 *	                            a file without it was cut short - the process
 *	                            was killed, or its records were lost)
 *	SITE:  hdr, stack id, objects, bytes, live, at_peak
 *	       (interval 1 only, instead of ALLOC and FREE records: the
 *	       interposer folds while the program runs.  The allocations made
 *	       from one stack so far, their bytes, the bytes of them not yet
 *	       freed, and those live when the image's live bytes were largest
 *	       so far.  Written for every stack now and then, and at the end:
 *	       the last SITE record of a stack wins)
 *
 * Beside a file, alloc.PID.SEQ.lost (text: why) says the interposer gave
 * the file up: the program took its descriptor and the file was gone.
 */
enum alloc_raw_type {
	ALLOC_RAW_ALLOC = 1,
	ALLOC_RAW_FREE = 2,
	ALLOC_RAW_MAPS = 3,
	ALLOC_RAW_STACK = 4,
	ALLOC_RAW_END = 5,
	ALLOC_RAW_SITE = 6,
};

enum alloc_raw_kind {
	ALLOC_KIND_MALLOC = 0,	/* malloc, calloc, realloc, memalign family, strdup */
	ALLOC_KIND_NEW = 1,	/* C++ operator new / new[] */
	ALLOC_KIND_MMAP = 2,	/* anonymous mmap */
};

#define ALLOC_RAW_HEADER_WORDS 8
#define ALLOC_RAW_MAX_FRAMES 127

#endif
