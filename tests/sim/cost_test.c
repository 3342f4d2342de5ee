/* cost_test.c - the regressions that motivated vmrec, in the simulator's
 * modelled kernel cost (SIM_COSTS, docs/kernel-profiles.md "Modelled cost"), from traces
 * `vmtrace synth` writes: the work each release does, not the VMAs it ends
 * with.  The trace is fed to the simulator as vmreplay's driver would with
 * --placement kernel: mappings the program let the kernel place are placed
 * by the profile, and later calls follow them there. */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "tests/tap.h"
#include "replay/sim/sim.h"
#include "vmt.h"

#define SIM_TEST_PAGE 4096

struct placed { uint64_t rec, sim, len; bool stack; };

struct run {
	struct sim_cost cost;
	unsigned stacks, brk_expands, forks;
	uint64_t fork_ptes;       /* the fork children's pte_copy */
	uint64_t fork_rmaps;      /* ... and fork_rmap */
	char stack_rule[256], brk_rule[256];
};

static const char *build_dir(void)
{
	const char *b = getenv("VMREC_BUILD");
	return b && *b ? b : "build";
}

/* vmtrace synth NAME ARGS -o PATH; 0 on success */
static int synth(const char *name, const char *args, const char *path)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "'%s/bin/vmtrace' synth %s %s -o '%s' >/dev/null 2>&1", build_dir(), name,
	         args, path);
	return system(cmd);
}

static uint64_t translate(const struct placed *pl, size_t n, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (a >= pl[i].rec && a < pl[i].rec + pl[i].len)
			return a - pl[i].rec + pl[i].sim;
	return a;
}

/* a new placement replaces the old ones it reuses (recorded or replayed) */
static void forget(struct placed *pl, size_t *n, uint64_t rec, uint64_t sim, uint64_t len)
{
	for (size_t i = 0; i < *n;)
		if ((rec < pl[i].rec + pl[i].len && pl[i].rec < rec + len) ||
		    (sim < pl[i].sim + pl[i].len && pl[i].sim < sim + len))
			pl[i] = pl[--*n];
		else
			i++;
}


/* Replay `path` in `profile` under THP mode `thp` (the synthesised thread
 * stacks' touched top pages are the trace's residency records). */
static uint32_t mthp;   /* the mTHP orders replay() enables (sim_mm_set_mthp) */

static int replay(const char *path, const char *profile, int thp, struct run *out)
{
	struct vmt_reader_prefs prefs = { VMT_ORDER_SEQ };
	int err = 0;
	struct vmt_reader *rd = vmt_reader_open(path, &prefs, &err);
	struct vmt_record rec;
	struct sim_mm *mm = NULL;
	struct placed pl[256];
	size_t npl = 0;

	memset(out, 0, sizeof *out);
	if (!rd)
		return -1;
	while (vmt_reader_next(rd, &rec) == 1) {
		if (rec.type == VMT_REC_MAP && !mm) {
			mm = sim_mm_new(sim_profile_find(profile), &rec.u.map, &vmt_reader_header(rd)->host);
			sim_mm_set_thp(mm, thp);
			sim_mm_set_mthp(mm, mthp, 0);
		} else if (rec.type == VMT_REC_RESIDENCY && mm) {
			struct vmt_residency r = rec.u.residency;
			r.start = translate(pl, npl, r.start);
			sim_touch(mm, &r);
		} else if (rec.type == VMT_REC_EVENT && mm) {
			struct vmt_event ev = rec.u.event;
			struct vr_result res;

			if (ev.sys != VMT_SYS_BRK)
				ev.args[0] = translate(pl, npl, ev.args[0]);
			if ((ev.sys == VMT_SYS_CLONE && !(ev.args[0] & CLONE_VM)) || ev.sys == VMT_SYS_FORK) {
				struct sim_mm *child = sim_mm_fork(mm);
				struct sim_cost cc;
				if (child) {
					sim_mm_cost(child, &cc);
					out->fork_ptes += cc.pte_copy;
					out->fork_rmaps += cc.fork_rmap;
					out->forks++;
					sim_mm_free(child);
				}
			}
			sim_apply(mm, &ev, NULL, &res);
			if (ev.sys == VMT_SYS_MMAP && !(ev.args[3] & MAP_FIXED) && ev.err == 0 && npl < 256) {
				forget(pl, &npl, (uint64_t)ev.result, (uint64_t)res.ret, ev.args[1]);
				pl[npl++] = (struct placed){ (uint64_t)ev.result, (uint64_t)res.ret, ev.args[1],
				                             (ev.args[3] & MAP_STACK) != 0 };
				if (pl[npl - 1].stack && !out->stacks++ && res.rule)
					snprintf(out->stack_rule, sizeof out->stack_rule, "%s", res.rule);
			}
			if (ev.sys == VMT_SYS_BRK && res.rule && !strncmp(res.rule, "brk expanded", 12) &&
			    !out->brk_expands++)
				snprintf(out->brk_rule, sizeof out->brk_rule, "%s", res.rule);
		}
	}
	vmt_reader_close(rd);
	if (!mm)
		return -1;
	sim_mm_cost(mm, &out->cost);
	sim_mm_free(mm);
	return 0;
}

