/*
 * rng.h - the one pseudo-random generator of trail's statistics and
 * simulations: splitmix64 (Steele, Lea & Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014) - small, fast, well mixed,
 * and seeded, so bootstraps, shuffles and null tables are reproducible.
 */
#ifndef TRAIL_STATS_RNG_H
#define TRAIL_STATS_RNG_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* The next 64 random bits of the stream whose state is *state. */
static inline uint64_t stats_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A uniform index in [0, n) by multiply-shift (Lemire 2019), bias < n / 2^64. */
static inline size_t stats_random_index(uint64_t *state, size_t n)
{
	return (size_t)(((unsigned __int128)stats_splitmix64(state) * n) >> 64);
}

/* A uniform double in (0, 1): 53 random bits, centred in their cell. */
static inline double stats_uniform01(uint64_t *state)
{
	return ((double)(stats_splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal deviate (Box & Muller 1958): two uniforms, u then v. */
static inline double stats_normal(uint64_t *state)
{
	double u = stats_uniform01(state), v = stats_uniform01(state);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

#endif
