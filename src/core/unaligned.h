/*
 * unaligned.h - host-order loads of 16-, 32- and 64-bit values from any
 * byte address (records in perf.data files and in the kernel's ring
 * buffers, ELF notes), without the undefined behaviour of a cast.
 */
#ifndef TRAIL_CORE_UNALIGNED_H
#define TRAIL_CORE_UNALIGNED_H

#include <stdint.h>
#include <string.h>

static inline uint16_t rd16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