static int has(const char *s, const char *needle)
{
	return strstr(s, needle) != NULL;
}

/* stress-ng pthread: glibc's 8 MiB + 4 KiB MAP_STACK stacks.  6.7
 * (efa7df3e3bb5, T1) places them PMD-aligned and, before c4608d1bf7c6
 * (T4, 6.8) made MAP_STACK VM_NOHUGEPAGE, a first touch below the thread's
 * descriptor zeroes a whole 2 MiB page under THP always. */
static void test_thread_stacks(const char *dir)
{
	char path[512];
	struct run r[3], m;
	static const char *const rel[3] = { "6.6", "6.7", "6.8" };

	snprintf(path, sizeof path, "%s/pthread.vmt", dir);
	if (!ok(synth("pthread", "--iterations 3 --tasks 2", path) == 0, "vmtrace synth pthread"))
		return;
	for (int i = 0; i < 3; i++)
		if (!ok(replay(path, rel[i], SIM_THP_ALWAYS, &r[i]) == 0, "replayed under %s", rel[i]))
			return;
	ok(r[1].stacks == 6 && r[0].stacks == 6 && r[2].stacks == 6, "6 thread stacks (%u)", r[1].stacks);
	is_int(r[1].cost.zero_2m, r[1].stacks, "6.7, THP always: one 2 MiB page zeroed per thread stack");
	is_int(r[0].cost.zero_2m, 0, "6.6: none (stacks not PMD-aligned)");
	is_int(r[2].cost.zero_2m, 0, "6.8: none (MAP_STACK is VM_NOHUGEPAGE)");
	is_int(r[0].cost.zero_4k, 6 * r[0].stacks, "6.6: 6 pages of 4 KiB per stack (the trace's residency)");
	is_int(r[2].cost.zero_4k, 6 * r[2].stacks, "6.8: the same");
	is_int(r[1].cost.zero_4k, 1 * r[1].stacks, "6.7: the top page (outside a whole block) stays 4 KiB");
	ok(has(r[1].stack_rule, "efa7df3e3bb5 T1"), "6.7 names T1: %s", r[1].stack_rule);
	ok(has(r[2].stack_rule, "c4608d1bf7c6 T4"), "6.8 names T4: %s", r[2].stack_rule);
	ok(!has(r[0].stack_rule, "T1") && !has(r[0].stack_rule, "T4"), "6.6 names neither: %s", r[0].stack_rule);
	ok(replay(path, "6.7", SIM_THP_MADVISE, &m) == 0 && m.cost.zero_2m == 0 && m.cost.zero_4k == 6 * m.stacks,
	   "6.7 under THP madvise: 4 KiB pages only");
	ok(replay(path, "6.7", SIM_THP_NEVER, &m) == 0 && m.cost.zero_2m == 0, "6.7 under THP never: none");
	is_int(r[1].cost.vma_alloc, r[0].cost.vma_alloc, "the VMA work is the same in 6.6 and 6.7");
}

/* AIM9 brk_test / page_test: sbrk(-64K) + 16 x sbrk(4K) per round.  From
 * 6.4 (28c5609fb2, C1) every brk expansion preallocates maple nodes.
 * M1 (cacded5e42b9, 6.12-rc1) took it through vma_merge_new_range, which
 * walks to prev and next again, and the expand-only mode (M2,
 * c4d91e225ff3) undid that in 6.12-rc6: only the 6.12-rc1 profile walks
 * more. */
