/* The recorded -> replayed interval map: splits, joins, pieces. */
#include <stdio.h>
#include "replay/addrmap.h"
#include "tests/tap.h"

static const char *show(const struct addrmap *m)
{
	static char buf[512];
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < m->n; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llx-%llx%+lld", i ? " " : "",
		                      (unsigned long long)m->r[i].start, (unsigned long long)m->r[i].end,
		                      (long long)m->r[i].delta);
	return buf;
}

int main(void)
{
	struct addrmap m;
	am_init(&m);

	am_set(&m, 0x1000, 0x5000, 0x100);
	is_str(show(&m), "1000-5000+256", "one range");
	am_set(&m, 0x5000, 0x6000, 0x100);
	is_str(show(&m), "1000-6000+256", "adjacent range with the same delta joins");
	am_set(&m, 0x6000, 0x7000, 0x200);
	is_str(show(&m), "1000-6000+256 6000-7000+512", "adjacent range with another delta stays apart");

	am_remove(&m, 0x2000, 0x3000);
	is_str(show(&m), "1000-2000+256 3000-6000+256 6000-7000+512", "munmap of a middle part splits");
	am_remove(&m, 0x5000, 0x6800);
	is_str(show(&m), "1000-2000+256 3000-5000+256 6800-7000+512", "munmap across two ranges trims both");
	am_remove(&m, 0x0, 0x2000);
	is_str(show(&m), "3000-5000+256 6800-7000+512", "munmap of a whole range removes it");

	/* mremap: the moved part leaves, arrives with its new delta */
	am_remove(&m, 0x4000, 0x5000);
	am_set(&m, 0x9000, 0xa000, 0x40000);
	is_str(show(&m), "3000-4000+256 6800-7000+512 9000-a000+262144", "mremap move");
	ok(am_find(&m, 0x9800) && am_find(&m, 0x9800)->delta == 0x40000, "the moved range translates with its delta");
	ok(am_find(&m, 0x4000) == NULL, "the old place is gone");
	am_remove(&m, 0x9000, 0xa000);
	ok(am_find(&m, 0x9000) == NULL, "munmap after the move");

	am_set(&m, 0x3800, 0x6900, 0x7);
	is_str(show(&m), "3000-3800+256 3800-6900+7 6900-7000+512", "a new range replaces what it covers");

	uint64_t cur = 0x2000;
	struct am_piece p;
	char buf[256] = "";
	size_t n = 0;
	while (am_next_piece(&m, &cur, 0x7800, &p))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[%llx-%llx %s] ", (unsigned long long)p.start,
		                      (unsigned long long)p.end, p.mapped ? "m" : "gap");
	is_str(buf, "[2000-3000 gap] [3000-3800 m] [3800-6900 m] [6900-7000 m] [7000-7800 gap] ",
	       "pieces of a range, gaps included");
	am_free(&m);

	/* reserved room: no reallocation while ranges come and go */
	am_init(&m);
	ok(am_reserve(&m, 100) == 0, "reserve room for 100 ranges");
	const struct am_range *before = m.r;
	for (uint64_t i = 0; i < 100; i++)
		am_set(&m, i * 0x2000, i * 0x2000 + 0x1000, (int64_t)i);
	ok(m.r == before && m.n == 100, "100 ranges fit without moving the array");
	am_free(&m);

	/* against a model (one delta per page, 0 = unmapped) through a random
	 * mix of the calls, growing runs among them (the lookup hint's case) */
	enum { PAGES = 64 };
	int64_t model[PAGES] = { 0 };
	unsigned seed = 12345, bad = 0, grow = 0;
	am_init(&m);
	for (int step = 0; step < 20000 && !bad; step++) {
		seed = seed * 1103515245u + 12345u;
		unsigned a = (seed >> 8) % PAGES, len = 1 + (seed >> 20) % 8, b = a + len > PAGES ? PAGES : a + len;
		int64_t d = 1 + (int64_t)((seed >> 4) % 3);
		switch ((seed >> 28) % 4) {
		case 0:   /* a heap growing: the next pages after the last grow, one delta */
			a = grow < PAGES ? grow : 0;
			b = a + 1;
			grow = b;
			d = 1;
			/* fall through */
		case 1:
			am_set(&m, a * 0x1000ull, b * 0x1000ull, d);
			for (unsigned i = a; i < b; i++)
				model[i] = d;
			break;
		case 2:
			am_remove(&m, a * 0x1000ull, b * 0x1000ull);
			for (unsigned i = a; i < b; i++)
				model[i] = 0;
			break;
		default:
			break;
		}
		for (unsigned i = 0; i < PAGES; i++) {
			const struct am_range *r = am_find(&m, i * 0x1000ull + 0x800);
			if ((r ? r->delta : 0) != model[i])
				bad = (unsigned)step + 1;
		}
		for (size_t i = 0; i + 1 < m.n; i++)
			if (m.r[i].end > m.r[i + 1].start ||
			    (m.r[i].end == m.r[i + 1].start && m.r[i].delta == m.r[i + 1].delta))
				bad = (unsigned)step + 1;
	}
	ok(!bad, "20000 random calls agree with a page model, ranges sorted and joined (first bad step %u)", bad);
	am_free(&m);
	return done_testing();
}
