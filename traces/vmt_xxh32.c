/* vmt_xxh32.c - XXH32, the checksum the LZ4 frame format specifies; also
 * used for vmrec's own skippable frames.  Written from the xxHash spec. */
#include "vmt_format.h"

int vmt_ignore_checksums;

#define P1 0x9E3779B1u
#define P2 0x85EBCA77u
#define P3 0xC2B2AE3Du
#define P4 0x27D4EB2Fu
#define P5 0x165667B1u

static inline uint32_t rotl(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

static inline uint32_t round32(uint32_t acc, uint32_t lane)
{
	return rotl(acc + lane * P2, 13) * P1;
}

uint32_t vmt_xxh32(const void *data, size_t len, uint32_t seed)
{
	const uint8_t *p = data, *end = p + len;
	uint32_t h;

	if (len >= 16) {
		uint32_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
		const uint8_t *limit = end - 16;
		do {
			v1 = round32(v1, vmt_get32(p));
			v2 = round32(v2, vmt_get32(p + 4));
			v3 = round32(v3, vmt_get32(p + 8));
			v4 = round32(v4, vmt_get32(p + 12));
			p += 16;
		} while (p <= limit);
		h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
	} else {
		h = seed + P5;
	}
	h += (uint32_t)len;
	for (; p + 4 <= end; p += 4)
		h = rotl(h + vmt_get32(p) * P3, 17) * P4;
	for (; p < end; p++)
		h = rotl(h + *p * P5, 11) * P1;
	h ^= h >> 15;
	h *= P2;
	h ^= h >> 13;
	h *= P3;
	h ^= h >> 16;
	return h;
}