static void test_brk(const char *dir, const char *name)
{
	char path[512];
	static const char *const rel[6] = { "6.3", "6.4", "6.11", "6.12", "6.13", "6.12-rc1" };
	struct run r[6];

	snprintf(path, sizeof path, "%s/%s.vmt", dir, name);
	if (!ok(synth(name, "--iterations 5", path) == 0, "vmtrace synth %s", name))
		return;
	for (int i = 0; i < 6; i++)
		if (!ok(replay(path, rel[i], SIM_THP_NEVER, &r[i]) == 0, "%s replayed under %s", name, rel[i]))
			return;
	uint64_t e = r[0].brk_expands;
	ok(e >= 5 * 15, "%s: %llu brk expansions", name, (unsigned long long)e);
	is_int(r[1].cost.mt_prealloc - r[0].cost.mt_prealloc, e, "6.4 preallocates once more per expansion than 6.3");
	ok(r[1].cost.mt_nodes > r[0].cost.mt_nodes, "... so it preallocates more nodes");
	is_int(r[1].cost.mt_walk, r[0].cost.mt_walk, "6.3 and 6.4 walk the tree alike");
	is_int(r[3].cost.mt_walk, r[2].cost.mt_walk, "6.12 walks as 6.11 did (M1 and M2 came in one release)");
	is_int(r[5].cost.mt_walk - r[2].cost.mt_walk, 2 * e, "6.12-rc1 walks to prev and next again per expansion");
	is_int(r[5].cost.mt_prealloc, r[3].cost.mt_prealloc, "... and preallocates as 6.12 does");
	ok(has(r[5].brk_rule, "re-walks prev and next (6.12-rc1 cacded5e42b9 M1)") && !has(r[5].brk_rule, "M2"),
	   "6.12-rc1 names M1, not M2: %s", r[5].brk_rule);
	is_int(r[4].cost.mt_walk, r[2].cost.mt_walk, "6.13 walks as 6.11 did");
	is_int(r[3].cost.mt_prealloc, r[2].cost.mt_prealloc, "6.11 to 6.13 preallocate alike");
	is_int(r[4].cost.zero_4k, r[0].cost.zero_4k, "pages zeroed: the same in every release");
	ok(has(r[1].brk_rule, "28c5609fb2 C1") && !has(r[0].brk_rule, "C1"), "6.4 names C1, 6.3 not: %s",
	   r[1].brk_rule);
	ok(has(r[3].brk_rule, "expand-only, no re-walk (6.12-rc6 c4d91e225ff3 M2)"), "6.12 names M2: %s", r[3].brk_rule);
	ok(has(r[4].brk_rule, "M2") && !has(r[2].brk_rule, "M1") && !has(r[2].brk_rule, "M2"),
	   "6.13 names M2, 6.11 neither: %s", r[4].brk_rule);
}

/* The fork micro-benchmark: 1 GiB populated, then forks.  Each fork copies
 * a page-table entry per page, or one PMD per 2 MiB block where THP backs
 * the memory (THP always; the mapping is PMD-aligned from 6.7, T1). */
static void test_fork(const char *dir)
{
	char path[512];
	struct run n, a;

	snprintf(path, sizeof path, "%s/fork.vmt", dir);
	if (!ok(synth("fork", "--iterations 2", path) == 0, "vmtrace synth fork"))
		return;
	if (!ok(replay(path, "6.8", SIM_THP_NEVER, &n) == 0 && replay(path, "6.8", SIM_THP_ALWAYS, &a) == 0,
	        "replayed under 6.8, THP never and always"))
		return;
	is_int(n.forks, 2, "two forks");
	is_int(n.cost.zero_4k - a.cost.zero_4k, 262144, "THP never zeroes the GiB in 4 KiB pages...");
	is_int(a.cost.zero_2m, 512, "... always in 512 pages of 2 MiB");
	ok(n.fork_ptes >= 2 * 262144, "never: each fork copies at least 262144 PTEs (%llu)",
	   (unsigned long long)n.fork_ptes);
	is_int(n.fork_ptes - a.fork_ptes, 2 * (262144 - 512), "always: 512 PMDs instead, per fork");
}

/* The fork micro-benchmark with PTE-mapped large folios (--mthp): the
 * residency record decides the folios (1 GiB of 64 KiB ones); 6.9
 * (f8d937761d65, F1) copies a folio's PTEs as one batch, one refcount and
 * rmap update each, where 6.8 makes one per page.  With 4 KiB pages only,
 * both do the same. */
