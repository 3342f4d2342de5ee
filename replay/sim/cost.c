/* cost.c - the modelled kernel cost (sim.h, SIM_COSTS): the counters the
 * operations bump, the tree's stores, and first-touch zeroing by page size.
 * docs/kernel-profiles.md ("Modelled cost") says what each unit counts. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "replay/sim/sim_int.h"

void sim_mm_cost(const struct sim_mm *mm, struct sim_cost *out)
{
	*out = mm->cost;
	out->mt_store = mm->tree.stores;
	out->mt_prealloc = mm->tree.preallocs;
	out->mt_nodes = mm->tree.nodes;
}

static const char *const cost_names[SIM_COST_COUNT] = {
#define SIM_COST_NAME(name, what) #name,
	SIM_COSTS(SIM_COST_NAME)
#undef SIM_COST_NAME
};
static const char *const cost_whats[SIM_COST_COUNT] = {
#define SIM_COST_WHAT(name, what) what,
	SIM_COSTS(SIM_COST_WHAT)
#undef SIM_COST_WHAT
};

const char *sim_cost_name(int i)
{
	return i >= 0 && i < SIM_COST_COUNT ? cost_names[i] : NULL;
}

const char *sim_cost_what(int i)
{
	return i >= 0 && i < SIM_COST_COUNT ? cost_whats[i] : NULL;
}

uint64_t sim_cost_value(const struct sim_cost *c, int i)
{
	switch (i) {
#define SIM_COST_CASE(name, what) case SIM_COST_##name: return c->name;
	SIM_COSTS(SIM_COST_CASE)
#undef SIM_COST_CASE
	}
	return 0;
}

void sim_cost_reset(struct sim_mm *mm)
{
	memset(&mm->cost, 0, sizeof mm->cost);
	mm->tree.stores = mm->tree.preallocs = mm->tree.nodes = 0;
}

int sim_thp_parse(const char *word)
{
	static const char *const words[] = {
		[SIM_THP_HOST] = "host", [SIM_THP_ALWAYS] = "always",
		[SIM_THP_MADVISE] = "madvise", [SIM_THP_NEVER] = "never",
	};
	for (int i = 0; word && i < (int)(sizeof words / sizeof words[0]); i++)
		if (strcmp(word, words[i]) == 0)
			return i;
	return -1;
}

/* this machine's transparent_hugepage/enabled: the word in brackets */
static int host_thp = SIM_THP_NEVER;
static pthread_once_t host_thp_once = PTHREAD_ONCE_INIT;

static void host_thp_init(void)
{
	char line[128], word[16];
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	const char *b;

	if (!f)
		return;
	if (fgets(line, sizeof line, f) && (b = strchr(line, '[')) && sscanf(b + 1, "%15[a-z]", word) == 1 &&
	    sim_thp_parse(word) > SIM_THP_HOST)
		host_thp = sim_thp_parse(word);
	fclose(f);
}

void sim_mm_set_thp(struct sim_mm *mm, int mode)
{
	if (mode <= SIM_THP_HOST || mode > SIM_THP_NEVER) {
		pthread_once(&host_thp_once, host_thp_init);
		mode = host_thp;
	}
	mm->thp = mode;
}

/* a write fault in v may take a 2 MiB page (thp_vma_allowable_order, for
 * private anonymous memory) */
static bool thp_eligible(const struct sim_mm *mm, const struct sim_vma *v)
{
	if (!vma_is_anon(v) || (v->flags & (VM_SHARED | VM_NOHUGEPAGE)))
		return false;
	return mm->thp == SIM_THP_ALWAYS || (mm->thp == SIM_THP_MADVISE && (v->flags & VM_HUGEPAGE));
}

uint64_t sim_cost_fork_entries(const struct sim_mm *mm, const struct sim_vma *v)
{
	uint64_t b0 = (v->start + SIM_PMD - 1) & ~(SIM_PMD - 1), b1 = v->end & ~(SIM_PMD - 1);

	if (!v->anon_vma || (v->flags & VM_WIPEONFORK))
		return 0;
	if (!thp_eligible(mm, v) || b0 >= b1)
		return vma_pages(v);
	return vma_pages(v) - (b1 - b0) / SIM_PAGE + (b1 - b0) / SIM_PMD;
}

static bool resident(const uint8_t *bits, uint64_t i)
{
	return bits[i / 8] & (1u << (i % 8));
}

/* resident pages of [lo, hi) */
static uint64_t count_resident(uint64_t lo, uint64_t hi, uint64_t base, const uint8_t *bits)
{
	uint64_t n = 0;

	for (uint64_t i = (lo - base) / SIM_PAGE, e = (hi - base) / SIM_PAGE; i < e; i++) {
		if (!(i % 8) && i + 8 <= e && !bits[i / 8]) {
			i += 7;
			continue;
		}
		n += resident(bits, i);
	}
	return n;
}

/* A residency record names the pages the program had touched when it
 * released them (or forked): each is one first touch.  Only writable
 * private anonymous memory is zeroed (a read maps the zero page); in a
 * THP-eligible VMA a touched, PMD-aligned 2 MiB block wholly inside it is
 * one 2 MiB page, the rest 4 KiB pages. */
void sim_cost_touch(struct sim_mm *mm, const struct sim_vma *v, uint64_t lo, uint64_t hi,
                    uint64_t base, const uint8_t *bits)
{
	uint64_t b0 = (v->start + SIM_PMD - 1) & ~(SIM_PMD - 1), b1 = v->end & ~(SIM_PMD - 1);

	if (!vma_is_anon(v) || (v->flags & (VM_SHARED | VM_WRITE)) != VM_WRITE || lo >= hi)
		return;
	if (!thp_eligible(mm, v) || b0 >= b1 || hi <= b0 || lo >= b1) {
		mm->cost.zero_4k += count_resident(lo, hi, base, bits);
		return;
	}
	if (lo < b0)
		mm->cost.zero_4k += count_resident(lo, b0, base, bits);
	if (hi > b1)
		mm->cost.zero_4k += count_resident(b1, hi, base, bits);
	for (uint64_t b = lo > b0 ? lo & ~(SIM_PMD - 1) : b0; b < b1 && b < hi; b += SIM_PMD) {
		uint64_t s = b > lo ? b : lo, e = b + SIM_PMD < hi ? b + SIM_PMD : hi;
		mm->cost.zero_2m += count_resident(s, e, base, bits) > 0;
	}
}
