/* cost.c - the modelled kernel cost (sim.h, SIM_COSTS): the counters the
 * operations bump, the tree's stores, and first-touch zeroing by page size.
 * docs/kernel-profiles.md ("Modelled cost") says what each unit counts. */
#include <stdio.h>
#include <stdlib.h>
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
	memset(&mm->kept_cost, 0, sizeof mm->kept_cost);
	mm->tree.stores = mm->tree.preallocs = mm->tree.nodes = 0;
	mm->cited = 0;
}

void sim_cost_seal_precheck(struct sim_mm *mm)
{
	if (!mm->seal_precheck)
		return;
	mm->cost.seal_check++;
	mm->cost.mt_walk++;
	mm->cited |= 1u << R_X7_SEAL_PRECHECK;
}

/* ---- per event ---- */

/* One event's counts, by seq; `gen` tells this replay's from a former
 * one's.  32 bits a count: one event's work stays far below (a count
 * past it is kept as UINT32_MAX). */
struct ev_cost {
	uint32_t gen, rules;
	uint32_t v[SIM_COST_COUNT];
};
#define EV_BLOCK 1024
#define EV_SEQ_MAX (1ull << 31)   /* seqs come from the trace; past this none are kept */

/* The table, in blocks of EV_BLOCK seqs, allocated as the seqs reach
 * them: it never moves or grows in one piece (this runs inside the timed
 * call).  A trace's seqs are dense; for one whose are not (damaged),
 * blocks stop being added once they outnumber twice the blocks its events
 * would fill, plus 16. */
struct sim_events {
	struct ev_cost **blocks;
	size_t nblocks;
	size_t used, kept;   /* blocks allocated; records written */
	uint32_t gen;
	bool restart;        /* the next record kept starts a new gen */
};

struct sim_events *sim_events_new(void)
{
	struct sim_events *ev = calloc(1, sizeof *ev);

	if (ev)
		ev->gen = 1;
	return ev;
}

void sim_events_free(struct sim_events *ev)
{
	if (!ev)
		return;
	for (size_t b = 0; b < ev->nblocks; b++)
		free(ev->blocks[b]);
	free(ev->blocks);
	free(ev);
}

void sim_events_restart(struct sim_events *ev)
{
	ev->restart = true;
}

/* event seq's counts; NULL if its block is not there */
static const struct ev_cost *ev_find(const struct sim_events *ev, uint64_t seq)
{
	size_t b = seq / EV_BLOCK;

	if (seq >= EV_SEQ_MAX || b >= ev->nblocks || !ev->blocks[b])
		return NULL;
	return &ev->blocks[b][seq % EV_BLOCK];
}

/* event seq's counts, its block allocated; NULL if it cannot be */
static struct ev_cost *ev_make(struct sim_events *ev, uint64_t seq)
{
	size_t b = seq / EV_BLOCK;

	if (seq >= EV_SEQ_MAX)
		return NULL;
	if (b >= ev->nblocks) {
		size_t n = ev->nblocks ? ev->nblocks : 64;
		while (n <= b)
			n *= 2;
		struct ev_cost **p = realloc(ev->blocks, n * sizeof *p);
		if (!p)
			return NULL;
		memset(p + ev->nblocks, 0, (n - ev->nblocks) * sizeof *p);
		ev->blocks = p;
		ev->nblocks = n;
	}
	if (!ev->blocks[b]) {
		if (ev->used >= 16 + 2 * (ev->kept / EV_BLOCK + 1) ||
		    !(ev->blocks[b] = calloc(EV_BLOCK, sizeof **ev->blocks)))
			return NULL;
		ev->used++;
	}
	return &ev->blocks[b][seq % EV_BLOCK];
}