static void test_fork_mthp(const char *dir)
{
	char path[512];
	struct run r8, r9, s8, s9, m;
	const uint64_t pages = 262144;

	snprintf(path, sizeof path, "%s/fork-mthp.vmt", dir);
	if (!ok(synth("fork", "--iterations 2", path) == 0, "vmtrace synth fork"))
		return;
	mthp = 1u << 4;   /* 64K */
	if (!ok(replay(path, "6.8", SIM_THP_NEVER, &r8) == 0 && replay(path, "6.9", SIM_THP_NEVER, &r9) == 0,
	        "replayed under 6.8 and 6.9, THP never, mTHP 64K"))
		goto out;
	is_int(r8.cost.fault_mthp, pages / 16, "64K: the GiB faults in as 16384 folios");
	is_int(r8.cost.zero_mthp, pages, "... zeroing every page");
	is_int(r8.cost.zero_4k, 0, "... and no 4 KiB page");
	is_int(r8.fork_ptes, 2 * pages, "6.8: each fork copies every PTE");
	is_int(r9.fork_ptes, r8.fork_ptes, "6.9 copies as many PTEs");
	is_int(r8.fork_rmaps, 2 * pages, "6.8: a refcount and rmap update per page");
	is_int(r9.fork_rmaps, 2 * pages / 16, "6.9: one per 64 KiB folio");
	mthp = 1u << 2;   /* 16K */
	ok(replay(path, "6.9", SIM_THP_NEVER, &m) == 0 && m.fork_rmaps == 2 * pages / 4,
	   "6.9 with 16K folios: one per 4 pages (%llu)", (unsigned long long)m.fork_rmaps);
	mthp = 0;
	if (!ok(replay(path, "6.8", SIM_THP_NEVER, &s8) == 0 && replay(path, "6.9", SIM_THP_NEVER, &s9) == 0,
	        "replayed with 4 KiB pages only"))
		goto out;
	is_int(s8.cost.zero_4k, pages, "4 KiB pages: 262144 zeroed");
	is_int(s9.fork_rmaps, s8.fork_rmaps, "6.9 = 6.8 with 4 KiB pages");
	is_int(s9.fork_ptes, s8.fork_ptes, "... and the same PTEs");
	mthp = 1u << 4;
	ok(replay(path, "6.9", SIM_THP_ALWAYS, &m) == 0 && m.cost.zero_2m == 512 && m.cost.fault_mthp == 0,
	   "THP always takes 2 MiB pages before 64K folios");
out:
	mthp = 0;
}

/* will-it-scale mmap1: mmap + munmap of 128 MiB.  mseal (8be7258aad44,
 * 6.10) made both walk their range for sealed VMAs first (can_modify_mm,
 * X7); 6.12 checks each VMA as munmap reaches it (df2a7df9a9aa): no walk
 * of its own. */
static void test_mseal_walks(const char *dir)
{
	char path[512];
	static const char *const rel[3] = { "6.8", "6.11", "6.12" };
	struct run r[3];

	snprintf(path, sizeof path, "%s/mmap1.vmt", dir);
	if (!ok(synth("mmap1", "--iterations 10 --tasks 1", path) == 0, "vmtrace synth mmap1"))
		return;
	for (int i = 0; i < 3; i++)
		if (!ok(replay(path, rel[i], SIM_THP_NEVER, &r[i]) == 0, "mmap1 replayed under %s", rel[i]))
			return;
	is_int(r[1].cost.seal_check, 2 * 10, "6.11: one sealed-VMA walk per mmap and per munmap");
	is_int(r[1].cost.mt_walk - r[0].cost.mt_walk, r[1].cost.seal_check, "... each a maple tree walk more than 6.8");
	is_int(r[0].cost.seal_check, 0, "6.8: none (no mseal)");
	is_int(r[2].cost.seal_check, 0, "6.12: none (checked VMA by VMA)");
	is_int(r[2].cost.mt_walk, r[0].cost.mt_walk, "6.12 walks as 6.8 did");
}

static int rule_index(const char *id)
{
	for (int i = 0; i < sim_rule_count(); i++)
		if (strcmp(sim_rule_id(i, NULL), id) == 0)
			return i;
	return -1;
}

static void apply_at(struct sim_mm *mm, uint64_t seq, int sys, uint64_t a0, uint64_t a1, uint64_t a2,
                     uint64_t a3)
{
	struct vmt_event ev = { .seq = seq, .sys = (uint16_t)sys, .args = { a0, a1, a2, a3, (uint64_t)-1, 0 } };
	struct vr_result res;
	sim_apply(mm, &ev, NULL, &res);
}

