/* vmt_lz4frame.c - see vmt_lz4frame.h and lz4's doc/lz4_Frame_format.md. */
#include <lz4.h>
#include <lz4hc.h>
#include "vmt_format.h"
#include "vmt_lz4frame.h"

#define FLG_VERSION      0x40u
#define FLG_BLOCK_INDEP  0x20u
#define FLG_BLOCK_CSUM   0x10u
#define FLG_CONTENT_SIZE 0x08u
#define FLG_CONTENT_CSUM 0x04u
#define FLG_DICT_ID      0x01u
#define BLOCK_RAW        0x80000000u

/* BD codes 4..7: 64 KiB, 256 KiB, 1 MiB, 4 MiB. */
static size_t block_max(unsigned code)
{
	return (size_t)1 << (8 + 2 * code);
}

static unsigned block_code(size_t n)
{
	unsigned code = 4;
	while (code < 7 && block_max(code) < n)
		code++;
	return code;
}

size_t vmt_lz4f_bound(size_t n)
{
	return 7 + 4 + (size_t)LZ4_compressBound((int)n) + 4 + 4;
}

size_t vmt_lz4f_state_size(int level)
{
	return level > 0 ? (size_t)LZ4_sizeofStateHC() : (size_t)LZ4_sizeofState();
}

size_t vmt_lz4f_write(uint8_t *dst, const uint8_t *src, size_t n,
                      void *state, int level)
{
	uint8_t *p = dst;
	int csize;

	vmt_put32(p, LZ4F_MAGIC);
	p[4] = FLG_VERSION | FLG_BLOCK_INDEP | FLG_CONTENT_CSUM;
	p[5] = (uint8_t)(block_code(n) << 4);
	p[6] = (uint8_t)(vmt_xxh32(p + 4, 2, 0) >> 8);
	p += 7;
	if (n) {
		int cap = LZ4_compressBound((int)n);
		if (level > 0)
			csize = LZ4_compress_HC_extStateHC(state, (const char *)src,
			                                   (char *)p + 4, (int)n, cap, level);
		else
			csize = LZ4_compress_fast_extState(state, (const char *)src,
			                                   (char *)p + 4, (int)n, cap,
			                                   level < 0 ? -level : 1);
		if (csize <= 0 || (size_t)csize >= n) {
			vmt_put32(p, (uint32_t)n | BLOCK_RAW);
			for (size_t i = 0; i < n; i++)
				p[4 + i] = src[i];
			p += 4 + n;
		} else {
			vmt_put32(p, (uint32_t)csize);
			p += 4 + csize;
		}
	}
	vmt_put32(p, 0);
	vmt_put32(p + 4, vmt_xxh32(src, n, 0));
	return (size_t)(p + 8 - dst);
}

#define FAIL(msg) do { *why = (msg); return VMT_ECORRUPT; } while (0)

long vmt_lz4f_read(const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
                   const char **why)
{
	const uint8_t *p = src, *end = src + len;
	unsigned flg, bd;
	size_t desc, bmax, out = 0;
	uint64_t content_size = 0;

	if (len < 7 || vmt_get32(p) != LZ4F_MAGIC)
		FAIL("bad LZ4 frame magic");
	flg = p[4];
	bd = p[5];
	if ((flg & 0xC0) != FLG_VERSION || (flg & 0x02) || (bd & 0x8F) || (bd >> 4) < 4)
		FAIL("bad LZ4 frame descriptor");
	if (flg & FLG_DICT_ID)
		FAIL("LZ4 frame needs a dictionary");
	desc = 2 + ((flg & FLG_CONTENT_SIZE) ? 8 : 0);
	if (len < 4 + desc + 1)
		FAIL("LZ4 frame header cut short");
	if ((flg & FLG_CONTENT_SIZE))
		content_size = vmt_get64(p + 6);
	if (!vmt_checksum_ok(p[4 + desc], (uint8_t)(vmt_xxh32(p + 4, desc, 0) >> 8)))
		FAIL("LZ4 frame header checksum mismatch");
	p += 4 + desc + 1;
	bmax = block_max(bd >> 4);
	for (;;) {
		uint32_t word, size;
		if (end - p < 4)
			FAIL("LZ4 frame cut short");
		word = vmt_get32(p);
		p += 4;
		if (word == 0)
			break;
		size = word & ~BLOCK_RAW;
		if (size > bmax || size > (size_t)(end - p))
			FAIL("LZ4 block larger than its frame");
		if ((flg & FLG_BLOCK_CSUM) &&
		    ((size_t)(end - p) - size < 4 ||
		     !vmt_checksum_ok(vmt_get32(p + size), vmt_xxh32(p, size, 0))))
			FAIL("LZ4 block checksum mismatch");
		if (word & BLOCK_RAW) {
			if (size > cap - out)
				FAIL("LZ4 block larger than declared");
			memcpy(dst + out, p, size);
			out += size;
		} else {
			size_t room = cap - out < bmax ? cap - out : bmax;
			int n;
			if (!(flg & FLG_BLOCK_INDEP) && out)
				n = LZ4_decompress_safe_usingDict((const char *)p, (char *)dst + out,
				                                  (int)size, (int)room,
				                                  (const char *)dst, (int)out);
			else
				n = LZ4_decompress_safe((const char *)p, (char *)dst + out,
				                        (int)size, (int)room);
			if (n < 0)
				FAIL("LZ4 block does not decompress");
			out += (size_t)n;
		}
		p += size + ((flg & FLG_BLOCK_CSUM) ? 4 : 0);
	}
	if (flg & FLG_CONTENT_CSUM) {
		if (end - p < 4)
			FAIL("LZ4 frame cut short");
		if (!vmt_checksum_ok(vmt_get32(p), vmt_xxh32(dst, out, 0)))
			FAIL("LZ4 content checksum mismatch");
		p += 4;
	}
	if ((flg & FLG_CONTENT_SIZE) && content_size != out)
		FAIL("LZ4 content size mismatch");
	if (p != end)
		FAIL("LZ4 frame longer than declared");
	return (long)out;
}