static inline uint32_t sat_add(uint32_t a, uint64_t d)
{
	uint64_t s = a + d;
	return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

void sim_mm_keep_events(struct sim_mm *mm, struct sim_events *ev)
{
	mm->events = ev;
}

void sim_cost_keep(struct sim_mm *mm, uint64_t seq)
{
	struct sim_events *ev = mm->events;
	struct sim_cost now;
	struct ev_cost *e;

	if (!ev)
		return;
	sim_mm_cost(mm, &now);
	if (ev->restart) {
		ev->gen++;
		ev->restart = false;
	}
	if ((e = ev_make(ev, seq))) {   /* else counted in the totals, not per event */
		if (e->gen != ev->gen) {
			*e = (struct ev_cost){ .gen = ev->gen };
			ev->kept++;
		}
#define SIM_COST_KEEP(name, what) \
		e->v[SIM_COST_##name] = sat_add(e->v[SIM_COST_##name], now.name - mm->kept_cost.name);
		SIM_COSTS(SIM_COST_KEEP)
#undef SIM_COST_KEEP
		e->rules |= mm->cited;
	}
	mm->kept_cost = now;
	mm->cited = 0;
}

int sim_event_cost(const struct sim_events *ev, uint64_t seq, struct sim_cost *out, uint32_t *rules)
{
	const struct ev_cost *e = ev_find(ev, seq);

	memset(out, 0, sizeof *out);
	*rules = 0;
	if (!e || e->gen != ev->gen)
		return 0;
#define SIM_COST_GET(name, what) out->name = e->v[SIM_COST_##name];
	SIM_COSTS(SIM_COST_GET)
#undef SIM_COST_GET
	*rules = e->rules;
	return 1;
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

/* the word in brackets of a THP sysfs mode file ("always [madvise] never"):
 * its enum sim_thp, SIM_THP_HOST for "inherit", -1 when unreadable */
static int thp_file_mode(const char *path)
{
	char line[128], word[16];
	FILE *f = fopen(path, "re");
	const char *b;
	int mode = -1;

	if (!f)
		return mode;
	if (fgets(line, sizeof line, f) && (b = strchr(line, '[')) && sscanf(b + 1, "%15[a-z]", word) == 1)
		mode = strcmp(word, "inherit") == 0 ? SIM_THP_HOST : sim_thp_parse(word) > SIM_THP_HOST ? sim_thp_parse(word) : -1;
	fclose(f);
	return mode;
}

#define THP_SYSFS "/sys/kernel/mm/transparent_hugepage/"

/* this machine's mode for 2 MiB pages: hugepages-2048kB/enabled (6.8 on)
 * unless it says inherit, then transparent_hugepage/enabled */
int sim_thp_host(void)
{
	int top = thp_file_mode(THP_SYSFS "enabled"), pmd = thp_file_mode(THP_SYSFS "hugepages-2048kB/enabled");

	if (top <= SIM_THP_HOST)
		top = SIM_THP_NEVER;
	return pmd > SIM_THP_HOST ? pmd : top;
}

void sim_mm_set_thp(struct sim_mm *mm, int mode)
{
	mm->thp = mode <= SIM_THP_HOST || mode > SIM_THP_NEVER ? sim_thp_host() : mode;
}

/* the mTHP orders: 16 KiB (order 2, the smallest anonymous one) to 1 MiB */
#define MTHP_ORDERS 0x1fcu

void sim_mm_set_mthp(struct sim_mm *mm, uint32_t always, uint32_t madvise)
{
	mm->mthp_always = always & MTHP_ORDERS;
	mm->mthp_madvise = madvise & MTHP_ORDERS & ~always;
}

void sim_mthp_host(uint32_t *always, uint32_t *madvise)
{
	int top = thp_file_mode(THP_SYSFS "enabled");
	char path[96];

	*always = *madvise = 0;
	for (int k = 2; k <= 8; k++) {
		snprintf(path, sizeof path, THP_SYSFS "hugepages-%ukB/enabled", 4u << k);
		int m = thp_file_mode(path);
		if (m == SIM_THP_HOST)
			m = top;
		if (m == SIM_THP_ALWAYS)
			*always |= 1u << k;
		else if (m == SIM_THP_MADVISE)
			*madvise |= 1u << k;
	}
}

int sim_mthp_parse(const char *list, uint32_t *always, char *why, size_t n)
{
	*always = 0;
	if (!list || !*list) {
		snprintf(why, n, "no size given");
		return -1;
	}
	if (strcmp(list, "none") == 0)
		return 0;
	for (const char *p = list; *p;) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		int k;

		if (end == p || (*end != 'K' && *end != 'k' && *end != 'M' && *end != 'm')) {
			snprintf(why, n, "'%s': a size is a number with K or M (16K, 64K, 1M)", list);
			return -1;
		}
		v <<= *end == 'K' || *end == 'k' ? 10 : 20;
		end++;
		for (k = 2; k <= 8 && (SIM_PAGE << k) != v; k++)
			;
		if (k > 8) {
			snprintf(why, n, "'%s': anonymous mTHP sizes are 16K, 32K, ... 1M (2M is --thp)", list);
			return -1;
		}
		*always |= 1u << k;
		if (*end == ',')
			end++;
		else if (*end) {
			snprintf(why, n, "'%s': sizes are separated by commas", list);
			return -1;
		}
		p = end;
	}
	return 0;
}

const char *sim_mthp_str(uint32_t orders, char *buf, size_t n)
{
	size_t l = 0;

	buf[0] = 0;
	for (int k = 2; k <= 8 && l < n; k++)
		if (orders & (1u << k)) {
			unsigned kb = 4u << k;
			l += (size_t)snprintf(buf + l, n - l, "%s%u%s", l ? "," : "", kb >= 1024 ? kb / 1024 : kb,
			                      kb >= 1024 ? "M" : "K");
		}
	if (!buf[0])
		snprintf(buf, n, "none");
	return buf;
}

/* a write fault in v may take a 2 MiB page (thp_vma_allowable_order, for
 * private anonymous memory) */
bool sim_thp_eligible(const struct sim_mm *mm, const struct sim_vma *v)
{
	if (!vma_is_anon(v) || (v->flags & (VM_SHARED | VM_NOHUGEPAGE)))
		return false;
	return mm->thp == SIM_THP_ALWAYS || (mm->thp == SIM_THP_MADVISE && (v->flags & VM_HUGEPAGE));
}