/* the counts of each event, kept by seq, with the rules they followed */
static void test_event_costs(void)
{
	const uint64_t at = 0x7f0000000000ull, len = 1ull << 20;
	struct sim_cost c;
	uint32_t rules;
	int x7 = rule_index("X7");
	const char *commit = NULL;

	ok(x7 >= 0 && strcmp(sim_rule_id(x7, &commit), "X7") == 0 && strcmp(commit, "8be7258aad44") == 0,
	   "X7 by index, with its commit");
	ok(sim_rule_id(sim_rule_count(), NULL) == NULL, "no rule past the end");
	struct sim_events *ev = sim_events_new();
	struct sim_mm *mm = sim_mm_new(sim_profile_find("6.11"), NULL, NULL);
	sim_mm_keep_events(mm, ev);
	apply_at(mm, 10, VMT_SYS_MMAP, at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED);
	apply_at(mm, 11, VMT_SYS_MUNMAP, at, len, 0, 0);
	ok(sim_event_cost(ev, 10, &c, &rules), "the mmap's counts are kept");
	is_int(c.vma_alloc, 1, "mmap: one VMA allocated");
	is_int(c.seal_check, 1, "mmap: one sealed-VMA walk in 6.11");
	is_int(c.mt_walk, 2, "mmap: its own walk and that one");
	ok(rules & (1u << x7), "mmap: follows X7");
	ok(sim_event_cost(ev, 11, &c, &rules) && c.vma_free == 1 && c.seal_check == 1, "munmap: one VMA freed, one walk");
	ok(!sim_event_cost(ev, 12, &c, &rules), "nothing kept for an event not applied");
	sim_mm_free(mm);

	/* a new replay: seq 10 again in 6.12, seq 11 no more */
	sim_events_restart(ev);
	mm = sim_mm_new(sim_profile_find("6.12"), NULL, NULL);
	sim_mm_keep_events(mm, ev);
	apply_at(mm, 10, VMT_SYS_MMAP, at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED);
	ok(sim_event_cost(ev, 10, &c, &rules) && c.seal_check == 0 && c.mt_walk == 1 && !(rules & (1u << x7)),
	   "6.12: the mmap walks once, no X7");
	ok(!sim_event_cost(ev, 11, &c, &rules), "a former replay's counts are gone");

	/* touched pages count for the event they were resident before */
	uint8_t bits[32];
	memset(bits, 0xff, sizeof bits);
	struct vmt_residency res = { .seq = 20, .start = at, .npages = 8 * sizeof bits, .bits = bits };
	sim_touch(mm, &res);
	ok(sim_event_cost(ev, 20, &c, &rules) && c.zero_4k == 256 && c.anon_vma == 1,
	   "a residency record's first touches are its event's (%llu pages)", (unsigned long long)c.zero_4k);
	/* a fork child's copy is kept with its first event */
	struct sim_mm *child = sim_mm_fork(mm);
	apply_at(child, 30, VMT_SYS_MUNMAP, at, len, 0, 0);
	ok(sim_event_cost(ev, 30, &c, &rules) && c.pte_copy == 256 && c.vma_free == 1,
	   "the child's first event carries the fork's copy (%llu entries)", (unsigned long long)c.pte_copy);
	sim_mm_free(child);

	/* seqs far apart (a damaged trace): a bounded table, the first kept */
	sim_events_restart(ev);
	int kept = 0;
	for (uint64_t i = 0; i < 200; i++) {
		apply_at(mm, 1000000 + i * 100000, VMT_SYS_MPROTECT, at, SIM_TEST_PAGE, PROT_READ, 0);
		kept += sim_event_cost(ev, 1000000 + i * 100000, &c, &rules);
	}
	ok(kept >= 16 && kept < 40, "200 events 100000 seqs apart: the first %d kept, no more", kept);
	ok(sim_event_cost(ev, 1000000, &c, &rules) && c.mt_walk == 1, "the first is there");
	sim_mm_free(mm);
	sim_events_free(ev);
}

/* Two tables, as two replays own them: what one space keeps is not in the
 * other's table, a restart of one leaves the other's counts, and a space
 * handed none keeps nothing. */
