/*
 * rng.h - deterministic random streams.
 *
 * One stream per actor, derived from (scenario seed, run index, stream name), so
 * results never depend on actor creation order, host addresses or the clock.
 * Generator: xoshiro256** seeded through splitmix64.
 */
#ifndef MMEMU_RNG_H
#define MMEMU_RNG_H

#include <stddef.h>
#include <stdint.h>

struct mm_rng {
	uint64_t s[4];
};

/** mm_rng_seed() - seed @r from (seed, run, name). Same inputs, same stream. */
void mm_rng_seed(struct mm_rng *r, uint64_t seed, uint64_t run, const char *name);

/** mm_rng_next() - Returns: the next 64 random bits. */
static inline uint64_t mm_rng_next(struct mm_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/** mm_rng_below() - Returns: a uniform integer in [0, n) (n > 0), unbiased. */
uint64_t mm_rng_below(struct mm_rng *r, uint64_t n);

/** mm_rng_double() - Returns: a uniform double in [0, 1). */
static inline double mm_rng_double(struct mm_rng *r)
{
	return (double)(mm_rng_next(r) >> 11) * 0x1.0p-53;
}

/** mm_mix64() - splitmix64's finaliser: a bijection of 64-bit values whose every
 * output bit depends on every input bit. Returns: the mixed value. */
uint64_t mm_mix64(uint64_t z);

/** mm_hash64() - FNV-1a of a string. Returns: its 64-bit hash. */
uint64_t mm_hash64(const char *s);

/* FNV-1a's offset basis: the hash of nothing, where mm_hash64_mem() starts. */
#define MM_HASH64_INIT UINT64_C(0xcbf29ce484222325)

/** mm_hash64_mem() - FNV-1a of @n bytes @p continuing hash @h (MM_HASH64_INIT to
 * start). Returns: the 64-bit hash. */
uint64_t mm_hash64_mem(uint64_t h, const void *p, size_t n);

#endif
