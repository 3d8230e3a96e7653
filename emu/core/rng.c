/*
 * rng.c - seeding of the deterministic random streams (see rng.h).
 */
#include "emu/core/rng.h"

#include <string.h>

uint64_t mm_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x)
{
	return mm_mix64(*x += 0x9e3779b97f4a7c15ULL);
}

uint64_t mm_hash64_mem(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t mm_hash64(const char *s)
{
	return s ? mm_hash64_mem(MM_HASH64_INIT, s, strlen(s)) : MM_HASH64_INIT;
}

void mm_rng_seed(struct mm_rng *r, uint64_t seed, uint64_t run, const char *name)
{
	uint64_t x = seed ^ (run * 0xd1b54a32d192ed03ULL) ^ mm_hash64(name);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t mm_rng_below(struct mm_rng *r, uint64_t n)
{
	/* Lemire's multiply-shift with rejection: unbiased, one division at most. */
	unsigned __int128 m = (unsigned __int128)mm_rng_next(r) * n;
	uint64_t l = (uint64_t)m;
	if (l < n) {
		uint64_t t = -n % n;
		while (l < t) {
			m = (unsigned __int128)mm_rng_next(r) * n;
			l = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}