static void test_event_tables(void)
{
	const uint64_t at = 0x7f0000000000ull, len = 1ull << 20;
	struct sim_events *a = sim_events_new(), *b = sim_events_new();
	struct sim_mm *ma = sim_mm_new(sim_profile_find("6.11"), NULL, NULL);
	struct sim_mm *mb = sim_mm_new(sim_profile_find("6.12"), NULL, NULL);
	struct sim_mm *none = sim_mm_new(sim_profile_find("6.12"), NULL, NULL);
	struct sim_cost c;
	uint32_t rules;

	if (!ok(a && b && ma && mb && none, "two tables, three spaces"))
		return;
	sim_mm_keep_events(ma, a);
	sim_mm_keep_events(mb, b);
	apply_at(ma, 10, VMT_SYS_MMAP, at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED);
	apply_at(mb, 11, VMT_SYS_MMAP, at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED);
	apply_at(none, 12, VMT_SYS_MMAP, at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED);
	ok(sim_event_cost(a, 10, &c, &rules) && c.seal_check == 1, "a has its space's event (6.11: X7's walk)");
	ok(!sim_event_cost(a, 11, &c, &rules), "... not b's");
	ok(sim_event_cost(b, 11, &c, &rules) && c.seal_check == 0, "b has its space's event (6.12)");
	ok(!sim_event_cost(b, 10, &c, &rules), "... not a's");
	ok(!sim_event_cost(a, 12, &c, &rules) && !sim_event_cost(b, 12, &c, &rules),
	   "a space handed no table keeps its event in neither");
	/* the same seq in both: each keeps its own counts */
	apply_at(mb, 10, VMT_SYS_MUNMAP, at, len, 0, 0);
	ok(sim_event_cost(a, 10, &c, &rules) && c.vma_alloc == 1 && c.vma_free == 0, "seq 10 in a: the mmap");
	ok(sim_event_cost(b, 10, &c, &rules) && c.vma_alloc == 0 && c.vma_free == 1, "seq 10 in b: the munmap");
	/* a new replay in a hides a's former counts, not b's */
	sim_events_restart(a);
	apply_at(ma, 20, VMT_SYS_MUNMAP, at, len, 0, 0);
	ok(!sim_event_cost(a, 10, &c, &rules), "a restarted: its former replay's counts are gone");
	ok(sim_event_cost(b, 10, &c, &rules) && sim_event_cost(b, 11, &c, &rules), "b's are all there");
	/* a fork child keeps its events in its parent's table */
	struct sim_mm *child = sim_mm_fork(mb);
	apply_at(child, 30, VMT_SYS_MPROTECT, at, SIM_TEST_PAGE, PROT_READ, 0);
	ok(sim_event_cost(b, 30, &c, &rules) && !sim_event_cost(a, 30, &c, &rules),
	   "b's fork child keeps its event in b");
	sim_mm_free(child);
	sim_mm_free(none);
	sim_mm_free(mb);
	sim_mm_free(ma);
	sim_events_free(b);
	sim_events_free(a);
	sim_events_free(NULL);
}

/* a driver can report every count by index, each under its own name */
static void test_cost_names(void)
{
	struct sim_cost c;
	int distinct = 1;

	memset(&c, 0, sizeof c);
	c.mt_walk = 7;
	c.zero_2m = 3;
	is_int(SIM_COST_COUNT, sizeof c / sizeof(uint64_t), "one index per count");
	for (int i = 0; i < SIM_COST_COUNT; i++)
		for (int j = 0; j < i; j++)
			distinct &= strcmp(sim_cost_name(i), sim_cost_name(j)) != 0;
	ok(distinct, "names distinct");
	is_str(sim_cost_name(SIM_COST_mt_walk), "mt_walk", "name by index");
	is_int(sim_cost_value(&c, SIM_COST_mt_walk), 7, "value by index");
	is_int(sim_cost_value(&c, SIM_COST_zero_2m), 3, "value by index, another");
	ok(sim_cost_name(SIM_COST_COUNT) == NULL && sim_cost_what(-1) == NULL, "nothing out of range");
	ok(sim_cost_what(SIM_COST_tlb_flush) && *sim_cost_what(SIM_COST_tlb_flush), "each has a description");
}

int main(void)
{
	char dir[] = "/tmp/vmrec-cost.XXXXXX";
	char cmd[64];

	if (!mkdtemp(dir))
		return ok(0, "temporary directory"), done_testing();
	test_cost_names();
	test_thread_stacks(dir);
	test_brk(dir, "brk_test");
	test_fork(dir);
	test_fork_mthp(dir);
	test_brk(dir, "page_test");
	test_mseal_walks(dir);
	test_event_costs();
	test_event_tables();
	{
		struct run r;
		char path[600];
		snprintf(path, sizeof path, "%s/page_test.vmt", dir);
		ok(replay(path, "6.4", SIM_THP_NEVER, &r) == 0 && r.cost.zero_4k >= 4 * 16,
		   "page_test's residency records count as 4 KiB first touches (%llu)",
		   (unsigned long long)r.cost.zero_4k);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return done_testing();
}
