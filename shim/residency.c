/* residency.c - mincore into a small stack vector, packed into a bitmap in
 * recorder memory.  Ranges with no resident page write nothing: absence of
 * a record means "nothing resident". */
#include "residency.h"
#include "arena.h"
#include "maps.h"
#include "raw.h"
#include "record.h"

#include <string.h>
#include <sys/syscall.h>

#define PAGE 4096UL
#define VEC 4096UL

/* mincore fails for a whole range with a hole in it: halve until the
 * mapped parts answer (holes are rare; unmapped pages are not resident). */
static void mincore_holes(uint64_t start, uint64_t n, unsigned char *vec)
{
	if (!raw_failed(raw3(SYS_mincore, start, n * PAGE, vec)))
		return;
	if (n == 1) {
		vec[0] = 0;
		return;
	}
	mincore_holes(start, n / 2, vec);
	mincore_holes(start + n / 2 * PAGE, n - n / 2, vec + n / 2);
}

/* Whether any page in vec[0..n) is resident, a word at a time: most
 * ranges (released thread stacks, guard pages) have none, and a byte loop
 * over 2048 pages showed up next to the mincore itself. */
static int any_resident(const unsigned char *vec, uint64_t n)
{
	uint64_t acc = 0, i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, vec + i, 8);
		acc |= w;
	}
	for (; i < n; i++)
		acc |= vec[i];
	return (acc & 0x0101010101010101ULL) != 0;
}

void residency_range(uint64_t seq, uint64_t start, uint64_t len)
{
	uint64_t npages, resident = 0;
	unsigned char vec[VEC];
	uint8_t *bits = NULL;

	if (!shim.residency || shim_self.depth > 1 || len == 0 || (start & (PAGE - 1)))
		return;
	npages = (len + PAGE - 1) / PAGE;
	if (npages > RESIDENCY_MAX_PAGES)
		npages = RESIDENCY_MAX_PAGES;
	for (uint64_t done = 0; done < npages; ) {
		uint64_t n = npages - done < VEC ? npages - done : VEC;
		mincore_holes(start + done * PAGE, n, vec);
		if (any_resident(vec, n)) {
			if (!bits && !(bits = arena_alloc((npages + 7) / 8)))
				return;
			for (uint64_t i = 0; i < n; i++)
				if (vec[i] & 1) {
					bits[(done + i) / 8] |= (uint8_t)(1u << ((done + i) % 8));
					resident++;
				}
		}
		done += n;
	}
	if (!bits)
		return;
	if (resident) {
		struct vmt_record rec = { .type = VMT_REC_RESIDENCY };
		rec.u.residency = (struct vmt_residency){
			.seq = seq, .pid = shim.pid, .start = start, .npages = npages, .bits = bits,
		};
		shim_write(&rec);
	}
	arena_free(bits, (npages + 7) / 8);
}

struct fork_scan { uint64_t seq, budget; };

static int scan_vma(const struct maps_line *l, void *arg)
{
	struct fork_scan *f = arg;
	uint64_t pages = (l->end - l->start) / PAGE;
	if (l->perms[1] != 'w' || l->perms[3] != 'p' || maps_is_recorder(l))
		return 0;
	if (pages > f->budget)
		pages = f->budget;
	residency_range(f->seq, l->start, pages * PAGE);
	f->budget -= pages;
	return f->budget == 0;
}

void residency_fork(uint64_t seq)
{
	struct fork_scan f = { seq, RESIDENCY_FORK_PAGES };
	maps_each(scan_vma, &f);
}
